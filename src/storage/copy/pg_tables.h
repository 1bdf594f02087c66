// `db copy`: what the PostgreSQL database's tables are, read from its catalog (information_schema and
// pg_catalog), so the copy moves exactly the columns PostgreSQL has, in an order its foreign keys accept.
// Internal to the copy (storage/copy/db_copy.h).
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "storage/postgres/pg.h"

namespace longread::storage::db_copy {

// How a column's values are compared: as integers, as 4-byte floats (PostgreSQL REAL holds less than
// SQLite's 8-byte REAL), as doubles, or as bytes.
enum class Kind { kInteger, kFloat4, kFloat8, kText };

struct Column {
  std::string name;
  std::string type;  // PostgreSQL's name of its type ("bigint", "double precision", "text"), for casts
  Kind kind = Kind::kText;
};

struct Table {
  std::string name;
  // Every column but the generated ones (PostgreSQL computes those), in PostgreSQL's order.
  std::vector<Column> columns;
  // Indexes into `columns` of the primary key, in the key's order.
  std::vector<std::size_t> key;
  // The identity column, whose sequence must continue after the copied ids.
  std::optional<std::string> identity;
  // Indexes into `columns` of the columns that reference this same table (articles.duplicate_of): a row
  // may point to a later one, so they are inserted NULL and set once every row is in.
  std::vector<std::size_t> self_references;
};

// PostgreSQL's packed body (a zstd frame of summary, content and text, storage/article_body.h) and the
// dictionary it names: the copy writes those parts plain, as SQLite's reader gives them, and `longread db
// compact` packs them afterwards. A SQLite frame may name one of SQLite's own dictionaries, so it is never
// copied as it is.
inline constexpr std::array<std::string_view, 2> kPackedBodyColumns = {"body", "body_dictionary"};
// True for the packed body's columns and the articles' search vectors (postgres/vector_columns.h), which
// SQLite does not have: the copy makes them as the crawler does, and never reads them from SQLite.
bool is_derived_column(std::string_view table, std::string_view column);

// Every table of the current schema of the database `conn` is connected to, parents before the tables
// whose foreign keys reference them (by name where the graph leaves a choice).
Result<std::vector<Table>> postgres_tables(postgres::Connection& conn);

// `name` as a quoted SQL identifier: "name" (both PostgreSQL and SQLite read it so).
std::string sql_name(std::string_view name);

}  // namespace longread::storage::db_copy
