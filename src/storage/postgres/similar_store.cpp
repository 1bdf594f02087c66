#include "storage/postgres/similar_store.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "storage/postgres/article_bodies.h"
#include "storage/postgres/reader_filter.h"
#include "storage/postgres/rows.h"
#include "storage/postgres/statement.h"
#include "storage/values.h"

namespace longread::storage::postgres {
namespace {

// One statement for all of a batch's buckets (distinct and ascending, so two processes adding at once lock
// the rows in the same order and never deadlock). :buckets and :counts are parallel arrays: each bucket and
// how many to add to it.
constexpr const char* kAddTerms =
    "INSERT INTO similar_terms (bucket, df) SELECT b, n FROM unnest(:buckets::bigint[], :counts::bigint[]) "
    "AS t(b, n)"
    " ON CONFLICT (bucket) DO UPDATE SET df = similar_terms.df + EXCLUDED.df";
constexpr const char* kSelectTerms =
    "SELECT bucket, df FROM similar_terms WHERE bucket = ANY(:buckets::bigint[])";

// SQLite's writer mutex made each save_similar alone; here a transaction-scoped advisory lock does, so the
// per-term and per-list caps (count, then replace the lightest) hold with several indexers at once.
constexpr const char* kLockSimilarWrites = "SELECT pg_advisory_xact_lock(7102734516930411)";
// The statements of a batch's write (and its reads of term frequencies and candidates) are prepared on the
// connection, like the crawl save's: each batch's arrays differ, so the server planned every call anew
// (2,000 plans in a 10,000-blog second pass), and the plan made for each call's own list of terms ran
// slower than the prepared one (docs/perf.md, "The similar articles' statements prepared").

// Every posting of some terms, in one round trip (under that lock when a batch is written); each term's
// heaviest are taken in longread (a term holds at most its cap of them). Ranking them in SQL (row_number
// over each term, ordered as asked) took 75 ms to a second for a batch's thousands of terms, against 33 ms
// for the rows alone.
constexpr const char* kTermPostings =
    "SELECT term, article_id, weight FROM similar_postings WHERE term = ANY(:terms::bigint[])";
constexpr const char* kExistingArticles = "SELECT id FROM articles WHERE id = ANY(:ids::bigint[])";
constexpr const char* kDeletePostings =
    "DELETE FROM similar_postings p USING unnest(:terms::bigint[], :articles::bigint[]) AS v(term, "
    "article_id)"
    " WHERE p.term = v.term AND p.article_id = v.article_id";
// Several articles' postings in one statement (the arrays run in parallel). An article deleted since it was
// read gets nothing written rather than a foreign-key failure rolling back the whole write.
constexpr const char* kInsertPostings =
    "INSERT INTO similar_postings (term, article_id, weight)"
    " SELECT v.term, v.article_id, v.weight FROM unnest(:terms::bigint[], :articles::bigint[],"
    " :weights::double precision[]) AS v(term, article_id, weight)"
    " WHERE EXISTS (SELECT 1 FROM articles WHERE id = v.article_id)"
    " ON CONFLICT (term, article_id) DO UPDATE SET weight = excluded.weight";

constexpr const char* kSelectCandidates =
    "SELECT id, blog_id, simhash, visible FROM articles WHERE id = ANY(:ids::bigint[])";

constexpr const char* kDeleteLists =
    "DELETE FROM similar_articles WHERE article_id = ANY(:articles::bigint[])";
// Several picks in one statement (the arrays run in parallel; no (article, similar) twice). An article
// deleted since it was read gets nothing written rather than a foreign-key failure rolling back the whole
// write.
constexpr const char* kInsertPicks =
    "INSERT INTO similar_articles (article_id, similar_id, score, shared)"
    " SELECT v.article, v.other, v.score, v.shared FROM unnest(:articles::bigint[], :similars::bigint[],"
    " :scores::double precision[], :shared::text[]) AS v(article, other, score, shared)"
    " WHERE EXISTS (SELECT 1 FROM articles WHERE id = v.article)"
    " AND EXISTS (SELECT 1 FROM articles WHERE id = v.other)"
    " ON CONFLICT (article_id, similar_id) DO UPDATE SET score = excluded.score, shared = excluded.shared";
// Every pick on the lists a batch writes to, read under kLockSimilarWrites: each list holds a few.
constexpr const char* kListPicks =
    "SELECT article_id, similar_id, score FROM similar_articles WHERE article_id = ANY(:articles::bigint[])";
constexpr const char* kDeletePickPairs =
    "DELETE FROM similar_articles s USING unnest(:articles::bigint[], :similars::bigint[]) AS v(article, "
    "other)"
    " WHERE s.article_id = v.article AND s.similar_id = v.other";

// Picks hidden since they were stored (junk, duplicate, held) or of the article's own blog are left out
// here, so the page never shows one whatever happened after the crawl.
constexpr const char* kSelectSimilar =
    "SELECT " LONGREAD_PG_ARTICLE_COLUMNS_HEAD " '', '', ''," LONGREAD_PG_ARTICLE_COLUMNS_TAIL
    ", s.score, s.shared FROM similar_articles s JOIN articles a ON a.id = s.similar_id"
    " JOIN blogs b ON b.id = a.blog_id"
    " WHERE s.article_id = :article AND a.visible = 1"
    " AND a.blog_id <> (SELECT blog_id FROM articles WHERE id = :article)"
    " ORDER BY s.score DESC, a.id DESC LIMIT :limit";

constexpr const char* kSelectForSimilar =
    "SELECT " LONGREAD_PG_ARTICLE_COLUMNS_HEAD " '', '', ''," LONGREAD_PG_ARTICLE_COLUMNS_TAIL
    ", " LONGREAD_PG_BODY_PARTS
    " FROM articles a JOIN blogs b ON b.id = a.blog_id"
    " WHERE a.id > :after AND a.visible = 1 ORDER BY a.id LIMIT :limit";

// The queue (migration 0002): an article deleted meanwhile is never queued.
constexpr const char* kQueue =
    "INSERT INTO similar_queue (article_id) SELECT a.id FROM articles a WHERE a.id = ANY(:ids::bigint[])"
    " ON CONFLICT (article_id) DO NOTHING";
constexpr const char* kSelectQueued = "SELECT article_id FROM similar_queue ORDER BY article_id LIMIT :limit";
constexpr const char* kSelectQueuedArticles =
    "SELECT " LONGREAD_PG_ARTICLE_COLUMNS_HEAD " '', '', ''," LONGREAD_PG_ARTICLE_COLUMNS_TAIL
    ", " LONGREAD_PG_BODY_PARTS
    " FROM articles a JOIN blogs b ON b.id = a.blog_id"
    " WHERE a.id = ANY(:ids::bigint[]) AND a.visible = 1 ORDER BY a.id";
constexpr const char* kUnqueue = "DELETE FROM similar_queue WHERE article_id = ANY(:ids::bigint[])";

// "For you": a reader's seeds, the articles they voted for or saved, the most recent max_seeds of them.
constexpr const char* kSeeds =
    "seeds (article_id, at, saved) AS ("
    " SELECT article_id, MAX(at), MAX(saved) FROM ("
    "  SELECT article_id, created_at AS at, 0 AS saved FROM votes WHERE reader_id = :filter_reader"
    "  UNION ALL SELECT article_id, saved_at, 1 FROM reading_list WHERE reader_id = :filter_reader) AS marks"
    " GROUP BY article_id ORDER BY MAX(at) DESC, article_id DESC LIMIT :max_seeds)";

constexpr const char* kCountSeeds =
    "SELECT COUNT(*) FROM (SELECT article_id FROM votes WHERE reader_id = :reader"
    " UNION SELECT article_id FROM reading_list WHERE reader_id = :reader) AS seeds";

// Each seed's stored picks, both ways: an article picked for a seed (the seed's own list) and an article
// that picked the seed (the newer article's list). A pair stored both ways counts once, at its higher score
// (DISTINCT ON keeps that row's shared words). A candidate's reason is the seed it is most like (the first
// row of its window, as SQLite's bare columns of MAX() take the row with the maximum); its score is the sum
// over every seed it is like, so an article like several of the reader's choices comes first.
std::string for_you_sql(const ReaderFilter& filter) {
  return fmt::format(
      "WITH {}, edges (seed, candidate, score, shared) AS ("
      " SELECT s.article_id, x.similar_id, x.score, x.shared FROM seeds s"
      "  JOIN similar_articles x ON x.article_id = s.article_id"
      " UNION ALL SELECT s.article_id, x.article_id, x.score, x.shared FROM seeds s"
      "  JOIN similar_articles x ON x.similar_id = s.article_id),"
      " pairs (seed, candidate, score, shared) AS ("
      " SELECT DISTINCT ON (seed, candidate) seed, candidate, score, shared FROM edges"
      "  ORDER BY seed, candidate, score DESC),"
      " ranked AS (SELECT candidate, seed, shared, SUM(score) OVER (PARTITION BY candidate) AS total,"
      "  ROW_NUMBER() OVER (PARTITION BY candidate ORDER BY score DESC, seed) AS n FROM pairs),"
      " best AS (SELECT candidate, seed, shared, total FROM ranked WHERE n = 1)"
      " SELECT " LONGREAD_PG_ARTICLE_COLUMNS_HEAD " '', '', ''," LONGREAD_PG_ARTICLE_COLUMNS_TAIL
      ", best.total, best.seed, best.shared, seed_article.title, seed_article.blog_id, seeds.saved"
      " FROM best JOIN articles a ON a.id = best.candidate JOIN blogs b ON b.id = a.blog_id"
      " JOIN seeds ON seeds.article_id = best.seed JOIN articles seed_article ON seed_article.id = best.seed"
      " WHERE a.visible = 1 AND a.display_at >= :since"
      " AND NOT EXISTS (SELECT 1 FROM votes v WHERE v.reader_id = :filter_reader AND v.article_id = a.id)"
      " AND NOT EXISTS (SELECT 1 FROM reading_list r WHERE r.reader_id = :filter_reader AND r.article_id = "
      "a.id)"
      "{}"
      " ORDER BY best.total DESC, a.display_at DESC, a.id DESC LIMIT :limit",
      kSeeds, reader_filter_sql(filter));
}

std::int64_t stored(std::uint64_t term) {
  return std::bit_cast<std::int64_t>(term);
}

// Term by term, heaviest first (ties: the newer id first, as SQLite's similar_postings_weight read backwards
// gives them), the first per_term of each.
std::vector<SimilarPostingRow> heaviest_postings(std::vector<SimilarPostingRow> rows, int per_term) {
  std::sort(rows.begin(), rows.end(), [](const SimilarPostingRow& a, const SimilarPostingRow& b) {
    if (a.term != b.term) return a.term < b.term;
    if (a.weight != b.weight) return a.weight > b.weight;
    return a.article_id > b.article_id;
  });
  std::size_t kept = 0;
  int of_term = 0;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    of_term = i > 0 && rows[i].term == rows[i - 1].term ? of_term + 1 : 0;
    if (of_term < per_term) rows[kept++] = rows[i];
  }
  rows.resize(kept);
  return rows;
}

// Which of `ids` are articles still.
Result<std::unordered_set<std::int64_t>> existing_articles(Connection& c, std::span<const std::int64_t> ids) {
  auto rows = run_prepared(c, kExistingArticles, "cannot save similar articles",
                           [&](Query& q) { q.bind(":ids", id_array(ids)); });
  if (!rows) return std::unexpected(rows.error());
  std::unordered_set<std::int64_t> out;
  for (int r = 0; r < rows->size(); ++r) out.insert(rows->int64(r, 0));
  return out;
}

// One posting of a term as the batch leaves it.
struct HeldPosting {
  std::int64_t article_id = 0;
  double weight = 0;
  bool stored = false;   // in the table before the batch
  bool written = false;  // to be inserted, or its weight updated
};

// The postings of some terms (their stored keys) as read under kLockSimilarWrites, and which terms were read
// (a term without postings has no entry in `held`).
struct HeldPostings {
  std::unordered_map<std::int64_t, std::vector<HeldPosting>> held;
  std::unordered_set<std::int64_t> read;
};

// Reads every posting of `terms` (stored keys, distinct) into `into`; a failure is told as `what`.
Result<void> read_postings(Connection& c, std::span<const std::int64_t> terms, HeldPostings& into,
                           std::string_view what) {
  if (terms.empty()) return {};
  auto rows = run_prepared(c, kTermPostings, what, [&](Query& q) { q.bind(":terms", id_array(terms)); });
  if (!rows) return std::unexpected(rows.error());
  into.held.reserve(into.held.size() + terms.size());
  for (int r = 0; r < rows->size(); ++r) {
    into.held[rows->int64(r, 0)].push_back(
        {.article_id = rows->int64(r, 1), .weight = rows->real(r, 2), .stored = true});
  }
  into.read.insert(terms.begin(), terms.end());
  return {};
}

// The stored keys of `terms`, sorted and distinct, as read_postings takes them.
std::vector<std::int64_t> term_keys(std::span<const std::uint64_t> terms) {
  std::vector<std::int64_t> keys;
  keys.reserve(terms.size());
  for (const auto term : terms) keys.push_back(stored(term));
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  return keys;
}

// Every posting `read` holds, as rows.
std::vector<SimilarPostingRow> posting_rows(const HeldPostings& read) {
  std::vector<SimilarPostingRow> rows;
  for (const auto& [term, held] : read.held) {
    for (const HeldPosting& p : held)
      rows.push_back(
          {.article_id = p.article_id, .term = std::bit_cast<std::uint64_t>(term), .weight = p.weight});
  }
  return rows;
}

// Posts each write's article under each of its terms, keeping each term's `postings_per_term` heaviest
// postings, in the writes' order: a newcomer at the cap replaces the lightest (the lowest weight, then the
// lowest id) if it is heavier, and is left out otherwise; an article posted already has its weight updated.
// The caller holds kLockSimilarWrites, so the terms' postings (those in `postings_read`, read under the same
// lock, and the rest read here) are the table's until the commit: the decisions are made on them in memory,
// then written in two statements for the whole batch, where a read of the term's postings per article took
// most of the server's time in a catch-up.
Result<void> post_all(Connection& c, std::span<const SimilarWrite> writes, HeldPostings postings_read) {
  constexpr std::string_view kWhat = "cannot save similar articles";
  std::vector<std::int64_t> terms, ids;
  for (const SimilarWrite& write : writes) {
    if (write.postings.empty()) continue;
    ids.push_back(write.article_id);
    for (const auto& [term, weight] : write.postings) {
      if (!postings_read.read.contains(stored(term))) terms.push_back(stored(term));
    }
  }
  if (ids.empty()) return {};
  std::sort(terms.begin(), terms.end());
  terms.erase(std::unique(terms.begin(), terms.end()), terms.end());
  // An article deleted since it was read posts nothing, so it takes no other article's place either.
  auto alive = existing_articles(c, ids);
  if (!alive) return std::unexpected(alive.error());
  if (auto read = read_postings(c, terms, postings_read, kWhat); !read) return read;
  auto& held = postings_read.held;
  std::vector<std::int64_t> victim_terms, victims;
  for (const SimilarWrite& write : writes) {
    if (!alive->contains(write.article_id)) continue;
    const auto cap = static_cast<std::size_t>(std::max(0, write.postings_per_term));
    for (const auto& [term, weight] : write.postings) {
      const std::int64_t key = stored(term);
      std::vector<HeldPosting>& postings = held[key];
      const auto mine = std::find_if(postings.begin(), postings.end(),
                                     [&](const HeldPosting& p) { return p.article_id == write.article_id; });
      if (mine != postings.end()) {
        mine->weight = weight;
        mine->written = true;
        continue;
      }
      if (postings.size() >= cap) {
        const auto lightest = std::min_element(
            postings.begin(), postings.end(), [](const HeldPosting& a, const HeldPosting& b) {
              return a.weight != b.weight ? a.weight < b.weight : a.article_id < b.article_id;
            });
        if (lightest == postings.end() || weight <= lightest->weight) continue;
        if (lightest->stored) {
          victim_terms.push_back(key);
          victims.push_back(lightest->article_id);
        }
        postings.erase(lightest);
      }
      postings.push_back({.article_id = write.article_id, .weight = weight, .written = true});
    }
  }
  if (!victims.empty()) {
    if (auto ok = run_query(
            c, kDeletePostings, kWhat,
            [&](Query& q) { q.bind(":terms", id_array(victim_terms)).bind(":articles", id_array(victims)); });
        !ok)
      return std::unexpected(ok.error());
  }
  std::vector<std::int64_t> insert_terms, insert_articles;
  std::vector<double> insert_weights;
  for (const auto& [term, postings] : held) {
    for (const HeldPosting& p : postings) {
      if (!p.written) continue;
      insert_terms.push_back(term);
      insert_articles.push_back(p.article_id);
      insert_weights.push_back(p.weight);
    }
  }
  if (insert_terms.empty()) return {};
  auto inserted = run_prepared(c, kInsertPostings, kWhat, [&](Query& q) {
    q.bind(":terms", id_array(insert_terms))
        .bind(":articles", id_array(insert_articles))
        .bind(":weights", id_array(insert_weights));
  });
  if (!inserted) return std::unexpected(inserted.error());
  return {};
}

// One pick on an article's list as the batch leaves it.
struct HeldPick {
  std::int64_t similar_id = 0;
  double score = 0;
  std::string_view shared;
  bool stored = false;   // in the table before the batch
  bool written = false;  // to be inserted, or its score updated
};

// Each write's picks replace its article's list, then its offers join other articles' lists, each list
// keeping its `picks_per_article` best: an offer to a full list replaces the lowest pick (the lowest score,
// then the lowest id) if it scores higher, and is left out otherwise; an article on the list already has its
// score updated. As for the postings, the lists are read once under kLockSimilarWrites, the decisions made
// in memory in the writes' order, and written in three statements for the whole batch, where each article
// took three round trips. Picks of or to articles deleted since they were read are left out.
Result<void> pick_all(Connection& c, std::span<const SimilarWrite> writes) {
  constexpr std::string_view kWhat = "cannot save similar articles";
  std::vector<std::int64_t> lists, ids;
  for (const SimilarWrite& write : writes) {
    lists.push_back(write.article_id);
    ids.push_back(write.article_id);
    for (const auto& pick : write.picks) ids.push_back(pick.similar_id);
    for (const auto& offer : write.offers) {
      lists.push_back(offer.article_id);
      ids.push_back(offer.article_id);
    }
  }
  if (lists.empty()) return {};
  std::sort(lists.begin(), lists.end());
  lists.erase(std::unique(lists.begin(), lists.end()), lists.end());
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  auto alive = existing_articles(c, ids);
  if (!alive) return std::unexpected(alive.error());
  auto rows = run_prepared(c, kListPicks, kWhat, [&](Query& q) { q.bind(":articles", id_array(lists)); });
  if (!rows) return std::unexpected(rows.error());
  std::unordered_map<std::int64_t, std::vector<HeldPick>> held;
  held.reserve(lists.size());
  for (int r = 0; r < rows->size(); ++r)
    held[rows->int64(r, 0)].push_back(
        {.similar_id = rows->int64(r, 1), .score = rows->real(r, 2), .shared = {}, .stored = true});

  std::vector<std::int64_t> cleared, victim_lists, victims;
  const auto find = [](std::vector<HeldPick>& list, std::int64_t similar_id) {
    return std::find_if(list.begin(), list.end(),
                        [&](const HeldPick& p) { return p.similar_id == similar_id; });
  };
  for (const SimilarWrite& write : writes) {
    std::vector<HeldPick>& own = held[write.article_id];
    if (!own.empty()) cleared.push_back(write.article_id);
    own.clear();
    const auto kept = std::span(write.picks)
                          .first(std::min(write.picks.size(),
                                          static_cast<std::size_t>(std::max(0, write.picks_per_article))));
    for (const SimilarPickRow& pick : kept) {
      if (!alive->contains(pick.article_id) || !alive->contains(pick.similar_id)) continue;
      std::vector<HeldPick>& list = held[pick.article_id];
      if (auto it = find(list, pick.similar_id); it != list.end()) {
        *it = {.similar_id = pick.similar_id,
               .score = pick.score,
               .shared = pick.shared,
               .stored = it->stored,
               .written = true};
      } else {
        list.push_back(
            {.similar_id = pick.similar_id, .score = pick.score, .shared = pick.shared, .written = true});
      }
    }
    const auto cap = static_cast<std::size_t>(std::max(0, write.picks_per_article));
    for (const SimilarPickRow& offer : write.offers) {
      if (!alive->contains(offer.article_id) || !alive->contains(offer.similar_id)) continue;
      std::vector<HeldPick>& list = held[offer.article_id];
      if (auto it = find(list, offer.similar_id); it != list.end()) {
        *it = {.similar_id = offer.similar_id,
               .score = offer.score,
               .shared = offer.shared,
               .stored = it->stored,
               .written = true};
        continue;
      }
      if (list.size() >= cap) {
        const auto lowest =
            std::min_element(list.begin(), list.end(), [](const HeldPick& a, const HeldPick& b) {
              return a.score != b.score ? a.score < b.score : a.similar_id < b.similar_id;
            });
        if (lowest == list.end() || offer.score <= lowest->score) continue;
        if (lowest->stored) {
          victim_lists.push_back(offer.article_id);
          victims.push_back(lowest->similar_id);
        }
        list.erase(lowest);
      }
      list.push_back(
          {.similar_id = offer.similar_id, .score = offer.score, .shared = offer.shared, .written = true});
    }
  }
  if (!cleared.empty()) {
    if (auto ok =
            run_query(c, kDeleteLists, kWhat, [&](Query& q) { q.bind(":articles", id_array(cleared)); });
        !ok)
      return std::unexpected(ok.error());
  }
  if (!victims.empty()) {
    if (auto ok =
            run_query(c, kDeletePickPairs, kWhat,
                      [&](Query& q) {
                        q.bind(":articles", id_array(victim_lists)).bind(":similars", id_array(victims));
                      });
        !ok)
      return std::unexpected(ok.error());
  }
  std::vector<std::int64_t> articles, similars;
  std::vector<double> scores;
  std::vector<std::string_view> shared;
  for (const auto& [article, list] : held) {
    for (const HeldPick& pick : list) {
      if (!pick.written) continue;
      articles.push_back(article);
      similars.push_back(pick.similar_id);
      scores.push_back(pick.score);
      shared.push_back(pick.shared);
    }
  }
  if (articles.empty()) return {};
  auto inserted = run_prepared(c, kInsertPicks, kWhat, [&](Query& q) {
    q.bind(":articles", id_array(articles)).bind(":similars", id_array(similars));
    q.bind(":scores", id_array(scores)).bind(":shared", text_array(shared));
  });
  if (!inserted) return std::unexpected(inserted.error());
  return {};
}

}  // namespace

