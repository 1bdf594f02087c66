-- SQLite-specific: the full-text index holds only visible articles (not junk, or kept by the operator), so
-- a search ranks and pages over exactly what it may show, and can LIMIT inside the FTS5 query instead of
-- ranking every match joined with its row. The index's external content is a view of the visible articles
-- (https://sqlite.org/fts5.html#external_content_tables); the triggers below keep it in step.

DROP TRIGGER articles_fts_insert;
DROP TRIGGER articles_fts_delete;
DROP TRIGGER articles_fts_update;
DROP TABLE articles_fts;

CREATE VIEW searchable_articles AS SELECT id, title, text FROM articles WHERE visible = 1;

CREATE VIRTUAL TABLE articles_fts USING fts5 (
  title, text,
  content = 'searchable_articles', content_rowid = 'id',
  tokenize = 'unicode61 remove_diacritics 2'
);

CREATE TRIGGER articles_fts_insert AFTER INSERT ON articles WHEN new.visible = 1 BEGIN
  INSERT INTO articles_fts (rowid, title, text) VALUES (new.id, new.title, new.text);
END;

CREATE TRIGGER articles_fts_delete AFTER DELETE ON articles WHEN old.visible = 1 BEGIN
  INSERT INTO articles_fts (articles_fts, rowid, title, text) VALUES ('delete', old.id, old.title, old.text);
END;

-- One trigger for both halves, so the old entry is always removed before the new one is added.
CREATE TRIGGER articles_fts_update AFTER UPDATE OF title, text, visible ON articles
WHEN old.title IS NOT new.title OR old.text IS NOT new.text OR old.visible IS NOT new.visible BEGIN
  INSERT INTO articles_fts (articles_fts, rowid, title, text)
    SELECT 'delete', old.id, old.title, old.text WHERE old.visible = 1;
  INSERT INTO articles_fts (rowid, title, text)
    SELECT new.id, new.title, new.text WHERE new.visible = 1;
END;

INSERT INTO articles_fts (articles_fts) VALUES ('rebuild');
