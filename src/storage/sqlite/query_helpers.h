// Small helpers for the SQLite backend's statements: the prepare-bind-step-check sequences the role files
// would otherwise write out again and again around a Query. Each failure is reported as db_error does:
// "store: <what>: <SQLite's message>". Internal to the SQLite backend.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/error.h"
#include "storage/sqlite/handles.h"

namespace longread::storage::sqlite {

// Runs the cached statement `sql` with the parameters `bind` sets.
template <typename Bind>
Result<void> run(Connection& db, std::string_view sql, std::string_view what, Bind&& bind) {
  auto q = db.query(sql);
  if (!q) return db_error(what, q.error());
  bind(*q);
  if (auto ok = q->run(); !ok) return db_error(what, ok.error());
  return {};
}

// As run, then how many rows the statement changed.
template <typename Bind>
Result<int> run_changes(Connection& db, std::string_view sql, std::string_view what, Bind&& bind) {
  if (auto ok = run(db, sql, what, std::forward<Bind>(bind)); !ok) return std::unexpected(ok.error());
  return db.changes();
}

// As run, then the rowid of the row the statement inserted.
template <typename Bind>
Result<std::int64_t> run_insert(Connection& db, std::string_view sql, std::string_view what, Bind&& bind) {
  if (auto ok = run(db, sql, what, std::forward<Bind>(bind)); !ok) return std::unexpected(ok.error());
  return db.last_insert_rowid();
}

// The first column of the first row as an integer (a COUNT, a MAX); 0 when there is no row.
template <typename Bind>
Result<std::int64_t> read_int64(Connection& db, std::string_view sql, std::string_view what, Bind&& bind) {
  auto q = db.query(sql);
  if (!q) return db_error(what, q.error());
  bind(*q);
  auto row = q->step();
  if (!row) return db_error(what, row.error());
  return *row ? q->int64(0) : 0;
}

inline Result<std::int64_t> read_int64(Connection& db, std::string_view sql, std::string_view what) {
  return read_int64(db, sql, what, [](Query&) {});
}

// Steps through the rows of `q`, handing each to `on_row`.
template <typename OnRow>
Result<void> for_each_row(Query& q, std::string_view what, OnRow&& on_row) {
  for (;;) {
    auto row = q.step();
    if (!row) return db_error(what, row.error());
    if (!*row) return {};
    on_row(q);
  }
}

// Every row of the cached statement `sql`, bound by `bind`, made a value by `read`.
template <typename Bind, typename Read>
auto read_rows(Connection& db, std::string_view sql, std::string_view what, Bind&& bind, Read&& read)
    -> Result<std::vector<decltype(read(std::declval<const Query&>()))>> {
  std::vector<decltype(read(std::declval<const Query&>()))> out;
  auto q = db.query(sql);
  if (!q) return db_error(what, q.error());
  bind(*q);
  if (auto ok = for_each_row(*q, what, [&](const Query& row) { out.push_back(read(row)); }); !ok) {
    return std::unexpected(ok.error());
  }
  return out;
}

// Runs the cached statement `sql` once per item of `items`, bound by `bind(query, item)`: how many rows
// the runs changed in all.
template <typename Item, typename Bind>
Result<std::int64_t> run_each(Connection& db, std::string_view sql, std::string_view what,
                              std::span<const Item> items, Bind&& bind) {
  std::int64_t changed = 0;
  for (const Item& item : items) {
    auto n = run_changes(db, sql, what, [&](Query& q) { bind(q, item); });
    if (!n) return std::unexpected(n.error());
    changed += *n;
  }
  return changed;
}

// The row of a statement that always returns one (an aggregate, an upsert's RETURNING), bound by `bind`,
// made a value by `read`.
template <typename Bind, typename Read>
auto read_one(Connection& db, std::string_view sql, std::string_view what, Bind&& bind, Read&& read)
    -> Result<decltype(read(std::declval<const Query&>()))> {
  auto q = db.query(sql);
  if (!q) return db_error(what, q.error());
  bind(*q);
  auto row = q->step();
  if (!row) return db_error(what, row.error());
  return read(*q);
}

// The first row of the cached statement `sql`, bound by `bind`, made a value by `read`; none when there is
// no row.
template <typename Bind, typename Read>
auto read_optional(Connection& db, std::string_view sql, std::string_view what, Bind&& bind, Read&& read)
    -> Result<std::optional<decltype(read(std::declval<const Query&>()))>> {
  using Value = decltype(read(std::declval<const Query&>()));
  auto q = db.query(sql);
  if (!q) return db_error(what, q.error());
  bind(*q);
  auto row = q->step();
  if (!row) return db_error(what, row.error());
  if (!*row) return std::optional<Value>{};
  return std::optional<Value>{read(*q)};
}

// Runs `body` in one write transaction (BEGIN IMMEDIATE ... COMMIT): a body that fails rolls it back and
// its error is returned as it is; failing to begin or to commit is reported under `what`.
template <typename Body>
auto in_transaction(Connection& db, std::string_view what, Body&& body) -> decltype(body()) {
  auto tx = Transaction::begin(db);
  if (!tx) return db_error(what, tx.error());
  auto result = body();
  if (!result) return result;
  if (auto ok = tx->commit(); !ok) return db_error(what, ok.error());
  return result;
}

// Ids as a JSON array, bound to a statement that reads them with json_each(:ids).
std::string ids_json(const std::vector<std::int64_t>& ids);

}  // namespace longread::storage::sqlite