Result<SimilarTermStats> PgSimilarStore::similar_term_frequencies(std::span<const std::uint32_t> buckets) {
  std::vector<std::int64_t> keys(buckets.begin(), buckets.end());
  keys.push_back(kDocumentsBucket);
  auto rows = run_pooled(db_.pool(), kSelectTerms, "cannot read term frequencies",
                         [&](Query& q) { q.prepared().bind(":buckets", id_array(keys)); });
  if (!rows) return std::unexpected(rows.error());
  std::unordered_map<std::int64_t, std::int64_t> stored;
  stored.reserve(static_cast<std::size_t>(rows->size()));
  for (int r = 0; r < rows->size(); ++r) stored[rows->int64(r, 0)] = rows->int64(r, 1);
  return similar_term_stats(buckets, stored);
}

Result<void> PgSimilarStore::add_similar_terms(std::span<const SimilarTermCount> counts,
                                               std::int64_t documents) {
  if (counts.empty() && documents == 0) return {};
  std::vector<std::int64_t> keys, added;
  keys.reserve(counts.size() + 1);
  added.reserve(counts.size() + 1);
  if (documents != 0) {  // kDocumentsBucket (-1) sorts before every bucket
    keys.push_back(kDocumentsBucket);
    added.push_back(documents);
  }
  for (const auto& c : counts) {
    keys.push_back(c.bucket);
    added.push_back(c.articles);
  }
  auto rows = run_pooled(db_.pool(), kAddTerms, "cannot count terms", [&](Query& q) {
    q.prepared().bind(":buckets", id_array(keys)).bind(":counts", id_array(added));
  });
  if (!rows) return std::unexpected(rows.error());
  return {};
}

