-- The words of an article's lead (its text's first 600 characters), which search's relevance counts,
-- move from the rank vector into a Bloom filter of their own, kept in the row (docs/storage.md, "Search").
-- In the rank vector, as a tsvector with positions, they took about 1.1 KB an article, which made a row
-- of about 2.5 KB: three rows to a page, where every search reads the rows of its candidates. The filter
-- takes about 120 bytes; the rank vector keeps the title's words.
--
-- The crawler makes the filter with the vectors. A row without one (NULL: stored before this migration,
-- or written by another tool) still has its lead in its rank vector, which relevance reads as before;
-- `longread db compact` makes the filter and the title's rank vector for it, in its resumable batches.
ALTER TABLE articles ADD COLUMN lead_filter BYTEA;
ALTER TABLE articles ALTER COLUMN lead_filter SET STORAGE MAIN;

-- The trigger makes the server's vectors for other writers, the lead in the rank vector: such a row has
-- no lead filter, so the lead is not counted twice.
CREATE OR REPLACE FUNCTION articles_search_vector() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF tg_op = 'INSERT' AND new.search_vector IS NOT NULL THEN
    RETURN new;
  END IF;
  IF tg_op = 'UPDATE' AND new.search_vector IS DISTINCT FROM old.search_vector THEN
    IF new.phrase_filter IS NOT DISTINCT FROM old.phrase_filter THEN
      new.phrase_filter := NULL;
    END IF;
    RETURN new;
  END IF;
  IF tg_op = 'UPDATE' AND new.title IS NOT DISTINCT FROM old.title AND new.text IS NOT DISTINCT FROM old.text
  THEN
    RETURN new;
  END IF;
  new.search_vector := strip(to_tsvector('longread_search', new.title) || to_tsvector('longread_search', new.text));
  new.rank_vector := longread_rank_vector(new.title, new.text);
  new.phrase_filter := NULL;
  new.common_words := NULL;
  new.lead_filter := NULL;
  RETURN new;
END $$;
