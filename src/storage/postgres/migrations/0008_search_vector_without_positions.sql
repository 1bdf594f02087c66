-- The search vector keeps each word once, without positions (strip()): the GIN index, which finds the
-- articles holding a query's words, never reads positions, and a quoted phrase is now checked in the
-- candidates' texts by longread itself (after the phrase filter turned most away), with the tokenizer that
-- made the vector. Positions were two fifths of the vector (5.2 KB an article on the generated set, 3.2 KB
-- without), all of it written to the TOAST table by every crawl.
--
-- The rows already stored keep their vectors until `longread db compact` remakes them (search finds them
-- alike: the index holds the same words). LZ4 for the column: PostgreSQL's default method (pglz) gives up
-- on a vector and stores it whole after trying; lz4 tries faster and keeps what little it saves.
ALTER TABLE articles ALTER COLUMN search_vector SET COMPRESSION lz4;

-- The trigger fills the vectors for any other writer, without positions like longread's.
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
  RETURN new;
END $$;