Result<std::vector<SimilarPostingRow>> PgSimilarStore::similar_postings(std::span<const std::uint64_t> terms,
                                                                        int per_term) {
  if (terms.empty() || per_term <= 0) return std::vector<SimilarPostingRow>{};
  Pool::Lease lease = db_.pool().acquire();
  HeldPostings read;
  if (auto ok = read_postings(*lease, term_keys(terms), read, "cannot read postings"); !ok)
    return std::unexpected(ok.error());
  return heaviest_postings(posting_rows(read), per_term);
}

Result<std::vector<SimilarCandidateRow>> PgSimilarStore::similar_candidates(
    std::span<const std::int64_t> ids) {
  std::vector<SimilarCandidateRow> out;
  if (ids.empty()) return out;
  auto rows = run_pooled(db_.pool(), kSelectCandidates, "cannot read candidates",
                         [&](Query& q) { q.prepared().bind(":ids", id_array(ids)); });
  if (!rows) return std::unexpected(rows.error());
  for (int r = 0; r < rows->size(); ++r) {
    out.push_back({.id = rows->int64(r, 0),
                   .blog_id = rows->int64(r, 1),
                   .simhash = std::bit_cast<std::uint64_t>(rows->int64(r, 2)),
                   .visible = rows->flag(r, 3)});
  }
  return out;
}

