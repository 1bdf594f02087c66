-- An article's indexed words are kept as 32-bit ids (`search_words int4[]`) instead of a tsvector of the
-- words themselves (docs/storage.md, "Word ids"). The tsvector was the largest value of a row: about 1.8 KB
-- an article on the generated set, the words' bytes, which compress poorly; the ids take 4 bytes a word,
-- about 0.7 KB. The GIN index over them is the same size as the one over the tsvector, and answers `@>`
-- exactly, without reading a row, as it answered `@@` for words.
--
-- An id is SipHash-2-4 of the word under this database's own secret key (search_word_key, made here from
-- the server's strong random source), so every process that opens the database makes the same ids, and a
-- blog cannot write a word made to share another's id.
--
-- The crawler writes the ids with the other vectors and leaves search_vector NULL. A row stored before
-- keeps its tsvector and no ids (search_words NULL); search asks for either, and `longread db compact`
-- remakes such rows with ids, in its resumable batches. A row another tool writes gets the server's
-- tsvector from the trigger, as before, and no ids.
ALTER TABLE articles ADD COLUMN search_words INT4[];
-- Ids do not compress: no attempt is made on every insert, and the array goes out of line like the
-- tsvector did when the row is too long.
ALTER TABLE articles ALTER COLUMN search_words SET STORAGE EXTERNAL;
CREATE INDEX articles_search_words ON articles USING gin (search_words)
  WHERE visible = 1 AND search_words IS NOT NULL;

-- One row (`one` is its key and can only be true).
CREATE TABLE search_word_key (
  one BOOLEAN PRIMARY KEY DEFAULT true CHECK (one),
  key BYTEA NOT NULL CHECK (octet_length(key) = 16)
);
INSERT INTO search_word_key (key)
  SELECT substring(sha256(convert_to(gen_random_uuid()::text || gen_random_uuid()::text, 'UTF8')) FROM 1 FOR 16);

-- A writer that gives ids or a tsvector gave its own vectors; otherwise a new title or text gets the
-- server's tsvector of every word, and no ids, bitmap or filters (which this trigger cannot make).
CREATE OR REPLACE FUNCTION articles_search_vector() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF tg_op = 'INSERT' AND (new.search_words IS NOT NULL OR new.search_vector IS NOT NULL) THEN
    RETURN new;
  END IF;
  IF tg_op = 'UPDATE' AND (new.search_words IS DISTINCT FROM old.search_words
                           OR new.search_vector IS DISTINCT FROM old.search_vector) THEN
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
  new.search_words := NULL;
  new.rank_vector := longread_rank_vector(new.title, new.text);
  new.phrase_filter := NULL;
  new.common_words := NULL;
  new.lead_filter := NULL;
  RETURN new;
END $$;

-- The index of the newest articles is made over the ids from now on (the search index's upkeep builds it
-- again at its next run); one over the tsvectors would serve only the rows not yet remade.
DO $$
DECLARE
  name TEXT;
BEGIN
  FOR name IN SELECT c.relname FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
              WHERE i.indrelid = 'articles'::regclass AND c.relname LIKE 'articles\_search\_recent\_%'
  LOOP
    EXECUTE format('DROP INDEX %I', name);
  END LOOP;
END $$;
