-- Similar articles (docs/similar.md): the inverted index the picks are found with, and the picks the
-- article page reads.
--
-- similar_terms: document frequencies, counted once per article for each distinct term, per bucket of the
-- term's 64-bit hash (its top 22 bits, curate::df_bucket), so the table never holds more than 4,194,304
-- rows whatever the vocabulary. Bucket -1 holds the number of documents counted.
CREATE TABLE similar_terms (
  bucket INTEGER PRIMARY KEY,
  df INTEGER NOT NULL
);

-- similar_postings: each indexed article under each of its signature terms (its top TF-IDF terms, by the
-- term's full hash) with the term's weight in its L2-normalised signature. A term keeps at most the
-- store's cap of postings (the heaviest), so looking a term up reads a bounded number of rows.
CREATE TABLE similar_postings (
  term INTEGER NOT NULL,
  article_id INTEGER NOT NULL REFERENCES articles (id) ON DELETE CASCADE,
  weight REAL NOT NULL,
  PRIMARY KEY (term, article_id)
) WITHOUT ROWID;
CREATE INDEX similar_postings_weight ON similar_postings (term, weight);
CREATE INDEX similar_postings_article ON similar_postings (article_id);

-- similar_articles: an article's picks, with their cosine score and the shared terms that are the reason
-- ("lock free, ring buffer, cache line"). Written at crawl time (and by `longread similar rebuild`); the
-- article page only reads them, leaving out picks that are hidden now or of the same blog.
CREATE TABLE similar_articles (
  article_id INTEGER NOT NULL REFERENCES articles (id) ON DELETE CASCADE,
  similar_id INTEGER NOT NULL REFERENCES articles (id) ON DELETE CASCADE,
  score REAL NOT NULL,
  shared TEXT NOT NULL,
  PRIMARY KEY (article_id, similar_id)
) WITHOUT ROWID;
CREATE INDEX similar_articles_similar ON similar_articles (similar_id);
