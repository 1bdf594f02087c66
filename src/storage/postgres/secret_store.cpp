#include "storage/postgres/secret_store.h"

namespace longread::storage::postgres {

Result<std::string> PgSecretStore::secret(std::string_view name, std::string_view candidate) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL SecretStore::secret is not written yet");
}

}  // namespace longread::storage::postgres
