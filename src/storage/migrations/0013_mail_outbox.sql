-- The account-mail outbox (docs/mail.md, "Account mails: the outbox"): one row per sign-up confirmation,
-- "you already have an account" or password-reset mail that `serve` has still to send. The request that
-- asks for a mail only inserts its row; serve's sender claims due rows, sends them over SMTP and deletes a
-- row once the server accepted it (or refused it for good, or its link expired). The message holds a live
-- signed link, so nothing is kept after that.
--
-- message: the whole rendered RFC 5322 message (CRLF line ends; Date and Message-ID fixed when queued, so
-- a retry is the same message). not_after: when the link in it stops working; the mail is dropped then.
-- next_attempt_at: when it is next due; a claim pushes it forward by a lease, so a sender that dies
-- mid-send hands the mail back once the lease has run out. Portable: plain types, BIGINT unix seconds.
CREATE TABLE mail_outbox (
  id INTEGER PRIMARY KEY,
  kind TEXT NOT NULL,  -- 'confirm', 'registered', 'reset'
  recipient TEXT NOT NULL,
  message TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  not_after BIGINT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at BIGINT NOT NULL,
  last_error TEXT NOT NULL DEFAULT ''
);
CREATE INDEX mail_outbox_due ON mail_outbox (next_attempt_at);
