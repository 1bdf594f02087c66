-- A crawler claims the due blogs a batch at a time (a few hundred, in due order: never-crawled first, then
-- the longest due). With only blogs_next_due, which cannot give the rows in that order, every claim read the
-- whole blogs table and sorted what was due before taking its batch: 45 ms a claim at 10,000 blogs, and a
-- pass at 36,515 blogs makes about 150 claims (docs/perf.md, "Term counts written in batches, and claims
-- in due order"). This index gives the followed blogs in the claim's order, so a claim reads its batch and
-- stops. blogs_next_due had no other reader (the site's count of due blogs can read this one as well).
DROP INDEX blogs_next_due;
CREATE INDEX blogs_due ON blogs (next_due_at NULLS FIRST, id) WHERE paused = 0 AND quarantined = 0;
