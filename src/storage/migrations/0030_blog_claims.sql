-- Blogs claimed by one crawler process for one pass (docs/operating.md, "Several crawlers"). A crawler
-- claims the due blogs it will poll in one transaction (Store::claim_due_blogs): another crawler over the
-- same database sees them as not due until the claim lapses at claimed_until, so two crawlers never poll
-- one blog in one interval. Recording the blog's poll ends the claim; the end of the pass gives back the
-- rest (a blog the pass was stopped before recording is due again at once); a crawler killed mid-pass
-- leaves its claims to lapse, and another crawler takes those blogs over then.
ALTER TABLE blogs ADD COLUMN claimed_by TEXT NOT NULL DEFAULT '';
ALTER TABLE blogs ADD COLUMN claimed_until BIGINT;
