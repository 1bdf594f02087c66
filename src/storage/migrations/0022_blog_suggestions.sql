-- Blog suggestions (docs/readers.md, "Suggest a blog"; docs/operating.md, the admin area): a URL a reader
-- suggested (or an operator typed into "Add a blog"), what feed discovery found there, and the operator's
-- decision.
--
-- status: 'pending' until discovery has run; then 'found' (a feed, waiting for an operator), 'failed' (no
-- feed, or the URL could not be fetched: `error` says why), 'refused' (the outbound address policy refused
-- the URL: a private or internal address) or 'followed' (the feed found is already a followed blog,
-- blog_id); an operator moves it to 'approved' (blog_id: the blog it became) or 'rejected' (`reason`).
-- Discovery runs in serve's background worker, never on a request's thread: it claims pending rows with a
-- lease (lease_until, attempts), so a row whose process was killed mid-discovery is taken again once the
-- lease has run out, after a restart too.
--
-- reader_id: who suggested it; NULL for an operator's "Add a blog" (by_operator = 1) and after the account
-- is deleted. The per-reader daily limit counts a reader's rows by created_at (index below).
-- Portable: plain types, BIGINT unix seconds, a CHECK on the status words.
CREATE TABLE blog_suggestions (
  id INTEGER PRIMARY KEY,
  reader_id INTEGER REFERENCES readers (id) ON DELETE SET NULL,
  by_operator INTEGER NOT NULL DEFAULT 0,
  url TEXT NOT NULL,
  note TEXT NOT NULL DEFAULT '',
  category TEXT NOT NULL DEFAULT '',
  status TEXT NOT NULL DEFAULT 'pending'
    CHECK (status IN ('pending', 'found', 'failed', 'refused', 'followed', 'approved', 'rejected')),
  created_at BIGINT NOT NULL,
  lease_until BIGINT,
  attempts INTEGER NOT NULL DEFAULT 0,
  discovered_at BIGINT,
  feed_url TEXT NOT NULL DEFAULT '',
  site_url TEXT NOT NULL DEFAULT '',
  title TEXT NOT NULL DEFAULT '',
  format TEXT NOT NULL DEFAULT '',
  entries INTEGER NOT NULL DEFAULT 0,
  newest_post_at BIGINT,
  error TEXT NOT NULL DEFAULT '',
  blog_id INTEGER REFERENCES blogs (id) ON DELETE SET NULL,
  decided_at BIGINT,
  decided_by TEXT NOT NULL DEFAULT '',
  reason TEXT NOT NULL DEFAULT ''
);
CREATE INDEX blog_suggestions_reader ON blog_suggestions (reader_id, created_at);
CREATE INDEX blog_suggestions_status ON blog_suggestions (status, id);

-- The newest few posts of the feed found, in the feed's order (newest first), with the junk rules' verdict.
CREATE TABLE blog_suggestion_posts (
  suggestion_id INTEGER NOT NULL REFERENCES blog_suggestions (id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  title TEXT NOT NULL,
  link TEXT NOT NULL DEFAULT '',
  published_at BIGINT,
  junk INTEGER NOT NULL DEFAULT 0,
  junk_reason TEXT NOT NULL DEFAULT '',
  PRIMARY KEY (suggestion_id, position)
);
