// The audit role of the Store (migration 0020): the admin area's log of operator actions, appended to and
// never changed.
#pragma once

#include <cstdint>

#include "core/error.h"
#include "core/time.h"
#include "storage/types.h"

namespace longread::storage {

// The operators' audit log.
// Every method is safe to call from several threads; implementations serialise as needed.
class AuditStore {
 public:
  virtual ~AuditStore() = default;

  virtual Result<std::int64_t> add_audit_entry(const AuditEntry& entry) = 0;
  // At most `limit` entries older than id `before` (0: from the newest), newest first.
  virtual Result<AuditPage> audit_entries(int limit, std::int64_t before) = 0;
};

}  // namespace longread::storage