Result<void> PgSimilarStore::save_similar_all(std::span<const SimilarWrite> writes) {
  constexpr std::string_view kWhat = "cannot save similar articles";
  return in_transaction(db_.pool(), [&](Connection& c) -> Result<void> {
    if (auto ok = run_prepared(c, kLockSimilarWrites, kWhat, [](Query&) {}); !ok)
      return std::unexpected(ok.error());
    if (auto ok = post_all(c, writes, {}); !ok) return ok;
    return pick_all(c, writes);
  });
}

Result<void> PgSimilarStore::index_similar(std::span<const std::uint64_t> terms, int per_term,
                                           const SimilarDecision& decide) {
  const std::vector<std::int64_t> keys = term_keys(terms);
  // The postings are read once, under the lock: the batch's scoring and the caps its writes keep both work
  // from that read, where a read before the lock for the scoring and another under it for the caps took as
  // much of the server's time as the writes (docs/perf.md, "The originals' index, and the similar articles'
  // postings read once").
  return in_transaction(db_.pool(), [&](Connection& c) -> Result<void> {
    if (auto ok = run_prepared(c, kLockSimilarWrites, "cannot save similar articles", [](Query&) {}); !ok)
      return std::unexpected(ok.error());
    HeldPostings read;
    if (auto ok = read_postings(c, keys, read, "cannot save similar articles"); !ok) return ok;
    auto writes = decide(heaviest_postings(posting_rows(read), per_term));
    if (!writes) return std::unexpected(writes.error());
    if (auto ok = post_all(c, *writes, std::move(read)); !ok) return ok;
    return pick_all(c, *writes);
  });
}

