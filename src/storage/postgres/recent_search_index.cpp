#include "storage/postgres/recent_search_index.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "storage/postgres/search_blocks.h"

namespace longread::storage::postgres {
namespace {

constexpr std::string_view kPrefix = "articles_search_recent_";

// The indexes of this family on articles, with whether the planner may use them (a CONCURRENTLY build
// that did not finish leaves its index invalid).
constexpr const char* kRecentIndexes =
    "SELECT c.relname, (i.indisvalid AND i.indisready)::int FROM pg_index i"
    " JOIN pg_class c ON c.oid = i.indexrelid"
    " WHERE i.indrelid = 'articles'::regclass AND c.relname LIKE 'articles\\_search\\_recent\\_%'";

struct RecentIndex {
  std::string name;
  std::int64_t threshold = 0;
  bool valid = false;
};

std::optional<std::int64_t> threshold_of(std::string_view name) {
  if (!name.starts_with(kPrefix)) return std::nullopt;
  const std::string_view digits = name.substr(kPrefix.size());
  std::int64_t value = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (ec != std::errc{} || end != digits.data() + digits.size() || value < 0) return std::nullopt;
  return value;
}

Result<std::vector<RecentIndex>> recent_indexes(Connection& c) {
  auto rows = c.exec(kRecentIndexes);
  if (!rows) return std::unexpected(rows.error());
  std::vector<RecentIndex> out;
  for (int r = 0; r < rows->size(); ++r) {
    const std::string name = rows->string(r, 0);
    // A name of the family but not of this form was not made here: left alone.
    if (const auto t = threshold_of(name)) out.push_back({name, *t, rows->flag(r, 1)});
  }
  return out;
}

// The upkeep proper, with the lock held.
Result<SearchIndexReport> upkeep_locked(Connection& c, const SearchIndexUpkeep& upkeep) {
  SearchIndexReport report;
  std::vector<std::string> done;
  auto indexes = recent_indexes(c);
  if (!indexes) return std::unexpected(indexes.error());
  // Nobody else builds while the lock is held, so an invalid index here is a build that died.
  for (const RecentIndex& index : *indexes) {
    if (index.valid) continue;
    if (auto ok = c.exec(fmt::format("DROP INDEX CONCURRENTLY IF EXISTS {}", index.name)); !ok)
      return std::unexpected(ok.error());
    done.push_back(fmt::format("dropped {}, left unfinished", index.name));
  }
  std::erase_if(*indexes, [](const RecentIndex& i) { return !i.valid; });
  auto top = c.exec("SELECT COALESCE(MAX(id), 0) FROM articles");
  if (!top) return std::unexpected(top.error());
  const std::int64_t newest = top->int64(0, 0);
  const std::int64_t window = std::max<std::int64_t>(1, upkeep.recent_ids);
  std::optional<std::int64_t> current;
  for (const RecentIndex& index : *indexes)
    if (!current || index.threshold > *current) current = index.threshold;
  const bool due = newest >= 2 * window && (!current || newest - *current > 2 * window);
  if (due) {
    const std::int64_t threshold = recent_search_index_threshold(newest, window);
    const std::string name = fmt::format("{}{}", kPrefix, threshold);
    const auto started = std::chrono::steady_clock::now();
    // The same keys and predicate as articles_search_keys', and the id bound a slice's own bounds imply.
    auto built = c.exec(fmt::format(
        "CREATE INDEX CONCURRENTLY IF NOT EXISTS {} ON articles USING gin "
        "(longread_search_keys(search_words, id)) WHERE visible = 1 AND search_words IS NOT NULL AND id > {}",
        name, threshold));
    if (!built) return std::unexpected(built.error());
    // The planner costs a partial index by the rows ANALYZE counts in it; a GIN build records its number of
    // keys instead (some 300 an article), which made every plan for a common word pass it by.
    if (auto analyzed = c.exec("ANALYZE articles"); !analyzed) return std::unexpected(analyzed.error());
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    done.push_back(fmt::format("built {} over the ids above {} in {:.1f} s", name, threshold, seconds));
    current = threshold;
  }
  // Only the newest serves: an older one covers more ids with longer lists, and costs every write.
  for (const RecentIndex& index : *indexes) {
    if (current && index.threshold == *current) continue;
    if (auto ok = c.exec(fmt::format("DROP INDEX CONCURRENTLY IF EXISTS {}", index.name)); !ok)
      return std::unexpected(ok.error());
    done.push_back(fmt::format("dropped {}", index.name));
  }
  // A search made only of common words walks articles_common_words and reads each bitmap from the index
  // alone where the visibility map says the row's page is visible to all; on a page written since the last
  // vacuum it reads the row too. Autovacuum sets the map only once a fifth of the table is new, so the newest
  // articles, which every search reads first, were the ones read twice: a walk over 200,000 generated
  // articles made 26,775 row reads (407 ms) before a vacuum and none after. So the upkeep vacuums after each
  // pass: it reads only the pages not yet all-visible (the pass's), and neither scans the indexes nor
  // truncates the table, so it takes no lock a crawl or a search waits for.
  const auto vacuum_started = std::chrono::steady_clock::now();
  if (auto vacuumed = c.exec("VACUUM (INDEX_CLEANUP OFF, TRUNCATE OFF) articles"); !vacuumed)
    return std::unexpected(vacuumed.error());
  const double vacuum_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - vacuum_started).count();
  report.changed = !done.empty();
  if (done.empty()) {
    report.summary =
        current ? fmt::format("{}{} serves the ids above {} ({} newest ids, up to date)", kPrefix, *current,
                              *current, newest - *current)
                : fmt::format("no index of the newest articles: {} ids, fewer than {}", newest, 2 * window);
  } else {
    for (const std::string& line : done) {
      if (!report.summary.empty()) report.summary += "; ";
      report.summary += line;
    }
  }
  report.summary += fmt::format("; the visibility map of the new rows set in {:.1f} s", vacuum_seconds);
  return report;
}

}  // namespace

std::int64_t recent_search_index_threshold(std::int64_t newest, std::int64_t recent_ids) {
  // A window narrower than a block (a test's) keeps its own end, which the alignment could move down past
  // twice the window, so that the next upkeep would build the index again.
  return recent_ids >= kSearchBlockIds ? aligned_slice_low(newest - recent_ids) : newest - recent_ids;
}

Result<SearchIndexReport> maintain_recent_search_index(Connection& c, const SearchIndexUpkeep& upkeep) {
  auto locked = c.exec("SELECT pg_try_advisory_lock($1)::int", Params(kRecentSearchIndexLock));
  if (!locked) return std::unexpected(locked.error());
  if (!locked->flag(0, 0))
    return SearchIndexReport{.busy = true, .summary = "another process is keeping the search index"};
  // A GIN build sorts its entries in maintenance_work_mem: more than the default 64 MB makes fewer runs.
  auto report = [&]() -> Result<SearchIndexReport> {
    if (auto ok = c.exec_script("SET maintenance_work_mem = '256MB'"); !ok)
      return std::unexpected(ok.error());
    return upkeep_locked(c, upkeep);
  }();
  (void)c.exec_script("RESET maintenance_work_mem");
  auto unlocked = c.exec("SELECT pg_advisory_unlock($1)", Params(kRecentSearchIndexLock));
  if (!unlocked && report) return std::unexpected(unlocked.error());
  return report;
}

}  // namespace longread::storage::postgres
