// `db copy`: the SQLite database being copied, read through one raw connection inside one read
// transaction, so that everything copied and then checked is one snapshot of it. Internal to the copy
// (storage/copy/db_copy.h).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "core/error.h"
#include "storage/copy/pg_tables.h"

struct sqlite3;

namespace longread::storage::db_copy {

// A value as text (integers in decimal, floats in their shortest exact form), or NULL.
using Value = std::optional<std::string>;
using Row = std::vector<Value>;

// A statement parameter: bound as an integer when `integer`, else as text.
struct Param {
  Value value;
  bool integer = false;
};

class SqliteSource {
 public:
  // Refuses a path that is not an existing SQLite file, or not a longread database, or one newer than
  // this binary; brings an older one to this binary's schema (through the store, as any command does);
  // then opens it for reading and starts the read transaction.
  static Result<std::unique_ptr<SqliteSource>> open(const std::string& path);
  ~SqliteSource();
  SqliteSource(const SqliteSource&) = delete;
  SqliteSource& operator=(const SqliteSource&) = delete;

  // The database's own tables (no sqlite_ internals).
  Result<std::set<std::string>> tables();
  // What to select for each of `table`'s columns (PostgreSQL's), in its order: the column itself, or, for an
  // article's texts, the text out of its compressed body (longread_body_part). An error names a column
  // SQLite does not have.
  Result<std::vector<std::string>> select_list(const Table& table);
  Result<std::int64_t> count(const Table& table);
  // Runs `sql` with `params` ($1.. as ?1..) and hands each row to `on_row`, which returns false to stop.
  Result<void> each(const std::string& sql, std::span<const Param> params,
                    const std::function<Result<bool>(const Row&)>& on_row);

 private:
  SqliteSource() = default;
  sqlite3* db_ = nullptr;
};

}  // namespace longread::storage::db_copy
