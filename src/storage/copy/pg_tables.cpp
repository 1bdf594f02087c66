#include "storage/copy/pg_tables.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "storage/postgres/statement.h"
#include "storage/postgres/vector_columns.h"

namespace longread::storage::db_copy {
namespace {

Kind kind_of(std::string_view type) {
  if (type == "bigint" || type == "integer" || type == "smallint") return Kind::kInteger;
  if (type == "real") return Kind::kFloat4;
  if (type == "double precision" || type == "numeric") return Kind::kFloat8;
  return Kind::kText;
}

// A catalog read the server refused is "db copy: cannot read PostgreSQL's tables: store: <reason>".
constexpr std::string_view kCannotRead = "cannot read PostgreSQL's tables";
constexpr std::string_view kScope = "db copy";

}  // namespace

bool is_derived_column(std::string_view table, std::string_view column) {
  // search_vector held the words of rows stored before PostgreSQL's migration 0015: a copy makes their ids
  // instead and leaves it NULL.
  return table == "articles" &&
         (std::ranges::find(kPackedBodyColumns, column) != kPackedBodyColumns.end() ||
          column == "search_vector" ||
          std::ranges::any_of(postgres::kVectorColumns, [&](const auto& c) { return c.name == column; }));
}

std::string sql_name(std::string_view name) {
  std::string out = "\"";
  for (const char c : name) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

Result<std::vector<Table>> postgres_tables(postgres::Connection& conn) {
  std::map<std::string, Table> tables;
  auto names = conn.exec(
      "SELECT table_name FROM information_schema.tables"
      " WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'");
  if (!names) return postgres::db_error(kCannotRead, names.error(), kScope);
  for (int r = 0; r < names->size(); ++r) tables[names->string(r, 0)].name = names->string(r, 0);

  auto columns = conn.exec(
      "SELECT table_name, column_name, data_type, is_generated, is_identity FROM information_schema.columns"
      " WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position");
  if (!columns) return postgres::db_error(kCannotRead, columns.error(), kScope);
  for (int r = 0; r < columns->size(); ++r) {
    auto it = tables.find(columns->string(r, 0));
    if (it == tables.end() || columns->text(r, 3) == "ALWAYS") continue;  // a view's, or generated
    const std::string type = columns->string(r, 2);
    if (is_derived_column(columns->text(r, 0), columns->text(r, 1))) continue;
    it->second.columns.push_back(Column{.name = columns->string(r, 1), .type = type, .kind = kind_of(type)});
    if (columns->text(r, 4) == "YES") it->second.identity = columns->string(r, 1);
  }
  auto index_of = [](const Table& t, std::string_view column) -> std::optional<std::size_t> {
    for (std::size_t i = 0; i < t.columns.size(); ++i)
      if (t.columns[i].name == column) return i;
    return std::nullopt;
  };

  auto keys = conn.exec(
      "SELECT cl.relname, a.attname FROM pg_index i"
      " JOIN pg_class cl ON cl.oid = i.indrelid"
      " JOIN pg_namespace n ON n.oid = cl.relnamespace"
      " CROSS JOIN LATERAL unnest(i.indkey::int2[]) WITH ORDINALITY AS k(attnum, ord)"
      " JOIN pg_attribute a ON a.attrelid = cl.oid AND a.attnum = k.attnum"
      " WHERE i.indisprimary AND n.nspname = current_schema() ORDER BY cl.relname, k.ord");
  if (!keys) return postgres::db_error(kCannotRead, keys.error(), kScope);
  for (int r = 0; r < keys->size(); ++r) {
    auto it = tables.find(keys->string(r, 0));
    if (it == tables.end()) continue;
    if (auto i = index_of(it->second, keys->text(r, 1))) it->second.key.push_back(*i);
  }

  // Foreign keys, one row per referencing column.
  auto references = conn.exec(
      "SELECT a.relname, b.relname, att.attname FROM pg_constraint c"
      " JOIN pg_class a ON a.oid = c.conrelid"
      " JOIN pg_class b ON b.oid = c.confrelid"
      " JOIN pg_namespace n ON n.oid = a.relnamespace"
      " JOIN pg_attribute att ON att.attrelid = c.conrelid AND att.attnum = ANY (c.conkey)"
      " WHERE c.contype = 'f' AND n.nspname = current_schema()");
  if (!references) return postgres::db_error(kCannotRead, references.error(), kScope);
  std::map<std::string, std::set<std::string>> parents;  // table -> the other tables it references
  for (int r = 0; r < references->size(); ++r) {
    const std::string child = references->string(r, 0);
    const std::string parent = references->string(r, 1);
    auto it = tables.find(child);
    if (it == tables.end() || !tables.contains(parent)) continue;
    if (child == parent) {
      if (auto i = index_of(it->second, references->text(r, 2))) it->second.self_references.push_back(*i);
    } else {
      parents[child].insert(parent);
    }
  }

  for (const auto& [name, table] : tables) {
    if (table.key.empty())
      return fail(ErrorKind::kInternal, fmt::format("db copy: PostgreSQL table {} has no primary key", name));
  }

  // Parents first (Kahn's algorithm); among the tables ready at once, by name, so the order is stable.
  std::vector<Table> ordered;
  std::set<std::string> done;
  while (ordered.size() < tables.size()) {
    const std::size_t before = ordered.size();
    for (auto& [name, table] : tables) {
      if (done.contains(name)) continue;
      const auto& needs = parents[name];
      if (std::all_of(needs.begin(), needs.end(), [&](const std::string& p) { return done.contains(p); })) {
        done.insert(name);
        ordered.push_back(table);
        break;  // start again from the first name: a parent freed now may come before later names
      }
    }
    if (ordered.size() == before)
      return fail(ErrorKind::kInternal, "db copy: PostgreSQL's foreign keys form a cycle between tables");
  }
  return ordered;
}

}  // namespace longread::storage::db_copy
