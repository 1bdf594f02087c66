-- crawl.scheduler = entry_frequency (docs/fetch.md, "Polling by how often a blog posts") counts each blog's
-- articles dated within the last 4 weeks once per blog per crawl:
--   SELECT COUNT(*) FROM articles WHERE blog_id = ? AND display_at >= ?
-- This index makes that one range of one index, read without touching the table (EXPLAIN QUERY PLAN:
-- SEARCH articles USING COVERING INDEX articles_blog_display_at (blog_id=? AND display_at>?)), whatever the
-- article's visibility. articles_blog (blog_id, visible, display_at DESC, id DESC) serves listings; counting
-- through it needs `visible IN (0, 1)` to seek instead of walking every entry of the blog. Portable: a plain
-- two-column index.

CREATE INDEX articles_blog_display_at ON articles (blog_id, display_at);
