-- Accounts confirmed by mail: a reader who signs up on a site that sends mail gets an account that is
-- pending until the link mailed to the address is used (confirmed_at is NULL until then). Readers who
-- signed up before this migration did so without mail, so they count as confirmed. Portable: plain
-- ALTER TABLE ... ADD COLUMN and UPDATE.

ALTER TABLE readers ADD COLUMN confirmed_at BIGINT;
UPDATE readers SET confirmed_at = created_at;
