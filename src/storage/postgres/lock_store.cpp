#include "storage/postgres/lock_store.h"

#include "storage/postgres/statement.h"

namespace longread::storage::postgres {
namespace {

// Taken when free, lapsed, or already the owner's (which extends it). A DO UPDATE whose WHERE fails
// changes no row, so the count says whether it was taken; the upsert is atomic against another process
// inserting the same name at once.
constexpr const char* kTryLock =
    "INSERT INTO process_locks (name, owner, held_until) VALUES (:name, :owner, :until)"
    " ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, held_until = excluded.held_until"
    " WHERE process_locks.held_until <= :now OR process_locks.owner = excluded.owner";
constexpr const char* kUnlock = "DELETE FROM process_locks WHERE name = :name AND owner = :owner";

}  // namespace

Result<bool> PgLockStore::try_lock(std::string_view name, std::string_view owner, TimePoint now,
                                   TimePoint until) {
  auto rows = run_pooled(db_.pool(), kTryLock, "cannot take a lock", [&](Query& q) {
    q.bind(":name", name).bind(":owner", owner).bind(":now", now).bind(":until", until);
  });
  if (!rows) return std::unexpected(rows.error());
  return rows->affected() > 0;
}

Result<void> PgLockStore::unlock(std::string_view name, std::string_view owner) {
  auto rows = run_pooled(db_.pool(), kUnlock, "cannot give a lock back",
                         [&](Query& q) { q.bind(":name", name).bind(":owner", owner); });
  if (!rows) return std::unexpected(rows.error());
  return {};
}

}  // namespace longread::storage::postgres
