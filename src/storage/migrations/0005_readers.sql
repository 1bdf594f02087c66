-- Readers (issue 4): accounts, sessions, votes, reading lists, newsletter subscribers and deliveries,
-- named secrets; and the stored "hot" score of articles.

CREATE TABLE readers (
  id INTEGER PRIMARY KEY,
  email TEXT NOT NULL,  -- as typed (trimmed); matched case-insensitively through email_key
  email_key TEXT NOT NULL UNIQUE,  -- lower-cased email
  password_hash TEXT NOT NULL,  -- Argon2id string from libsodium's crypto_pwhash_str
  created_at BIGINT NOT NULL
);

-- token_hash is the BLAKE2b hash (hex) of the cookie's random token: the token itself is never stored.
CREATE TABLE sessions (
  token_hash TEXT PRIMARY KEY,
  reader_id INTEGER NOT NULL REFERENCES readers (id) ON DELETE CASCADE,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL
);
CREATE INDEX sessions_reader ON sessions (reader_id);
CREATE INDEX sessions_expires ON sessions (expires_at);

CREATE TABLE votes (
  reader_id INTEGER NOT NULL REFERENCES readers (id) ON DELETE CASCADE,
  article_id INTEGER NOT NULL REFERENCES articles (id) ON DELETE CASCADE,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (reader_id, article_id)
);
CREATE INDEX votes_article ON votes (article_id);

CREATE TABLE reading_list (
  reader_id INTEGER NOT NULL REFERENCES readers (id) ON DELETE CASCADE,
  article_id INTEGER NOT NULL REFERENCES articles (id) ON DELETE CASCADE,
  saved_at BIGINT NOT NULL,
  read_at BIGINT,
  PRIMARY KEY (reader_id, article_id)
);
CREATE INDEX reading_list_newest ON reading_list (reader_id, saved_at DESC, article_id DESC);

-- Newsletter subscribers: pending until the signed link in the confirmation mail is followed.
CREATE TABLE subscribers (
  id INTEGER PRIMARY KEY,
  email TEXT NOT NULL,
  email_key TEXT NOT NULL UNIQUE,
  created_at BIGINT NOT NULL,
  confirmed_at BIGINT,
  unsubscribed_at BIGINT,
  last_error TEXT NOT NULL DEFAULT '',  -- the last permanent delivery failure (5xx)
  last_error_at BIGINT
);

-- One row per weekly issue; article_ids ("12,7,3") are fixed at creation so a resumed send sends the same.
CREATE TABLE newsletter_issues (
  id INTEGER PRIMARY KEY,
  issue_key TEXT NOT NULL UNIQUE,
  article_ids TEXT NOT NULL,
  created_at BIGINT NOT NULL
);

-- state: 'sending' (committed before the SMTP transaction; never retried: at most once), 'sent',
-- 'retry' (temporary failure), 'failed' (permanent 5xx).
CREATE TABLE newsletter_deliveries (
  issue_id INTEGER NOT NULL REFERENCES newsletter_issues (id) ON DELETE CASCADE,
  subscriber_id INTEGER NOT NULL REFERENCES subscribers (id) ON DELETE CASCADE,
  state TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  last_error TEXT NOT NULL DEFAULT '',
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (issue_id, subscriber_id)
);

CREATE TABLE secrets (
  name TEXT PRIMARY KEY,
  value TEXT NOT NULL,
  created_at BIGINT NOT NULL
);

-- The hot score (README, "Ranking"): log10(1 + votes) + age_reference / 86400, where age_reference is
-- the article's date (never later than when we first saw it) in seconds since 2020-01-01. A day of
-- newness is worth a factor of ten in votes. The score of an article never changes with the clock, only
-- with its votes or date, so the stored value stays comparable across articles without periodic
-- recomputation, and ORDER BY score on the articles_hot index is the hot order. Kept by triggers, so
-- every write path (crawl inserts, updates, votes) maintains it; a score given on insert is replaced. (PostgreSQL spells log10 as log.)
CREATE TRIGGER articles_hot_insert AFTER INSERT ON articles BEGIN
  UPDATE articles SET score = log10(1 + new.votes) + (MIN(new.display_at, new.first_seen) - 1577836800) / 86400.0
  WHERE id = new.id;
END;

CREATE TRIGGER articles_hot_update AFTER UPDATE OF votes, display_at ON articles
WHEN old.votes IS NOT new.votes OR old.display_at IS NOT new.display_at BEGIN
  UPDATE articles SET score = log10(1 + new.votes) + (MIN(new.display_at, new.first_seen) - 1577836800) / 86400.0
  WHERE id = new.id;
END;

UPDATE articles SET score = log10(1 + votes) + (MIN(display_at, first_seen) - 1577836800) / 86400.0;
