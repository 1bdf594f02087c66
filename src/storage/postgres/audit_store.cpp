#include "storage/postgres/audit_store.h"

namespace longread::storage::postgres {

Result<std::int64_t> PgAuditStore::add_audit_entry(const AuditEntry& entry) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL AuditStore::add_audit_entry is not written yet");
}

Result<AuditPage> PgAuditStore::audit_entries(int limit, std::int64_t before) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL AuditStore::audit_entries is not written yet");
}

}  // namespace longread::storage::postgres
