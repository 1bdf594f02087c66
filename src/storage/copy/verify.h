// `db copy`'s check: after the copy, each table has as many rows in PostgreSQL as in SQLite, and a
// sample of its rows, spread over the table by primary key, is equal column by column (numbers compared
// as numbers). Internal to the copy (storage/copy/db_copy.h).
#pragma once

#include <string>
#include <vector>

#include "core/error.h"
#include "storage/copy/db_copy.h"
#include "storage/copy/pg_tables.h"
#include "storage/copy/sqlite_source.h"
#include "storage/postgres/pg.h"

namespace longread::storage::db_copy {

// Fills `report`'s row counts, sampled rows and differences for `table`; `select_list` is what SQLite
// selects for its columns (SqliteSource::select_list). An error: a database could not be read.
Result<void> check_table(SqliteSource& source, postgres::Connection& conn, const Table& table,
                         const std::vector<std::string>& select_list, int samples, TableReport& report);

// Whether a value SQLite holds and one PostgreSQL holds are the same, for a column of `kind`.
bool same_value(const Value& sqlite_value, const Value& postgres_value, Kind kind);

}  // namespace longread::storage::db_copy
