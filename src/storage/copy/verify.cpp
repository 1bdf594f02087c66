#include "storage/copy/verify.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>

namespace longread::storage::db_copy {
namespace {

std::optional<std::int64_t> as_integer(const std::string& s) {
  std::int64_t v = 0;
  const auto* end = s.data() + s.size();
  auto [p, ec] = std::from_chars(s.data(), end, v);
  if (ec != std::errc() || p != end) return std::nullopt;
  return v;
}

std::optional<double> as_double(const std::string& s) {
  if (s.empty()) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size()) return std::nullopt;
  return v;
}

bool same_double(double a, double b) {
  return a == b || (std::isnan(a) && std::isnan(b));
}

std::string shown(const Value& v) {
  if (!v) return "NULL";
  constexpr std::size_t kMax = 60;
  if (v->size() <= kMax) return fmt::format("\"{}\"", *v);
  return fmt::format("\"{}…\" ({} bytes)", v->substr(0, kMax), v->size());
}

std::string key_text(const Table& table, const Row& key) {
  std::string out;
  for (std::size_t i = 0; i < table.key.size(); ++i) {
    out += fmt::format("{}{}={}", i ? ", " : "", table.columns[table.key[i]].name, key[i] ? *key[i] : "NULL");
  }
  return table.key.size() > 1 ? "(" + out + ")" : out;
}

}  // namespace

bool same_value(const Value& sqlite_value, const Value& postgres_value, Kind kind) {
  if (!sqlite_value || !postgres_value) return !sqlite_value && !postgres_value;
  const std::string& a = *sqlite_value;
  const std::string& b = *postgres_value;
  switch (kind) {
    case Kind::kText:
      return a == b;
    case Kind::kInteger: {
      auto x = as_integer(a);
      auto y = as_integer(b);
      if (x && y) return *x == *y;
      break;  // a float SQLite kept in an integer column: compared as numbers below
    }
    case Kind::kFloat4: {
      auto x = as_double(a);
      auto y = as_double(b);
      return x && y && same_double(static_cast<float>(*x), static_cast<float>(*y));
    }
    case Kind::kFloat8:
      break;
  }
  auto x = as_double(a);
  auto y = as_double(b);
  return x && y && same_double(*x, *y);
}

Result<void> check_table(SqliteSource& source, postgres::Connection& conn, const Table& table,
                         const std::vector<std::string>& select_list, int samples, TableReport& report) {
  const std::string name = sql_name(table.name);
  auto sqlite_rows = source.count(table);
  if (!sqlite_rows) return std::unexpected(sqlite_rows.error());
  auto pg_count = conn.exec(fmt::format("SELECT COUNT(*) FROM {}", name));
  if (!pg_count)
    return fail(pg_count.error().kind, "db copy: " + table.name + ": " + pg_count.error().message);
  report.sqlite_rows = *sqlite_rows;
  report.postgres_rows = pg_count->int64(0, 0);
  if (report.sqlite_rows != report.postgres_rows) {
    report.differences.push_back(fmt::format("{}: {} rows in SQLite, {} in PostgreSQL", table.name,
                                             report.sqlite_rows, report.postgres_rows));
  }
  report.sampled = 0;
  report.sample_differences = 0;
  if (report.sqlite_rows == 0 || samples <= 0) return {};

  std::string key_columns;
  std::string sqlite_match;
  std::string pg_match;
  for (std::size_t i = 0; i < table.key.size(); ++i) {
    const Column& c = table.columns[table.key[i]];
    key_columns += (i ? ", " : "") + sql_name(c.name);
    sqlite_match += fmt::format("{}{} = ?{}", i ? " AND " : "", sql_name(c.name), i + 1);
    pg_match += fmt::format("{}{} = ${}::{}", i ? " AND " : "", sql_name(c.name), i + 1, c.type);
  }
  // `samples` rows spread evenly over the table by primary key: the n-th row (from 0) when n * samples
  // passes a multiple of the row count, which happens exactly `samples` times (every row of a smaller
  // table).
  std::vector<Row> keys;
  auto picked = source.each(
      fmt::format("SELECT {0} FROM (SELECT {0}, ROW_NUMBER() OVER (ORDER BY {0}) - 1 AS n FROM {1})"
                  " WHERE (n * {2}) % {3} < {2} ORDER BY {0}",
                  key_columns, name, samples, report.sqlite_rows),
      {}, [&](const Row& row) -> Result<bool> {
        keys.push_back(row);
        return true;
      });
  if (!picked) return std::unexpected(picked.error());

  std::string pg_columns;
  for (std::size_t i = 0; i < table.columns.size(); ++i)
    pg_columns += (i ? ", " : "") + sql_name(table.columns[i].name);
  const std::string sqlite_sql =
      fmt::format("SELECT {} FROM {} WHERE {}", fmt::join(select_list, ", "), name, sqlite_match);
  const std::string pg_sql = fmt::format("SELECT {} FROM {} WHERE {}", pg_columns, name, pg_match);

  for (const Row& key : keys) {
    std::vector<Param> params;
    postgres::Params pg_params;
    for (std::size_t i = 0; i < table.key.size(); ++i) {
      params.push_back(Param{.value = key[i], .integer = table.columns[table.key[i]].kind == Kind::kInteger});
      if (key[i]) {
        pg_params.add(std::string_view(*key[i]));
      } else {
        pg_params.add(std::nullopt);
      }
    }
    Row expected;
    auto read = source.each(sqlite_sql, params, [&](const Row& row) -> Result<bool> {
      expected = row;
      return false;
    });
    if (!read) return std::unexpected(read.error());
    auto got = conn.exec(pg_sql, pg_params);
    if (!got) return fail(got.error().kind, "db copy: " + table.name + ": " + got.error().message);
    ++report.sampled;
    if (got->empty()) {
      ++report.sample_differences;
      report.differences.push_back(
          fmt::format("{} {}: missing in PostgreSQL", table.name, key_text(table, key)));
      continue;
    }
    bool row_differs = false;
    for (std::size_t c = 0; c < table.columns.size(); ++c) {
      const int col = static_cast<int>(c);
      const Value actual = got->null(0, col) ? Value{} : Value{got->string(0, col)};
      if (same_value(expected[c], actual, table.columns[c].kind)) continue;
      row_differs = true;
      report.differences.push_back(fmt::format("{} {}: {} is {} in SQLite, {} in PostgreSQL", table.name,
                                               key_text(table, key), table.columns[c].name,
                                               shown(expected[c]), shown(actual)));
    }
    if (row_differs) ++report.sample_differences;
  }
  return {};
}

}  // namespace longread::storage::db_copy
