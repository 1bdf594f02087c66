// The SQLite side of AuditStore: the operators' audit log.
#include "storage/sqlite/sqlite_store.h"

#include "storage/sqlite/query_helpers.h"

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
  return with_writer([&](Connection& db) {
    return run_insert(db, kInsertAuditEntry, "cannot write audit entry", [&](Query& q) {
      q.bind(":at", to_unix(entry.at)).bind(":actor_id", entry.actor_id).bind(":actor", entry.actor);
      q.bind(":action", entry.action).bind(":target", entry.target).bind(":detail", entry.detail);
    });
  });
}

Result<AuditPage> SqliteStore::audit_entries(int limit, std::int64_t before) {
  if (limit <= 0) return AuditPage{};
  auto entries = with_reader([&](Connection& db) {
    return read_rows(
        db, kSelectAuditEntries, "cannot read audit log",
        [&](Query& q) { q.bind(":before", before).bind(":limit", limit + 1); },
        [](const Query& q) {
          return AuditEntry{.id = q.int64(0),
                            .at = from_unix(q.int64(1)),
                            .actor_id = q.optional_int64(2),
                            .actor = q.text(3),
                            .action = q.text(4),
                            .target = q.text(5),
                            .detail = q.text(6)};
        });
  });
  if (!entries) return std::unexpected(entries.error());
  AuditPage page;
  page.entries = std::move(*entries);
  if (page.entries.size() > static_cast<std::size_t>(limit)) {
    page.entries.pop_back();
    page.next_before = page.entries.back().id;
  }
  return page;
}

}  // namespace longread::storage::sqlite
