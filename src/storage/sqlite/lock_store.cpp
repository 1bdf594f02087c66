// The SQLite side of LockStore: process locks.
#include "storage/sqlite/sqlite_store.h"

#include <mutex>

namespace longread::storage::sqlite {
namespace {

// Taken when free, lapsed, or already the owner's (which extends it); changes() says whether it was.
constexpr const char* kTryLock =
    "INSERT INTO process_locks (name, owner, held_until) VALUES (:name, :owner, :until)"
    " ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, held_until = excluded.held_until"
    " WHERE process_locks.held_until <= :now OR process_locks.owner = excluded.owner";

constexpr const char* kUnlock = "DELETE FROM process_locks WHERE name = :name AND owner = :owner";

}  // namespace

Result<bool> SqliteStore::try_lock(std::string_view name, std::string_view owner, TimePoint now,
                                   TimePoint until) {
  std::lock_guard lock(writer_mutex_);
  auto q = writer_->query(kTryLock);
  if (!q) return db_error("cannot take a lock", q.error());
  q->bind(":name", name).bind(":owner", owner).bind(":now", to_unix(now)).bind(":until", to_unix(until));
  if (auto ok = q->run(); !ok) return db_error("cannot take a lock", ok.error());
  return writer_->changes() > 0;
}

Result<void> SqliteStore::unlock(std::string_view name, std::string_view owner) {
  std::lock_guard lock(writer_mutex_);
  auto q = writer_->query(kUnlock);
  if (!q) return db_error("cannot give a lock back", q.error());
  q->bind(":name", name).bind(":owner", owner);
  if (auto ok = q->run(); !ok) return db_error("cannot give a lock back", ok.error());
  return {};
}

}  // namespace longread::storage::sqlite
