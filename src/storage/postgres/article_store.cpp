#include "storage/postgres/article_store.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <deque>
#include <functional>
#include <thread>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "storage/listing_keys.h"
#include "storage/postgres/article_bodies.h"
#include "storage/postgres/crawl_save.h"
#include "storage/postgres/duplicate_log.h"
#include "storage/postgres/reader_filter.h"
#include "storage/postgres/rows.h"
#include "storage/postgres/statement.h"
#include "storage/search_snippet.h"
#include "storage/search_terms.h"
#include "storage/values.h"

namespace longread::storage::postgres {
namespace {

#define LONGREAD_PG_LISTED \
  "SELECT " LONGREAD_PG_ARTICLE_COLUMNS_HEAD " '', '', ''," LONGREAD_PG_ARTICLE_COLUMNS_TAIL
// After the article columns: the parts of the sort key that ArticleView does not hold (display_at; the
// period's votes for Top by period), for the next page's cursor.
constexpr const char* kSelectListed = LONGREAD_PG_LISTED ", a.display_at, 0" LONGREAD_PG_ARTICLE_FROM;
constexpr const char* kSelectListedByWeek =
    LONGREAD_PG_LISTED ", a.display_at, a.votes_week" LONGREAD_PG_ARTICLE_FROM;
constexpr const char* kSelectListedByMonth =
    LONGREAD_PG_LISTED ", a.display_at, a.votes_month" LONGREAD_PG_ARTICLE_FROM;

// Keyset pagination (ArticleQuery::after): the rows after the cursor's sort key, in the order's direction.
// A row comparison with `<` is the order's lexicographic "after" for an all-descending order, and
// PostgreSQL seeks the listing's index to it, so a deep page costs what the first does.
constexpr const char* kAfterNewest = " AND (a.display_at, a.id) < (:c_display_at::bigint, :c_id::bigint)";
constexpr const char* kAfterTop =
    " AND (a.votes, a.display_at, a.id) < (:c_votes::integer, :c_display_at::bigint, :c_id::bigint)";
constexpr const char* kAfterHot =
    " AND (a.score, a.display_at, a.id) < (:c_score::double precision, :c_display_at::bigint, :c_id::bigint)";
constexpr const char* kAfterWeek =
    " AND (a.votes_week, a.votes, a.display_at, a.id) < (:c_period_votes::integer, :c_votes::integer,"
    " :c_display_at::bigint, :c_id::bigint)";
constexpr const char* kAfterMonth =
    " AND (a.votes_month, a.votes, a.display_at, a.id) < (:c_period_votes::integer, :c_votes::integer,"
    " :c_display_at::bigint, :c_id::bigint)";

// How many entries of the hot order hot_page reads per round trip.
constexpr int kHotWalkBatch = 200;

// The listing statement for a query: constant fragments chosen by which filters are set; values are bound.
std::string listing_sql(const char* select, const ArticleQuery& query, bool with_order) {
  std::string sql = select;
  sql += query.include_junk ? " WHERE 1 = 1" : " WHERE a.visible = 1";
  if (query.blog_id) sql += " AND a.blog_id = :blog_id";
  if (query.category) sql += " AND a.category = :category";
  if (query.since) sql += " AND a.display_at >= :since";
  if (query.until) sql += " AND a.display_at < :until";
  if (query.exclude_blog_id) sql += " AND a.blog_id <> :exclude_blog_id";
  if (query.exclude_article_id) sql += " AND a.id <> :exclude_article_id";
  if (query.reader) sql += reader_filter_sql(*query.reader);
  const bool week = query.vote_period == VotePeriod::kWeek;
  if (query.vote_period) {
    // An article counts in a period by its votes then; the partial index is used only when the query says
    // its WHERE clause itself.
    sql += week ? " AND a.votes_week > 0" : " AND a.votes_month > 0";
  } else if (query.voted_only) {
    sql += " AND a.votes > 0";
  }
  const bool keyset = !query.after.empty();
  if (!with_order) return sql;
  if (query.vote_period) {
    if (keyset) sql += week ? kAfterWeek : kAfterMonth;
    sql += week ? " ORDER BY a.votes_week DESC, a.votes DESC, a.display_at DESC, a.id DESC"
                : " ORDER BY a.votes_month DESC, a.votes DESC, a.display_at DESC, a.id DESC";
  } else {
    switch (query.order) {
      case ArticleOrder::kNewest:
        if (keyset) sql += kAfterNewest;
        sql += " ORDER BY a.display_at DESC, a.id DESC";
        break;
      case ArticleOrder::kTop:
        if (keyset) sql += kAfterTop;
        sql += " ORDER BY a.votes DESC, a.display_at DESC, a.id DESC";
        break;
      case ArticleOrder::kHot:
        if (keyset) sql += kAfterHot;
        sql += " ORDER BY a.score DESC, a.display_at DESC, a.id DESC";
        break;
    }
  }
  sql += " LIMIT :limit OFFSET :offset";
  return sql;
}

void bind_listing_filters(Query& q, const ArticleQuery& query) {
  if (query.blog_id) q.bind(":blog_id", *query.blog_id);
  if (query.category) q.bind(":category", *query.category);
  if (query.since) q.bind(":since", *query.since);
  if (query.until) q.bind(":until", *query.until);
  if (query.exclude_blog_id) q.bind(":exclude_blog_id", *query.exclude_blog_id);
  if (query.exclude_article_id) q.bind(":exclude_article_id", *query.exclude_article_id);
  if (query.reader) bind_reader_filter(q, *query.reader);
}

// hot_page's walk: the articles_hot or articles_category_hot index, from the top or after a key, less what
// the reader filtered out, a batch at a time.
std::string hot_walk_sql(const HotPageQuery& query, bool after) {
  std::string sql = "SELECT a.id, a.blog_id, a.score, a.display_at FROM articles a WHERE";
  sql += query.category ? " a.category = :category AND a.visible = 1" : " a.visible = 1";
  if (query.reader) sql += reader_filter_sql(*query.reader);
  if (after) sql += kAfterHot;
  sql += " ORDER BY a.score DESC, a.display_at DESC, a.id DESC LIMIT :batch";
  return sql;
}

// Search on PostgreSQL (docs/storage.md, "Search"), in the shape of SQLite's: the newest kSearchCandidates
// matches among visible articles (the partial GIN index articles_search) are ranked by relevance, then by age
// as on SQLite (relevance halved every kSearchHalfLifeDays), paged; search_snippet makes snippets from the
// page's texts alone, as on SQLite. Relevance is ts_rank over the article's rank_vector, its title (weight
// 'A', 10x) and the text's lead (weight 'D'), kept in the row (migration 0004), plus kSearchMatchFloor for
// matching at all: ts_rank over the whole search_vector read every candidate's vector out of the TOAST table,
// most of a search's time at a million articles.
//
// The candidates are found slice by slice of ids, newest first (search_candidates_sql): a GIN index yields
// its matches in no useful order, so "the newest 1,000 of every match" fetched every match's row (a fifth of
// a million for a word in 20 % of a million articles) to sort them, and the plan PostgreSQL prefers for a
// LIMIT, walking the primary key backwards and testing each row's tsvector, reads and detoasts rows until it
// has enough, the whole table for a rare word. A slice ANDs the GIN index's matches with a primary-key range
// (a BitmapAnd) before any row is read, so it reads the rows that match inside it. The first slice is as wide
// as the planner's estimate of the matches says 1,000 of them need (from kFirstSearchSlice to
// kWidestFirstSearchSlice ids: the statistics know only common words, and guess low for the rest, which made
// the slice too wide); each next one as wide as the matches found so far say the rest need, a quarter to
// spare, at least kFirstSearchSlice ids (kSearchSliceGrowth times wider when there were none). A slice
// reaches down to the oldest id (no lower bound, so for a rare word the planner takes the GIN index's few
// matches alone) when what would be left below it is small: less than kSearchSliceGrowth slices when the
// matches' density is not known yet (an estimate, or an empty slice), a quarter of a slice when it is, since
// every match below the slice is a row read (a slice's whole range is read before its newest matches are
// taken), where one more slice costs one more read of each word's posting list.
constexpr std::chrono::milliseconds kSearchBudget{1000};
constexpr std::int64_t kFirstSearchSlice = 5'000;
constexpr std::int64_t kWidestFirstSearchSlice = 100'000;
constexpr std::int64_t kSearchSliceGrowth = 4;
// A match beyond the title and the lead: half of what one word of the lead weighs (ts_rank gives one 'D'
// occurrence 0.1/1.645), so such an article still ranks by its age among others like it, below the
// articles whose lead is about the words when of the same age.
#define LONGREAD_PG_SEARCH_MATCH_FLOOR "0.03"
#define LONGREAD_PG_SEARCH_RANK \
  "ln(GREATEST(c.relevance, 1e-12)) + c.display_at * 0.6931471805599453 / (:half_life_days * 86400.0)"
// The matches in ids (:low, :high], newest first, at most :wanted.
//
// A query with a phrase asks the GIN index for its words (:words, which the index answers exactly, without
// reading a row), and keeps the rows whose phrase filter has the bits each pair of the phrase sets
// (phrase_filter.h: `probes`), or that have no filter (NULL: not made yet; empty: too long a text). Those
// are candidates only: search() reads their texts and keeps the ones that hold the phrase, so the second
// column says how many bytes that will read.
//
// Where an article keeps a query's words (common_words.h) decides which rows a statement asks for:
// kEveryRow, a query without common words, whose words every row's vector holds; kWithoutBitmap, the rows
// whose vector still holds every word (no bitmap), asked for all the query's words (:match or :words);
// kWithBitmap, the rows with a bitmap, asked the GIN index for the query's other words (:indexed) and the
// bitmap for the common ones; kListedIds, the rows of :ids (found by common_words_walk_sql), for a query made
// only of common words, when a reader's filter or a phrase needs more than the walk reads.
enum class CandidateRows { kEveryRow, kWithoutBitmap, kWithBitmap, kListedIds };

std::string common_bits_sql(const std::vector<int>& bits) {
  std::string sql;
  for (const int bit : bits) sql += fmt::format(" AND get_bit(a.common_words, {}) = 1", bit);
  return sql;
}

std::string search_candidates_sql(const std::optional<ReaderFilter>& reader,
                                  const std::vector<std::uint32_t>& probes, CandidateRows rows,
                                  const std::vector<int>& common_bits) {
  std::string sql = "SELECT a.id";
  if (!probes.empty())
    sql += ", octet_length(a.title) + octet_length(a.text) + " LONGREAD_PG_PACKED_TEXT_BYTES;
  sql += " FROM articles a WHERE a.visible = 1";
  const char* all_words = probes.empty() ? ":match" : ":words";
  switch (rows) {
    case CandidateRows::kEveryRow:
      sql += fmt::format(" AND a.search_vector @@ {}::tsquery", all_words);
      break;
    case CandidateRows::kWithoutBitmap:
      sql += fmt::format(" AND a.search_vector @@ {}::tsquery AND a.common_words IS NULL", all_words);
      break;
    case CandidateRows::kWithBitmap:
      sql += " AND a.search_vector @@ :indexed::tsquery AND a.common_words IS NOT NULL" +
             common_bits_sql(common_bits);
      break;
    case CandidateRows::kListedIds:
      sql += " AND a.id = ANY(:ids::bigint[])";
      break;
  }
  if (!probes.empty()) {
    std::string bits;
    for (const std::uint32_t p : probes) {
      if (!bits.empty()) bits += " AND ";
      bits += fmt::format(
          "get_bit(a.phrase_filter, {}::bigint & (octet_length(a.phrase_filter)::bigint * 8 - 1)) = 1", p);
    }
    sql += fmt::format(" AND (COALESCE(octet_length(a.phrase_filter), 0) = 0 OR ({}))", bits);
  }
  if (rows != CandidateRows::kListedIds) sql += " AND a.id > :low AND a.id <= :high";
  if (reader) sql += reader_filter_sql(*reader);
  sql += " ORDER BY a.id DESC LIMIT :wanted";
  return sql;
}
// A query made only of common words has no index to ask: its articles are found by walking
// articles_common_words down from :high, the bitmaps read from the index itself, at most :wanted of them.
std::string common_words_walk_sql(const std::vector<int>& common_bits) {
  return "SELECT a.id FROM articles a WHERE a.visible = 1 AND a.common_words IS NOT NULL" +
         common_bits_sql(common_bits) + " AND a.id > :low AND a.id <= :high ORDER BY a.id DESC LIMIT :wanted";
}
// The most ids a walk gives the statement that filters them (kListedIds): twice the candidates still wanted
// (a reader's filter, or a phrase's, lets most of them through; when it did not, the slice goes on below the
// walk's last id), and never more than this.
constexpr int kCommonWordsWalkIds = 20 * kSearchCandidates;
// The titles and texts of phrase candidates, to look for the phrases in.
constexpr const char* kSearchPhraseTextsSql =
    "SELECT a.id, a.title, " LONGREAD_PG_BODY_COLUMNS " FROM articles a WHERE a.id = ANY(:ids::bigint[])";
// Texts read per statement while checking phrases (at least one text, however long), and in all for one
// search: a hostile blog's long articles holding common words cost the search, never the process's memory.
constexpr int kPhraseCandidatesPerSlice = 20 * kSearchCandidates;
constexpr std::int64_t kPhraseTextBatchBytes = std::int64_t{4} << 20;
constexpr std::int64_t kPhraseTextBudgetBytes = std::int64_t{256} << 20;
// What the planner expects of a query's matches: the first line of EXPLAIN's plan ends "rows=N width=W)".
constexpr const char* kSearchEstimateSql =
    "EXPLAIN SELECT 1 FROM articles a"
    " WHERE a.visible = 1 AND a.search_vector @@ :match::tsquery";
std::int64_t estimated_rows(std::string_view plan_line) {
  const std::size_t at = plan_line.find(" rows=");
  if (at == std::string_view::npos) return 0;
  std::int64_t rows = 0;
  for (std::size_t i = at + 6; i < plan_line.size() && plan_line[i] >= '0' && plan_line[i] <= '9'; ++i)
    rows = rows * 10 + (plan_line[i] - '0');
  return rows;
}
// The candidates (:ids), each with its rank score.
#define LONGREAD_PG_SEARCH_RANKED                                                          \
  "SELECT c.id AS id, " LONGREAD_PG_SEARCH_RANK                                            \
  " AS rank_score FROM ("                                                                  \
  "  SELECT a.id, a.display_at, " LONGREAD_PG_SEARCH_MATCH_FLOOR                           \
  " + ts_rank(COALESCE(a.rank_vector, longread_rank_vector(a.title, a.text)), q.query) AS" \
  " relevance FROM articles a, q WHERE a.id = ANY(:ids::bigint[])) c"
// The candidates (:ids) ranked, paged, with their snippets.
constexpr const char* kSearchRankSql =
    "WITH q AS (SELECT :match::tsquery AS query)"
    " SELECT " LONGREAD_PG_ARTICLE_COLUMNS_HEAD " '', '', ''," LONGREAD_PG_ARTICLE_COLUMNS_TAIL
    ", " LONGREAD_PG_BODY_PARTS " FROM (" LONGREAD_PG_SEARCH_RANKED
    " ORDER BY rank_score DESC, c.id DESC LIMIT :limit OFFSET :offset) s"
    " JOIN articles a ON a.id = s.id JOIN blogs b ON b.id = a.blog_id CROSS JOIN q"
    " ORDER BY s.rank_score DESC, s.id DESC";
// The candidates (:ids) in the order kSearchRankSql pages them: a phrase's candidates are checked in it.
constexpr const char* kSearchOrderSql =
    "WITH q AS (SELECT :match::tsquery AS query) " LONGREAD_PG_SEARCH_RANKED
    " ORDER BY rank_score DESC, c.id DESC";

constexpr const char* kSetKeepOverride =
    "UPDATE articles SET keep_override = :keep::integer,"
    " flag_decision = CASE WHEN :keep::integer IS NULL OR NOT EXISTS (SELECT 1 FROM article_flags f"
    "  WHERE f.article_id = articles.id) THEN flag_decision WHEN :keep::integer = 1 THEN 'keep' ELSE 'junk' "
    "END,"
    " held = CASE WHEN :keep::integer IS NULL THEN held ELSE 0 END,"
    " hold_threshold = CASE WHEN :keep::integer IS NULL THEN hold_threshold ELSE 0 END,"
    " visible = CASE WHEN :keep::integer IS NOT NULL THEN :keep::integer WHEN held = 1 THEN 0 ELSE 1 - junk "
    "END"
    " WHERE id = :id";

// Only a changed verdict is written; duplicates keep their mark.
constexpr const char* kSetVerdict =
    "UPDATE articles SET junk = :junk, junk_reason = :reason,"
    " visible = CASE WHEN held = 1 THEN 0 WHEN keep_override IS NULL THEN 1 - :junk ELSE keep_override END"
    " WHERE id = :id AND duplicate_of IS NULL AND (junk <> :junk OR junk_reason <> :reason)";

// Only an article whose derived text differs is written. A new text or excerpt is packed with the stored
// summary and content (:body_changed); the body is kept as it is otherwise.
constexpr const char* kSetText =
    "UPDATE articles SET" LONGREAD_PG_SET_BODY_WHEN_CHANGED
    ","
    " word_count = :word_count,"
    " reading_minutes = :reading_minutes, simhash = :simhash, search_vector = :search_vector::tsvector,"
    " rank_vector = :rank_vector::tsvector, phrase_filter = :phrase_filter::bytea,"
    " common_words = :common_words::bytea"
    " WHERE id = :id AND (:body_changed::integer = 1 OR word_count <> :word_count"
    " OR reading_minutes <> :reading_minutes OR simhash <> :simhash)";

// The body converter on PostgreSQL: rows whose parts are still in their own columns (stored before migration
// 0009, or copied in by `db copy`), or whose excerpt is (packed before the frame held it), to pack into one
// frame, and frames packed with another dictionary than the newest (:dictionary), to pack again.
// octet_length reads a TOASTed value's size from its header, without reading the value.
#define LONGREAD_PG_BODY_TO_PACK                                                          \
  "(octet_length(excerpt) > 0 OR body IS NULL AND (octet_length(summary_html) > 0"        \
  " OR octet_length(content_html) > 0 OR octet_length(text) > 0) OR body IS NOT NULL AND" \
  " body_dictionary IS DISTINCT FROM :dictionary::bigint)"
// Search vectors to make as the crawler makes them: none made by longread yet (no rank vector: stored before
// migration 0004; no phrase filter: before 0007, or written by another tool, whose vectors the trigger made
// with the server's parser), a search vector with positions (before 0008), which nothing reads any more, or
// one that still holds the common words (no bitmap of them: before 0011, or made by the trigger), or a
// bitmap stored out of line (before 0012): its stored size is its length, where a value in the row has a
// header besides.
#define LONGREAD_PG_VECTORS_TO_MAKE                                                            \
  "(rank_vector IS NULL OR phrase_filter IS NULL OR common_words IS NULL OR search_vector <> " \
  "strip(search_vector) OR pg_column_size(common_words) = octet_length(common_words))"
constexpr const char* kSelectUncompacted =
    "SELECT id FROM articles WHERE id > :after AND (" LONGREAD_PG_BODY_TO_PACK
    " OR " LONGREAD_PG_VECTORS_TO_MAKE ") ORDER BY id LIMIT :batch";
// The batch's rows, whether each needs packing and whether it needs its vectors made, and its parts, locked
// until the batch commits: a crawl that rewrites one of them meanwhile waits, and is never undone by a
// repack of what was read before it.
constexpr const char* kSelectToCompact =
    "SELECT a.id, a.title, " LONGREAD_PG_BODY_TO_PACK ", " LONGREAD_PG_VECTORS_TO_MAKE
    ", " LONGREAD_PG_BODY_COLUMNS
    " FROM articles a WHERE a.id = ANY(:ids::bigint[]) ORDER BY a.id FOR UPDATE";
// A row's frame and the dictionary it names; one statement a row, the batch's in pipelines.
constexpr const char* kPackBody =
    "UPDATE articles SET body = :body::bytea, body_dictionary = :dictionary::bigint, summary_html = '',"
    " content_html = '', text = '', excerpt = '' WHERE id = :id";
// Training samples: the newest articles' parts, whichever form they are stored in.
constexpr const char* kSelectSamples =
    "SELECT " LONGREAD_PG_BODY_COLUMNS " FROM articles a ORDER BY a.id DESC LIMIT :limit";
// ZDICT names a dictionary by a hash of it: the same samples trained again give the one already stored.
constexpr const char* kInsertDictionary =
    "INSERT INTO body_dictionaries (dict_id, created_at, samples, dict) VALUES (:id, :now, :samples, "
    ":dict::bytea) ON CONFLICT (dict_id) DO NOTHING";
// Vectors are made for such rows as the crawler makes them (all three, in their binary forms), so a row's
// filter describes the very words its search vector holds. One statement a row, the batch's in pipelines.
constexpr const char* kFillSearchVectors =
    "UPDATE articles SET search_vector = :search::tsvector, rank_vector = :rank::tsvector,"
    " phrase_filter = :filter::bytea, common_words = :common::bytea WHERE id = :id";

}  // namespace

Result<std::vector<StoredArticleKey>> PgArticleStore::article_keys(std::int64_t blog_id) {
  Pool::Lease lease = db_.pool().acquire();
  return read_article_keys(*lease, blog_id);
}

Result<SaveStats> PgArticleStore::save_crawl(const CrawlRecord& record) {
  auto results = save_crawls(std::span(&record, 1));
  if (!results) return std::unexpected(results.error());
  return std::move(results->front());
}

// The search vectors and the packed bodies are made here, on the crawler's thread that built the record,
// rather than while the save holds its transaction (or on the database server, which every crawler shares).
Result<void> PgArticleStore::prepare_crawl(CrawlRecord& record) {
  std::vector<PreparedSearchVectors> vectors;
  vectors.reserve(record.articles.size());
  for (const model::Article& a : record.articles)
    vectors.push_back(search_vectors(db_.tokenizer(), db_.common_words(), a.title, a.text));
  std::vector<std::string> bodies;
  bodies.reserve(record.articles.size());
  auto packed = db_.pool().with([&](Connection& c) -> Result<void> {
    auto dictionary = db_.bodies().current_id(PgBodyDictionaries(c));
    if (!dictionary) return std::unexpected(dictionary.error());
    for (const model::Article& a : record.articles) {
      auto body = pack_body(db_.bodies(), c, *dictionary,
                            {.summary_html = a.summary_html,
                             .content_html = a.content_html,
                             .text = a.text,
                             .excerpt = a.excerpt});
      if (!body) return std::unexpected(body.error());
      bodies.push_back(body->value_or(""));
    }
    return {};
  });
  if (!packed) return packed;
  record.prepared_search = std::move(vectors);
  record.prepared_bodies = std::move(bodies);
  return {};
}

Result<std::vector<Result<SaveStats>>> PgArticleStore::save_crawls(std::span<const CrawlRecord> records,
                                                                   const DecideDuplicates& decide) {
  std::vector<Result<SaveStats>> results;
  auto done = in_transaction(db_.pool(), [&](Connection& c) -> Result<void> {
    results.clear();
    VisibleCounts counts;
    for (const CrawlRecord& record : records) {
      // One record's failure undoes that record alone: the others of the group are still saved.
      if (auto ok = c.exec_script("SAVEPOINT record"); !ok) return ok;
      VisibleCounts record_counts;
      auto stats = save_record(c, record, record_counts, db_.tokenizer(), db_.common_words(), db_.bodies());
      if (!stats) {
        if (auto ok = c.exec_script("ROLLBACK TO SAVEPOINT record"); !ok) return ok;
      } else {
        counts.add(record_counts);
      }
      if (auto ok = c.exec_script("RELEASE SAVEPOINT record"); !ok) return ok;
      results.push_back(std::move(stats));
    }
    if (!decide) return counts.write(c);
    // The inserts above, most of the work, run beside other crawlers' saves; the decision runs one at a
    // time, last, so that it sees every group committed before it. The shared counters are written under the
    // lock too: a holder marking an article of a category never waits for a row another saver locked first.
    if (auto locked = lock_for_decision(c); !locked) return locked;
    if (auto written = counts.write(c); !written) return written;
    PgDuplicateDecision decision(c);
    return decide(decision, results);
  });
  if (!done) return db_error("cannot save crawl", done.error());
  return results;
}

Result<std::int64_t> PgArticleStore::count_recent_articles(std::int64_t blog_id, TimePoint since) {
  // An undated article's date is when it was first seen, so the undated posts of the blog's first crawl
  // (its whole back catalogue) are not counted as recent: only those that appeared after it.
  auto rows = run_pooled(
      db_.pool(),
      "SELECT COUNT(*) FROM articles WHERE blog_id = :blog_id AND display_at >= :since"
      " AND (undated = 0 OR first_seen > (SELECT MIN(first_seen) FROM articles WHERE blog_id = :blog_id))",
      "cannot count recent articles", [&](Query& q) { q.bind(":blog_id", blog_id).bind(":since", since); });
  if (!rows) return std::unexpected(rows.error());
  return rows->int64(0, 0);
}

Result<std::optional<ArticleView>> PgArticleStore::article(std::int64_t id) {
  const std::string what = fmt::format("cannot read article {}", id);
  auto rows =
      run_pooled(db_.pool(),
                 "SELECT " LONGREAD_PG_ARTICLE_COLUMNS_HEAD " '', '', ''," LONGREAD_PG_ARTICLE_COLUMNS_TAIL
                 ", " LONGREAD_PG_BODY_PARTS LONGREAD_PG_ARTICLE_FROM " WHERE a.id = :id",
                 what, [&](Query& q) { q.bind(":id", id); });
  if (!rows) return std::unexpected(rows.error());
  if (rows->empty()) return std::optional<ArticleView>{};
  ArticleView view = read_article_fields(*rows, 0);
  if (auto ok = read_article_body(db_.bodies(), PgPoolBodyDictionaries(db_.pool()), *rows, 0, view.article);
      !ok)
    return db_error(what, ok.error());
  return std::optional<ArticleView>{std::move(view)};
}

Result<std::vector<ArticleView>> PgArticleStore::articles(const ArticleQuery& query) {
  auto page = article_page(query);
  if (!page) return std::unexpected(page.error());
  return std::move(page->articles);
}

Result<std::int64_t> PgArticleStore::count_articles(const ArticleQuery& query) {
  const bool only_blog_or_category = !query.include_junk && !query.since && !query.until &&
                                     !query.exclude_blog_id && !query.exclude_article_id &&
                                     !(query.blog_id && query.category) && !query.vote_period &&
                                     !query.voted_only && !query.reader;
  std::string sql;
  if (!only_blog_or_category) {
    sql = listing_sql("SELECT COUNT(*) FROM articles a", query, false);
  } else if (query.blog_id) {
    sql = "SELECT visible_articles FROM blogs WHERE id = :blog_id";
  } else if (query.category) {
    sql = "SELECT visible_articles FROM categories WHERE slug = :category";
  } else {
    sql = "SELECT COALESCE(SUM(visible_articles), 0) FROM categories";
  }
  auto rows =
      run_pooled(db_.pool(), sql, "cannot count articles", [&](Query& q) { bind_listing_filters(q, query); });
  if (!rows) return std::unexpected(rows.error());
  return rows->empty() ? 0 : rows->int64(0, 0);  // no row: no such blog or category
}

Result<ArticlePage> PgArticleStore::article_page(const ArticleQuery& query) {
  const int size = std::max(query.limit, 0);
  std::optional<Cursor> cursor;
  if (!query.after.empty()) {
    auto parsed = parse_cursor(query.after, cursor_arity(query), false);
    if (!parsed) return std::unexpected(parsed.error());
    cursor = std::move(*parsed);
  }
  const char* select = !query.vote_period                       ? kSelectListed
                       : query.vote_period == VotePeriod::kWeek ? kSelectListedByWeek
                                                                : kSelectListedByMonth;
  std::optional<double> after_score;
  if (cursor && !query.vote_period && query.order == ArticleOrder::kHot) {
    auto score = score_from_bits(cursor->key[0]);
    if (!score) return std::unexpected(score.error());
    after_score = *score;
  }
  auto rows = run_pooled(db_.pool(), listing_sql(select, query, true), "cannot list articles", [&](Query& q) {
    bind_listing_filters(q, query);
    if (cursor) {
      const auto& k = cursor->key;
      if (query.vote_period) {
        q.bind(":c_period_votes", k[0])
            .bind(":c_votes", k[1])
            .bind(":c_display_at", k[2])
            .bind(":c_id", k[3]);
      } else if (query.order == ArticleOrder::kNewest) {
        q.bind(":c_display_at", k[0]).bind(":c_id", k[1]);
      } else if (query.order == ArticleOrder::kTop) {
        q.bind(":c_votes", k[0]).bind(":c_display_at", k[1]).bind(":c_id", k[2]);
      } else {
        q.bind(":c_score", *after_score).bind(":c_display_at", k[1]).bind(":c_id", k[2]);
      }
    }
    q.bind(":limit", size + 1).bind(":offset", cursor ? 0 : std::max(query.offset, 0));
  });
  if (!rows) return std::unexpected(rows.error());
  ArticlePage out;
  std::vector<std::int64_t> last_key;
  for (int r = 0; r < rows->size(); ++r) {
    if (static_cast<int>(out.articles.size()) == size) {
      out.has_more = true;
      break;
    }
    out.articles.push_back(read_article_view(*rows, r, db_.bodies(), PgPoolBodyDictionaries(db_.pool())));
    const std::int64_t id = rows->int64(r, 0);
    const std::int64_t display_at = rows->int64(r, kArticleColumnCount);
    if (query.vote_period) {
      last_key = {rows->int64(r, kArticleColumnCount + 1), rows->int64(r, 24), display_at, id};
    } else if (query.order == ArticleOrder::kNewest) {
      last_key = {display_at, id};
    } else if (query.order == ArticleOrder::kTop) {
      last_key = {rows->int64(r, 24), display_at, id};
    } else {
      last_key = {score_bits(rows->real(r, 25)), display_at, id};
    }
  }
  if (out.has_more) out.next = encode_cursor(last_key);
  return out;
}

Result<HotPage> PgArticleStore::hot_page(const HotPageQuery& query) {
  const int size = std::max(query.page_size, 1);
  const int page = query.after.empty() ? std::max(query.page, 1) : 1;
  if (query.per_blog_cap <= 0) {  // the plain hot order, one index walk
    return article_page({.category = query.category,
                         .order = ArticleOrder::kHot,
                         .exclude_blog_id = query.exclude_blog_id,
                         .limit = size,
                         .offset = (page - 1) * size,
                         .after = query.after,
                         .reader = query.reader});
  }
  std::optional<Cursor> cursor;
  double after_score = 0;
  if (!query.after.empty()) {
    auto parsed = parse_cursor(query.after, 3, true);
    if (!parsed) return std::unexpected(parsed.error());
    auto score = score_from_bits(parsed->key[0]);
    if (!score) return std::unexpected(score.error());
    after_score = *score;
    cursor = std::move(*parsed);
  }
  Pool::Lease conn = db_.pool().acquire();
  HotCut state;
  std::int64_t position = 0;
  std::unordered_set<std::int64_t> held_ids;  // a held article whose score fell is not walked twice
  // The entries the cursor held back lead, in walk order, as long as they are still listed here.
  if (cursor && !cursor->held.empty()) {
    std::string held_sql =
        "SELECT a.id, a.blog_id, a.score, a.display_at, a.category FROM articles a"
        " WHERE a.id = ANY(:ids::bigint[]) AND a.visible = 1";
    if (query.reader) held_sql += reader_filter_sql(*query.reader);
    Query q(*conn, held_sql);
    q.bind(":ids", id_array(cursor->held));
    if (query.reader) bind_reader_filter(q, *query.reader);
    auto rows = q.run();
    if (!rows) return db_error("cannot list hot articles", rows.error());
    std::vector<HotEntry> held;
    for (int r = 0; r < rows->size(); ++r) {
      const std::int64_t blog_id = rows->int64(r, 1);
      if (query.exclude_blog_id && blog_id == *query.exclude_blog_id) continue;
      if (query.category && rows->text(r, 4) != *query.category) continue;
      held.push_back({.id = rows->int64(r, 0),
                      .blog_id = blog_id,
                      .score = rows->real(r, 2),
                      .display_at = rows->int64(r, 3)});
    }
    std::ranges::sort(held, [](const HotEntry& a, const HotEntry& b) {
      return std::tie(b.score, b.display_at, b.id) < std::tie(a.score, a.display_at, a.id);
    });
    for (HotEntry& e : held) {
      e.position = position++;
      held_ids.insert(e.id);
      state.carried.push_back(e);
    }
  }
  // The walk down the hot index, read a batch at a time from where the last batch ended (keyset), so a
  // page reads about what it uses rather than every visible article.
  std::optional<HotEntry>
      last_walked;  // the key of the last entry the walk gave: where the next page resumes
  if (cursor)
    last_walked = HotEntry{.id = cursor->key[2], .score = after_score, .display_at = cursor->key[1]};
  std::deque<HotEntry> batch;
  bool walk_done = false;
  auto fetch = [&]() -> Result<void> {
    Query walk(*conn, hot_walk_sql(query, last_walked.has_value()));
    if (query.category) walk.bind(":category", *query.category);
    if (query.reader) bind_reader_filter(walk, *query.reader);
    if (last_walked) {
      walk.bind(":c_score", last_walked->score)
          .bind(":c_display_at", last_walked->display_at)
          .bind(":c_id", last_walked->id);
    }
    walk.bind(":batch", kHotWalkBatch);
    auto rows = walk.run();
    if (!rows) return std::unexpected(rows.error());
    for (int r = 0; r < rows->size(); ++r) {
      batch.push_back({.id = rows->int64(r, 0),
                       .blog_id = rows->int64(r, 1),
                       .score = rows->real(r, 2),
                       .display_at = rows->int64(r, 3)});
    }
    walk_done = rows->size() < kHotWalkBatch;
    return {};
  };
  auto next = [&]() -> Result<std::optional<HotEntry>> {
    for (;;) {
      if (batch.empty()) {
        if (walk_done) return std::optional<HotEntry>{};
        if (auto ok = fetch(); !ok) return db_error("cannot list hot articles", ok.error());
        if (batch.empty()) return std::optional<HotEntry>{};
      }
      HotEntry e = batch.front();
      batch.pop_front();
      e.position = position++;
      last_walked = e;
      if (query.exclude_blog_id && e.blog_id == *query.exclude_blog_id) continue;
      if (held_ids.contains(e.id)) continue;
      return std::optional<HotEntry>{e};
    }
  };
  HotPage out;
  auto cut = cut_hot_page(state, next, last_walked, page, size, query, out);
  if (!cut) return std::unexpected(cut.error());
  const std::vector<HotEntry> taken = std::move(*cut);
  if (taken.empty()) return out;
  std::vector<std::int64_t> ids;
  for (const HotEntry& e : taken) ids.push_back(e.id);
  Query q(*conn, "SELECT " LONGREAD_PG_ARTICLE_COLUMNS_HEAD
                 " '', '', ''," LONGREAD_PG_ARTICLE_COLUMNS_TAIL LONGREAD_PG_ARTICLE_FROM
                 " WHERE a.id = ANY(:ids::bigint[])");
  q.bind(":ids", id_array(ids));
  auto rows = q.run();
  if (!rows) return db_error("cannot list hot articles", rows.error());
  std::unordered_map<std::int64_t, std::size_t> rank;
  for (std::size_t i = 0; i < ids.size(); ++i) rank.emplace(ids[i], i);
  std::vector<ArticleView> views;
  for (int r = 0; r < rows->size(); ++r)
    views.push_back(read_article_view(*rows, r, db_.bodies(), PgBodyDictionaries(*conn)));
  std::ranges::sort(views, {}, [&](const ArticleView& v) { return rank.at(v.article.id); });
  out.articles = std::move(views);
  return out;
}

Result<std::vector<SearchHit>> PgArticleStore::search(std::string_view query, int limit, int offset,
                                                      const std::optional<ReaderFilter>& reader) {
  const std::vector<std::string> terms = search_terms(query);
  std::vector<SearchHit> hits;
  if (terms.empty()) return hits;
  // The terms as FTS5 reads them on SQLite (search_vectors.h): none with a word matches nothing.
  const std::string match = search_query(db_.tokenizer(), terms);
  if (match.empty()) return hits;
  const std::vector<std::vector<std::string>> phrases = query_phrases(db_.tokenizer(), terms);
  const std::vector<std::uint32_t> probes = query_phrase_probes(phrases);
  const std::string words = probes.empty() ? match : search_words(db_.tokenizer(), terms);
  const SplitSearchWords split = split_search_words(db_.tokenizer(), db_.common_words(), terms);
  const bool has_common = !split.common_bits.empty();
  // What each slice asks (search_candidates_sql): the rows whose vectors hold every word, and, for a query
  // with common words, the rows with a bitmap, through the index for the other words, or by the walk of
  // articles_common_words when there are none (filtered by a second statement when a reader's filter or a
  // phrase needs more than the walk reads).
  const std::string every_row_sql = search_candidates_sql(
      reader, probes, has_common ? CandidateRows::kWithoutBitmap : CandidateRows::kEveryRow, {});
  const std::string bitmap_sql =
      has_common && !split.indexed.empty()
          ? search_candidates_sql(reader, probes, CandidateRows::kWithBitmap, split.common_bits)
          : "";
  const std::string walk_sql =
      has_common && split.indexed.empty() ? common_words_walk_sql(split.common_bits) : "";
  const bool walk_filtered = reader.has_value() || !probes.empty();
  const std::string listed_sql = !walk_sql.empty() && walk_filtered
                                     ? search_candidates_sql(reader, probes, CandidateRows::kListedIds, {})
                                     : "";
  // The share of the articles that hold every common word of the query, were the words independent.
  double common_share = 1;
  for (const int bit : split.common_bits) common_share *= db_.common_words().share(bit);
  auto rows = db_.pool().with([&](Connection& c) -> Result<Rows> {
    // The visitor chooses the query, so its cost too: each statement gets what is left of the budget, past
    // which the server cancels it, and the visitor gets a clear answer rather than holding a connection.
    const auto deadline = std::chrono::steady_clock::now() + kSearchBudget;
    auto within_budget = [&](bool index_scans = false) -> Result<void> {
      const auto left =
          std::chrono::ceil<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) return fail(ErrorKind::kTimeout, "store: search: out of budget");
      // Bitmap scans only: for a slice of a few thousand ids the planner prefers walking the primary key and
      // testing each row's tsvector, which detoasts every row of the slice (tens of ms), where ANDing the
      // two indexes reads only the matches. The walk of common words is an index-only scan, which
      // PostgreSQL 15 counts as an index scan.
      // The walk runs without parallel workers: the planner cannot tell how soon it finds its matches (a
      // get_bit test is a guess to it), plans for the whole index, and starting two workers took 76 ms of a
      // 94 ms walk over 200,000 articles.
      return c.exec_script(
          fmt::format("SET statement_timeout = {}; SET enable_indexscan = {}; SET "
                      "max_parallel_workers_per_gather = {}",
                      left.count(), index_scans ? "on" : "off", index_scans ? "0" : "DEFAULT"));
    };
    // A candidate: its id and, for a phrase, the bytes of its title and text.
    struct Candidate {
      std::int64_t id;
      std::int64_t bytes;
    };
    // A slice's candidates, newest first, at most `wanted`; every id above `examined_above` was looked at
    // (`low` when the whole slice was: a statement cut at its LIMIT looked no further than its last row).
    struct Slice {
      std::vector<Candidate> candidates;
      std::int64_t examined_above;
    };
    auto read_slice = [&](std::int64_t low, std::int64_t high, int wanted) -> Result<Slice> {
      Slice out{.candidates = {}, .examined_above = low};
      auto run = [&](const std::string& sql, int limit, bool index_scans,
                     const std::function<void(Query&)>& bind) -> Result<void> {
        if (auto ok = within_budget(index_scans); !ok) return ok;
        Query q(c, sql);
        bind(q);
        q.bind(":wanted", limit);
        auto rows = q.run();
        if (!rows) return std::unexpected(rows.error());
        for (int r = 0; r < rows->size(); ++r)
          out.candidates.push_back({rows->int64(r, 0), probes.empty() ? 0 : rows->int64(r, 1)});
        if (rows->size() == limit && limit > 0)
          out.examined_above = std::max(out.examined_above, rows->int64(rows->size() - 1, 0) - 1);
        return {};
      };
      auto in_slice = [&](Query& q) {
        if (reader) bind_reader_filter(q, *reader);
        q.bind(":low", low).bind(":high", high);
      };
      if (auto ok = run(every_row_sql, wanted, false,
                        [&](Query& q) {
                          in_slice(q);
                          q.bind(probes.empty() ? ":match" : ":words", probes.empty() ? match : words);
                        });
          !ok) {
        return std::unexpected(ok.error());
      }
      if (!bitmap_sql.empty()) {
        if (auto ok = run(bitmap_sql, wanted, false,
                          [&](Query& q) {
                            in_slice(q);
                            q.bind(":indexed", split.indexed);
                          });
            !ok) {
          return std::unexpected(ok.error());
        }
      }
      if (!walk_sql.empty()) {
        const std::size_t walked_from = out.candidates.size();
        if (auto ok = run(walk_sql, walk_filtered ? std::min(kCommonWordsWalkIds, 2 * wanted + 100) : wanted,
                          true, [&](Query& q) { q.bind(":low", low).bind(":high", high); });
            !ok) {
          return std::unexpected(ok.error());
        }
        if (walk_filtered && out.candidates.size() > walked_from) {
          std::vector<std::int64_t> walked;
          for (std::size_t i = walked_from; i < out.candidates.size(); ++i)
            walked.push_back(out.candidates[i].id);
          out.candidates.resize(walked_from);
          if (auto ok = run(listed_sql, wanted, false,
                            [&](Query& q) {
                              if (reader) bind_reader_filter(q, *reader);
                              q.bind(":ids", id_array(walked));
                            });
              !ok) {
            return std::unexpected(ok.error());
          }
        }
      }
      // Only what every statement looked at counts, newest first: a candidate below a statement's cut could
      // have a newer one of another statement's missing above it.
      std::erase_if(out.candidates, [&](const Candidate& x) { return x.id <= out.examined_above; });
      std::ranges::sort(out.candidates, std::greater<>{}, &Candidate::id);
      if (std::ssize(out.candidates) > wanted) {
        out.candidates.resize(static_cast<std::size_t>(wanted));
        out.examined_above = out.candidates.back().id - 1;
      }
      return out;
    };
    auto found = [&]() -> Result<Rows> {
      auto top = c.exec("SELECT COALESCE(MAX(id), 0) FROM articles");
      if (!top) return std::unexpected(top.error());
      std::vector<std::int64_t> ids;
      std::int64_t high = top->int64(0, 0);
      // The first slice is sized by the planner's estimate of the matches (from the column's statistics,
      // times the list's shares of the common words), to hold kSearchCandidates of them with a quarter to
      // spare, so one slice, one read of each word's posting list, usually suffices; later slices cover an
      // estimate that was short. A query of common words only has no column statistics to ask.
      double expected_rows = static_cast<double>(high);
      if (!(has_common && split.indexed.empty())) {
        if (auto ok = within_budget(); !ok) return std::unexpected(ok.error());
        Query estimate(c, kSearchEstimateSql);
        estimate.bind(":match", has_common ? split.indexed : match);
        auto plan = estimate.run();
        if (!plan) return std::unexpected(plan.error());
        expected_rows = static_cast<double>(estimated_rows(plan->text(0, 0)));
      }
      const std::int64_t expected =
          std::max<std::int64_t>(1, static_cast<std::int64_t>(expected_rows * common_share));
      std::int64_t width = std::clamp<std::int64_t>(kSearchCandidates * high / expected * 5 / 4,
                                                    kFirstSearchSlice, kWidestFirstSearchSlice);
      std::int64_t text_bytes = 0;
      // Phrase candidates, newest first: the ones whose texts hold the phrases join `ids`, in order, the
      // texts read a batch at a time.
      // Phrase candidates, in the order given: the ones whose texts hold the phrases join `out`, in that
      // order, until it holds `cap`; the texts are read a batch at a time.
      auto keep_phrase_matches = [&](const std::vector<Candidate>& candidates, std::vector<std::int64_t>& out,
                                     std::int64_t cap) -> Result<void> {
        for (std::size_t r = 0; r < candidates.size() && std::ssize(out) < cap;) {
          if (auto ok = within_budget(); !ok) return ok;
          std::vector<std::int64_t> batch;
          std::int64_t bytes = 0;
          // About as many as may still be wanted (a quarter of those read hold no phrase, at a guess).
          const std::size_t enough = static_cast<std::size_t>(cap - std::ssize(out)) * 5 / 4 + 8;
          for (; r < candidates.size() && batch.size() < enough &&
                 (batch.empty() || bytes < kPhraseTextBatchBytes);
               ++r) {
            batch.push_back(candidates[r].id);
            bytes += candidates[r].bytes;
          }
          text_bytes += bytes;
          if (text_bytes > kPhraseTextBudgetBytes)
            return fail(ErrorKind::kTimeout, "store: search: out of budget (texts to check for a phrase)");
          Query texts(c, kSearchPhraseTextsSql);
          texts.bind(":ids", id_array(batch));
          auto read = texts.run();
          if (!read) return std::unexpected(read.error());
          std::unordered_set<std::int64_t> holding;
          for (int t = 0; t < read->size(); ++t) {
            // A body that cannot be read holds no phrase, as a search's snippet of it is empty.
            auto body = stored_body(db_.bodies(), PgBodyDictionaries(c), *read, t, 2);
            if (body && holds_phrases(db_.tokenizer(), phrases, read->text(t, 1), body->text))
              holding.insert(read->int64(t, 0));
          }
          for (const std::int64_t id : batch)
            if (holding.contains(id) && std::ssize(out) < cap) out.push_back(id);
        }
        return {};
      };
      // A phrase's candidates are first the rows its filter lets through, unchecked (`unchecked`, with the
      // bytes of their texts), like any search's matches; once every slice's candidates are checked
      // (check_each_slice), only the rows whose texts hold the phrases join `ids`.
      std::unordered_map<std::int64_t, std::int64_t> unchecked;
      bool check_each_slice = false;
      // Set when a slice is read in more than one round: the older end of the slice.
      std::optional<std::int64_t> rest_of_slice;
      bool density_known = false;  // `width` comes from the matches of a slice, not from a guess
      auto collect = [&]() -> Result<void> {
        while (high > 0 && std::ssize(ids) < kSearchCandidates) {
          const std::int64_t tail = density_known ? width / 4 : width * kSearchSliceGrowth;
          const std::int64_t low = rest_of_slice ? *rest_of_slice : high - width <= tail ? 0 : high - width;
          rest_of_slice.reset();
          // A slice whose candidates are checked gives every candidate in it (ids and sizes only, up to a
          // bound), since some hold no phrase: cutting it at the number still wanted would make the server
          // read the slice again.
          const int wanted =
              check_each_slice ? kPhraseCandidatesPerSlice : kSearchCandidates - static_cast<int>(ids.size());
          auto slice = read_slice(low, high, wanted);
          if (!slice) return std::unexpected(slice.error());
          const std::size_t before = ids.size();
          if (!check_each_slice) {
            for (const Candidate& x : slice->candidates) {
              ids.push_back(x.id);
              if (!probes.empty()) unchecked.emplace(x.id, x.bytes);
            }
          } else if (auto kept = keep_phrase_matches(slice->candidates, ids, kSearchCandidates); !kept) {
            return std::unexpected(kept.error());
          }
          if (slice->examined_above > low) {
            // The slice may hold more candidates than were read (and, for a phrase, some of those read held
            // none): the rest of the slice next.
            high = slice->examined_above;
            rest_of_slice = low;
            continue;
          }
          high = low;
          // The next slice: as wide as this one's density of matches says the rest need, a quarter to spare,
          // and no narrower than a first slice. Not wider: at least twice this one's width, as it once was,
          // gave a word that found 970 of its 1,000 in a first slice of 100,000 ids a second slice of
          // 200,000 for the last 30, whose primary-key bitmap alone took 83 ms (148 ms in all, against 7 ms
          // for the 3,866 ids the density asks for).
          const auto found = static_cast<std::int64_t>(ids.size() - before);
          const std::int64_t missing = kSearchCandidates - std::ssize(ids);
          density_known = found > 0;
          width = found == 0 ? width * kSearchSliceGrowth
                             : std::max(kFirstSearchSlice, missing * width / found * 5 / 4);
        }
        return {};
      };
      if (auto ok = collect(); !ok) return std::unexpected(ok.error());
      std::int64_t page_offset = std::max(offset, 0);
      if (!probes.empty()) {
        // A phrase: its candidates ranked, then checked from the top until the page is full (the filter lets
        // 1-3 % of the rows without a pair through; a text is the costly part of a search to read).
        if (auto ok = within_budget(); !ok) return std::unexpected(ok.error());
        Query order(c, kSearchOrderSql);
        order.bind(":match", match).bind(":ids", id_array(ids)).bind(":half_life_days", kSearchHalfLifeDays);
        auto ranked = order.run();
        if (!ranked) return std::unexpected(ranked.error());
        std::vector<Candidate> in_order;
        for (int r = 0; r < ranked->size(); ++r) {
          const std::int64_t id = ranked->int64(r, 0);
          in_order.push_back({id, unchecked.at(id)});
        }
        const std::int64_t page_end = page_offset + std::max(limit, 0);
        std::vector<std::int64_t> holding;
        if (auto kept = keep_phrase_matches(in_order, holding, page_end); !kept)
          return std::unexpected(kept.error());
        if (std::ssize(holding) >= page_end || std::ssize(ids) < kSearchCandidates) {
          // The page's articles, or every candidate was looked at (there were no more).
          ids.assign(holding.begin() + std::min(page_offset, std::ssize(holding)), holding.end());
          page_offset = 0;
        } else {
          // The candidates, every one checked, hold fewer than the page needs, while older rows may hold
          // more (a phrase of three words whose pairs the texts have apart): each older slice's candidates
          // checked too, until kSearchCandidates hold the phrases, ranked as any search's.
          ids = std::move(holding);
          check_each_slice = true;
          if (auto ok = collect(); !ok) return std::unexpected(ok.error());
        }
      }
      if (auto ok = within_budget(); !ok) return std::unexpected(ok.error());
      Query q(c, kSearchRankSql);
      q.bind(":match", match)
          .bind(":ids", id_array(ids))
          .bind(":half_life_days", kSearchHalfLifeDays)
          .bind(":limit", std::max(limit, 0))
          .bind(":offset", page_offset);
      return q.run();
    }();
    (void)c.exec_script(
        "SET statement_timeout = 0; RESET enable_indexscan; RESET max_parallel_workers_per_gather");
    return found;
  });
  if (!rows) {
    // query_canceled (57014): the server stopped a statement at what was left of the budget.
    if (rows.error().kind == ErrorKind::kTimeout || rows.error().message.find("57014") != std::string::npos) {
      return fail(ErrorKind::kTimeout,
                  fmt::format("store: search ran past its {} ms budget", kSearchBudget.count()),
                  "That search took too long. Try more specific words.");
    }
    return db_error("cannot search", rows.error());
  }
  // The snippets, from the page's texts, as SQLite's search makes them.
  const std::vector<std::vector<std::string>> term_words = db_.tokenizer().term_words(terms);
  hits.reserve(static_cast<std::size_t>(rows->size()));
  const PgPoolBodyDictionaries dictionaries(db_.pool());
  for (int r = 0; r < rows->size(); ++r) {
    // One body that cannot be read gets no snippet rather than failing the page, as on SQLite.
    // The frame is unpacked once, for the snippet and the excerpt.
    ArticleView view = read_article_fields(*rows, r);
    std::string snippet;
    if (auto body =
            stored_body(db_.bodies(), dictionaries, *rows, r, kArticleFrameColumn, kArticleColumnCount)) {
      snippet = search_snippet(db_.tokenizer(), term_words, body->text);
      view.article.excerpt = std::move(body->excerpt);
    }
    hits.push_back({.view = std::move(view), .snippet = std::move(snippet)});
  }
  return hits;
}

