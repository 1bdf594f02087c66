// The schema migrations compiled into the binary (generated from migrations/NNNN_name.sql at build time).
#pragma once

#include <span>
#include <string_view>

namespace longread::storage {

// One numbered, append-only schema step. Applied once, in version order, recorded in schema_migrations.
struct Migration {
  int version;
  std::string_view name;
  std::string_view sql;
};

// Every SQLite migration (migrations/*.sql), ordered by version.
std::span<const Migration> migrations() noexcept;
// Every PostgreSQL migration (postgres/migrations/*.sql), ordered by version.
std::span<const Migration> postgres_migrations() noexcept;

}  // namespace longread::storage
