// What the PostgreSQL role implementations share around one statement: the error a failed statement
// becomes (the same "store: <what>: <reason>" the SQLite backend gives), running a named-parameter Query
// with it, LIMITs and id arrays.
#pragma once

#include <string>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "core/error.h"
#include "storage/postgres/pg.h"

namespace longread::storage::postgres {

// `cause` (a statement the server refused) as the error of `what`: "<scope>: <what>: <reason>", where
// scope names who speaks ("store", or a tool such as "db copy") and a reason already under that scope is
// not prefixed twice. The server's reason keeps its SQLSTATE, so in_transaction still sees a deadlock or
// serialization failure and runs the transaction again.
inline std::unexpected<Error> db_error(std::string_view what, const Error& cause,
                                       std::string_view scope = "store") {
  std::string_view reason = cause.message;
  if (reason.starts_with(scope) && reason.substr(scope.size()).starts_with(": ")) {
    reason.remove_prefix(scope.size() + 2);
  }
  return fail(ErrorKind::kStorage, fmt::format("{}: {}: {}", scope, what, reason));
}

// A LIMIT parameter: SQLite reads a negative LIMIT as no limit; PostgreSQL refuses one and reads NULL so.
inline std::optional<int> sql_limit(int limit) noexcept {
  return limit < 0 ? std::nullopt : std::optional<int>(limit);
}

// Runs `sql` on `conn` with the parameters `bind(Query&)` sets; a failure is db_error(what, …).
template <typename Bind>
Result<Rows> run_query(Connection& conn, std::string_view sql, std::string_view what, Bind&& bind) {
  Query q(conn, sql);
  std::forward<Bind>(bind)(q);
  auto rows = q.run();
  if (!rows) return db_error(what, rows.error());
  return rows;
}

inline Result<Rows> run_query(Connection& conn, std::string_view sql, std::string_view what) {
  return run_query(conn, sql, what, [](Query&) {});
}

// The same as a prepared statement of `conn` (Connection::exec_prepared): for a statement a crawl runs for
// every blog, whose plan does not depend on its values.
template <typename Bind>
Result<Rows> run_prepared(Connection& conn, std::string_view sql, std::string_view what, Bind&& bind) {
  return run_query(conn, sql, what, [&](Query& q) {
    q.prepared();
    std::forward<Bind>(bind)(q);
  });
}

inline Result<Rows> run_prepared(Connection& conn, std::string_view sql, std::string_view what) {
  return run_prepared(conn, sql, what, [](Query&) {});
}

// Statements per pipeline: their small results must fit the socket while the rest is still being sent.
inline constexpr std::size_t kPipelineChunk = 256;

// Runs `statements` in order, a pipeline (one round trip) per kPipelineChunk; stops at the first error.
// `affected`, when given, gets each statement's count of rows changed, in order.
inline Result<void> run_pipelined(Connection& conn, std::span<const Statement> statements,
                                  std::vector<std::int64_t>* affected = nullptr) {
  for (std::size_t from = 0; from < statements.size(); from += kPipelineChunk) {
    const auto chunk = statements.subspan(from, std::min(kPipelineChunk, statements.size() - from));
    if (auto ok = conn.exec_pipeline(chunk, affected); !ok) return ok;
  }
  return {};
}

// The same on a connection of `pool`, outside any transaction (one statement commits by itself).
template <typename Bind>
Result<Rows> run_pooled(Pool& pool, std::string_view sql, std::string_view what, Bind&& bind) {
  Pool::Lease lease = pool.acquire();
  return run_query(*lease, sql, what, std::forward<Bind>(bind));
}

inline Result<Rows> run_pooled(Pool& pool, std::string_view sql, std::string_view what) {
  return run_pooled(pool, sql, what, [](Query&) {});
}

// "{1,2,3}": ids as a PostgreSQL array literal, for `= ANY(:ids::bigint[])`; doubles too (in the shortest
// form that reads back exactly, for `:weights::double precision[]`).
template <typename Ids>
std::string id_array(const Ids& ids) {
  std::string out = "{";
  bool first = true;
  for (const auto id : ids) {
    if (!first) out += ',';
    first = false;
    out += fmt::format("{}", id);
  }
  return out + "}";
}

// {"a","b\"c"}: texts as a PostgreSQL array literal, for `= ANY(:texts::text[])`. Every element is quoted
// and its quotes and backslashes escaped, so commas, braces, spaces or the word NULL stay one text each.
template <typename Texts>
std::string text_array(const Texts& texts) {
  std::string out = "{";
  bool first = true;
  for (const auto& text : texts) {
    if (!first) out += ',';
    first = false;
    out += '"';
    for (const char c : std::string_view(text)) {
      if (c == '"' || c == '\\') out += '\\';
      out += c;
    }
    out += '"';
  }
  return out + "}";
}

}  // namespace longread::storage::postgres
