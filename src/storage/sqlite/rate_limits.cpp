#include "storage/sqlite/rate_limits.h"

#include <string>

namespace longread::storage::sqlite {
namespace {

constexpr const char* kRecent =
    "SELECT at FROM rate_attempts WHERE key = :key AND at > :since ORDER BY at DESC, id DESC LIMIT :limit";
constexpr const char* kInsert =
    "INSERT INTO rate_attempts (key, at, expires_at) VALUES (:key, :at, :expires_at)";
// The key's attempts past its newest `keep`: a limit never looks further back than that.
constexpr const char* kTrimKey =
    "DELETE FROM rate_attempts WHERE key = :key AND id NOT IN (SELECT id FROM rate_attempts WHERE key = :key "
    "ORDER BY at DESC, id DESC LIMIT :keep)";
// A bounded batch per attempt, so one insert never pays for a long quiet spell's backlog all at once.
constexpr const char* kDropExpired =
    "DELETE FROM rate_attempts WHERE id IN (SELECT id FROM rate_attempts WHERE expires_at <= :now "
    "ORDER BY expires_at LIMIT 64)";
// Ids only grow (INTEGER PRIMARY KEY takes the largest plus one), so this keeps the newest `max_rows`
// recorded: a flood of distinct keys costs a fixed amount of disk, and what it can win is that the oldest
// counts are forgotten early.
constexpr const char* kCap = "DELETE FROM rate_attempts WHERE id <= :newest - :max_rows";
constexpr const char* kClearKey = "DELETE FROM rate_attempts WHERE key = :key";
// A range on the key index: every key that starts with the prefix sorts between it and the prefix
// followed by 0xFF, a byte that never occurs in UTF-8 text (SQLite compares TEXT bytewise here).
constexpr const char* kClearPrefix = "DELETE FROM rate_attempts WHERE key >= :prefix AND key < :prefix_end";

Result<void> run(Connection& writer, const char* sql, std::string_view what, auto&& bind) {
  auto q = writer.query(sql);
  if (!q) return db_error(what, q.error());
  bind(*q);
  if (auto ok = q->run(); !ok) return db_error(what, ok.error());
  return {};
}

}  // namespace

Result<std::vector<TimePoint>> recent_attempts(Connection& db, std::string_view key, TimePoint since,
                                               int limit) {
  auto q = db.query(kRecent);
  if (!q) return db_error("cannot read rate-limit attempts", q.error());
  q->bind(":key", key).bind(":since", to_unix(since)).bind(":limit", limit);
  std::vector<TimePoint> out;
  for (;;) {
    auto row = q->step();
    if (!row) return db_error("cannot read rate-limit attempts", row.error());
    if (!*row) break;
    out.push_back(from_unix(q->int64(0)));
  }
  return out;
}

Result<void> record_attempt(Connection& writer, std::string_view key, TimePoint at, TimePoint expires_at,
                            int keep_per_key, std::int64_t max_rows) {
  constexpr std::string_view kFailed = "cannot record a rate-limit attempt";
  auto tx = Transaction::begin(writer);
  if (!tx) return db_error(kFailed, tx.error());
  if (auto ok = run(writer, kInsert, kFailed,
                    [&](Query& q) {
                      q.bind(":key", key).bind(":at", to_unix(at)).bind(":expires_at", to_unix(expires_at));
                    });
      !ok) {
    return ok;
  }
  const std::int64_t newest = writer.last_insert_rowid();
  if (auto ok =
          run(writer, kTrimKey, kFailed, [&](Query& q) { q.bind(":key", key).bind(":keep", keep_per_key); });
      !ok) {
    return ok;
  }
  if (auto ok = run(writer, kDropExpired, kFailed, [&](Query& q) { q.bind(":now", to_unix(at)); }); !ok)
    return ok;
  if (auto ok = run(writer, kCap, kFailed,
                    [&](Query& q) { q.bind(":newest", newest).bind(":max_rows", max_rows); });
      !ok) {
    return ok;
  }
  if (auto ok = tx->commit(); !ok) return db_error(kFailed, ok.error());
  return {};
}

Result<void> clear_attempts(Connection& writer, std::string_view key) {
  return run(writer, kClearKey, "cannot clear rate-limit attempts", [&](Query& q) { q.bind(":key", key); });
}

Result<void> clear_attempts_with_prefix(Connection& writer, std::string_view prefix) {
  const std::string end = std::string(prefix) + '\xff';
  return run(writer, kClearPrefix, "cannot clear rate-limit attempts",
             [&](Query& q) { q.bind(":prefix", prefix).bind(":prefix_end", std::string_view(end)); });
}

}  // namespace longread::storage::sqlite
