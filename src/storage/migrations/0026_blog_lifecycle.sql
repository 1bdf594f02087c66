-- Blog lifecycle (docs/operating.md, "Blog lifecycle").
--
-- blogs.retired_at / retired_reason: a retired blog is one the operator (or the automatic retirement of
-- lifecycle.auto_retire_*) decided is over: dead, inactive, or moved somewhere it should not follow. It is
-- paused too (blogs.paused = 1), so every path that leaves paused blogs unpolled (due_blogs, `crawl --all`,
-- the metrics) leaves it alone without a check of its own; its articles stay on the site. Un-retiring
-- clears both.
--
-- blogs.moved_from / moved_at: where the feed was before its last permanent redirect (301/308, RFC 9110
-- 15.4.2) moved the stored feed URL, and when. Empty / NULL when it never moved, or once the operator
-- accepted the move.

ALTER TABLE blogs ADD COLUMN retired_at BIGINT;
ALTER TABLE blogs ADD COLUMN retired_reason TEXT NOT NULL DEFAULT '';
ALTER TABLE blogs ADD COLUMN moved_from TEXT NOT NULL DEFAULT '';
ALTER TABLE blogs ADD COLUMN moved_at BIGINT;

-- Resuming a retired blog by any path (`longread blogs resume`, the blogs table's Resume, an OPML import
-- that un-pauses it) un-retires it: a blog is never polled while it still reads as retired, nor retired
-- while it is polled.
CREATE TRIGGER blogs_unretire_on_resume AFTER UPDATE OF paused ON blogs
WHEN new.paused = 0 AND new.retired_at IS NOT NULL BEGIN
  UPDATE blogs SET retired_at = NULL, retired_reason = '' WHERE id = new.id;
END;
