-- longread schema, version 1: categories, blogs, articles.
-- Portable to PostgreSQL where possible: INTEGER ids, BIGINT unix seconds for times, TEXT, 0/1 INTEGER flags.
-- (SQLite makes "INTEGER PRIMARY KEY" the rowid; the PostgreSQL backend will spell ids as identity columns.)

CREATE TABLE categories (
  id INTEGER PRIMARY KEY,
  slug TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL
);

CREATE TABLE blogs (
  id INTEGER PRIMARY KEY,
  feed_url TEXT NOT NULL UNIQUE,
  site_url TEXT NOT NULL DEFAULT '',
  title TEXT NOT NULL DEFAULT '',
  author TEXT NOT NULL DEFAULT '',
  category TEXT NOT NULL REFERENCES categories (slug),
  short_form INTEGER NOT NULL DEFAULT 0,
  etag TEXT NOT NULL DEFAULT '',
  last_modified TEXT NOT NULL DEFAULT '',
  last_attempt_at BIGINT,
  last_success_at BIGINT,
  next_due_at BIGINT,
  consecutive_failures INTEGER NOT NULL DEFAULT 0,
  last_status TEXT NOT NULL DEFAULT '',
  last_error TEXT NOT NULL DEFAULT '',
  last_error_at BIGINT,
  created_at BIGINT NOT NULL
);

CREATE INDEX blogs_next_due ON blogs (next_due_at);
CREATE INDEX blogs_category ON blogs (category);

-- display_at = COALESCE(published, first_seen) and
-- visible = (keep_override IS NULL AND junk = 0) OR keep_override = 1
-- are kept as columns (written by the store on every insert/update) so every listing is one index walk.
-- category is the article's resolved category; category_from_blog = 1 marks a fallback to the blog's category,
-- which follows the blog when an operator re-files it.
CREATE TABLE articles (
  id INTEGER PRIMARY KEY,
  blog_id INTEGER NOT NULL REFERENCES blogs (id) ON DELETE CASCADE,
  guid TEXT NOT NULL,
  title TEXT NOT NULL DEFAULT '',
  link TEXT NOT NULL DEFAULT '',
  author TEXT NOT NULL DEFAULT '',
  published BIGINT,
  updated BIGINT,
  undated INTEGER NOT NULL DEFAULT 0,
  first_seen BIGINT NOT NULL,
  display_at BIGINT NOT NULL,
  content_hash TEXT NOT NULL DEFAULT '',
  word_count INTEGER NOT NULL DEFAULT 0,
  reading_minutes INTEGER NOT NULL DEFAULT 1,
  category TEXT NOT NULL REFERENCES categories (slug),
  category_from_blog INTEGER NOT NULL DEFAULT 0,
  junk INTEGER NOT NULL DEFAULT 0,
  junk_reason TEXT NOT NULL DEFAULT '',
  duplicate_of INTEGER REFERENCES articles (id) ON DELETE SET NULL,
  keep_override INTEGER,
  visible INTEGER NOT NULL DEFAULT 1,
  full_text_fetched INTEGER NOT NULL DEFAULT 0,
  simhash BIGINT NOT NULL DEFAULT 0,
  votes INTEGER NOT NULL DEFAULT 0,
  score DOUBLE PRECISION NOT NULL DEFAULT 0,
  -- The big columns last: SQLite reads a row's columns in order, so the listing columns above are found
  -- without walking the overflow pages of the article body.
  excerpt TEXT NOT NULL DEFAULT '',
  summary_html TEXT NOT NULL DEFAULT '',
  content_html TEXT NOT NULL DEFAULT '',
  text TEXT NOT NULL DEFAULT '',
  UNIQUE (blog_id, guid)
);

-- One index per listing (ArticleQuery): newest, top, hot, by blog, by category; plus junk review and the
-- duplicate_of foreign key.
CREATE INDEX articles_newest ON articles (visible, display_at DESC, id DESC);
CREATE INDEX articles_top ON articles (visible, votes DESC, display_at DESC, id DESC);
CREATE INDEX articles_hot ON articles (visible, score DESC, display_at DESC, id DESC);
CREATE INDEX articles_blog ON articles (blog_id, visible, display_at DESC, id DESC);
CREATE INDEX articles_category ON articles (category, visible, display_at DESC, id DESC);
CREATE INDEX articles_junk ON articles (junk, first_seen DESC, id DESC);
CREATE INDEX articles_duplicate_of ON articles (duplicate_of);
