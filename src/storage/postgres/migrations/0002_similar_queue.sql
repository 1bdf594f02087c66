-- Articles waiting for their similar articles (docs/similar.md, "The back catalogue"), as SQLite's
-- migration 0032: old articles a crawl leaves to the catch-up, taken off when indexed or deleted.
CREATE TABLE similar_queue (
  article_id BIGINT PRIMARY KEY REFERENCES articles (id) ON DELETE CASCADE
);
