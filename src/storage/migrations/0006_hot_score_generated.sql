-- The hot score of migration 0005 (same formula, same values) becomes a VIRTUAL generated column instead of
-- a stored column kept by two triggers (https://sqlite.org/gencol.html).
--
-- Why: the AFTER INSERT trigger UPDATEd every row just after it was inserted. For an article that rewrote
-- the whole row, with its overflow pages (the body and text are most of the row), and moved its entry in
-- articles_hot: about 0.1 s of a 1 s crawl of 3,749 articles. Computing the score in the store's INSERT
-- would remove that cost too, but would keep the formula in two places (the INSERT and the votes trigger).
-- A generated column has it in one place, can never disagree with votes or dates, costs nothing to store
-- (a VIRTUAL column is computed when read; the articles_hot index keeps its value, so the hot listing is
-- still one index walk and reads no row to sort), and makes a vote one UPDATE instead of two.
--
-- SQLite cannot turn a column into a generated one in place: the index and the triggers that name score go,
-- the column is dropped (this rewrites each row once, at upgrade) and added back as VIRTUAL (ALTER TABLE
-- ADD COLUMN accepts VIRTUAL, not STORED, columns). It is now the last column, which changes nothing: the
-- store names every column it reads, and a VIRTUAL column takes no room in the row.
-- PostgreSQL spells this `score DOUBLE PRECISION GENERATED ALWAYS AS (log(1 + votes) + ...) STORED` (it has
-- no VIRTUAL generated columns before version 18, and spells log10 as log); the index is the same.

DROP TRIGGER articles_hot_insert;
DROP TRIGGER articles_hot_update;
DROP INDEX articles_hot;
ALTER TABLE articles DROP COLUMN score;

-- log10(1 + votes) + days since 2020-01-01 of the article's date (never later than when we first saw it).
ALTER TABLE articles ADD COLUMN score DOUBLE PRECISION
  GENERATED ALWAYS AS (log10(1 + votes) + (MIN(display_at, first_seen) - 1577836800) / 86400.0) VIRTUAL;

CREATE INDEX articles_hot ON articles (visible, score DESC, display_at DESC, id DESC);
