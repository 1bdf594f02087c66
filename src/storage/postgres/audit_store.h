// The AuditStore role (storage/roles/audit_store.h) on PostgreSQL.
#pragma once

#include "storage/postgres/database.h"
#include "storage/roles/audit_store.h"

namespace longread::storage::postgres {

class PgAuditStore : public virtual AuditStore {
 public:
  explicit PgAuditStore(Database& db) noexcept : db_(db) {}

  Result<std::int64_t> add_audit_entry(const AuditEntry& entry) override;
  Result<AuditPage> audit_entries(int limit, std::int64_t before) override;

 private:
  Database& db_;
};

}  // namespace longread::storage::postgres
