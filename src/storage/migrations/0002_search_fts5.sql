-- SQLite-specific: full-text search over article title and text with FTS5 (https://sqlite.org/fts5.html).
-- An external-content table (section 4.4.3): the text lives once, in articles; triggers keep the index in
-- sync. The PostgreSQL backend will use a tsvector column with a GIN index instead.

CREATE VIRTUAL TABLE articles_fts USING fts5 (
  title, text,
  content = 'articles', content_rowid = 'id',
  tokenize = 'unicode61 remove_diacritics 2'
);

CREATE TRIGGER articles_fts_insert AFTER INSERT ON articles BEGIN
  INSERT INTO articles_fts (rowid, title, text) VALUES (new.id, new.title, new.text);
END;

CREATE TRIGGER articles_fts_delete AFTER DELETE ON articles BEGIN
  INSERT INTO articles_fts (articles_fts, rowid, title, text) VALUES ('delete', old.id, old.title, old.text);
END;

CREATE TRIGGER articles_fts_update AFTER UPDATE OF title, text ON articles BEGIN
  INSERT INTO articles_fts (articles_fts, rowid, title, text) VALUES ('delete', old.id, old.title, old.text);
  INSERT INTO articles_fts (rowid, title, text) VALUES (new.id, new.title, new.text);
END;

INSERT INTO articles_fts (articles_fts) VALUES ('rebuild');
