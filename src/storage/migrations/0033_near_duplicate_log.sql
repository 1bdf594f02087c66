-- The near-duplicate log (pipeline/duplicates.h): the originals each crawl's save stored, appended by the
-- save's near-duplicate decision at the end of its transaction. Places follow the order in which those
-- saves committed; every crawler process reads the places after the last it read to learn what the others
-- stored (article ids are no such order once several processes insert at the same time). Only the newest
-- places are kept (kNearDuplicateLogKept); an article deleted since is left out by the join that reads it.
-- The decision runs inside the save's write transaction, which SQLite lets one process at a time have, so
-- it no longer takes the "near-duplicates" process lock of migration 0031.
CREATE TABLE near_duplicate_log (
  seq INTEGER PRIMARY KEY,
  article_id INTEGER NOT NULL
);
