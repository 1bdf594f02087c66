-- A phrase filter per article (storage/postgres/phrase_filter.h): a Bloom filter of its pairs of
-- neighbouring words, made by longread with the search vectors. GIN keeps no word positions, so a quoted
-- phrase was checked by reading each candidate's whole search vector; the filter, a kilobyte kept in the
-- row, turns most candidates whose words are never neighbours away first.
--
-- NULL: not made yet (rows stored before this migration, or written by another tool): the search checks
-- such a row's vector as before, and `longread db compact` fills the filters in, in batches. Empty: the
-- text is too long to filter (past the vector's last position); checked likewise, always.
ALTER TABLE articles ADD COLUMN phrase_filter bytea;
-- Kept in the row, beside the columns a search reads, rather than in the TOAST table; a Bloom filter does
-- not compress, so the server stores it as it is.
ALTER TABLE articles ALTER COLUMN phrase_filter SET STORAGE MAIN;

-- The trigger fills the vectors for any other writer; the filter it cannot make is cleared then, and so is
-- one a writer left as it was while giving new vectors, so a row's filter never describes an older text.
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
  new.search_vector := setweight(to_tsvector('longread_search', new.title), 'A')
                       || setweight(to_tsvector('longread_search', new.text), 'D');
  new.rank_vector := longread_rank_vector(new.title, new.text);
  new.phrase_filter := NULL;
  RETURN new;
END $$;