Result<std::vector<model::Category>> PgArticleStore::categories() {
  auto rows = run_pooled(
      db_.pool(),
      "SELECT slug, name, visible_articles FROM categories ORDER BY name COLLATE \"C\", slug COLLATE "
      "\"C\"",
      "cannot list categories");
  if (!rows) return std::unexpected(rows.error());
  std::vector<model::Category> out;
  for (int r = 0; r < rows->size(); ++r) {
    out.push_back(
        {.slug = rows->string(r, 0), .name = rows->string(r, 1), .article_count = rows->int64(r, 2)});
  }
  return out;
}

Result<std::int64_t> PgArticleStore::article_count() {
  auto rows = run_pooled(db_.pool(), "SELECT COUNT(*) FROM articles", "cannot count articles");
  if (!rows) return std::unexpected(rows.error());
  return rows->int64(0, 0);
}

Result<void> PgArticleStore::set_keep_override(std::int64_t article_id, std::optional<bool> keep) {
  std::optional<std::int64_t> value;
  if (keep) value = *keep ? 1 : 0;
  auto rows = run_pooled(db_.pool(), kSetKeepOverride, "cannot set keep override",
                         [&](Query& q) { q.bind(":keep", value).bind(":id", article_id); });
  if (!rows) return std::unexpected(rows.error());
  if (rows->affected() == 0)
    return fail(ErrorKind::kNotFound, fmt::format("store: no article {}", article_id));
  return {};
}

