-- The excerpt is compressed with lz4. It is the largest value a row has left after the body and the search
-- vector go out to the TOAST table, so the server moves it out too; with the default pglz, which gives up
-- unless it saves a quarter, it went out whole (1,407 bytes an article on the generated set), while lz4 takes
-- what it can (docs/perf.md, "A crawl with packed bodies, and where an article's bytes go on PostgreSQL").
-- Only values written from now on change; a listing decompresses it in microseconds.
ALTER TABLE articles ALTER COLUMN excerpt SET COMPRESSION lz4;
