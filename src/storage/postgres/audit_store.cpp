#include "storage/postgres/audit_store.h"

#include "storage/postgres/statement.h"

namespace longread::storage::postgres {
namespace {

constexpr const char* kInsertAuditEntry =
    "INSERT INTO admin_audit (at, actor_id, actor, action, target, detail)"
    " VALUES (:at, :actor_id, :actor, :action, :target, :detail) RETURNING id";
// One more row than the page holds tells whether an older page exists.
constexpr const char* kSelectAuditEntries =
    "SELECT id, at, actor_id, actor, action, target, detail FROM admin_audit"
    " WHERE :before::bigint = 0 OR id < :before ORDER BY id DESC LIMIT :limit";

}  // namespace

Result<std::int64_t> PgAuditStore::add_audit_entry(const AuditEntry& entry) {
  auto rows = run_pooled(db_.pool(), kInsertAuditEntry, "cannot write audit entry", [&](Query& q) {
    q.bind(":at", entry.at).bind(":actor_id", entry.actor_id).bind(":actor", entry.actor);
    q.bind(":action", entry.action).bind(":target", entry.target).bind(":detail", entry.detail);
  });
  if (!rows) return std::unexpected(rows.error());
  return rows->int64(0, 0);
}

Result<AuditPage> PgAuditStore::audit_entries(int limit, std::int64_t before) {
  if (limit <= 0) return AuditPage{};
  auto rows = run_pooled(db_.pool(), kSelectAuditEntries, "cannot read audit log",
                         [&](Query& q) { q.bind(":before", before).bind(":limit", limit + 1); });
  if (!rows) return std::unexpected(rows.error());
  AuditPage page;
  for (int r = 0; r < rows->size(); ++r) {
    page.entries.push_back(AuditEntry{.id = rows->int64(r, 0),
                                      .at = rows->time(r, 1),
                                      .actor_id = rows->optional_int64(r, 2),
                                      .actor = rows->string(r, 3),
                                      .action = rows->string(r, 4),
                                      .target = rows->string(r, 5),
                                      .detail = rows->string(r, 6)});
  }
  if (page.entries.size() > static_cast<std::size_t>(limit)) {
    page.entries.pop_back();
    page.next_before = page.entries.back().id;
  }
  return page;
}

}  // namespace longread::storage::postgres
