#include "storage/sqlite/similar.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <unordered_map>

#include "storage/sqlite/article_rows.h"
#include "storage/sqlite/query_helpers.h"
#include "storage/values.h"

namespace longread::storage::sqlite {
namespace {

// One statement for all of a batch's buckets (as a JSON array): a batch has thousands, and a statement per
// bucket cost more than the B-tree updates themselves. ("WHERE true" lets SQLite parse ON CONFLICT after
// INSERT ... SELECT: https://sqlite.org/lang_upsert.html, "Parsing Ambiguity".)
// :counts is a JSON array of [bucket, how many] pairs.
constexpr const char* kAddTerms =
    "INSERT INTO similar_terms (bucket, df)"
    " SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(:counts) WHERE true"
    " ON CONFLICT (bucket) DO UPDATE SET df = df + excluded.df";
constexpr const char* kSelectTerms =
    "SELECT bucket, df FROM similar_terms WHERE bucket IN (SELECT value FROM json_each(:buckets))";

// The heaviest postings of one term: a range of similar_postings_weight read backwards.
constexpr const char* kSelectPostings =
    "SELECT article_id, weight FROM similar_postings WHERE term = :term ORDER BY weight DESC, article_id DESC"
    " LIMIT :limit";
constexpr const char* kPostingStats = "SELECT COUNT(*), MIN(weight) FROM similar_postings WHERE term = :term";
constexpr const char* kIsPosted =
    "SELECT 1 FROM similar_postings WHERE term = :term AND article_id = :article";
constexpr const char* kLightestPosting =
    "SELECT article_id FROM similar_postings WHERE term = :term ORDER BY weight, article_id LIMIT 1";
constexpr const char* kDeletePosting =
    "DELETE FROM similar_postings WHERE term = :term AND article_id = :article";
// The article may have been deleted since it was read: then nothing is written (rather than a foreign-key
// failure rolling back the whole write).
constexpr const char* kInsertPosting =
    "INSERT OR REPLACE INTO similar_postings (term, article_id, weight)"
    " SELECT :term, :article, :weight WHERE EXISTS (SELECT 1 FROM articles WHERE id = :article)";

constexpr const char* kSelectCandidates =
    "SELECT id, blog_id, simhash, visible FROM articles WHERE id IN (SELECT value FROM json_each(:ids))";

constexpr const char* kDeletePicks = "DELETE FROM similar_articles WHERE article_id = :article";
constexpr const char* kInsertPick =
    "INSERT OR REPLACE INTO similar_articles (article_id, similar_id, score, shared)"
    " SELECT :article, :similar, :score, :shared WHERE EXISTS (SELECT 1 FROM articles WHERE id = :article)"
    " AND EXISTS (SELECT 1 FROM articles WHERE id = :similar)";
constexpr const char* kPickStats =
    "SELECT COUNT(*), MIN(score) FROM similar_articles WHERE article_id = :article";
constexpr const char* kIsPick =
    "SELECT 1 FROM similar_articles WHERE article_id = :article AND similar_id = :similar";
constexpr const char* kLowestPick =
    "SELECT similar_id FROM similar_articles WHERE article_id = :article ORDER BY score, similar_id LIMIT 1";
constexpr const char* kDeletePick =
    "DELETE FROM similar_articles WHERE article_id = :article AND similar_id = :similar";

// Picks hidden since they were stored (junk, duplicate, held) or of the article's own blog are left out
// here, so the page never shows one whatever happened after the crawl.
constexpr const char* kSelectSimilar =
    "SELECT " LONGREAD_ARTICLE_COLUMNS_HEAD " '', '', ''," LONGREAD_ARTICLE_COLUMNS_TAIL
    ", s.score, s.shared FROM similar_articles s JOIN articles a ON a.id = s.similar_id"
    " JOIN blogs b ON b.id = a.blog_id"
    " WHERE s.article_id = :article AND a.visible = 1"
    " AND a.blog_id <> (SELECT blog_id FROM articles WHERE id = :article)"
    " ORDER BY s.score DESC, a.id DESC LIMIT :limit";

constexpr const char* kSelectForSimilar =
    "SELECT " LONGREAD_ARTICLE_COLUMNS_HEAD
    " '', '', longread_body_part(a.body, 2, a.text)," LONGREAD_ARTICLE_COLUMNS_TAIL
    " FROM articles a JOIN blogs b ON b.id = a.blog_id"
    " WHERE a.id > :after AND a.visible = 1 ORDER BY a.id LIMIT :limit";

// The queue (migration 0032): an article deleted meanwhile is never queued (rather than a foreign-key
// failure rolling back the crawl's queuing).
constexpr const char* kQueue =
    "INSERT OR IGNORE INTO similar_queue (article_id)"
    " SELECT value FROM json_each(:ids) WHERE EXISTS (SELECT 1 FROM articles WHERE id = value)";
constexpr const char* kSelectQueued = "SELECT article_id FROM similar_queue ORDER BY article_id LIMIT :limit";
constexpr const char* kSelectQueuedArticles =
    "SELECT " LONGREAD_ARTICLE_COLUMNS_HEAD
    " '', '', longread_body_part(a.body, 2, a.text)," LONGREAD_ARTICLE_COLUMNS_TAIL
    " FROM articles a JOIN blogs b ON b.id = a.blog_id"
    " WHERE a.id IN (SELECT value FROM json_each(:ids)) AND a.visible = 1 ORDER BY a.id";
constexpr const char* kUnqueue =
    "DELETE FROM similar_queue WHERE article_id IN (SELECT value FROM json_each(:ids))";

std::string json_ids(std::span<const std::int64_t> ids) {
  std::string out = "[";
  for (std::size_t i = 0; i < ids.size(); ++i) {
    if (i > 0) out += ',';
    out += std::to_string(ids[i]);
  }
  return out + "]";
}

std::int64_t stored(std::uint64_t term) {
  return std::bit_cast<std::int64_t>(term);
}

Result<bool> exists(Connection& db, const char* sql, auto&& bind) {
  auto q = db.query(sql);
  if (!q) return std::unexpected(q.error());
  bind(*q);
  return q->step();
}

// Adds one posting within the term's cap: see SimilarWrite::postings.
Result<void> post(Connection& writer, std::int64_t article_id, std::uint64_t term, double weight, int cap) {
  const auto posted = exists(writer, kIsPosted,
                             [&](Query& q) { q.bind(":term", stored(term)).bind(":article", article_id); });
  if (!posted) return std::unexpected(posted.error());
  if (!*posted) {
    auto stats = writer.query(kPostingStats);
    if (!stats) return std::unexpected(stats.error());
    stats->bind(":term", stored(term));
    auto row = stats->step();
    if (!row) return std::unexpected(row.error());
    const auto count = stats->int64(0);
    const double lightest = stats->is_null(1) ? 0 : stats->real(1);
    if (count >= cap) {
      if (weight <= lightest) return {};
      auto pick = writer.query(kLightestPosting);
      if (!pick) return std::unexpected(pick.error());
      pick->bind(":term", stored(term));
      auto found = pick->step();
      if (!found) return std::unexpected(found.error());
      if (*found) {
        const auto victim = pick->int64(0);
        auto del = writer.query(kDeletePosting);
        if (!del) return std::unexpected(del.error());
        del->bind(":term", stored(term)).bind(":article", victim);
        if (auto ok = del->run(); !ok) return ok;
      }
    }
  }
  auto insert = writer.query(kInsertPosting);
  if (!insert) return std::unexpected(insert.error());
  insert->bind(":term", stored(term)).bind(":article", article_id).bind(":weight", weight);
  return insert->run();
}

Result<void> insert_pick(Connection& writer, const SimilarPickRow& pick) {
  auto q = writer.query(kInsertPick);
  if (!q) return std::unexpected(q.error());
  q->bind(":article", pick.article_id)
      .bind(":similar", pick.similar_id)
      .bind(":score", pick.score)
      .bind(":shared", pick.shared);
  return q->run();
}

// Offers one pick to an older article's list: see SimilarWrite::offers.
Result<void> offer(Connection& writer, const SimilarPickRow& pick, int max_picks) {
  const auto listed = exists(writer, kIsPick, [&](Query& q) {
    q.bind(":article", pick.article_id).bind(":similar", pick.similar_id);
  });
  if (!listed) return std::unexpected(listed.error());
  if (!*listed) {
    auto stats = writer.query(kPickStats);
    if (!stats) return std::unexpected(stats.error());
    stats->bind(":article", pick.article_id);
    auto row = stats->step();
    if (!row) return std::unexpected(row.error());
    const auto count = stats->int64(0);
    const double lowest = stats->is_null(1) ? 0 : stats->real(1);
    if (count >= max_picks) {
      if (pick.score <= lowest) return {};
      auto low = writer.query(kLowestPick);
      if (!low) return std::unexpected(low.error());
      low->bind(":article", pick.article_id);
      auto found = low->step();
      if (!found) return std::unexpected(found.error());
      if (*found) {
        const auto victim = low->int64(0);
        auto del = writer.query(kDeletePick);
        if (!del) return std::unexpected(del.error());
        del->bind(":article", pick.article_id).bind(":similar", victim);
        if (auto ok = del->run(); !ok) return ok;
      }
    }
  }
  return insert_pick(writer, pick);
}

}  // namespace

Result<SimilarTermStats> similar_term_frequencies(Connection& db, std::span<const std::uint32_t> buckets) {
  std::vector<std::int64_t> keys(buckets.begin(), buckets.end());
  keys.push_back(kDocumentsBucket);
  std::unordered_map<std::int64_t, std::int64_t> stored;
  auto q = db.query(kSelectTerms);
  if (!q) return db_error("cannot read term frequencies", q.error());
  q->bind(":buckets", json_ids(keys));
  for (;;) {
    auto row = q->step();
    if (!row) return db_error("cannot read term frequencies", row.error());
    if (!*row) break;
    stored[q->int64(0)] = q->int64(1);
  }
  return similar_term_stats(buckets, stored);
}

Result<void> add_similar_terms(Connection& writer, std::span<const SimilarTermCount> counts,
                               std::int64_t documents) {
  if (counts.empty() && documents == 0) return {};
  std::string json = "[";
  if (documents != 0) json += fmt::format("[{},{}]", kDocumentsBucket, documents);
  for (const auto& c : counts)
    json += fmt::format("{}[{},{}]", json.size() > 1 ? "," : "", c.bucket, c.articles);
  json += "]";
  auto q = writer.query(kAddTerms);
  if (!q) return db_error("cannot count terms", q.error());
  q->bind(":counts", json);
  if (auto done = q->run(); !done) return db_error("cannot count terms", done.error());
  return {};
}

Result<std::vector<SimilarPostingRow>> similar_postings(Connection& db, std::span<const std::uint64_t> terms,
                                                        int per_term) {
  std::vector<SimilarPostingRow> out;
  for (const auto term : terms) {
    auto q = db.query(kSelectPostings);  // one use per term: a Query resets its statement when it ends
    if (!q) return db_error("cannot read postings", q.error());
    q->bind(":term", stored(term)).bind(":limit", per_term);
    for (;;) {
      auto row = q->step();
      if (!row) return db_error("cannot read postings", row.error());
      if (!*row) break;
      out.push_back({.article_id = q->int64(0), .term = term, .weight = q->real(1)});
    }
  }
  return out;
}

Result<std::vector<SimilarCandidateRow>> similar_candidates(Connection& db,
                                                            std::span<const std::int64_t> ids) {
  std::vector<SimilarCandidateRow> out;
  if (ids.empty()) return out;
  auto q = db.query(kSelectCandidates);
  if (!q) return db_error("cannot read candidates", q.error());
  q->bind(":ids", json_ids(ids));
  for (;;) {
    auto row = q->step();
    if (!row) return db_error("cannot read candidates", row.error());
    if (!*row) break;
    out.push_back({.id = q->int64(0),
                   .blog_id = q->int64(1),
                   .simhash = std::bit_cast<std::uint64_t>(q->int64(2)),
                   .visible = q->int64(3) != 0});
  }
  return out;
}

Result<void> save_similar_all(Connection& writer, std::span<const SimilarWrite> writes) {
  auto tx = Transaction::begin(writer);
  if (!tx) return db_error("cannot save similar articles", tx.error());
  for (const SimilarWrite& write : writes) {
    for (const auto& [term, weight] : write.postings) {
      if (auto ok = post(writer, write.article_id, term, weight, write.postings_per_term); !ok)
        return db_error("cannot save similar articles", ok.error());
    }
    {
      auto del = writer.query(kDeletePicks);
      if (!del) return db_error("cannot save similar articles", del.error());
      del->bind(":article", write.article_id);
      if (auto ok = del->run(); !ok) return db_error("cannot save similar articles", ok.error());
    }
    int picks = 0;
    for (const auto& pick : write.picks) {
      if (picks++ >= write.picks_per_article) break;
      if (auto ok = insert_pick(writer, pick); !ok)
        return db_error("cannot save similar articles", ok.error());
    }
    for (const auto& pick : write.offers) {
      if (auto ok = offer(writer, pick, write.picks_per_article); !ok)
        return db_error("cannot save similar articles", ok.error());
    }
  }
  if (auto ok = tx->commit(); !ok) return db_error("cannot save similar articles", ok.error());
  return {};
}

Result<std::vector<SimilarArticle>> similar_articles(Connection& db, std::int64_t article_id, int limit) {
  std::vector<SimilarArticle> out;
  auto q = db.query(kSelectSimilar);
  if (!q) return db_error("cannot read similar articles", q.error());
  q->bind(":article", article_id).bind(":limit", limit);
  for (;;) {
    auto row = q->step();
    if (!row) return db_error("cannot read similar articles", row.error());
    if (!*row) break;
    out.push_back({.view = read_article_view(*q),
                   .score = q->real(kArticleColumnCount),
                   .shared = q->text(kArticleColumnCount + 1)});
  }
  return out;
}

Result<void> clear_similar(Connection& writer) {
  auto tx = Transaction::begin(writer);
  if (!tx) return db_error("cannot clear similar articles", tx.error());
  if (auto ok =
          writer.exec("DELETE FROM similar_articles; DELETE FROM similar_postings; DELETE FROM similar_terms;"
                      " DELETE FROM similar_queue");
      !ok)
    return db_error("cannot clear similar articles", ok.error());
  if (auto ok = tx->commit(); !ok) return db_error("cannot clear similar articles", ok.error());
  return {};
}

Result<std::vector<ArticleView>> articles_for_similar(Connection& db, std::int64_t after_id, int limit) {
  std::vector<ArticleView> out;
  auto q = db.query(kSelectForSimilar);
  if (!q) return db_error("cannot read articles", q.error());
  q->bind(":after", after_id).bind(":limit", limit);
  for (;;) {
    auto row = q->step();
    if (!row) return db_error("cannot read articles", row.error());
    if (!*row) break;
    out.push_back(read_article_view(*q));
  }
  return out;
}

Result<void> queue_similar(Connection& writer, std::span<const std::int64_t> ids) {
  if (ids.empty()) return {};
  return run(writer, kQueue, "cannot queue articles for similar articles",
             [&](Query& q) { q.bind(":ids", json_ids(ids)); });
}

Result<SimilarBacklog> similar_backlog(Connection& db, int limit) {
  constexpr std::string_view kWhat = "cannot read the similar-articles queue";
  SimilarBacklog out;
  auto ids = read_rows(
      db, kSelectQueued, kWhat, [&](Query& q) { q.bind(":limit", limit); },
      [](const Query& row) { return row.int64(0); });
  if (!ids) return std::unexpected(ids.error());
  out.queued = std::move(*ids);
  if (out.queued.empty()) return out;
  auto q = db.query(kSelectQueuedArticles);
  if (!q) return db_error(kWhat, q.error());
  q->bind(":ids", json_ids(out.queued));
  if (auto ok =
          for_each_row(*q, kWhat, [&](const Query& row) { out.articles.push_back(read_article_view(row)); });
      !ok)
    return std::unexpected(ok.error());
  return out;
}

Result<void> unqueue_similar(Connection& writer, std::span<const std::int64_t> ids) {
  if (ids.empty()) return {};
  return run(writer, kUnqueue, "cannot take articles off the similar-articles queue",
             [&](Query& q) { q.bind(":ids", json_ids(ids)); });
}

Result<std::int64_t> similar_queue_size(Connection& db) {
  return read_int64(db, "SELECT COUNT(*) FROM similar_queue", "cannot count the similar-articles queue");
}

}  // namespace longread::storage::sqlite
