-- Personal filters (docs/readers.md, "Personal filters"): what one reader muted, and their reading
-- preferences. Read state itself is migration 0025's article_reads and read_horizons, shared with feed apps.
--
-- reader_mutes: one row per muted blog or category (exactly one of blog_id and category is set). A muted
-- blog or category is left out of that reader's Hot, Newest, category pages, search results and weekly
-- newsletter; the listings filter in SQL (NOT EXISTS on the reader's rows), so pages stay full and keyset
-- cursors stay exact. Rows go with the reader, the blog, or the category (dropped once nothing is filed
-- under it).
CREATE TABLE reader_mutes (
  id INTEGER PRIMARY KEY,
  reader_id INTEGER NOT NULL REFERENCES readers (id) ON DELETE CASCADE,
  blog_id INTEGER REFERENCES blogs (id) ON DELETE CASCADE,
  category TEXT REFERENCES categories (slug) ON DELETE CASCADE,
  created_at BIGINT NOT NULL,
  CHECK ((blog_id IS NULL) <> (category IS NULL))
);
CREATE UNIQUE INDEX reader_mutes_blog ON reader_mutes (reader_id, blog_id) WHERE blog_id IS NOT NULL;
CREATE UNIQUE INDEX reader_mutes_category ON reader_mutes (reader_id, category) WHERE category IS NOT NULL;
CREATE INDEX reader_mutes_by_blog ON reader_mutes (blog_id) WHERE blog_id IS NOT NULL;
CREATE INDEX reader_mutes_by_category ON reader_mutes (category) WHERE category IS NOT NULL;

-- reader_preferences: one row per reader who changed a default. hide_read: read articles are left out of
-- listings (else dimmed); mark_read_on_scroll: the site's script marks an article read once it has
-- scrolled past it. Absent row: both off.
CREATE TABLE reader_preferences (
  reader_id INTEGER PRIMARY KEY REFERENCES readers (id) ON DELETE CASCADE,
  hide_read INTEGER NOT NULL DEFAULT 0,
  mark_read_on_scroll INTEGER NOT NULL DEFAULT 0
);

-- The categories a reader's weekly newsletter covers; no row: every category.
CREATE TABLE reader_newsletter_categories (
  reader_id INTEGER NOT NULL REFERENCES readers (id) ON DELETE CASCADE,
  category TEXT NOT NULL REFERENCES categories (slug) ON DELETE CASCADE,
  PRIMARY KEY (reader_id, category)
) WITHOUT ROWID;
CREATE INDEX reader_newsletter_categories_category ON reader_newsletter_categories (category);
