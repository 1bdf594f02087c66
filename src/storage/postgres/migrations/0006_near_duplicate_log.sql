-- The near-duplicate log (pipeline/duplicates.h), as SQLite's migration 0033: the originals each crawl's
-- save stored, appended by the save's near-duplicate decision at the end of its transaction, under a
-- transaction-scoped advisory lock, so places follow the order in which those saves committed. Crawler
-- processes insert their groups' rows at the same time, so article ids do not follow that order: a process
-- catching up by id would miss the rows of a save that drew its ids before another's and committed after.
-- The decision no longer takes the "near-duplicates" row of process_locks.
CREATE TABLE near_duplicate_log (
  seq bigint PRIMARY KEY,
  article_id bigint NOT NULL
);
