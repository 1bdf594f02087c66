-- A summary-only entry's page (issue 5's full text) that failed for a reason that may pass — a timeout, a
-- network error, HTTP 429 or 5xx — is tried again when the feed is next read, up to three attempts in all
-- (README, "Full text"; crawler test AFullTextPageThatFailedForAPassingReasonIsTriedAgain). This counts the failed attempts; full_text_fetched stays 0 until the page
-- is read or the attempts are used up. Portable: a plain column with a default.
ALTER TABLE articles ADD COLUMN full_text_failures INTEGER NOT NULL DEFAULT 0;
