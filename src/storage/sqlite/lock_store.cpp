// The SQLite side of LockStore: process locks.
#include "storage/sqlite/sqlite_store.h"

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
  return write_changes(kTryLock, "cannot take a lock", [&](Query& q) {
    q.bind(":name", name).bind(":owner", owner).bind(":now", to_unix(now)).bind(":until", to_unix(until));
  });
}

Result<void> SqliteStore::unlock(std::string_view name, std::string_view owner) {
  return write_one(kUnlock, "cannot give a lock back",
                   [&](Query& q) { q.bind(":name", name).bind(":owner", owner); });
}

}  // namespace longread::storage::sqlite