Result<std::int64_t> PgArticleStore::set_verdicts(std::span<const VerdictUpdate> updates) {
  std::int64_t changed = 0;
  auto done = in_transaction(db_.pool(), [&](Connection& c) -> Result<void> {
    changed = 0;
    for (const auto& update : updates) {
      Query q(c, kSetVerdict);
      q.bind(":junk", update.junk ? 1 : 0).bind(":reason", update.junk ? update.reason : std::string());
      q.bind(":id", update.article_id);
      auto rows = q.run();
      if (!rows) return std::unexpected(rows.error());
      changed += rows->affected();
    }
    return {};
  });
  if (!done) return db_error("cannot set verdicts", done.error());
  return changed;
}

Result<std::int64_t> PgArticleStore::set_texts(std::span<const TextUpdate> updates) {
  std::int64_t changed = 0;
  auto done = in_transaction(db_.pool(), [&](Connection& c) -> Result<void> {
    changed = 0;
    // The titles, for the search vectors made with each new text.
    std::vector<std::int64_t> ids;
    ids.reserve(updates.size());
    for (const auto& update : updates) ids.push_back(update.article_id);
    // And the stored bodies, to pack each new text with the stored summary and content.
    Query select(c, "SELECT a.id, a.title, " LONGREAD_PG_BODY_COLUMNS
                    " FROM articles a WHERE a.id = ANY(:ids::bigint[])");
    select.bind(":ids", id_array(ids));
    auto titles = select.run();
    if (!titles) return std::unexpected(titles.error());
    const PgBodyDictionaries dictionaries(c);
    std::unordered_map<std::int64_t, std::pair<std::string, ArticleBody>> stored;
    for (int r = 0; r < titles->size(); ++r) {
      auto body = stored_body(db_.bodies(), dictionaries, *titles, r, 2);
      if (!body) return std::unexpected(body.error());
      stored.emplace(titles->int64(r, 0), std::pair{titles->string(r, 1), std::move(*body)});
    }
    std::optional<std::uint32_t> dictionary;
    for (const auto& update : updates) {
      const auto row = stored.find(update.article_id);
      if (row == stored.end()) continue;  // deleted since: nothing to write
      const auto& [title, before] = row->second;
      const SearchVectors vectors = search_vectors(db_.tokenizer(), db_.common_words(), title, update.text);
      const bool body_changed = before.text != update.text || before.excerpt != update.excerpt;
      std::optional<std::string> body;
      if (body_changed) {
        if (!dictionary) {
          auto newest = db_.bodies().current_id(dictionaries);
          if (!newest) return std::unexpected(newest.error());
          dictionary = *newest;
        }
        auto made = pack_body(db_.bodies(), c, *dictionary,
                              {.summary_html = before.summary_html,
                               .content_html = before.content_html,
                               .text = update.text,
                               .excerpt = update.excerpt});
        if (!made) return std::unexpected(made.error());
        body = std::move(*made);
      }
      Query q(c, kSetText);
      q.bind(":body_changed", body_changed);
      bind_body(q, body);
      q.bind(":search_vector", Binary{vectors.search}).bind(":rank_vector", Binary{vectors.rank});
      q.bind(":phrase_filter", Binary{vectors.phrase_filter})
          .bind(":common_words", Binary{vectors.common_words});
      q.bind(":excerpt", "");  // the frame holds it
      q.bind(":word_count", update.word_count).bind(":reading_minutes", update.reading_minutes);
      q.bind(":simhash", std::bit_cast<std::int64_t>(update.simhash)).bind(":id", update.article_id);
      auto rows = q.run();
      if (!rows) return std::unexpected(rows.error());
      changed += rows->affected();
    }
    return {};
  });
  if (!done) return db_error("cannot set texts", done.error());
  return changed;
}

