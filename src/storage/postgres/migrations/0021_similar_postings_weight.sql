-- similar_postings_weight (term, weight) came with the schema from SQLite, where each term's heaviest
-- postings are a backwards walk of it. On PostgreSQL no statement reads it: the similar articles' index reads
-- every posting of a batch's terms at once (`term = ANY(…)`, through the primary key, whose first column is
-- the term) and takes each term's heaviest in longread. It was one of the three B-trees every posting is
-- written to, a crawl's second pass writes some 25 postings for each new article, and it was as large as the
-- primary key (docs/perf.md, "The originals' index, and the similar articles' postings read once").
DROP INDEX similar_postings_weight;
