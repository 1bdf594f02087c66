-- SQLite-specific: new articles enter the full-text index from the store (save_crawl), after the crawl's
-- rows are written, instead of from an AFTER INSERT trigger. The delete and update triggers of migration
-- 0003 stay: they are rare (re-crawled edits, keep overrides, duplicates) and keep the index in step.
--
-- Why: FTS5 keeps new entries in memory until the transaction commits, but its xSavepoint method flushes
-- them to disk as a new segment (fts5_main.c, fts5SavepointMethod), and SQLite opens a statement savepoint
-- on every FTS5 table already written in the transaction each time a statement that needs a statement
-- journal starts. The INSERT INTO articles is such a statement (UNIQUE and foreign-key checks, triggers).
-- With the trigger, every article of a crawl but the last was written as its own one-article segment,
-- and FTS5's automerge then merged those segments again and again: about 0.1 s of CPU per 1,000 articles.
-- The store now inserts the index entries of a crawl's new visible articles last, with plain one-row
-- INSERTs that open no statement journal, so a crawl's entries reach the disk as one segment at commit.
-- The index holds exactly what it held before (same rows, same tokens: title and text of visible
-- articles), so searches find and rank the same.

DROP TRIGGER articles_fts_insert;