// Trains a dictionary on the newest articles' bodies and stores it as the newest; nullopt when there are too
// few articles to learn from.
Result<std::optional<std::uint32_t>> PgArticleStore::train_body_dictionary(Connection& c) {
  Query samples(c, kSelectSamples);
  samples.bind(":limit", kBodyDictionarySamples);
  auto rows = samples.run();
  if (!rows) return std::unexpected(rows.error());
  BodyDictionaryTrainer trainer;
  const PgBodyDictionaries dictionaries(c);
  for (int r = 0; r < rows->size(); ++r) {
    auto body = stored_body(db_.bodies(), dictionaries, *rows, r, 0);
    if (!body) continue;                                             // unreadable: not a sample
    if (body->content_html.empty() && body->text.empty()) continue;  // pruned
    trainer.add(body->view());
  }
  auto trained = trainer.train();
  if (!trained) return std::unexpected(trained.error());
  if (!*trained) return std::optional<std::uint32_t>{};
  const auto& [id, dict] = **trained;
  Query insert(c, kInsertDictionary);
  insert.bind(":id", static_cast<std::int64_t>(id))
      .bind(":samples", static_cast<std::int64_t>(trainer.samples()));
  insert.bind(":now", std::chrono::time_point_cast<std::chrono::seconds>(std::chrono::system_clock::now()));
  insert.bind(":dict", Binary{dict});
  if (auto ok = insert.run(); !ok) return std::unexpected(ok.error());
  return std::optional<std::uint32_t>{id};
}

