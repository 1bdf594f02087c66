-- Budgets and quarantine for hostile feeds (docs/storage.md, "Budgets"; docs/fetch.md, "Quarantine").
-- Portable: plain columns with constant defaults and a partial index (PostgreSQL has both).

-- An entry longer than crawl.max_entry_kb is stored cut; this says so.
ALTER TABLE articles ADD COLUMN truncated INTEGER NOT NULL DEFAULT 0;
-- When a hidden (junk) article's bodies were emptied after curate.junk_retention_days; the row keeps its
-- guid, content hash and verdict, so the entry is still known and never comes back as new.
ALTER TABLE articles ADD COLUMN pruned_at BIGINT;
-- The hidden articles whose bodies are still there, per blog and age: what the pruning in each crawl seeks.
CREATE INDEX articles_hidden_unpruned ON articles (blog_id, first_seen) WHERE visible = 0 AND pruned_at IS NULL;

-- A crawler marks a blog before it parses the feed body ("host:pid:nonce" and when) and clears the mark when
-- it saves the blog's result; a mark left by a process that is gone means that process died parsing it.
ALTER TABLE blogs ADD COLUMN parsing_by TEXT NOT NULL DEFAULT '';
ALTER TABLE blogs ADD COLUMN parsing_since BIGINT;
-- Such deaths in a row; at 3 the blog is quarantined (polled by no crawl until `longread blogs resume`).
ALTER TABLE blogs ADD COLUMN crashes INTEGER NOT NULL DEFAULT 0;
ALTER TABLE blogs ADD COLUMN quarantined INTEGER NOT NULL DEFAULT 0;
