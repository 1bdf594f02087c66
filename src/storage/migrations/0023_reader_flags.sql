-- Readers' flags and the hold they put on an article (docs/storage.md, "Reader flags").
--
-- article_flags: one row per reader and article (the primary key makes a second flag by the same reader
-- impossible), with its reason ('spam', 'ai', 'not_article', 'broken_link') and time. Rows go with their
-- reader (an account deleted takes its flags with it) and with their article. article_flags_reader serves
-- the per-reader daily limit (a range of one reader's recent flags).
--
-- articles.held: 1 while enough distinct readers flagged the article (moderation.flags_to_hide) and no
-- operator decided; a held article is not visible (articles.visible = 0), so listings, search (the FTS
-- view and triggers of 0003/0021), the visible counts (0004) and everything built on them leave it out
-- without a filter of their own. articles.hold_threshold is the flags_to_hide that applied when it was
-- held: when withdrawn flags, or deleted readers, take the article below it, the trigger below lifts the
-- hold (whatever the configuration says by then). articles.flag_decision: '' until an operator decides on
-- the flags, then 'keep' (later flags are recorded but never hold it again) or 'junk' (the operator's junk
-- override, keep_override = 0, which sticks across re-crawls).

CREATE TABLE article_flags (
  article_id INTEGER NOT NULL REFERENCES articles (id) ON DELETE CASCADE,
  reader_id INTEGER NOT NULL REFERENCES readers (id) ON DELETE CASCADE,
  reason TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (article_id, reader_id)
);
CREATE INDEX article_flags_reader ON article_flags (reader_id, created_at);

ALTER TABLE articles ADD COLUMN held INTEGER NOT NULL DEFAULT 0;
ALTER TABLE articles ADD COLUMN hold_threshold INTEGER NOT NULL DEFAULT 0;
ALTER TABLE articles ADD COLUMN flag_decision TEXT NOT NULL DEFAULT '';
CREATE INDEX articles_held ON articles (id) WHERE held = 1;

-- A flag withdrawn, or deleted with its reader (ON DELETE CASCADE fires triggers in SQLite): a held
-- article whose flags fell below the count that held it is shown again. The update of `visible` goes
-- through the search-index and visible-count triggers like any other. When the article itself is being
-- deleted, its row is already gone when the cascade runs, so this updates nothing.
CREATE TRIGGER article_flags_lift_hold AFTER DELETE ON article_flags BEGIN
  UPDATE articles SET held = 0, hold_threshold = 0,
    visible = CASE WHEN keep_override IS NULL THEN 1 - junk ELSE keep_override END
  WHERE id = old.article_id AND held = 1
    AND (SELECT COUNT(*) FROM article_flags f WHERE f.article_id = old.article_id) < hold_threshold;
END;