Result<CompactBatch> PgArticleStore::compact_bodies(const CompactOptions& options) {
  CompactBatch out;
  out.last_id = options.after_id;
  if (options.after_id == 0) {
    auto trained = in_transaction(db_.pool(), [&](Connection& c) -> Result<void> {
      auto current = db_.bodies().current_id(PgBodyDictionaries(c));
      if (!current) return std::unexpected(current.error());
      if (*current != 0 && !options.retrain) return {};
      auto id = train_body_dictionary(c);
      if (!id) return std::unexpected(id.error());
      out.trained_dictionary = *id;
      return {};
    });
    if (!trained) return db_error("cannot train body dictionary", trained.error());
  }
  auto done = in_transaction(db_.pool(), [&](Connection& c) -> Result<void> {
    out.converted = 0;
    out.last_id = options.after_id;
    out.unreadable.clear();
    const PgBodyDictionaries dictionaries(c);
    auto dictionary = db_.bodies().current_id(dictionaries);
    if (!dictionary) return std::unexpected(dictionary.error());
    Query select(c, kSelectUncompacted);
    select.bind(":after", options.after_id).bind(":batch", std::max(options.batch, 1));
    select.bind(":dictionary", static_cast<std::int64_t>(*dictionary));
    auto rows = select.run();
    if (!rows) return std::unexpected(rows.error());
    std::vector<std::int64_t> ids;
    for (int r = 0; r < rows->size(); ++r) ids.push_back(rows->int64(r, 0));
    out.done = static_cast<int>(ids.size()) < std::max(options.batch, 1);
    if (ids.empty()) return {};
    // Each row selected needs its body packed, its vectors and filter made, or both.
    Query read(c, kSelectToCompact);
    read.bind(":ids", id_array(ids)).bind(":dictionary", static_cast<std::int64_t>(*dictionary));
    auto parts = read.run();
    if (!parts) return std::unexpected(parts.error());
    std::vector<Statement> writes;
    for (int r = 0; r < parts->size(); ++r) {
      const std::int64_t id = parts->int64(r, 0);
      auto body = stored_body(db_.bodies(), dictionaries, *parts, r, 4);
      if (!body) {
        out.unreadable.push_back(id);
        continue;
      }
      if (parts->text(r, 2) == "t") {
        auto frame = pack_body(db_.bodies(), c, *dictionary, body->view());
        if (!frame) return std::unexpected(frame.error());
        if (*frame) {
          Query pack(c, kPackBody);
          pack.prepared().bind(":id", id).bind(":body", Binary{**frame});
          pack.bind(":dictionary", static_cast<std::int64_t>(body_dictionary_id(**frame)));
          auto statement = pack.statement();
          if (!statement) return std::unexpected(statement.error());
          writes.push_back(std::move(*statement));
        }
      }
      if (parts->text(r, 3) == "t") {
        SearchVectors v = search_vectors(db_.tokenizer(), db_.common_words(), parts->text(r, 1), body->text);
        Query fill(c, kFillSearchVectors);
        fill.prepared().bind(":id", id).bind(":search", Binary{std::move(v.search)});
        fill.bind(":rank", Binary{std::move(v.rank)}).bind(":filter", Binary{std::move(v.phrase_filter)});
        fill.bind(":common", Binary{std::move(v.common_words)});
        auto statement = fill.statement();
        if (!statement) return std::unexpected(statement.error());
        writes.push_back(std::move(*statement));
      }
    }
    if (auto ok = run_pipelined(c, writes); !ok) return std::unexpected(ok.error());
    out.converted = static_cast<std::int64_t>(ids.size() - out.unreadable.size());
    out.last_id = ids.back();
    if (options.hold_before_commit.count() > 0) std::this_thread::sleep_for(options.hold_before_commit);
    return {};
  });
  if (!done) return db_error("cannot compact bodies", done.error());
  return out;
}