Result<std::vector<SimilarArticle>> PgSimilarStore::similar_articles(std::int64_t article_id, int limit) {
  auto rows = run_pooled(db_.pool(), kSelectSimilar, "cannot read similar articles",
                         [&](Query& q) { q.bind(":article", article_id).bind(":limit", limit); });
  if (!rows) return std::unexpected(rows.error());
  std::vector<SimilarArticle> out;
  for (int r = 0; r < rows->size(); ++r) {
    out.push_back({.view = read_article_view(*rows, r, db_.bodies(), PgPoolBodyDictionaries(db_.pool())),
                   .score = rows->real(r, kArticleColumnCount),
                   .shared = rows->string(r, kArticleColumnCount + 1)});
  }
  return out;
}

Result<void> PgSimilarStore::clear_similar() {
  constexpr std::string_view kWhat = "cannot clear similar articles";
  return in_transaction(db_.pool(), [&](Connection& c) -> Result<void> {
    for (const char* sql : {"DELETE FROM similar_articles", "DELETE FROM similar_postings",
                            "DELETE FROM similar_terms", "DELETE FROM similar_queue"}) {
      if (auto ok = run_query(c, sql, kWhat, [](Query&) {}); !ok) return std::unexpected(ok.error());
    }
    return {};
  });
}

