#include "storage/postgres/limit_store.h"

namespace longread::storage::postgres {

Result<std::vector<TimePoint>> PgLimitStore::recent_attempts(std::string_view key, TimePoint since,
                                                             int limit) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL LimitStore::recent_attempts is not written yet");
}

Result<void> PgLimitStore::record_attempt(std::string_view key, TimePoint at, TimePoint expires_at,
                                          int keep_per_key, std::int64_t max_rows) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL LimitStore::record_attempt is not written yet");
}

Result<void> PgLimitStore::clear_attempts(std::string_view key) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL LimitStore::clear_attempts is not written yet");
}

Result<void> PgLimitStore::clear_attempts_with_prefix(std::string_view prefix) {
  return fail(ErrorKind::kInternal,
              "store: PostgreSQL LimitStore::clear_attempts_with_prefix is not written yet");
}

Result<bool> PgLimitStore::claim_mail_slot(std::string_view recipient, std::string_view kind, TimePoint now,
                                           std::chrono::seconds gap) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL LimitStore::claim_mail_slot is not written yet");
}

}  // namespace longread::storage::postgres
