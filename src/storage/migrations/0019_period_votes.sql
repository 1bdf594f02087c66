-- Top "this week" / "this month" as one index walk, at any depth and however many votes a period holds.
--
-- Before, each page grouped the period's votes (a range of votes_created) and sorted the voted articles:
-- its cost grew with the votes in the period (0.1-0.2 s for a week, 0.5-1.1 s for a month on 100,000
-- articles with 58,000 votes). An index cannot order by "votes since a moving time", so each article now
-- carries its votes of the last 7 and 30 days as columns, with a partial index per period over the
-- articles that have any.
--
-- vote_periods.counted_from is where each period's count starts: a vote counts in a period while
-- created_at >= counted_from. The triggers below keep the counts in step with every insert and delete of
-- a vote (set_vote, a deleted reader's or article's votes through ON DELETE CASCADE), and
-- Store::age_period_votes(now) moves counted_from up to now minus the period, taking the votes it passes
-- out of the counts, in batches. Starting at 0 counts every existing vote; the first aging takes out the old
-- ones, a batch per transaction, so an upgrade is cheap and the aging can be stopped and resumed.

CREATE TABLE vote_periods (
  days INTEGER PRIMARY KEY,
  counted_from BIGINT NOT NULL
);
INSERT INTO vote_periods (days, counted_from) VALUES (7, 0), (30, 0);

ALTER TABLE articles ADD COLUMN votes_week INTEGER NOT NULL DEFAULT 0;
ALTER TABLE articles ADD COLUMN votes_month INTEGER NOT NULL DEFAULT 0;

UPDATE articles SET votes_week = c.n, votes_month = c.n
FROM (SELECT article_id, COUNT(*) AS n FROM votes GROUP BY article_id) AS c
WHERE articles.id = c.article_id;

CREATE INDEX articles_top_week ON articles (visible, votes_week DESC, votes DESC, display_at DESC, id DESC)
  WHERE votes_week > 0;
CREATE INDEX articles_top_month ON articles (visible, votes_month DESC, votes DESC, display_at DESC, id DESC)
  WHERE votes_month > 0;

CREATE TRIGGER votes_period_insert AFTER INSERT ON votes
WHEN new.created_at >= (SELECT counted_from FROM vote_periods WHERE days = 30) BEGIN
  UPDATE articles SET
    votes_week = votes_week + (new.created_at >= (SELECT counted_from FROM vote_periods WHERE days = 7)),
    votes_month = votes_month + 1
  WHERE id = new.article_id;
END;

CREATE TRIGGER votes_period_delete AFTER DELETE ON votes
WHEN old.created_at >= (SELECT counted_from FROM vote_periods WHERE days = 30) BEGIN
  UPDATE articles SET
    votes_week = votes_week - (old.created_at >= (SELECT counted_from FROM vote_periods WHERE days = 7)),
    votes_month = votes_month - 1
  WHERE id = old.article_id;
END;
