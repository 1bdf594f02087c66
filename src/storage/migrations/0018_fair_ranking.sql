-- A fair, quality-first hot order (docs/ranking.md) and Top by when votes were cast.
--
-- rank_prior: what the article is worth before any vote, in days of newness (the unit of the hot score):
-- its depth (words, headings, code blocks) and how quiet its blog is (posts per month). The pipeline
-- computes it when it stores or changes an article, with the operator's ranking.* weights; articles stored
-- before this migration start at 0 (neutral) until `longread rejudge --text` derives it again.
--
-- The hot score keeps its shape from migration 0006: log10(1 + votes) + the article's date in days since
-- 2020-01-01 (never later than when we first saw it), now plus rank_prior. The clock is folded into the
-- score as in Lobsters' hotness, so nothing is rewritten as time passes: an article one day older needs
-- ten times the votes, or a prior one day higher, to rank level. Still a VIRTUAL generated column, so it
-- follows votes, dates and the prior on every write path; SQLite cannot change a generated column's
-- expression, so the index goes, the column is dropped (each row is rewritten once, at upgrade) and added
-- back. PostgreSQL spells it `score DOUBLE PRECISION GENERATED ALWAYS AS (...) STORED` with log for log10.
--
-- The hot listings cap the articles of one blog per page by walking this order and skipping a blog's
-- surplus (SqliteStore::hot_page); blog_id at the end of the two hot indexes lets that walk read the index
-- alone. articles_category_hot serves the category pages, which now rank like the front page.
--
-- votes_created: Top "this week" / "this month" count the votes cast in the period (votes.created_at,
-- migration 0005), one range of this index, instead of filtering articles by their own date.

ALTER TABLE articles ADD COLUMN rank_prior DOUBLE PRECISION NOT NULL DEFAULT 0;

DROP INDEX articles_hot;
ALTER TABLE articles DROP COLUMN score;
ALTER TABLE articles ADD COLUMN score DOUBLE PRECISION
  GENERATED ALWAYS AS (log10(1 + votes) + (MIN(display_at, first_seen) - 1577836800) / 86400.0 + rank_prior)
  VIRTUAL;

CREATE INDEX articles_hot ON articles (visible, score DESC, display_at DESC, id DESC, blog_id);
CREATE INDEX articles_category_hot ON articles (category, visible, score DESC, display_at DESC, id DESC, blog_id);
CREATE INDEX votes_created ON votes (created_at, article_id);
