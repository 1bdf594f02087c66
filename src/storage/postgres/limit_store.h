// The LimitStore role (storage/roles/limit_store.h) on PostgreSQL.
#pragma once

#include "storage/postgres/database.h"
#include "storage/roles/limit_store.h"

namespace longread::storage::postgres {

class PgLimitStore : public virtual LimitStore {
 public:
  explicit PgLimitStore(Database& db) noexcept : db_(db) {}

  Result<std::vector<TimePoint>> recent_attempts(std::string_view key, TimePoint since, int limit) override;
  Result<void> record_attempt(std::string_view key, TimePoint at, TimePoint expires_at, int keep_per_key,
                              std::int64_t max_rows) override;
  Result<void> clear_attempts(std::string_view key) override;
  Result<void> clear_attempts_with_prefix(std::string_view prefix) override;
  Result<bool> claim_mail_slot(std::string_view recipient, std::string_view kind, TimePoint now,
                               std::chrono::seconds gap) override;

 private:
  Database& db_;
};

}  // namespace longread::storage::postgres
