// The DatabaseStore role (storage/roles/database_store.h) on PostgreSQL.
#pragma once

#include "storage/postgres/database.h"
#include "storage/roles/database_store.h"

namespace longread::storage::postgres {

class PgDatabaseStore : public virtual DatabaseStore {
 public:
  explicit PgDatabaseStore(Database& db) noexcept : db_(db) {}

  Result<SiteStats> site_stats(TimePoint now) override;
  Result<std::int64_t> data_version() override;
  Result<std::int64_t> vacuum() override;
  Result<SearchIndexReport> maintain_search_index(const SearchIndexUpkeep& upkeep) override;

 private:
  Database& db_;
};

}  // namespace longread::storage::postgres
