// The LockStore role (storage/roles/lock_store.h) on PostgreSQL.
#pragma once

#include "storage/postgres/database.h"
#include "storage/roles/lock_store.h"

namespace longread::storage::postgres {

class PgLockStore : public virtual LockStore {
 public:
  explicit PgLockStore(Database& db) noexcept : db_(db) {}

  Result<bool> try_lock(std::string_view name, std::string_view owner, TimePoint now,
                        TimePoint until) override;
  Result<void> unlock(std::string_view name, std::string_view owner) override;

 private:
  Database& db_;
};

}  // namespace longread::storage::postgres
