-- articles_duplicate_of indexed every article, although its one reader, the foreign key's ON DELETE SET NULL
-- (which copies name the article being deleted), asks for copies alone: `duplicate_of = ?`, which a partial
-- index of the non-NULL values serves. Every other row is an original, with a NULL there: an entry that
-- every save wrote and nothing read.
DROP INDEX articles_duplicate_of;
CREATE INDEX articles_duplicate_of ON articles (duplicate_of) WHERE duplicate_of IS NOT NULL;
