-- Articles waiting for their similar articles (docs/similar.md, "The back catalogue"). A crawl indexes a
-- fresh article at once; an old one (most of a new blog's first crawl) is queued here and indexed later,
-- oldest first, by the catch-up (`longread similar catch-up`, or a crawl loop between passes), so a first
-- crawl of a long list is not held up by the index. Deleting the article takes it off the queue.
CREATE TABLE similar_queue (
  article_id INTEGER PRIMARY KEY REFERENCES articles (id) ON DELETE CASCADE
);
