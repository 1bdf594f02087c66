// The SecretStore role (storage/roles/secret_store.h) on PostgreSQL.
#pragma once

#include "storage/postgres/database.h"
#include "storage/roles/secret_store.h"

namespace longread::storage::postgres {

class PgSecretStore : public virtual SecretStore {
 public:
  explicit PgSecretStore(Database& db) noexcept : db_(db) {}

  Result<std::string> secret(std::string_view name, std::string_view candidate) override;

 private:
  Database& db_;
};

}  // namespace longread::storage::postgres
