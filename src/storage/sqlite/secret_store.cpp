// The SQLite side of SecretStore.
#include "storage/sqlite/sqlite_store.h"

#include <mutex>
#include <string>

namespace longread::storage::sqlite {
namespace {

constexpr const char* kInsertSecret =
    "INSERT INTO secrets (name, value, created_at) VALUES (:name, :value, :now) ON CONFLICT (name) DO "
    "NOTHING";

constexpr const char* kSelectSecret = "SELECT value FROM secrets WHERE name = :name";

}  // namespace

Result<std::string> SqliteStore::secret(std::string_view name, std::string_view candidate) {
  std::lock_guard lock(writer_mutex_);
  {
    auto q = writer_->query(kInsertSecret);
    if (!q) return db_error("cannot store secret", q.error());
    q->bind(":name", name).bind(":value", candidate).bind(":now", to_unix(now_seconds()));
    if (auto ok = q->run(); !ok) return db_error("cannot store secret", ok.error());
  }
  auto q = writer_->query(kSelectSecret);
  if (!q) return db_error("cannot read secret", q.error());
  q->bind(":name", name);
  auto row = q->step();
  if (!row) return db_error("cannot read secret", row.error());
  return q->text(0);
}

}  // namespace longread::storage::sqlite
