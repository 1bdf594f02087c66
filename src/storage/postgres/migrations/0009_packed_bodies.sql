-- An article's summary HTML, content HTML and text packed into one zstd frame (storage/article_body.h, the
-- SQLite store's format since its migration 0021), made by longread. PostgreSQL compressed each of the
-- three apart (lz4, TOAST): the text repeats the content's words, so one frame of the three is about a
-- third of their sizes (docs/perf.md, "Packed bodies on PostgreSQL"). The excerpt stays a plain column:
-- every listing reads it from the row.
--
-- A row has either form: body NULL with the parts in their columns (rows stored before this migration, or
-- written by another tool), or body set with those columns empty. `longread db compact` packs the old rows
-- in batches and can be stopped and run again; every reader takes whichever form the row has.
ALTER TABLE articles ADD COLUMN body bytea;
-- A zstd frame does not compress again: stored as it is, out of the row once the row is long.
ALTER TABLE articles ALTER COLUMN body SET STORAGE EXTERNAL;
-- The dictionary the frame was packed with (0: none; NULL: no frame), as its header says: the server cannot
-- read a frame, and `db compact` packs again the frames of an older dictionary once it has trained a new
-- one.
ALTER TABLE articles ADD COLUMN body_dictionary BIGINT;

-- Dictionaries trained on the site's own bodies by `longread db compact`; a frame names the one it needs by
-- id in its header, so a newer dictionary serves new rows while older rows keep theirs.
CREATE TABLE body_dictionaries (
  seq BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  dict_id BIGINT NOT NULL UNIQUE,
  created_at BIGINT NOT NULL,
  samples INTEGER NOT NULL,
  dict bytea NOT NULL
);

-- The trigger fills the vectors for any other writer. A writer that packs a body is longread, which gives
-- the vectors with it (or keeps them: `db compact` packs the same parts), so a newly packed body is not a
-- changed text even though the plain text column became empty.
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
  IF tg_op = 'UPDATE' AND new.body IS NOT NULL AND new.body IS DISTINCT FROM old.body THEN
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
