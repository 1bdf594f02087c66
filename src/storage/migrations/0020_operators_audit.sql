-- Operators and the admin area's audit log.
--
-- readers.operator: 1 for a reader the operator promoted (`longread readers promote EMAIL`); such a reader
-- may use /admin. 0 for every existing account: nobody gains a role by upgrading. A 0/1 INTEGER flag like
-- blogs.paused (plain ADD COLUMN with a constant default, portable to PostgreSQL 11+ without a rewrite).
--
-- admin_audit: one row per operator action, from the admin area or the CLI's promote/demote. The actor's
-- address is copied (not only referenced) so the log still says who acted after the account is deleted;
-- actor_id is then set to NULL. Rows are only appended; /admin/audit pages newest first by id (the rowid,
-- so no index is needed for that order).

ALTER TABLE readers ADD COLUMN operator INTEGER NOT NULL DEFAULT 0;

CREATE TABLE admin_audit (
  id INTEGER PRIMARY KEY,
  at INTEGER NOT NULL,
  actor_id INTEGER REFERENCES readers (id) ON DELETE SET NULL,
  actor TEXT NOT NULL,
  action TEXT NOT NULL,
  target TEXT NOT NULL,
  detail TEXT NOT NULL DEFAULT ''
);
