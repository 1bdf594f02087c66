-- A blog the operator paused (`longread blogs pause ID`) is not polled by any crawl until it is resumed; its
-- articles stay on the site. 0 for every existing blog. Portable: plain ALTER TABLE ... ADD COLUMN with a
-- constant default (PostgreSQL 11+ adds it without rewriting the table), a 0/1 INTEGER flag like short_form.

ALTER TABLE blogs ADD COLUMN paused INTEGER NOT NULL DEFAULT 0;
