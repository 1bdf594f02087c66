-- articles_search, the GIN index of the tsvectors that rows stored before migration 0015 keep (and rows
-- another tool writes, which the trigger gives one), indexed every visible article, although the crawler
-- has left search_vector NULL since then. GIN indexes a NULL too (so that a full scan of the index can
-- return it), so every new article put an entry in the index's pending list, merged into the index later:
-- work every crawl save paid and no search read, since `search_vector @@ …` never holds for a NULL. The
-- index now holds the rows with a tsvector alone; `@@` is strict, so the planner still proves the searches'
-- `search_vector @@ …` implies the predicate and uses the index for them.
DROP INDEX articles_search;
CREATE INDEX articles_search ON articles USING gin (search_vector)
  WHERE visible = 1 AND search_vector IS NOT NULL;