Result<std::vector<SimhashEntry>> PgArticleStore::simhash_index() {
  // Originals only: an article already marked a duplicate never becomes the original of another.
  auto rows = run_pooled(
      db_.pool(),
      "SELECT id, blog_id, simhash, display_at FROM articles WHERE duplicate_of IS NULL AND simhash <> 0",
      "cannot read simhash index", [](Query&) {});
  if (!rows) return std::unexpected(rows.error());
  std::vector<SimhashEntry> out;
  out.reserve(static_cast<std::size_t>(rows->size()));
  for (int r = 0; r < rows->size(); ++r) {
    out.push_back({.id = rows->int64(r, 0),
                   .blog_id = rows->int64(r, 1),
                   .simhash = std::bit_cast<std::uint64_t>(rows->int64(r, 2)),
                   .date = rows->time(r, 3)});
  }
  return out;
}

Result<std::int64_t> PgArticleStore::near_duplicate_log_head() {
  Pool::Lease lease = db_.pool().acquire();
  return read_log_head(*lease);
}

Result<void> PgArticleStore::mark_duplicates(std::span<const std::pair<std::int64_t, std::int64_t>> marks) {
  if (marks.empty()) return {};
  auto done = in_transaction(db_.pool(), [&](Connection& c) { return write_duplicate_marks(c, marks); });
  if (!done) return db_error("cannot mark duplicate", done.error());
  return {};
}

