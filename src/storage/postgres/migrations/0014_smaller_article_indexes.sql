-- Two of the articles' B-tree indexes answered their queries with far more than those queries read
-- (docs/perf.md, "Smaller article indexes"):
--
-- articles_link served one query, the reading-list import's "which article has this link", by equality
-- only, and held each link whole: 148 bytes an article at 200,000 generated ones, the largest B-tree of
-- the table. A hash index keeps a 4-byte hash of each link and answers the same equality (the import asks
-- `link IN (…)`, which it reads as a bitmap scan of each value): 37 bytes an article.
--
-- articles_junk indexed every article by (junk, first_seen), while its two readers want only the hidden
-- ones: the moderation list (`junk = 1 OR keep_override = 0`, newest first seen first), which the old
-- index could not serve because of the OR, and the site's count of junk articles (`junk = 1`), which
-- /metrics reads. A partial index of those rows, ordered for the list and holding `junk` for the count,
-- serves both from the index alone, at about 1 byte an article (52 before).
DROP INDEX articles_link;
CREATE INDEX articles_link ON articles USING hash (link);

DROP INDEX articles_junk;
CREATE INDEX articles_junk ON articles (first_seen DESC, id DESC) INCLUDE (junk)
  WHERE junk = 1 OR keep_override = 0;
