-- An article's summary HTML, content HTML, text and excerpt are kept together as one zstd frame in `body`
-- (docs/storage.md, "Article bodies"; src/storage/sqlite/article_body.h). A row with body NULL is still in
-- the old form (the four columns whole) until `longread db compact` converts it; the store writes the new
-- form from now on. Only cheap statements here: a column added with no default rewrites no row, and the
-- view and triggers are schema only. The conversion itself runs in batches, one transaction each.
--
-- SQLite-specific: longread_body_part() is registered by the store on each connection, so the search
-- index (its external content view and the triggers that delete old entries) reads the text of either form.
-- A connection without the function (the sqlite3 shell) can read the tables but not the view, and cannot
-- change an article.

ALTER TABLE articles ADD COLUMN body BLOB;

-- Dictionaries trained on the site's own articles (zstd's ZDICT). A frame names its dictionary by id
-- (RFC 8878, Dictionary_ID), so one can be replaced by a newer one without rewriting the rows: new bodies
-- use the newest (highest seq); old ones keep reading theirs. None is ever deleted while rows may name it.
CREATE TABLE body_dictionaries (
  seq INTEGER PRIMARY KEY,
  dict_id INTEGER NOT NULL UNIQUE,
  created_at BIGINT NOT NULL,
  samples INTEGER NOT NULL,
  dict BLOB NOT NULL
);

DROP TRIGGER articles_fts_delete;
DROP TRIGGER articles_fts_update;
DROP VIEW searchable_articles;

-- The view is what snippet() reads: a body that cannot be read gives an empty snippet, not a failed page.
CREATE VIEW searchable_articles AS
  SELECT id, title, longread_body_part_or_empty(body, 2, text) AS text FROM articles WHERE visible = 1;

CREATE TRIGGER articles_fts_delete AFTER DELETE ON articles WHEN old.visible = 1 BEGIN
  INSERT INTO articles_fts (articles_fts, rowid, title, text)
    VALUES ('delete', old.id, old.title, longread_body_part(old.body, 2, old.text));
END;

-- Converting a row moves its text from `text` into `body`: the derived text is what is compared, so a
-- conversion leaves the index alone and a real change rewrites the entry.
CREATE TRIGGER articles_fts_update AFTER UPDATE OF title, text, body, visible ON articles
WHEN old.title IS NOT new.title OR old.visible IS NOT new.visible
  OR longread_body_part(old.body, 2, old.text) IS NOT longread_body_part(new.body, 2, new.text) BEGIN
  INSERT INTO articles_fts (articles_fts, rowid, title, text)
    SELECT 'delete', old.id, old.title, longread_body_part(old.body, 2, old.text) WHERE old.visible = 1;
  INSERT INTO articles_fts (rowid, title, text)
    SELECT new.id, new.title, longread_body_part(new.body, 2, new.text) WHERE new.visible = 1;
END;
