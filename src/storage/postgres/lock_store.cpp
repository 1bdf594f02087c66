#include "storage/postgres/lock_store.h"

namespace longread::storage::postgres {

Result<bool> PgLockStore::try_lock(std::string_view name, std::string_view owner, TimePoint now,
                                   TimePoint until) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL LockStore::try_lock is not written yet");
}

Result<void> PgLockStore::unlock(std::string_view name, std::string_view owner) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL LockStore::unlock is not written yet");
}

}  // namespace longread::storage::postgres
