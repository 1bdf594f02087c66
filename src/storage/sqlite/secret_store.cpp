// The SQLite side of SecretStore.
#include "storage/sqlite/sqlite_store.h"

#include <string>

#include "storage/sqlite/query_helpers.h"

namespace longread::storage::sqlite {
namespace {

constexpr const char* kInsertSecret =
    "INSERT INTO secrets (name, value, created_at) VALUES (:name, :value, :now) ON CONFLICT (name) DO "
    "NOTHING";
constexpr const char* kSelectSecret = "SELECT value FROM secrets WHERE name = :name";

}  // namespace

Result<std::string> SqliteStore::secret(std::string_view name, std::string_view candidate) {
  return with_writer([&](Connection& db) -> Result<std::string> {
    auto stored = run(db, kInsertSecret, "cannot store secret", [&](Query& q) {
      q.bind(":name", name).bind(":value", candidate).bind(":now", to_unix(now_seconds()));
    });
    if (!stored) return std::unexpected(stored.error());
    return read_one(
        db, kSelectSecret, "cannot read secret", [&](Query& q) { q.bind(":name", name); },
        [](const Query& q) { return q.text(0); });
  });
}

}  // namespace longread::storage::sqlite
