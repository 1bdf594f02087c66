-- A reading list that can leave and join the site: a private Atom feed behind a secret token the reader
-- can rotate, and links imported from Pocket or Instapaper that match no article here, kept as plain
-- saved links. Imported links that match a known article join the reading list itself, found through
-- articles_link.
ALTER TABLE readers ADD COLUMN list_feed_token TEXT;
CREATE UNIQUE INDEX readers_list_feed_token ON readers (list_feed_token) WHERE list_feed_token IS NOT NULL;

CREATE TABLE saved_links (
  id INTEGER PRIMARY KEY,
  reader_id INTEGER NOT NULL REFERENCES readers (id) ON DELETE CASCADE,
  url TEXT NOT NULL,
  title TEXT NOT NULL DEFAULT '',
  saved_at BIGINT NOT NULL,
  read_at BIGINT,
  UNIQUE (reader_id, url)
);
CREATE INDEX saved_links_newest ON saved_links (reader_id, saved_at DESC, id DESC);

CREATE INDEX articles_link ON articles (link);
