#include "storage/postgres/duplicate_log.h"

#include <bit>
#include <unordered_map>

#include <fmt/format.h>

#include "storage/postgres/statement.h"

namespace longread::storage::postgres {
namespace {

// An original deleted meanwhile (a blog's cap, the operator) marks nothing, rather than failing the
// transaction on the foreign key.
constexpr const char* kMarkDuplicate =
    "UPDATE articles SET duplicate_of = :original, junk = 1, junk_reason = :reason,"
    " visible = CASE WHEN held = 1 THEN 0 WHEN keep_override IS NULL THEN 0 ELSE keep_override END"
    " WHERE id = :id AND EXISTS (SELECT 1 FROM articles o WHERE o.id = :original)";
constexpr const char* kSelectLogEnds =
    "SELECT COALESCE(MAX(seq), 0), COALESCE(MIN(seq), 0) FROM near_duplicate_log";
// The log's new places, then their articles by id: two reads by primary key. As one join, the planner,
// working from statistics that a crawl outgrows between two ANALYZEs, hashed every original of the table
// for each save (30-60 ms at 60,000 articles, under the decision's lock that the other crawlers wait on).
// Planned with its value every time, never prepared: a generic plan guesses a third of the log for a range
// that holds a few rows, and scanned the whole log (up to kNearDuplicateLogKept rows) in every save. The
// pruning (kPruneLog) likewise.
constexpr const char* kSelectLogged =
    "SELECT seq, article_id FROM near_duplicate_log WHERE seq > :after ORDER BY seq";
// Planned with its ids every time too. A crawler prepares its statements as its first pass begins, often on
// an empty table, and a generic plan made then reads the whole table (a sequential scan of 60,000 rows for
// 100 ids, 44 ms), kept until an ANALYZE, where a plan made for the ids at hand walks the primary key.
constexpr const char* kSelectLoggedArticles =
    "SELECT id, blog_id, simhash, display_at FROM articles"
    " WHERE id = ANY(:ids::bigint[]) AND duplicate_of IS NULL AND simhash <> 0";
// Consecutive places after the newest: the caller holds the decision's lock, so no one else appends.
constexpr const char* kInsertLogged =
    "INSERT INTO near_duplicate_log (seq, article_id) SELECT :head::bigint + u.n, u.id"
    " FROM unnest(:ids::bigint[]) WITH ORDINALITY AS u(id, n)";
// For the rest of this transaction only; the lock itself ends with the transaction too.
constexpr const char* kLockTimeout = "SET LOCAL lock_timeout = '120s'";
constexpr const char* kLockForDecision = "SELECT pg_advisory_xact_lock(:key::bigint)";

}  // namespace

Result<std::vector<StoredArticleKey>> read_article_keys(Connection& conn, std::int64_t blog_id) {
  auto rows = run_prepared(conn, kSelectArticleKeys, "cannot read article keys",
                           [&](Query& q) { q.bind(":blog_id", blog_id); });
  if (!rows) return std::unexpected(rows.error());
  std::vector<StoredArticleKey> keys;
  keys.reserve(static_cast<std::size_t>(rows->size()));
  for (int r = 0; r < rows->size(); ++r) {
    keys.push_back({.id = rows->int64(r, 0),
                    .guid = rows->string(r, 1),
                    .content_hash = rows->string(r, 2),
                    .full_text_fetched = rows->flag(r, 3),
                    .full_text_failures = rows->int32(r, 4)});
  }
  return keys;
}

Result<void> write_duplicate_marks(Connection& conn,
                                   std::span<const std::pair<std::int64_t, std::int64_t>> marks) {
  for (const auto& mark : marks) {
    auto rows = run_prepared(conn, kMarkDuplicate, "cannot mark duplicate", [&](Query& q) {
      q.bind(":id", mark.first).bind(":original", mark.second);
      q.bind(":reason", fmt::format("duplicate of article {}", mark.second));
    });
    if (!rows) return std::unexpected(rows.error());
  }
  return {};
}

Result<LogEnds> read_log_ends(Connection& conn) {
  auto rows = run_prepared(conn, kSelectLogEnds, "cannot read the near-duplicate log");
  if (!rows) return std::unexpected(rows.error());
  return LogEnds{.head = rows->int64(0, 0), .tail = rows->int64(0, 1)};
}

Result<std::int64_t> read_log_head(Connection& conn) {
  auto ends = read_log_ends(conn);
  if (!ends) return std::unexpected(ends.error());
  return ends->head;
}

Result<void> lock_for_decision(Connection& conn) {
  if (auto set = run_query(conn, kLockTimeout, "cannot take the near-duplicate lock"); !set)
    return std::unexpected(set.error());
  auto rows = run_prepared(conn, kLockForDecision, "cannot take the near-duplicate lock",
                           [](Query& q) { q.bind(":key", kNearDuplicateLock); });
  if (!rows) return std::unexpected(rows.error());
  return {};
}

Result<std::vector<StoredArticleKey>> PgDuplicateDecision::article_keys(std::int64_t blog_id) {
  return read_article_keys(conn_, blog_id);
}

Result<LoggedOriginals> PgDuplicateDecision::originals_since(std::int64_t after_seq) {
  constexpr std::string_view kFailed = "cannot read the near-duplicate log";
  auto ends = read_log_ends(conn_);
  if (!ends) return std::unexpected(ends.error());
  LoggedOriginals out;
  const std::int64_t head = ends->head;
  const std::int64_t tail = ends->tail;
  out.last_seq = head;
  // Places are consecutive, and only the oldest are ever dropped: a gap after `after_seq` is a pruned one.
  out.complete = head <= after_seq || tail <= after_seq + 1;
  if (head <= after_seq) return out;
  auto logged = run_query(conn_, kSelectLogged, kFailed, [&](Query& q) { q.bind(":after", after_seq); });
  if (!logged) return std::unexpected(logged.error());
  std::vector<std::int64_t> ids;
  ids.reserve(static_cast<std::size_t>(logged->size()));
  for (int r = 0; r < logged->size(); ++r) ids.push_back(logged->int64(r, 1));
  if (ids.empty()) return out;
  auto rows =
      run_query(conn_, kSelectLoggedArticles, kFailed, [&](Query& q) { q.bind(":ids", id_array(ids)); });
  if (!rows) return std::unexpected(rows.error());
  // Articles deleted or marked duplicates since they were logged are left out; the rest in log order.
  std::unordered_map<std::int64_t, SimhashEntry> found;
  found.reserve(static_cast<std::size_t>(rows->size()));
  for (int r = 0; r < rows->size(); ++r) {
    const std::int64_t id = rows->int64(r, 0);
    found.emplace(id, SimhashEntry{.id = id,
                                   .blog_id = rows->int64(r, 1),
                                   .simhash = std::bit_cast<std::uint64_t>(rows->int64(r, 2)),
                                   .date = rows->time(r, 3)});
  }
  out.originals.reserve(found.size());
  for (int r = 0; r < logged->size(); ++r) {
    auto it = found.find(logged->int64(r, 1));
    if (it != found.end()) out.originals.push_back({.seq = logged->int64(r, 0), .entry = it->second});
  }
  return out;
}

Result<std::int64_t> PgDuplicateDecision::log_originals(std::span<const std::int64_t> ids) {
  constexpr std::string_view kFailed = "cannot write the near-duplicate log";
  auto ends = read_log_ends(conn_);
  if (!ends) return std::unexpected(ends.error());
  const std::int64_t head = ends->head;
  if (ids.empty()) return head;
  auto inserted = run_prepared(conn_, kInsertLogged, kFailed,
                               [&](Query& q) { q.bind(":head", head).bind(":ids", id_array(ids)); });
  if (!inserted) return std::unexpected(inserted.error());
  const std::int64_t last = head + static_cast<std::int64_t>(ids.size());
  // The oldest place still there: the log's tail, or the first place just written into an empty log.
  const std::int64_t first = ends->tail > 0 ? ends->tail : head + 1;
  const std::int64_t last_dropped = last - kNearDuplicateLogKept;
  if (last_dropped >= first) {
    auto pruned = run_query(conn_, kPruneLog, kFailed,
                            [&](Query& q) { q.bind(":first", first).bind(":last_dropped", last_dropped); });
    if (!pruned) return std::unexpected(pruned.error());
  }
  return head + 1;
}

Result<void> PgDuplicateDecision::mark_duplicates(
    std::span<const std::pair<std::int64_t, std::int64_t>> marks) {
  return write_duplicate_marks(conn_, marks);
}

}  // namespace longread::storage::postgres
