// One search on PostgreSQL (docs/storage.md, "Search on PostgreSQL"), in the shape of SQLite's: the newest
// kSearchCandidates matches among visible articles are ranked by relevance, then by age, and paged.
// PgArticleStore::search plans it from the query's terms (plan_search, no I/O), runs it on one pooled
// connection (SearchRun), and makes the page's snippets.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "storage/postgres/database.h"
#include "storage/postgres/pg.h"
#include "storage/postgres/search_blocks.h"
#include "storage/postgres/search_vectors.h"
#include "storage/types.h"

namespace longread::storage::postgres {

// The most time one search may take, on the server and in longread: the visitor chooses the query, so its
// cost too. Each statement gets what is left of it, past which the server cancels it.
inline constexpr std::chrono::milliseconds kSearchBudget{1000};

// A bit of one of the row's filters (`column` of the articles aliased `a`; phrase_filter.h: a probe taken
// modulo the filter's size in bits, a power of two), 0 or 1.
[[nodiscard]] std::string filter_bit_sql(std::string_view column, std::uint32_t probe);

// What a query asks, from its terms alone.
struct SearchPlan {
  // The terms as FTS5 reads them on SQLite (search_query); empty when no term has a word, which matches
  // nothing.
  std::string match;
  // Every word required, in any place (search_words): what the GIN index is asked for a phrase.
  std::string words;
  // The terms that are phrases, and the bits of the phrase filter each pair of them sets (none without a
  // phrase).
  std::vector<std::vector<std::string>> phrases;
  std::vector<std::uint32_t> probes;
  // The words split by where an article keeps them: its search vector or its bitmap of common words.
  SplitSearchWords split;
  std::optional<ReaderFilter> reader;
  // A slice's statements (search_run.cpp, search_candidates_sql): the rows whose vectors hold every word;
  // the rows with a bitmap, through the index for the other words (empty without both kinds of words); the
  // walk of articles_common_words for a query of common words only, and the statement that filters the
  // walk's rows when a reader's filter or a phrase needs them (each empty when not needed).
  std::string every_row_sql;
  std::string bitmap_sql;
  std::string walk_sql;
  std::string listed_sql;
  // The candidates ranked and paged with their columns, and ranked alone (the order a phrase's candidates
  // are checked in): relevance counts the query's words in each row's lead.
  std::string rank_sql;
  std::string order_sql;
  // The share of the articles that hold every common word of the query, were the words independent.
  double common_share = 1;
};
[[nodiscard]] SearchPlan plan_search(const SearchTokenizer& tokenizer, const CommonWords& common,
                                     const std::vector<std::string>& terms,
                                     const std::optional<ReaderFilter>& reader);

// A candidate: its id and, for a phrase, the bytes of its title and text (what checking it will read).
struct SearchCandidate {
  std::int64_t id = 0;
  std::int64_t bytes = 0;
};
// A slice's candidates, newest first; every id above `examined_above` was looked at (`low` when the whole
// slice was: a statement cut at its LIMIT looked no further than its last row).
struct SearchSlice {
  std::vector<SearchCandidate> candidates;
  std::int64_t examined_above = 0;
};

// One search's statements on one connection, within kSearchBudget from its construction. The connection's
// settings are restored when it ends.
class SearchRun {
 public:
  SearchRun(Connection& conn, Database& db, const SearchPlan& plan);
  ~SearchRun();
  SearchRun(const SearchRun&) = delete;
  SearchRun& operator=(const SearchRun&) = delete;

  // The page: `limit` articles from `offset` in the ranked order, with the article columns and body parts
  // SearchPlan::rank_sql selects. A kTimeout error (or the server's query_canceled) past the budget.
  Result<Rows> page(int limit, int offset);

  // The candidates in ids (low, high], newest first, at most `wanted`, from every statement of the plan:
  // rows a phrase's filter lets through are candidates, not checked here.
  Result<SearchSlice> read_slice(std::int64_t low, std::int64_t high, int wanted);

 private:
  // Sets the time left to the next statement, and which plans it may use; a kTimeout error when none is.
  Result<void> within_budget(bool index_scans = false);
  // The plan's statements a slice runs: every_row_sql, bitmap_sql, walk_sql, listed_sql.
  enum class SliceStatement { kEveryRow, kBitmap, kWalk, kListed };
  // Runs one of them, at most `limit` rows, over ids (low, high] or over `ids` (kListed), adding its rows to
  // `out` and lowering out.examined_above to its last row when it was cut at `limit`.
  Result<void> add_candidates(SearchSlice& out, SliceStatement statement, int limit, std::int64_t low,
                              std::int64_t high, const std::vector<std::int64_t>& ids);
  // The width of the first slice, from the planner's estimate of the matches.
  Result<std::int64_t> first_slice_width(std::int64_t top);
  // Slices, newest first, until kSearchCandidates candidates or the oldest id.
  Result<void> collect();
  // The candidates of `candidates`, in their order, whose texts hold the phrases, added to `out` until it
  // holds `cap`.
  Result<void> keep_phrase_matches(const std::vector<SearchCandidate>& candidates,
                                   std::vector<std::int64_t>& out, std::int64_t cap);
  // A phrase's candidates ranked and checked from the top as far as the page needs; returns the offset
  // left to apply to `ids_`.
  Result<std::int64_t> keep_phrase_page(int limit, int offset);

  Connection& conn_;
  Database& db_;
  const SearchPlan& plan_;
  std::chrono::steady_clock::time_point deadline_;
  // The candidates so far: every match, or for a phrase, first the rows its filter let through
  // (`unchecked_`, with their sizes), then, once each slice's candidates are checked (check_each_slice_),
  // only the rows whose texts hold the phrases.
  std::vector<std::int64_t> ids_;
  std::unordered_map<std::int64_t, std::int64_t> unchecked_;
  bool check_each_slice_ = false;
  std::int64_t text_bytes_ = 0;
  // Where the slices are: the next one ends at `high_`, `width_` ids wide (`rest_of_slice_`: the older end
  // of a slice read in more than one round); density_known_ when `width_` comes from the matches of a slice
  // rather than a guess.
  std::int64_t high_ = 0;
  std::int64_t width_ = 0;
  std::optional<std::int64_t> rest_of_slice_;
  bool density_known_ = false;
};

}  // namespace longread::storage::postgres
