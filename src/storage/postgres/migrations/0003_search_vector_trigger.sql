-- The search column was a STORED generated column, and PostgreSQL recomputes every generated column on
-- every UPDATE of a row, whichever columns it sets: a vote, a flag or a hold re-parsed the whole article
-- text into a tsvector (0.8-3.4 ms each at a million articles) and rewrote its TOAST. A trigger that runs
-- only when the title or the text is set computes the same value; the values already stored are kept
-- (DROP EXPRESSION turns the column into a plain one without rewriting the table).
ALTER TABLE articles ALTER COLUMN search_vector DROP EXPRESSION;

CREATE FUNCTION articles_search_vector() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  new.search_vector := setweight(to_tsvector('longread_search', new.title), 'A')
                       || setweight(to_tsvector('longread_search', new.text), 'D');
  RETURN new;
END $$;
CREATE TRIGGER articles_search_vector BEFORE INSERT OR UPDATE OF title, text ON articles
  FOR EACH ROW EXECUTE FUNCTION articles_search_vector();