Result<std::vector<ArticleView>> PgArticleStore::recent_junk(int limit) {
  auto rows = run_pooled(
      db_.pool(),
      LONGREAD_PG_LISTED LONGREAD_PG_ARTICLE_FROM
      " WHERE a.junk = 1 OR a.keep_override = 0 ORDER BY a.first_seen DESC, a.id DESC LIMIT :limit",
      "cannot list junk", [&](Query& q) { q.bind(":limit", std::max(limit, 0)); });
  if (!rows) return std::unexpected(rows.error());
  std::vector<ArticleView> out;
  for (int r = 0; r < rows->size(); ++r)
    out.push_back(read_article_view(*rows, r, db_.bodies(), PgPoolBodyDictionaries(db_.pool())));
  return out;
}

Result<std::vector<ArticleView>> PgArticleStore::near_misses(TimePoint since, int limit) {
  // A range of the articles_newest index (visible, display_at), then the shortest first.
  auto rows =
      run_pooled(db_.pool(),
                 LONGREAD_PG_LISTED LONGREAD_PG_ARTICLE_FROM
                 " WHERE a.visible = 1 AND a.display_at >= :since AND a.junk = 0 AND a.keep_override IS NULL"
                 " ORDER BY a.word_count, a.id DESC LIMIT :limit",
                 "cannot list near misses",
                 [&](Query& q) { q.bind(":since", since).bind(":limit", std::max(limit, 0)); });
  if (!rows) return std::unexpected(rows.error());
  std::vector<ArticleView> out;
  for (int r = 0; r < rows->size(); ++r)
    out.push_back(read_article_view(*rows, r, db_.bodies(), PgPoolBodyDictionaries(db_.pool())));
  return out;
}

}  // namespace longread::storage::postgres
