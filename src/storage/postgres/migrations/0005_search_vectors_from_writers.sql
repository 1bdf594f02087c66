-- longread writes an article's search and rank vectors itself, made with SQLite's FTS5 tokenizer in its
-- own process (storage/postgres/search_vectors.h): parsing every text into a tsvector was a third of the
-- database server's time in a crawl, and the server is the one part several crawlers share. The trigger
-- stays for any other writer (a row inserted or edited by hand, or by a tool): it fills the vectors with
-- the server's own parser when the statement set the title or the text without them. An UPDATE that
-- rewrites a body with the same value (`db compact`) keeps the vectors as they are.
--
-- The rows already stored keep their vectors: the server's parser with longread_search gives the same
-- lexemes as FTS5 for words of letters and digits, which is what a query asks for.
CREATE OR REPLACE FUNCTION articles_search_vector() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF tg_op = 'INSERT' AND new.search_vector IS NOT NULL THEN
    RETURN new;
  END IF;
  IF tg_op = 'UPDATE' AND (new.search_vector IS DISTINCT FROM old.search_vector
      OR (new.title IS NOT DISTINCT FROM old.title AND new.text IS NOT DISTINCT FROM old.text)) THEN
    RETURN new;
  END IF;
  new.search_vector := setweight(to_tsvector('longread_search', new.title), 'A')
                       || setweight(to_tsvector('longread_search', new.text), 'D');
  new.rank_vector := longread_rank_vector(new.title, new.text);
  RETURN new;
END $$;