// An article with its text, which the similar-articles index is made from. A body that cannot be read gives
// no text (the article finds no similar ones) rather than stopping the index for every other article.
ArticleView PgSimilarStore::view_with_text(const Rows& rows, int row,
                                           const BodyDictionarySource& dictionaries) {
  ArticleView view = read_article_fields(rows, row);
  if (auto body =
          stored_body(db_.bodies(), dictionaries, rows, row, kArticleFrameColumn, kArticleColumnCount)) {
    view.article.text = std::move(body->text);
    view.article.excerpt = std::move(body->excerpt);
  }
  return view;
}

Result<std::vector<ArticleView>> PgSimilarStore::articles_for_similar(std::int64_t after_id, int limit) {
  auto rows = run_pooled(db_.pool(), kSelectForSimilar, "cannot read articles",
                         [&](Query& q) { q.bind(":after", after_id).bind(":limit", limit); });
  if (!rows) return std::unexpected(rows.error());
  std::vector<ArticleView> out;
  const PgPoolBodyDictionaries dictionaries(db_.pool());
  for (int r = 0; r < rows->size(); ++r) out.push_back(view_with_text(*rows, r, dictionaries));
  return out;
}

Result<void> PgSimilarStore::queue_similar(std::span<const std::int64_t> ids) {
  if (ids.empty()) return {};
  auto done = run_pooled(db_.pool(), kQueue, "cannot queue articles for similar articles",
                         [&](Query& q) { q.prepared().bind(":ids", id_array(ids)); });
  if (!done) return std::unexpected(done.error());
  return {};
}

