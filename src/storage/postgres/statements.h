// Small helpers the PostgreSQL role implementations share: running one named-parameter statement (on a
// pooled connection or on a transaction's) and wording a refused statement the way the SQLite backend does.
#pragma once

#include <fmt/format.h>

#include <string>
#include <string_view>

#include "core/error.h"
#include "storage/postgres/database.h"
#include "storage/postgres/pg.h"

namespace longread::storage::postgres {

// "store: <what>: <the server's reason>", kStorage, as the SQLite backend's db_error words it (the server's
// SQLSTATE stays in the text, so in_transaction still recognises a deadlock or serialization failure).
inline std::unexpected<Error> db_error(std::string_view what, const Error& cause) {
  std::string_view reason = cause.message;
  if (reason.starts_with("store: ")) reason.remove_prefix(7);
  return fail(ErrorKind::kStorage, fmt::format("store: {}: {}", what, reason));
}

// Runs `sql` on `conn`; `bind(Query&)` binds its parameters. A refusal is db_error(what, ...).
template <typename Bind>
Result<Rows> run_in(Connection& conn, std::string_view sql, std::string_view what, Bind&& bind) {
  Query q(conn, sql);
  bind(q);
  auto rows = q.run();
  if (!rows) return db_error(what, rows.error());
  return rows;
}

// The same on a connection of the pool, outside any transaction.
template <typename Bind>
Result<Rows> run(Database& db, std::string_view sql, std::string_view what, Bind&& bind) {
  auto lease = db.pool().acquire();
  return run_in(*lease, sql, what, bind);
}

// "{1,2,3}": ids as a PostgreSQL array literal, for `= ANY(:ids::bigint[])`.
template <typename Ids>
std::string id_array(const Ids& ids) {
  std::string out = "{";
  bool first = true;
  for (const auto id : ids) {
    if (!first) out += ',';
    first = false;
    out += std::to_string(id);
  }
  return out + "}";
}

}  // namespace longread::storage::postgres
