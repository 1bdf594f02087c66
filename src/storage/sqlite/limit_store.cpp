// The SQLite side of LimitStore: rate limits (rate_limits.cpp, migration 0029) and the mail throttle.
#include "storage/sqlite/sqlite_store.h"

#include <chrono>
#include <vector>

#include "storage/sqlite/query_helpers.h"
#include "storage/sqlite/rate_limits.h"

namespace longread::storage::sqlite {
namespace {

// claim_mail_slot: the upsert changes a row only when the recorded mail is older than the gap
// (SQLite counts a DO UPDATE whose WHERE fails as no change).
constexpr const char* kPruneMailThrottle = "DELETE FROM mail_throttle WHERE sent_at <= :cutoff";
constexpr const char* kClaimMailSlot =
    "INSERT INTO mail_throttle (recipient, kind, sent_at) VALUES (:recipient, :kind, :now)"
    " ON CONFLICT (recipient, kind) DO UPDATE SET sent_at = excluded.sent_at"
    " WHERE mail_throttle.sent_at <= :cutoff";

}  // namespace

Result<std::vector<TimePoint>> SqliteStore::recent_attempts(std::string_view key, TimePoint since,
                                                            int limit) {
  return with_reader([&](Connection& db) { return sqlite::recent_attempts(db, key, since, limit); });
}

Result<void> SqliteStore::record_attempt(std::string_view key, TimePoint at, TimePoint expires_at,
                                         int keep_per_key, std::int64_t max_rows) {
  return with_writer([&](Connection& db) {
    return sqlite::record_attempt(db, key, at, expires_at, keep_per_key, max_rows);
  });
}

Result<void> SqliteStore::clear_attempts(std::string_view key) {
  return with_writer([&](Connection& db) { return sqlite::clear_attempts(db, key); });
}

Result<void> SqliteStore::clear_attempts_with_prefix(std::string_view prefix) {
  return with_writer([&](Connection& db) { return sqlite::clear_attempts_with_prefix(db, prefix); });
}

Result<bool> SqliteStore::claim_mail_slot(std::string_view recipient, std::string_view kind, TimePoint now,
                                          std::chrono::seconds gap) {
  constexpr std::string_view kFailed = "cannot record mail";
  const std::int64_t cutoff = to_unix(now - gap);
  return in_write_transaction(kFailed, [&](Connection& db) -> Result<bool> {
    if (auto ok = run(db, kPruneMailThrottle, kFailed, [&](Query& q) { q.bind(":cutoff", cutoff); }); !ok) {
      return std::unexpected(ok.error());
    }
    auto claimed = run_changes(db, kClaimMailSlot, kFailed, [&](Query& q) {
      q.bind(":recipient", recipient).bind(":kind", kind).bind(":now", to_unix(now)).bind(":cutoff", cutoff);
    });
    if (!claimed) return std::unexpected(claimed.error());
    return *claimed > 0;
  });
}

}  // namespace longread::storage::sqlite
