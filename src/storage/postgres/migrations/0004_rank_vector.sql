-- A small vector to rank search matches by: the title's words (weight 'A') and those of the text's first
-- 600 characters, its lead (weight 'D'). Ranking by the whole search_vector read every candidate's vector,
-- 2-8 KB kept out of line in the TOAST table, and at a million articles that read was most of a search's
-- time (docs/perf.md, "On PostgreSQL"). This one is about a kilobyte and kept in the row (STORAGE MAIN),
-- which the search reads anyway. Matching still uses search_vector, the whole text.
--
-- Rows stored before this migration keep a NULL rank_vector: search computes the same value on the fly
-- for them (longread_rank_vector), and `longread db compact` fills them in, in batches.
CREATE FUNCTION longread_rank_vector(title text, body text) RETURNS tsvector
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN setweight(to_tsvector('longread_search'::regconfig, title), 'A')
         || setweight(to_tsvector('longread_search'::regconfig, left(body, 600)), 'D');

ALTER TABLE articles ADD COLUMN rank_vector tsvector;
ALTER TABLE articles ALTER COLUMN rank_vector SET STORAGE MAIN;

CREATE OR REPLACE FUNCTION articles_search_vector() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  new.search_vector := setweight(to_tsvector('longread_search', new.title), 'A')
                       || setweight(to_tsvector('longread_search', new.text), 'D');
  new.rank_vector := longread_rank_vector(new.title, new.text);
  RETURN new;
END $$;
