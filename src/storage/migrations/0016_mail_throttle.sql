-- When each kind of account or newsletter-confirmation mail last went to an address (docs/readers.md,
-- "Mails per address"): a request for another within the hour queues nothing, however many clients ask,
-- so the sign-up, password-reset and newsletter forms cannot be used to flood a stranger's inbox. In the
-- database rather than in memory, so a restart does not open the gate again. Rows older than the gap are
-- deleted as new ones are claimed. recipient: the address in lower case; kind: 'confirm', 'registered',
-- 'reset', 'newsletter'; sent_at: unix seconds of the claim.
CREATE TABLE mail_throttle (
  recipient TEXT NOT NULL,
  kind TEXT NOT NULL,
  sent_at BIGINT NOT NULL,
  PRIMARY KEY (recipient, kind)
);
CREATE INDEX mail_throttle_sent_at ON mail_throttle (sent_at);
