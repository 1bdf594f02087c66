-- Rate limits counted in the database (accounts/rate_limiter.h): log-in failures, sign-ups, password
-- resets, newsletter subscriptions and reading-list imports. Held here rather than in each process's
-- memory so that every web process of a site (several `serve --no-crawl` behind one proxy) enforces one
-- limit, and a restart does not hand an attacker a fresh allowance.
--
-- One row per counted attempt. `key` names the limit and who is counted ("login_client|client:192.0.2.1");
-- `expires_at` is when the attempt leaves its limit's window. The table stays bounded: recording an
-- attempt keeps only that key's newest attempts (as many as its limit counts), drops rows that expired,
-- and past a fixed number of rows in all drops the oldest recorded first (ids only grow).
CREATE TABLE rate_attempts (
  id INTEGER PRIMARY KEY,
  key TEXT NOT NULL,
  at BIGINT NOT NULL,
  expires_at BIGINT NOT NULL
);
CREATE INDEX rate_attempts_key ON rate_attempts (key, at);
CREATE INDEX rate_attempts_expiry ON rate_attempts (expires_at);
