// The SQLite side of ArticleStore::search: FTS5 candidates ranked by longread_rank() and age.
#include "storage/sqlite/sqlite_store.h"

#include <algorithm>
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "storage/search_snippet.h"
#include "storage/search_terms.h"
#include "storage/sqlite/article_rows.h"
#include "storage/sqlite/personal_filters.h"
#include "storage/sqlite/query_helpers.h"

namespace longread::storage::sqlite {
namespace {

// How many of a search word's newest matches are walked to count or estimate its document frequency.
constexpr std::int64_t kSearchFrequencySampleSize = 500;

// Full-text search (migrations 0002/0003, SQLite-specific). The index holds only visible articles, so a
// search ranks and pages over exactly what it may show. Ranking every match by BM25 before taking a page
// costs time in proportion to the matches (1.2-1.8 s for a common word at 1,000,000 articles), so only the
// newest matches are ranked (docs/storage.md, "Search"):
//   1. document frequencies: for each word or phrase, its newest kSearchFrequencySample matches are
//      walked; fewer is its exact count, else the share of the id range they span estimates it;
//   2. candidates: FTS5 walks the query's posting lists from the highest rowid down (ORDER BY rowid DESC is
//      consumed by FTS5 itself) and stops after :candidates matches. Article ids grow with insertion, so
//      these are the most recently stored matches. longread_rank() (search_rank.h: FTS5's BM25, title
//      weighted 10x the text, with the frequencies of step 1) is computed for them alone;
//   3. rank: each candidate's score is ln(relevance) + display_at * ln(2) / half-life, i.e. its BM25
//      relevance halved for every kSearchHalfLifeDays of age; ordered by it (then newest id), paged;
//   4. snippets: for the page only, from its texts, by search_snippet (FTS5's snippet() in longread, with
//      \x01 and \x02 around matches: FTS5's own takes time quadratic in a text's matches, inside one
//      function call the budget below cannot interrupt).
// The rank is never above 0 (IDF is floored at 1e-6), so its negation is a positive relevance; the max()
// only guards ln() against a zero.
// Every step above is bounded, yet a search's cost still depends on the words a visitor types (a phrase of
// common words walks long posting lists): past this it is cut short (kTimeout, "That search took too long").
// At 1,000,000 articles the slowest kind measured takes under 60 ms (docs/perf.md).
constexpr std::chrono::milliseconds kSearchBudget{1000};
constexpr const char* kSearchFrequencySample =
    "SELECT rowid FROM articles_fts WHERE articles_fts MATCH :match ORDER BY rowid DESC LIMIT :sample";
// Two subqueries: SQLite reads a lone MIN() or MAX() from one end of the index, but not both in one query.
constexpr const char* kSearchIdRange =
    "SELECT (SELECT MIN(id) FROM articles), (SELECT MAX(id) FROM articles)";
#define LONGREAD_SEARCH_RANK \
  "ln(max(-c.relevance, 1e-12)) + a.display_at * 0.6931471805599453 / (:half_life_days * 86400.0)"
// The search statement in two parts, a reader's filters between them (search_sql).
constexpr const char* kSearchArticlesHead =
    "SELECT " LONGREAD_ARTICLE_COLUMNS_HEAD " '', '', ''," LONGREAD_ARTICLE_COLUMNS_TAIL
    ", longread_body_part_or_empty(a.body, 2, a.text) FROM ("
    "  SELECT c.id AS id, " LONGREAD_SEARCH_RANK
    " AS rank_score FROM ("
    "    SELECT rowid AS id, longread_rank(articles_fts, 10.0, 1.0, :frequencies) AS relevance"
    "    FROM articles_fts WHERE articles_fts MATCH :match";
constexpr const char* kSearchArticlesTail =
    " ORDER BY rowid DESC LIMIT :candidates"
    "  ) c JOIN articles a ON a.id = c.id"
    "  ORDER BY rank_score DESC, c.id DESC LIMIT :limit OFFSET :offset"
    " ) s JOIN articles a ON a.id = s.id JOIN blogs b ON b.id = a.blog_id"
    " ORDER BY s.rank_score DESC, s.id DESC";

// What a reader typed as FTS5 strings that cannot be a syntax error: each search term (search_terms.h)
// becomes a quoted string, inner quotes doubled (https://sqlite.org/fts5.html#fts5_strings); the strings
// are ANDed.
std::vector<std::string> fts5_phrases(const std::vector<std::string>& terms) {
  std::vector<std::string> phrases;
  for (const std::string& term : terms) {
    std::string& quoted = phrases.emplace_back("\"");
    for (const char c : term) {
      if (c == '"') quoted += '"';
      quoted += c;
    }
    quoted += '"';
  }
  return phrases;
}

// The search statement; with a reader's filters among the FTS5 matches, before the newest :candidates are
// taken, so what the reader muted never uses up the candidates. The filter is a subquery on the article
// row, so FTS5 still walks its rowids from the top and stops at :candidates.
std::string search_sql(const std::optional<ReaderFilter>& reader) {
  std::string sql = kSearchArticlesHead;
  if (reader) {
    sql += " AND EXISTS (SELECT 1 FROM articles x WHERE x.id = articles_fts.rowid" +
           sqlite::reader_filter_sql(*reader, "x") + ")";
  }
  sql += kSearchArticlesTail;
  return sql;
}

// Each phrase's number of matching articles, for longread_rank's IDF, as "df_1 df_2 ...": exact when it
// has at most kSearchFrequencySample matches, else estimated from how much of the id range (ids grow
// with insertion) its newest kSearchFrequencySample matches span. The walk is bounded, unlike FTS5
// bm25()'s count of every match.
Result<std::string> document_frequencies(Connection& db, const std::vector<std::string>& phrases) {
  // With one word or phrase the IDF is a constant factor of every candidate's relevance, a constant
  // term of ln(relevance): the order does not depend on it, so it is not sampled.
  if (phrases.size() == 1) return std::string("1");
  auto range = read_optional(
      db, kSearchIdRange, "cannot search", [](Query&) {},
      [](const Query& q) {
        return std::pair{q.int64(0), q.int64(1)};
      });
  if (!range) return std::unexpected(range.error());
  const auto [min_id, max_id] = range->value_or(std::pair<std::int64_t, std::int64_t>{0, 0});
  std::string out;
  for (const auto& phrase : phrases) {
    auto q = db.query(kSearchFrequencySample);
    if (!q) return db_error("cannot search", q.error());
    q->bind(":match", phrase).bind(":sample", kSearchFrequencySampleSize);
    std::int64_t count = 0, last = max_id;
    auto walked = for_each_row(*q, "cannot search", [&](const Query& row) {
      ++count;
      last = row.int64(0);
    });
    if (!walked) return std::unexpected(walked.error());
    double df = static_cast<double>(count);
    if (count >= kSearchFrequencySampleSize && max_id >= last)
      df = static_cast<double>(count) * static_cast<double>(max_id - min_id + 1) /
           static_cast<double>(max_id - last + 1);
    out += fmt::format("{}{:.0f}", out.empty() ? "" : " ", df);
  }
  return out;
}

}  // namespace

Result<std::vector<SearchHit>> SqliteStore::search(std::string_view query, int limit, int offset,
                                                   const std::optional<ReaderFilter>& reader) {
  const std::vector<std::string> terms = search_terms(query);
  const std::vector<std::string> phrases = fts5_phrases(terms);
  if (phrases.empty()) return std::vector<SearchHit>{};
  std::string match;
  for (const auto& phrase : phrases) match += (match.empty() ? "" : " ") + phrase;
  // The page's hits, each with its whole text where the snippet goes.
  auto found = [&]() -> Result<std::vector<SearchHit>> {
    auto db = readers_.acquire();
    if (!db) return std::unexpected(db.error());
    // The visitor chooses the query, so its cost too: past the budget it is cut short with a clear answer
    // rather than holding a reader connection and a pool thread.
    sqlite::StatementBudget budget(**db, kSearchBudget);
    const auto too_long = [&] {
      return fail(ErrorKind::kTimeout,
                  fmt::format("store: search ran past its {} ms budget", kSearchBudget.count()),
                  "That search took too long. Try more specific words.");
    };
    auto frequencies = document_frequencies(**db, phrases);
    if (!frequencies) return budget.exceeded() ? too_long() : std::unexpected(frequencies.error());
    auto q = (*db)->query(search_sql(reader));
    if (!q) return db_error("cannot search", q.error());
    if (reader) sqlite::bind_reader_filter(*q, *reader);
    q->bind(":match", match)
        .bind(":frequencies", *frequencies)
        .bind(":candidates", kSearchCandidates)
        .bind(":half_life_days", kSearchHalfLifeDays)
        .bind(":limit", std::max(limit, 0))
        .bind(":offset", std::max(offset, 0));
    std::vector<SearchHit> hits;
    for (;;) {
      auto row = q->step();
      if (!row) return budget.exceeded() ? too_long() : db_error("cannot search", row.error());
      if (!*row) break;
      hits.push_back({.view = read_article_view(*q), .snippet = q->text(kArticleColumnCount)});
    }
    return hits;
  }();
  if (!found) return found;
  // With the reader connection back in the pool: the snippets take time in proportion to the texts.
  const std::vector<std::vector<std::string>> words = tokenizer_->term_words(terms);
  for (SearchHit& hit : *found) hit.snippet = search_snippet(*tokenizer_, words, hit.snippet);
  return found;
}

}  // namespace longread::storage::sqlite
