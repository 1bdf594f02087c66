#include "storage/postgres/search_run.h"

#include <algorithm>
#include <string_view>
#include <unordered_set>

#include <fmt/format.h>

#include "storage/postgres/article_bodies.h"
#include "storage/postgres/phrase_filter.h"
#include "storage/postgres/reader_filter.h"
#include "storage/postgres/rows.h"
#include "storage/postgres/statement.h"

namespace longread::storage::postgres {
namespace {

// Relevance is ts_rank over the article's rank_vector, its title's words (weight 'A'), plus the share of
// the query's words its lead holds (the text's first kLeadCharacters characters, in the lead filter)
// at a tenth of a title word, plus a floor for matching at all; the score adds the age, relevance halved
// every kSearchHalfLifeDays as on SQLite. Both parts are read from the row: ts_rank over the whole
// search_vector read every candidate's vector out of the TOAST table, most of a search's time at a million
// articles, and the lead's words as a tsvector (1.1 KB an article, where the filter takes about 120 bytes)
// made rows of 2.5 KB, three to a page.
//
// The candidates are found slice by slice of ids, newest first (search_candidates_sql): a GIN index yields
// its matches in no useful order, so "the newest 1,000 of every match" fetched every match's row (a fifth of
// a million for a word in 20 % of a million articles) to sort them, and the plan PostgreSQL prefers for a
// LIMIT, walking the primary key backwards and testing each row's tsvector, reads and detoasts rows until it
// has enough, the whole table for a rare word. A slice asks the GIN index for its words and for the blocks of
// ids that cover it (search_blocks.h), which the index intersects before any row is read, so it reads the
// rows that match inside it; a primary-key range ANDed with the matches cost about 0.1 us an id of the range,
// however few the matches (50 ms of a 92 ms slice of 430,555 ids). The first slice is as wide
// as the planner's estimate of the matches says 1,000 of them need (from kFirstSearchSlice to
// kWidestFirstSearchSlice ids: the statistics know only common words, and guess low for the rest, which made
// the slice too wide); each next one as wide as the matches found so far say the rest need, a quarter to
// spare, at least kFirstSearchSlice ids (kSearchSliceGrowth times wider when there were none). A slice
// starts where a block does (aligned_slice_low), and reaches down to the oldest id when what would be left
// below it is small: less than kSearchSliceGrowth slices when the
// matches' density is not known yet (an estimate, or an empty slice), a quarter of a slice when it is, since
// every match below the slice is a row read (a slice's whole range is read before its newest matches are
// taken), where one more slice costs one more read of each word's posting list.
constexpr std::int64_t kFirstSearchSlice = 5'000;
constexpr std::int64_t kWidestFirstSearchSlice = 100'000;
constexpr std::int64_t kSearchSliceGrowth = 4;
// A match beyond the title and the lead: half of what one word of the lead weighs, so such an article still
// ranks by its age among others like it, below the articles whose lead is about the words when of the same
// age.
#define LONGREAD_PG_SEARCH_MATCH_FLOOR "0.03"
// The lead holding every word of the query: what ts_rank gives one 'D' occurrence (0.1/1.645), what the
// lead weighed when its words were in the rank vector (rows stored before, whose vectors still hold them).
#define LONGREAD_PG_SEARCH_LEAD_WEIGHT "0.0608"
#define LONGREAD_PG_SEARCH_RANK \
  "ln(GREATEST(c.relevance, 1e-12)) + c.display_at * 0.6931471805599453 / (:half_life_days * 86400.0)"

// The matches in ids (:low, :high], newest first, at most :wanted.
//
// A query with a phrase asks the GIN index for its words (:words, which the index answers exactly, without
// reading a row), and keeps the rows whose phrase filter has the bits each pair of the phrase sets
// (phrase_filter.h: `probes`), or that have no filter (NULL: not made yet; empty: too long a text). Those
// are candidates only: their texts say which hold the phrase, so the second column says how many bytes
// checking one will read.
//
// Where an article keeps a query's words (common_words.h) decides which rows a statement asks for:
// kEveryRow, a query without common words, whose words every row holds as ids (:indexed_ids) or, stored
// before migration 0015, in its tsvector; kWithoutBitmap, the rows whose tsvector still holds every word (no
// bitmap), asked for all the query's words (:match or :words); kWithBitmap, the rows with a bitmap, asked the
// GIN indexes for the query's other words (their ids, or :indexed in a tsvector) and the bitmap for the
// common ones; kListedIds, the rows of :ids (found by common_words_walk_sql), for a query made
// only of common words, when a reader's filter or a phrase needs more than the walk reads.
enum class CandidateRows { kEveryRow, kWithoutBitmap, kWithBitmap, kListedIds };

// The rows whose ids hold every word of :indexed_ids and that lie in the blocks of ids :range_keys names
// (search_range_keys), both asked of one GIN index (migration 0016: articles_search_keys, and the index of
// the newest articles), which intersects them itself. `search_words IS NOT NULL` is the indexes' predicate,
// which the planner must see: the keys of a NULL array are the blocks' alone.
#define LONGREAD_PG_SEARCH_KEYS_MATCH                                                                  \
  "(a.search_words IS NOT NULL AND longread_search_keys(a.search_words, a.id) @> :indexed_ids::int8[]" \
  " AND longread_search_keys(a.search_words, a.id) && :range_keys::int8[])"

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
      sql += fmt::format(" AND (" LONGREAD_PG_SEARCH_KEYS_MATCH " OR a.search_vector @@ {}::tsquery)",
                         all_words);
      break;
    case CandidateRows::kWithoutBitmap:
      sql += fmt::format(" AND a.search_vector @@ {}::tsquery AND a.common_words IS NULL", all_words);
      break;
    case CandidateRows::kWithBitmap:
      sql += " AND (" LONGREAD_PG_SEARCH_KEYS_MATCH
             " OR a.search_vector @@ :indexed::tsquery)"
             " AND a.common_words IS NOT NULL" +
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
      bits += filter_bit_sql("phrase_filter", p) + " = 1";
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
// The candidates a slice whose candidates are checked gives at once (ids and sizes only), since some hold
// no phrase: cutting it at the number still wanted would make the server read the slice again.
constexpr int kPhraseCandidatesPerSlice = 20 * kSearchCandidates;
// Texts read per statement while checking phrases (at least one text, however long), and in all for one
// search: a hostile blog's long articles holding common words cost the search, never the process's memory.
constexpr std::int64_t kPhraseTextBatchBytes = std::int64_t{4} << 20;
constexpr std::int64_t kPhraseTextBudgetBytes = std::int64_t{256} << 20;
// What the planner expects of a query's matches: the first line of EXPLAIN's plan ends "rows=N width=W)".
constexpr const char* kSearchEstimateSql =
    "EXPLAIN SELECT 1 FROM articles a WHERE a.visible = 1"
    " AND (a.search_words @> :indexed_ids::int4[] OR a.search_vector @@ :match::tsquery)";
std::int64_t estimated_rows(std::string_view plan_line) {
  const std::size_t at = plan_line.find(" rows=");
  if (at == std::string_view::npos) return 0;
  std::int64_t rows = 0;
  for (std::size_t i = at + 6; i < plan_line.size() && plan_line[i] >= '0' && plan_line[i] <= '9'; ++i)
    rows = rows * 10 + (plan_line[i] - '0');
  return rows;
}
// The part of relevance the lead gives: the share of the query's words (query_lead_probes) the row's lead
// filter holds. None for a row without one (NULL: not made yet, whose rank vector still holds its lead).
std::string lead_relevance_sql(const std::vector<std::uint32_t>& lead_probes) {
  constexpr auto kProbes = static_cast<std::size_t>(kPhraseFilterProbes);
  const std::size_t words = lead_probes.size() / kProbes;
  if (words == 0) return "0";
  std::string sum;
  for (std::size_t w = 0; w < words; ++w) {
    sum += w == 0 ? "" : " + ";
    for (std::size_t i = 0; i < kProbes; ++i)
      sum += (i == 0 ? "" : " * ") + filter_bit_sql("lead_filter", lead_probes[w * kProbes + i]);
  }
  return fmt::format(
      "CASE WHEN COALESCE(octet_length(a.lead_filter), 0) = 0 THEN 0 ELSE ({}) "
      "* " LONGREAD_PG_SEARCH_LEAD_WEIGHT " / {} END",
      sum, words);
}
// The candidates (:ids), each with its rank score.
std::string ranked_sql(const std::vector<std::uint32_t>& lead_probes) {
  return "SELECT c.id AS id, " LONGREAD_PG_SEARCH_RANK
         " AS rank_score FROM ("
         " SELECT a.id, a.display_at, " LONGREAD_PG_SEARCH_MATCH_FLOOR
         " + ts_rank(COALESCE(a.rank_vector, longread_rank_vector(a.title, a.text)), q.query) + " +
         lead_relevance_sql(lead_probes) +
         " AS relevance FROM articles a, q WHERE a.id = ANY(:ids::bigint[])) c";
}
// The candidates (:ids) ranked, paged, with their bodies for the snippets.
std::string search_rank_sql(const std::vector<std::uint32_t>& lead_probes) {
  return "WITH q AS (SELECT :match::tsquery AS query)"
         " SELECT " LONGREAD_PG_ARTICLE_COLUMNS_HEAD " '', '', ''," LONGREAD_PG_ARTICLE_COLUMNS_TAIL
         ", " LONGREAD_PG_BODY_PARTS " FROM (" +
         ranked_sql(lead_probes) +
         " ORDER BY rank_score DESC, c.id DESC LIMIT :limit OFFSET :offset) s"
         " JOIN articles a ON a.id = s.id JOIN blogs b ON b.id = a.blog_id CROSS JOIN q"
         " ORDER BY s.rank_score DESC, s.id DESC";
}
// The candidates (:ids) in the order search_rank_sql pages them: a phrase's candidates are checked in it.
std::string search_order_sql(const std::vector<std::uint32_t>& lead_probes) {
  return "WITH q AS (SELECT :match::tsquery AS query) " + ranked_sql(lead_probes) +
         " ORDER BY rank_score DESC, c.id DESC";
}

}  // namespace

std::string filter_bit_sql(std::string_view column, std::uint32_t probe) {
  return fmt::format("get_bit(a.{0}, {1}::bigint & (octet_length(a.{0})::bigint * 8 - 1))", column, probe);
}

SearchPlan plan_search(const SearchTokenizer& tokenizer, const CommonWords& common,
                       const std::vector<std::string>& terms, const std::optional<ReaderFilter>& reader) {
  SearchPlan plan;
  plan.match = search_query(tokenizer, terms);
  if (plan.match.empty()) return plan;
  plan.phrases = query_phrases(tokenizer, terms);
  plan.probes = query_phrase_probes(plan.phrases);
  plan.words = plan.probes.empty() ? plan.match : search_words(tokenizer, terms);
  plan.split = split_search_words(tokenizer, common, terms);
  const std::vector<std::uint32_t> lead_probes = query_lead_probes(tokenizer, terms);
  plan.rank_sql = search_rank_sql(lead_probes);
  plan.order_sql = search_order_sql(lead_probes);
  plan.reader = reader;
  const bool has_common = !plan.split.common_bits.empty();
  const bool only_common = has_common && plan.split.indexed.empty();
  plan.every_row_sql = search_candidates_sql(
      reader, plan.probes, has_common ? CandidateRows::kWithoutBitmap : CandidateRows::kEveryRow, {});
  if (has_common && !only_common)
    plan.bitmap_sql =
        search_candidates_sql(reader, plan.probes, CandidateRows::kWithBitmap, plan.split.common_bits);
  if (only_common) {
    plan.walk_sql = common_words_walk_sql(plan.split.common_bits);
    if (reader || !plan.probes.empty())
      plan.listed_sql = search_candidates_sql(reader, plan.probes, CandidateRows::kListedIds, {});
  }
  for (const int bit : plan.split.common_bits) plan.common_share *= common.share(bit);
  return plan;
}

SearchRun::SearchRun(Connection& conn, Database& db, const SearchPlan& plan)
    : conn_(conn), db_(db), plan_(plan), deadline_(std::chrono::steady_clock::now() + kSearchBudget) {}

SearchRun::~SearchRun() {
  // The pooled connection goes back as it came.
  (void)conn_.exec_script(
      "SET statement_timeout = 0; RESET enable_indexscan; RESET max_parallel_workers_per_gather");
}

Result<void> SearchRun::within_budget(bool index_scans) {
  const auto left =
      std::chrono::ceil<std::chrono::milliseconds>(deadline_ - std::chrono::steady_clock::now());
  if (left.count() <= 0) return fail(ErrorKind::kTimeout, "store: search: out of budget");
  // Bitmap scans only: for a slice of a few thousand ids the planner prefers walking the primary key and
  // testing each row's tsvector, which detoasts every row of the slice (tens of ms), where ANDing the two
  // indexes reads only the matches. The walk of common words is an index-only scan, which PostgreSQL 15
  // counts as an index scan.
  // The walk runs without parallel workers: the planner cannot tell how soon it finds its matches (a get_bit
  // test is a guess to it), plans for the whole index, and starting two workers took 76 ms of a 94 ms walk
  // over 200,000 articles.
  return conn_.exec_script(fmt::format(
      "SET statement_timeout = {}; SET enable_indexscan = {}; SET max_parallel_workers_per_gather = {}",
      left.count(), index_scans ? "on" : "off", index_scans ? "0" : "DEFAULT"));
}

Result<void> SearchRun::add_candidates(SearchSlice& out, SliceStatement statement, int limit,
                                       std::int64_t low, std::int64_t high,
                                       const std::vector<std::int64_t>& ids) {
  const bool walk = statement == SliceStatement::kWalk;
  if (auto ok = within_budget(walk); !ok) return ok;
  const std::string& sql = statement == SliceStatement::kEveryRow ? plan_.every_row_sql
                           : statement == SliceStatement::kBitmap ? plan_.bitmap_sql
                           : walk                                 ? plan_.walk_sql
                                                                  : plan_.listed_sql;
  Query q(conn_, sql);
  if (statement == SliceStatement::kListed) {
    q.bind(":ids", id_array(ids));
  } else {
    q.bind(":low", low).bind(":high", high);
  }
  // The walk reads the index alone: no words, no reader's filter.
  if (!walk && plan_.reader) bind_reader_filter(q, *plan_.reader);
  if (statement == SliceStatement::kEveryRow)
    q.bind(plan_.probes.empty() ? ":match" : ":words", plan_.probes.empty() ? plan_.match : plan_.words);
  if (statement == SliceStatement::kBitmap) q.bind(":indexed", plan_.split.indexed);
  // The rows without a bitmap hold every word in their tsvector; the others' ids are asked for.
  if ((statement == SliceStatement::kEveryRow && plan_.split.common_bits.empty()) ||
      statement == SliceStatement::kBitmap)
    q.bind(":indexed_ids", plan_.split.indexed_ids)
        .bind(":range_keys", id_array(search_range_keys(low, high)));
  q.bind(":wanted", limit);
  auto rows = q.run();
  if (!rows) return std::unexpected(rows.error());
  const bool sized = !plan_.probes.empty() && !walk;
  for (int r = 0; r < rows->size(); ++r)
    out.candidates.push_back({.id = rows->int64(r, 0), .bytes = sized ? rows->int64(r, 1) : 0});
  if (rows->size() == limit && limit > 0)
    out.examined_above = std::max(out.examined_above, rows->int64(rows->size() - 1, 0) - 1);
  return {};
}

Result<SearchSlice> SearchRun::read_slice(std::int64_t low, std::int64_t high, int wanted) {
  SearchSlice out{.candidates = {}, .examined_above = low};
  if (auto ok = add_candidates(out, SliceStatement::kEveryRow, wanted, low, high, {}); !ok)
    return std::unexpected(ok.error());
  if (!plan_.bitmap_sql.empty()) {
    if (auto ok = add_candidates(out, SliceStatement::kBitmap, wanted, low, high, {}); !ok)
      return std::unexpected(ok.error());
  }
  if (!plan_.walk_sql.empty()) {
    const bool filtered = !plan_.listed_sql.empty();
    const std::size_t walked_from = out.candidates.size();
    const int walk_limit = filtered ? std::min(kCommonWordsWalkIds, 2 * wanted + 100) : wanted;
    if (auto ok = add_candidates(out, SliceStatement::kWalk, walk_limit, low, high, {}); !ok)
      return std::unexpected(ok.error());
    if (filtered && out.candidates.size() > walked_from) {
      std::vector<std::int64_t> walked;
      for (std::size_t i = walked_from; i < out.candidates.size(); ++i)
        walked.push_back(out.candidates[i].id);
      out.candidates.resize(walked_from);
      if (auto ok = add_candidates(out, SliceStatement::kListed, wanted, low, high, walked); !ok)
        return std::unexpected(ok.error());
    }
  }
  // Only what every statement looked at counts, newest first: a candidate below a statement's cut could have
  // a newer one of another statement's missing above it.
  std::erase_if(out.candidates, [&](const SearchCandidate& x) { return x.id <= out.examined_above; });
  std::ranges::sort(out.candidates, std::greater<>{}, &SearchCandidate::id);
  if (std::ssize(out.candidates) > wanted) {
    out.candidates.resize(static_cast<std::size_t>(wanted));
    out.examined_above = out.candidates.back().id - 1;
  }
  return out;
}

Result<std::int64_t> SearchRun::first_slice_width(std::int64_t top) {
  // The first slice is sized by the planner's estimate of the matches (from the column's statistics, times
  // the list's shares of the common words), to hold kSearchCandidates of them with a quarter to spare, so
  // one slice, one read of each word's posting list, usually suffices; later slices cover an estimate that
  // was short. A query of common words only has no column statistics to ask.
  auto expected_rows = static_cast<double>(top);
  const bool has_common = !plan_.split.common_bits.empty();
  if (!(has_common && plan_.split.indexed.empty())) {
    if (auto ok = within_budget(); !ok) return std::unexpected(ok.error());
    Query estimate(conn_, kSearchEstimateSql);
    estimate.bind(":match", has_common ? plan_.split.indexed : plan_.match)
        .bind(":indexed_ids", plan_.split.indexed_ids);
    auto plan = estimate.run();
    if (!plan) return std::unexpected(plan.error());
    expected_rows = static_cast<double>(estimated_rows(plan->text(0, 0)));
  }
  const std::int64_t expected =
      std::max<std::int64_t>(1, static_cast<std::int64_t>(expected_rows * plan_.common_share));
  return std::clamp<std::int64_t>(kSearchCandidates * top / expected * 5 / 4, kFirstSearchSlice,
                                  kWidestFirstSearchSlice);
}

Result<void> SearchRun::collect() {
  while (high_ > 0 && std::ssize(ids_) < kSearchCandidates) {
    const std::int64_t tail = density_known_ ? width_ / 4 : width_ * kSearchSliceGrowth;
    const std::int64_t low = rest_of_slice_           ? *rest_of_slice_
                             : high_ - width_ <= tail ? 0
                                                      : aligned_slice_low(high_ - width_);
    rest_of_slice_.reset();
    const int wanted =
        check_each_slice_ ? kPhraseCandidatesPerSlice : kSearchCandidates - static_cast<int>(ids_.size());
    auto slice = read_slice(low, high_, wanted);
    if (!slice) return std::unexpected(slice.error());
    const std::size_t before = ids_.size();
    if (!check_each_slice_) {
      for (const SearchCandidate& x : slice->candidates) {
        ids_.push_back(x.id);
        if (!plan_.probes.empty()) unchecked_.emplace(x.id, x.bytes);
      }
    } else if (auto kept = keep_phrase_matches(slice->candidates, ids_, kSearchCandidates); !kept) {
      return std::unexpected(kept.error());
    }
    if (slice->examined_above > low) {
      // The slice may hold more candidates than were read (and, for a phrase, some of those read held
      // none): the rest of the slice next.
      high_ = slice->examined_above;
      rest_of_slice_ = low;
      continue;
    }
    high_ = low;
    // The next slice: as wide as this one's density of matches says the rest need, a quarter to spare, and
    // no narrower than a first slice. Not wider: at least twice this one's width, as it once was, gave a
    // word that found 970 of its 1,000 in a first slice of 100,000 ids a second slice of 200,000 for the
    // last 30, whose primary-key bitmap alone took 83 ms (148 ms in all, against 7 ms for the 3,866 ids the
    // density asks for).
    const auto found = static_cast<std::int64_t>(ids_.size() - before);
    const std::int64_t missing = kSearchCandidates - std::ssize(ids_);
    density_known_ = found > 0;
    width_ = found == 0 ? width_ * kSearchSliceGrowth
                        : std::max(kFirstSearchSlice, missing * width_ / found * 5 / 4);
  }
  return {};
}

Result<void> SearchRun::keep_phrase_matches(const std::vector<SearchCandidate>& candidates,
                                            std::vector<std::int64_t>& out, std::int64_t cap) {
  for (std::size_t r = 0; r < candidates.size() && std::ssize(out) < cap;) {
    if (auto ok = within_budget(); !ok) return ok;
    std::vector<std::int64_t> batch;
    std::int64_t bytes = 0;
    // About as many as may still be wanted (a quarter of those read hold no phrase, at a guess).
    const std::size_t enough = static_cast<std::size_t>(cap - std::ssize(out)) * 5 / 4 + 8;
    for (; r < candidates.size() && batch.size() < enough && (batch.empty() || bytes < kPhraseTextBatchBytes);
         ++r) {
      batch.push_back(candidates[r].id);
      bytes += candidates[r].bytes;
    }
    text_bytes_ += bytes;
    if (text_bytes_ > kPhraseTextBudgetBytes)
      return fail(ErrorKind::kTimeout, "store: search: out of budget (texts to check for a phrase)");
    Query texts(conn_, kSearchPhraseTextsSql);
    texts.bind(":ids", id_array(batch));
    auto read = texts.run();
    if (!read) return std::unexpected(read.error());
    std::unordered_set<std::int64_t> holding;
    for (int t = 0; t < read->size(); ++t) {
      // A body that cannot be read holds no phrase, as a search's snippet of it is empty.
      auto body = stored_body(db_.bodies(), PgBodyDictionaries(conn_), *read, t, 2);
      if (body && holds_phrases(db_.tokenizer(), plan_.phrases, read->text(t, 1), body->text))
        holding.insert(read->int64(t, 0));
    }
    for (const std::int64_t id : batch)
      if (holding.contains(id) && std::ssize(out) < cap) out.push_back(id);
  }
  return {};
}

Result<std::int64_t> SearchRun::keep_phrase_page(int limit, int offset) {
  // Reading a text is the costly part of a phrase's search: the candidates the filters let through are
  // ranked, then checked from the top until the page is full (the filter lets 1-3 % of the rows without a
  // pair through).
  if (auto ok = within_budget(); !ok) return std::unexpected(ok.error());
  Query order(conn_, plan_.order_sql);
  order.bind(":match", plan_.match).bind(":ids", id_array(ids_)).bind(":half_life_days", kSearchHalfLifeDays);
  auto ranked = order.run();
  if (!ranked) return std::unexpected(ranked.error());
  std::vector<SearchCandidate> in_order;
  for (int r = 0; r < ranked->size(); ++r) {
    const std::int64_t id = ranked->int64(r, 0);
    const auto bytes = unchecked_.find(id);
    in_order.push_back({.id = id, .bytes = bytes == unchecked_.end() ? 0 : bytes->second});
  }
  const std::int64_t page_end = std::int64_t{offset} + limit;
  std::vector<std::int64_t> holding;
  if (auto kept = keep_phrase_matches(in_order, holding, page_end); !kept)
    return std::unexpected(kept.error());
  if (std::ssize(holding) >= page_end || std::ssize(ids_) < kSearchCandidates) {
    // The page's articles, or every candidate was looked at and there were no more.
    ids_.assign(holding.begin() + std::min<std::int64_t>(offset, std::ssize(holding)), holding.end());
    return 0;
  }
  // The candidates, every one checked, hold fewer than the page needs, while older rows may hold more (a
  // phrase of three words whose pairs the texts have apart): each older slice's candidates checked too,
  // until kSearchCandidates hold the phrases, ranked as any search's.
  ids_ = std::move(holding);
  check_each_slice_ = true;
  if (auto ok = collect(); !ok) return std::unexpected(ok.error());
  return offset;
}

Result<Rows> SearchRun::page(int limit, int offset) {
  limit = std::max(limit, 0);
  offset = std::max(offset, 0);
  auto top = conn_.exec("SELECT COALESCE(MAX(id), 0) FROM articles");
  if (!top) return std::unexpected(top.error());
  high_ = top->int64(0, 0);
  auto width = first_slice_width(high_);
  if (!width) return std::unexpected(width.error());
  width_ = *width;
  if (auto ok = collect(); !ok) return std::unexpected(ok.error());
  std::int64_t page_offset = offset;
  if (!plan_.probes.empty()) {
    auto left = keep_phrase_page(limit, offset);
    if (!left) return std::unexpected(left.error());
    page_offset = *left;
  }
  if (auto ok = within_budget(); !ok) return std::unexpected(ok.error());
  Query q(conn_, plan_.rank_sql);
  q.bind(":match", plan_.match)
      .bind(":ids", id_array(ids_))
      .bind(":half_life_days", kSearchHalfLifeDays)
      .bind(":limit", limit)
      .bind(":offset", page_offset);
  return q.run();
}

}  // namespace longread::storage::postgres
