// The process-locks role of the Store (migration 0031): named locks with a lease, seen by every process over
// the database, so work that must not run twice at once (near-duplicate decisions) is serialised across
// crawler processes and a dead holder's lock lapses.
#pragma once

#include <string_view>

#include "core/error.h"
#include "core/time.h"
#include "storage/types.h"

namespace longread::storage {

// Named locks every process over the database sees.
// Every method is safe to call from several threads; implementations serialise as needed.
class LockStore {
 public:
  virtual ~LockStore() = default;

  // Takes the lock `name` for `owner` until `until` when it is free, its holder's lease ran out by `now`,
  // or `owner` already holds it (the lease is then extended); true when `owner` holds it afterwards.
  virtual Result<bool> try_lock(std::string_view name, std::string_view owner, TimePoint now,
                                TimePoint until) = 0;
  // Gives the lock back when `owner` holds it.
  virtual Result<void> unlock(std::string_view name, std::string_view owner) = 0;
};

}  // namespace longread::storage
