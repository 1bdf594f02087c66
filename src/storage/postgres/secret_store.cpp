#include "storage/postgres/secret_store.h"

#include "storage/postgres/statement.h"

namespace longread::storage::postgres {
namespace {

// The first process to store a candidate wins; every other one reads the winner's value in the same
// statement (DO UPDATE with an unchanged value returns the stored row, where DO NOTHING returns none).
constexpr const char* kStoreSecret =
    "INSERT INTO secrets (name, value, created_at) VALUES (:name, :value, :now)"
    " ON CONFLICT (name) DO UPDATE SET value = secrets.value RETURNING value";

}  // namespace

Result<std::string> PgSecretStore::secret(std::string_view name, std::string_view candidate) {
  auto rows = run_pooled(db_.pool(), kStoreSecret, "cannot store secret", [&](Query& q) {
    q.bind(":name", name).bind(":value", candidate).bind(":now", now_seconds());
  });
  if (!rows) return std::unexpected(rows.error());
  return rows->string(0, 0);
}

}  // namespace longread::storage::postgres
