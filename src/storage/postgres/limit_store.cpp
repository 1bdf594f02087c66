#include "storage/postgres/limit_store.h"

#include "storage/postgres/statement.h"

namespace longread::storage::postgres {
namespace {

constexpr std::string_view kRecordFailed = "cannot record a rate-limit attempt";
constexpr std::string_view kClearFailed = "cannot clear rate-limit attempts";

constexpr const char* kRecent =
    "SELECT at FROM rate_attempts WHERE key = :key AND at > :since ORDER BY at DESC, id DESC LIMIT :limit";
constexpr const char* kInsert =
    "INSERT INTO rate_attempts (key, at, expires_at) VALUES (:key, :at, :expires_at) RETURNING id";
// The key's attempts past its newest `keep`: a limit never looks further back than that.
constexpr const char* kTrimKey =
    "DELETE FROM rate_attempts WHERE key = :key AND id NOT IN (SELECT id FROM rate_attempts WHERE key = :key "
    "ORDER BY at DESC, id DESC LIMIT :keep)";
// A bounded batch per attempt, so one insert never pays for a long quiet spell's backlog all at once.
constexpr const char* kDropExpired =
    "DELETE FROM rate_attempts WHERE id IN (SELECT id FROM rate_attempts WHERE expires_at <= :now "
    "ORDER BY expires_at LIMIT 64)";
// Ids only grow (an identity column's sequence), so this keeps at most the newest `max_rows` recorded: a
// flood of distinct keys costs a fixed amount of disk, and what it can win is that the oldest counts are
// forgotten early.
constexpr const char* kCap = "DELETE FROM rate_attempts WHERE id <= :newest::bigint - :max_rows::bigint";
constexpr const char* kClearKey = "DELETE FROM rate_attempts WHERE key = :key";
// starts_with compares the text itself: a range ending in byte 0xFF, as the SQLite backend writes it, is
// not valid UTF-8 for the server.
constexpr const char* kClearPrefix = "DELETE FROM rate_attempts WHERE starts_with(key, :prefix)";

// claim_mail_slot: the upsert changes a row only when the recorded mail is older than the gap (a DO UPDATE
// whose WHERE fails counts no row). The conflicting row is locked, so of two processes claiming one slot at
// once the second sees the first one's time.
constexpr const char* kPruneMailThrottle = "DELETE FROM mail_throttle WHERE sent_at <= :cutoff";
constexpr const char* kClaimMailSlot =
    "INSERT INTO mail_throttle (recipient, kind, sent_at) VALUES (:recipient, :kind, :now)"
    " ON CONFLICT (recipient, kind) DO UPDATE SET sent_at = excluded.sent_at"
    " WHERE mail_throttle.sent_at <= :cutoff";

}  // namespace

Result<std::vector<TimePoint>> PgLimitStore::recent_attempts(std::string_view key, TimePoint since,
                                                             int limit) {
  auto rows = run_pooled(db_.pool(), kRecent, "cannot read rate-limit attempts",
                         [&](Query& q) { q.bind(":key", key).bind(":since", since).bind(":limit", limit); });
  if (!rows) return std::unexpected(rows.error());
  std::vector<TimePoint> out;
  out.reserve(static_cast<std::size_t>(rows->size()));
  for (int r = 0; r < rows->size(); ++r) out.push_back(rows->time(r, 0));
  return out;
}

Result<void> PgLimitStore::record_attempt(std::string_view key, TimePoint at, TimePoint expires_at,
                                          int keep_per_key, std::int64_t max_rows) {
  return in_transaction(db_.pool(), [&](Connection& c) -> Result<void> {
    auto inserted = run_query(c, kInsert, kRecordFailed, [&](Query& q) {
      q.bind(":key", key).bind(":at", at).bind(":expires_at", expires_at);
    });
    if (!inserted) return std::unexpected(inserted.error());
    const std::int64_t newest = inserted->int64(0, 0);
    if (auto ok = run_query(c, kTrimKey, kRecordFailed,
                            [&](Query& q) { q.bind(":key", key).bind(":keep", keep_per_key); });
        !ok) {
      return std::unexpected(ok.error());
    }
    if (auto ok = run_query(c, kDropExpired, kRecordFailed, [&](Query& q) { q.bind(":now", at); }); !ok)
      return std::unexpected(ok.error());
    if (auto ok = run_query(c, kCap, kRecordFailed,
                            [&](Query& q) { q.bind(":newest", newest).bind(":max_rows", max_rows); });
        !ok) {
      return std::unexpected(ok.error());
    }
    return {};
  });
}

Result<void> PgLimitStore::clear_attempts(std::string_view key) {
  auto rows = run_pooled(db_.pool(), kClearKey, kClearFailed, [&](Query& q) { q.bind(":key", key); });
  if (!rows) return std::unexpected(rows.error());
  return {};
}

Result<void> PgLimitStore::clear_attempts_with_prefix(std::string_view prefix) {
  auto rows =
      run_pooled(db_.pool(), kClearPrefix, kClearFailed, [&](Query& q) { q.bind(":prefix", prefix); });
  if (!rows) return std::unexpected(rows.error());
  return {};
}

Result<bool> PgLimitStore::claim_mail_slot(std::string_view recipient, std::string_view kind, TimePoint now,
                                           std::chrono::seconds gap) {
  constexpr std::string_view kFailed = "cannot record mail";
  const std::int64_t cutoff = to_unix(now - gap);
  bool claimed = false;
  auto done = in_transaction(db_.pool(), [&](Connection& c) -> Result<void> {
    claimed = false;
    if (auto ok = run_query(c, kPruneMailThrottle, kFailed, [&](Query& q) { q.bind(":cutoff", cutoff); });
        !ok)
      return std::unexpected(ok.error());
    auto rows = run_query(c, kClaimMailSlot, kFailed, [&](Query& q) {
      q.bind(":recipient", recipient).bind(":kind", kind).bind(":now", now).bind(":cutoff", cutoff);
    });
    if (!rows) return std::unexpected(rows.error());
    claimed = rows->affected() > 0;
    return {};
  });
  if (!done) return std::unexpected(done.error());
  return claimed;
}

}  // namespace longread::storage::postgres
