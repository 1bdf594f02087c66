-- The feed's own polling hint (RSS <ttl>, sy:updatePeriod / sy:updateFrequency), in minutes, from the last
-- feed that was parsed; NULL when it gave none. Stored because a 304 has no body to read it from again, and
-- most polls of a personal blog are 304s: without it the hint would hold only after the polls that got a
-- 200. Portable: plain ALTER TABLE ... ADD COLUMN.

ALTER TABLE blogs ADD COLUMN feed_update_minutes BIGINT;
