-- articles_duplicate_of indexed every article, although its one reader, the foreign key's ON DELETE SET NULL
-- (which copies name the article being deleted), asks for copies alone: `duplicate_of = $1`. Every other
-- row is an original, with a NULL there, and the index held each of them.
--
-- Worse, the planner used those NULL entries. The near-duplicate decision looks up the originals logged
-- since its last read, `id = ANY(…) AND duplicate_of IS NULL`, about a hundred ids, under a lock every
-- crawler waits on; on statistics a crawl outgrows (a first pass starts from an empty table), it read the
-- bitmap of every original in the index and filtered it by id: 8 ms a save at 60,000 articles, growing with
-- the table (docs/perf.md, "The index of copies"). With only the copies in it, the primary key is the one
-- way to the ids.
DROP INDEX articles_duplicate_of;
CREATE INDEX articles_duplicate_of ON articles (duplicate_of) WHERE duplicate_of IS NOT NULL;
