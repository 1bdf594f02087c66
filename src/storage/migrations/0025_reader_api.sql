-- Feed apps (newsboat, NetNewsWire, Reeder) reach a reader's account through the Google Reader API with
-- an app password: each is stored as an Argon2id hash like the account password, named, and revocable,
-- and a ClientLogin gives a token stored as its hash (a copy of the database logs no app in). Read state
-- is per reader and article; "mark all as read" sets a horizon (articles dated before it are read unless
-- kept unread), so it writes one row however many articles a stream holds.
CREATE TABLE app_passwords (
  id INTEGER PRIMARY KEY,
  reader_id INTEGER NOT NULL REFERENCES readers (id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  password_hash TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  last_used_at BIGINT
);
CREATE INDEX app_passwords_reader ON app_passwords (reader_id);

CREATE TABLE api_tokens (
  token_hash TEXT PRIMARY KEY,
  app_password_id INTEGER NOT NULL REFERENCES app_passwords (id) ON DELETE CASCADE,
  reader_id INTEGER NOT NULL REFERENCES readers (id) ON DELETE CASCADE,
  created_at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL
);
CREATE INDEX api_tokens_app_password ON api_tokens (app_password_id);
CREATE INDEX api_tokens_reader ON api_tokens (reader_id);
CREATE INDEX api_tokens_expires ON api_tokens (expires_at);

CREATE TABLE article_reads (
  reader_id INTEGER NOT NULL REFERENCES readers (id) ON DELETE CASCADE,
  article_id INTEGER NOT NULL REFERENCES articles (id) ON DELETE CASCADE,
  is_read INTEGER NOT NULL,  -- 1 read; 0 kept unread (dated before a horizon, unread on purpose)
  changed_at BIGINT NOT NULL,
  PRIMARY KEY (reader_id, article_id)
) WITHOUT ROWID;
CREATE INDEX article_reads_article ON article_reads (article_id);

CREATE TABLE read_horizons (
  reader_id INTEGER NOT NULL REFERENCES readers (id) ON DELETE CASCADE,
  blog_id INTEGER NOT NULL,  -- 0: every blog
  read_before BIGINT NOT NULL,
  PRIMARY KEY (reader_id, blog_id)
) WITHOUT ROWID;
