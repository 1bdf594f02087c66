// The SQLite side of AuditStore: the operators' audit log.
#include "storage/sqlite/sqlite_store.h"

#include <mutex>

namespace longread::storage::sqlite {
namespace {

constexpr const char* kInsertAuditEntry =
    "INSERT INTO admin_audit (at, actor_id, actor, action, target, detail)"
    " VALUES (:at, :actor_id, :actor, :action, :target, :detail)";

// One more row than the page holds tells whether an older page exists.
constexpr const char* kSelectAuditEntries =
    "SELECT id, at, actor_id, actor, action, target, detail FROM admin_audit"
    " WHERE :before = 0 OR id < :before ORDER BY id DESC LIMIT :limit";

}  // namespace

Result<std::int64_t> SqliteStore::add_audit_entry(const AuditEntry& entry) {
  std::lock_guard lock(writer_mutex_);
  auto q = writer_->query(kInsertAuditEntry);
  if (!q) return db_error("cannot write audit entry", q.error());
  q->bind(":at", to_unix(entry.at)).bind(":actor_id", entry.actor_id).bind(":actor", entry.actor);
  q->bind(":action", entry.action).bind(":target", entry.target).bind(":detail", entry.detail);
  if (auto ok = q->run(); !ok) return db_error("cannot write audit entry", ok.error());
  return writer_->last_insert_rowid();
}

Result<AuditPage> SqliteStore::audit_entries(int limit, std::int64_t before) {
  if (limit <= 0) return AuditPage{};
  auto db = readers_.acquire();
  if (!db) return std::unexpected(db.error());
  auto q = (*db)->query(kSelectAuditEntries);
  if (!q) return db_error("cannot read audit log", q.error());
  q->bind(":before", before).bind(":limit", limit + 1);
  AuditPage page;
  while (true) {
    auto row = q->step();
    if (!row) return db_error("cannot read audit log", row.error());
    if (!*row) break;
    page.entries.push_back(AuditEntry{.id = q->int64(0),
                                      .at = from_unix(q->int64(1)),
                                      .actor_id = q->optional_int64(2),
                                      .actor = q->text(3),
                                      .action = q->text(4),
                                      .target = q->text(5),
                                      .detail = q->text(6)});
  }
  if (page.entries.size() > static_cast<std::size_t>(limit)) {
    page.entries.pop_back();
    page.next_before = page.entries.back().id;
  }
  return page;
}

}  // namespace longread::storage::sqlite
