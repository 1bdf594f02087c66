#include "storage/postgres/database_store.h"

namespace longread::storage::postgres {

Result<SiteStats> PgDatabaseStore::site_stats(TimePoint now) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL DatabaseStore::site_stats is not written yet");
}

Result<std::int64_t> PgDatabaseStore::data_version() {
  return fail(ErrorKind::kInternal, "store: PostgreSQL DatabaseStore::data_version is not written yet");
}

Result<std::int64_t> PgDatabaseStore::vacuum() {
  return fail(ErrorKind::kInternal, "store: PostgreSQL DatabaseStore::vacuum is not written yet");
}

}  // namespace longread::storage::postgres