Result<SimilarBacklog> PgSimilarStore::similar_backlog(int limit) {
  constexpr std::string_view kWhat = "cannot read the similar-articles queue";
  SimilarBacklog out;
  auto lease = db_.pool().acquire();
  auto ids = run_query(*lease, kSelectQueued, kWhat, [&](Query& q) { q.bind(":limit", limit); });
  if (!ids) return std::unexpected(ids.error());
  for (int r = 0; r < ids->size(); ++r) out.queued.push_back(ids->int64(r, 0));
  if (out.queued.empty()) return out;
  auto rows = run_query(*lease, kSelectQueuedArticles, kWhat,
                        [&](Query& q) { q.bind(":ids", id_array(out.queued)); });
  if (!rows) return std::unexpected(rows.error());
  const PgBodyDictionaries dictionaries(*lease);
  for (int r = 0; r < rows->size(); ++r) out.articles.push_back(view_with_text(*rows, r, dictionaries));
  return out;
}

Result<void> PgSimilarStore::unqueue_similar(std::span<const std::int64_t> ids) {
  if (ids.empty()) return {};
  auto done = run_pooled(db_.pool(), kUnqueue, "cannot take articles off the similar-articles queue",
                         [&](Query& q) { q.bind(":ids", id_array(ids)); });
  if (!done) return std::unexpected(done.error());
  return {};
}

