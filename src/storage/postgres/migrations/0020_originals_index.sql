-- A crawler reads every original's id, blog, SimHash and date when it starts a pass, and decides near
-- duplicates in memory from them. No index held those four, so the read was a sequential scan of the whole
-- articles table, a kilobyte and more a row: 0.85 s a crawler at 200,000 articles, 6 % of the server's time in
-- a second pass over 10,000 blogs, and a 5 GB heap read by each crawler over the whole Kagi Small Web list
-- (docs/perf.md, "The originals' index, and the similar articles' postings read once"). This index holds
-- them, about 40 bytes an original, so the read is an index-only scan; rows leave it when they become copies.
CREATE INDEX articles_originals ON articles (id) INCLUDE (blog_id, simhash, display_at)
  WHERE duplicate_of IS NULL AND simhash <> 0;