Result<std::int64_t> PgSimilarStore::similar_queue_size() {
  auto rows =
      run_pooled(db_.pool(), "SELECT COUNT(*) FROM similar_queue", "cannot count the similar-articles queue");
  if (!rows) return std::unexpected(rows.error());
  return rows->int64(0, 0);
}

Result<ForYou> PgSimilarStore::for_you(const ForYouQuery& query) {
  ForYou out;
  auto lease = db_.pool().acquire();
  auto seeds = run_query(*lease, kCountSeeds, "cannot read the reader's votes and saves",
                         [&](Query& q) { q.bind(":reader", query.reader_id); });
  if (!seeds) return std::unexpected(seeds.error());
  if (!seeds->empty()) out.seeds = seeds->int64(0, 0);
  // Read articles are always left out: the page is for what the reader has not read yet.
  const ReaderFilter filter{.reader_id = query.reader_id, .hide_read = true};
  auto rows = run_query(*lease, for_you_sql(filter), "cannot read picks for a reader", [&](Query& q) {
    bind_reader_filter(q, filter);
    q.bind(":max_seeds", query.max_seeds).bind(":since", query.since).bind(":limit", query.limit);
  });
  if (!rows) return std::unexpected(rows.error());
  for (int r = 0; r < rows->size(); ++r) {
    ForYouPick pick;
    pick.article = read_article_view(*rows, r, db_.bodies(), PgBodyDictionaries(*lease));
    pick.score = rows->real(r, kArticleColumnCount);
    pick.because.id = rows->int64(r, kArticleColumnCount + 1);
    pick.shared = rows->string(r, kArticleColumnCount + 2);
    pick.because.title = rows->string(r, kArticleColumnCount + 3);
    pick.because.blog_id = rows->int64(r, kArticleColumnCount + 4);
    pick.because_saved = rows->flag(r, kArticleColumnCount + 5);
    out.picks.push_back(std::move(pick));
  }
  return out;
}

}  // namespace longread::storage::postgres
