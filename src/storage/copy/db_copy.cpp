#include "storage/copy/db_copy.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <set>

#include "storage/copy/pg_tables.h"
#include "storage/copy/sqlite_source.h"
#include "storage/copy/verify.h"
#include "storage/postgres/database.h"
#include "storage/postgres/pg.h"
#include "storage/postgres/search_vectors.h"
#include "storage/postgres/vector_columns.h"

namespace longread::storage {
namespace {

using db_copy::Column;
using db_copy::Kind;
using db_copy::Param;
using db_copy::Row;
using db_copy::sql_name;
using db_copy::SqliteSource;
using db_copy::Table;
using db_copy::Value;
using postgres::Connection;

// Each database records its own migrations, and its own body dictionaries (a SQLite frame is copied as
// its parts, unpacked, and PostgreSQL's frames name PostgreSQL's dictionaries): never copied.
const std::set<std::string, std::less<>> kNotCopied = {"schema_migrations", "body_dictionaries"};
// Tables whose rows PostgreSQL's schema inserts itself (vote_periods: 7 and 30 days, counted from 0): the
// site's own values replace them.
const std::set<std::string, std::less<>> kSeededTables = {"vote_periods"};
// Triggers that would count a copied row again: votes_period_insert adds each vote to its article's
// votes_week/votes_month, which the copied article already has. Each is disabled and enabled again inside
// every batch's transaction, so a copy killed in the middle never leaves one off.
const std::map<std::string, std::vector<std::string>, std::less<>> kTriggersOff = {
    {"votes", {"votes_period_insert"}}};
// PostgreSQL takes at most 65535 parameters in one statement.
constexpr std::size_t kMaxParams = 65535;

Error in_table(const Table& table, const Error& error) {
  return Error{error.kind, fmt::format("db copy: {}: {}", table.name, error.message)};
}

// SQLite may keep a float in an integer column (its affinity allows it); a whole one goes to PostgreSQL as
// an integer.
void normalize(Value& v, Kind kind) {
  if (!v || kind != Kind::kInteger) return;
  std::int64_t i = 0;
  const char* end = v->data() + v->size();
  if (auto [p, ec] = std::from_chars(v->data(), end, i); ec == std::errc() && p == end) return;
  double d = 0;
  if (auto [p, ec] = std::from_chars(v->data(), end, d); ec == std::errc() && p == end && std::trunc(d) == d)
    *v = fmt::format("{}", static_cast<std::int64_t>(d));
}

void add(postgres::Params& params, const Value& v) {
  if (v) {
    params.add(std::string_view(*v));
  } else {
    params.add(std::nullopt);
  }
}

class Copier {
 public:
  Copier(SqliteSource& source, Connection& conn, const SearchTokenizer& tokenizer,
         const postgres::CommonWords& common, const CopyOptions& options, const CopyProgressFn& progress)
      : source_(source),
        conn_(conn),
        tokenizer_(tokenizer),
        common_(common),
        options_(options),
        progress_(progress) {}

  // Inserts every row of `table` that PostgreSQL does not have yet; returns how many it inserted.
  Result<std::int64_t> copy_table(const Table& table, const std::vector<std::string>& select_list) {
    auto total = source_.count(table);
    if (!total) return std::unexpected(total.error());
    const std::size_t per_batch = std::max<std::size_t>(
        1, std::min<std::size_t>(static_cast<std::size_t>(std::max(1, options_.batch_rows)),
                                 kMaxParams / (table.columns.size() + kVectorColumns)));
    std::vector<Row> batch;
    std::size_t batch_bytes = 0;
    std::int64_t read = 0;
    std::int64_t inserted = 0;
    auto flush = [&]() -> Result<void> {
      if (batch.empty()) return {};
      auto n = insert_batch(table, batch);
      if (!n) return std::unexpected(n.error());
      inserted += *n;
      batch.clear();
      batch_bytes = 0;
      report(table, read, *total, inserted, false);
      return counted_batch();
    };
    auto ok = source_.each(fmt::format("SELECT {} FROM {} ORDER BY {}", fmt::join(select_list, ", "),
                                       sql_name(table.name), key_list(table)),
                           {}, [&](const Row& source_row) -> Result<bool> {
                             Row row = source_row;
                             for (std::size_t c = 0; c < row.size(); ++c) {
                               normalize(row[c], table.columns[c].kind);
                               if (row[c]) batch_bytes += row[c]->size();
                             }
                             // Set once every row is in: the row it points to may come later.
                             for (const std::size_t c : table.self_references) row[c].reset();
                             batch.push_back(std::move(row));
                             ++read;
                             if (batch.size() >= per_batch || batch_bytes >= options_.batch_bytes) {
                               if (auto flushed = flush(); !flushed) return std::unexpected(flushed.error());
                             }
                             return true;
                           });
    if (!ok) return std::unexpected(ok.error());
    if (auto flushed = flush(); !flushed) return std::unexpected(flushed.error());
    for (const std::size_t c : table.self_references) {
      if (auto set = set_self_reference(table, select_list, c); !set) return std::unexpected(set.error());
    }
    report(table, read, *total, inserted, true);
    return inserted;
  }

  // The identity column's sequence continues after the largest copied id (PostgreSQL does not move it for
  // rows inserted with their id).
  Result<void> continue_identity(const Table& table) {
    if (!table.identity) return {};
    auto ok = conn_.exec(fmt::format("SELECT setval(pg_get_serial_sequence($1, $2),"
                                     " COALESCE((SELECT MAX({}) FROM {}), 0) + 1, false)",
                                     sql_name(*table.identity), sql_name(table.name)),
                         postgres::Params(sql_name(table.name), *table.identity));
    if (!ok) return std::unexpected(in_table(table, ok.error()));
    return {};
  }

 private:
  // An article's search vectors and phrase filter, which SQLite does not have: made here as the crawler
  // makes them (postgres/search_vectors.h), rather than by the server's trigger with its own parser.
  static constexpr std::size_t kVectorColumns = 3;
  struct TitleAndText {
    std::size_t title;
    std::size_t text;
  };
  static std::optional<TitleAndText> vector_sources(const Table& table) {
    if (table.name != "articles") return std::nullopt;
    auto at = [&](std::string_view name) -> std::optional<std::size_t> {
      for (std::size_t c = 0; c < table.columns.size(); ++c)
        if (table.columns[c].name == name) return c;
      return std::nullopt;
    };
    const auto title = at("title");
    const auto text = at("text");
    if (!title || !text) return std::nullopt;
    return TitleAndText{*title, *text};
  }

  static std::string key_list(const Table& table) {
    std::vector<std::string> names;
    for (const std::size_t k : table.key) names.push_back(sql_name(table.columns[k].name));
    return fmt::format("{}", fmt::join(names, ", "));
  }

  std::string conflict_clause(const Table& table) const {
    if (!kSeededTables.contains(table.name)) return " ON CONFLICT DO NOTHING";
    std::vector<std::string> sets;
    std::vector<std::string> mine;
    std::vector<std::string> theirs;
    for (std::size_t c = 0; c < table.columns.size(); ++c) {
      if (std::find(table.key.begin(), table.key.end(), c) != table.key.end()) continue;
      const std::string name = sql_name(table.columns[c].name);
      sets.push_back(fmt::format("{0} = EXCLUDED.{0}", name));
      mine.push_back(fmt::format("{}.{}", sql_name(table.name), name));
      theirs.push_back("EXCLUDED." + name);
    }
    if (sets.empty()) return " ON CONFLICT DO NOTHING";
    return fmt::format(" ON CONFLICT ({}) DO UPDATE SET {} WHERE ({}) IS DISTINCT FROM ({})", key_list(table),
                       fmt::join(sets, ", "), fmt::join(mine, ", "), fmt::join(theirs, ", "));
  }

  Result<std::int64_t> insert_batch(const Table& table, const std::vector<Row>& rows) {
    std::vector<std::string> names;
    for (const Column& c : table.columns) names.push_back(sql_name(c.name));
    const auto sources = vector_sources(table);
    if (sources)
      for (const auto& column : postgres::kVectorColumns) names.emplace_back(column.name);
    std::string sql =
        fmt::format("INSERT INTO {} ({}) VALUES ", sql_name(table.name), fmt::join(names, ", "));
    postgres::Params params;
    int n = 0;
    for (std::size_t r = 0; r < rows.size(); ++r) {
      sql += r ? ", (" : "(";
      for (std::size_t c = 0; c < table.columns.size(); ++c) {
        sql += fmt::format("{}${}::{}", c ? ", " : "", ++n, table.columns[c].type);
        add(params, rows[r][c]);
      }
      if (sources) {
        const Value& title = rows[r][sources->title];
        const Value& text = rows[r][sources->text];
        const postgres::SearchVectors vectors =
            postgres::search_vectors(tokenizer_, common_, title ? *title : "", text ? *text : "");
        for (const auto& column : postgres::kVectorColumns) sql += fmt::format(", ${}{}", ++n, column.cast);
        postgres::add_search_vectors(params, vectors);
      }
      sql += ")";
    }
    sql += conflict_clause(table);
    std::int64_t inserted = 0;
    auto ok = in_batch_transaction(table, [&]() -> Result<void> {
      auto done = conn_.exec(sql, params);
      if (!done) return std::unexpected(done.error());
      inserted = done->affected();
      return {};
    });
    if (!ok) return std::unexpected(ok.error());
    return inserted;
  }

  // Sets column `c` (a reference to the same table) of every row where SQLite has it, in batches.
  Result<void> set_self_reference(const Table& table, const std::vector<std::string>& select_list,
                                  std::size_t c) {
    const Column& column = table.columns[c];
    std::vector<std::string> selected;
    std::vector<std::string> value_names;
    std::string match;
    for (std::size_t i = 0; i < table.key.size(); ++i) {
      selected.push_back(select_list[table.key[i]]);
      value_names.push_back(fmt::format("k{}", i));
      match += fmt::format(" AND t.{} = v.k{}", sql_name(table.columns[table.key[i]].name), i);
    }
    selected.push_back(select_list[c]);
    value_names.push_back("x");
    const std::size_t width = selected.size();
    const std::size_t per_batch = std::max<std::size_t>(
        1, std::min<std::size_t>(static_cast<std::size_t>(std::max(1, options_.batch_rows)),
                                 kMaxParams / width));
    std::vector<Row> batch;
    auto flush = [&]() -> Result<void> {
      if (batch.empty()) return {};
      std::string values;
      postgres::Params params;
      int n = 0;
      for (std::size_t r = 0; r < batch.size(); ++r) {
        values += r ? ", (" : "(";
        for (std::size_t i = 0; i < width; ++i) {
          const Column& typed = i < table.key.size() ? table.columns[table.key[i]] : column;
          values += fmt::format("{}${}::{}", i ? ", " : "", ++n, typed.type);
          add(params, batch[r][i]);
        }
        values += ")";
      }
      const std::string sql = fmt::format(
          "UPDATE {0} AS t SET {1} = v.x FROM (VALUES {2}) AS v({3}) WHERE t.{1} IS DISTINCT FROM v.x{4}",
          sql_name(table.name), sql_name(column.name), values, fmt::join(value_names, ", "), match);
      auto ok = in_batch_transaction(table, [&]() -> Result<void> {
        auto done = conn_.exec(sql, params);
        if (!done) return std::unexpected(done.error());
        return {};
      });
      if (!ok) return std::unexpected(ok.error());
      batch.clear();
      return counted_batch();
    };
    auto ok = source_.each(
        fmt::format("SELECT {} FROM {} WHERE {} IS NOT NULL ORDER BY {}", fmt::join(selected, ", "),
                    sql_name(table.name), sql_name(column.name), key_list(table)),
        {}, [&](const Row& source_row) -> Result<bool> {
          Row row = source_row;
          for (std::size_t i = 0; i < width; ++i)
            normalize(row[i], i < table.key.size() ? table.columns[table.key[i]].kind : column.kind);
          batch.push_back(std::move(row));
          if (batch.size() >= per_batch) {
            if (auto flushed = flush(); !flushed) return std::unexpected(flushed.error());
          }
          return true;
        });
    if (!ok) return std::unexpected(ok.error());
    return flush();
  }

  // BEGIN, the table's triggers off, `work`, triggers on, COMMIT; ROLLBACK on any error.
  Result<void> in_batch_transaction(const Table& table, const std::function<Result<void>()>& work) {
    auto run = [&]() -> Result<void> {
      if (auto ok = conn_.exec("BEGIN"); !ok) return std::unexpected(ok.error());
      auto triggers = kTriggersOff.find(table.name);
      if (triggers != kTriggersOff.end()) {
        for (const auto& t : triggers->second) {
          auto ok =
              conn_.exec(fmt::format("ALTER TABLE {} DISABLE TRIGGER {}", sql_name(table.name), sql_name(t)));
          if (!ok) return std::unexpected(ok.error());
        }
      }
      if (auto ok = work(); !ok) return ok;
      if (triggers != kTriggersOff.end()) {
        for (const auto& t : triggers->second) {
          auto ok =
              conn_.exec(fmt::format("ALTER TABLE {} ENABLE TRIGGER {}", sql_name(table.name), sql_name(t)));
          if (!ok) return std::unexpected(ok.error());
        }
      }
      if (auto ok = conn_.exec("COMMIT"); !ok) return std::unexpected(ok.error());
      return {};
    };
    auto ok = run();
    if (!ok) {
      (void)conn_.exec("ROLLBACK");
      return std::unexpected(in_table(table, ok.error()));
    }
    return {};
  }

  Result<void> counted_batch() {
    ++batches_;
    if (options_.stop_after_batches > 0 && batches_ >= options_.stop_after_batches) {
      return fail(ErrorKind::kInternal,
                  fmt::format("db copy: stopped after {} batches, as the test asked", batches_));
    }
    return {};
  }

  void report(const Table& table, std::int64_t read, std::int64_t total, std::int64_t inserted, bool done) {
    if (progress_)
      progress_(CopyProgress{.table = table.name,
                             .rows_read = read,
                             .rows_total = total,
                             .inserted = inserted,
                             .table_done = done});
  }

  SqliteSource& source_;
  Connection& conn_;
  const SearchTokenizer& tokenizer_;
  const postgres::CommonWords& common_;
  const CopyOptions& options_;
  const CopyProgressFn& progress_;
  int batches_ = 0;
};

}  // namespace

std::string TableReport::summary() const {
  const std::string counts =
      sqlite_rows == postgres_rows
          ? std::string("counts equal")
          : fmt::format("counts differ ({} in SQLite, {} in PostgreSQL)", sqlite_rows, postgres_rows);
  const std::string sample = sample_differences == 0
                                 ? fmt::format("{} sampled rows equal", sampled)
                                 : fmt::format("{} of {} sampled rows differ", sample_differences, sampled);
  return fmt::format("{} {} rows ({} new), {}, {}", table, sqlite_rows, inserted, counts, sample);
}

bool CopyReport::equal() const noexcept {
  return std::all_of(tables.begin(), tables.end(), [](const TableReport& t) { return t.equal(); });
}

Result<CopyReport> copy_sqlite_to_postgres(const std::string& sqlite_path, const std::string& pg_url,
                                           const CopyOptions& options, const CopyProgressFn& progress) {
  if (!postgres::is_postgres_url(pg_url)) {
    return fail(
        ErrorKind::kInvalidInput,
        fmt::format("db copy: --to must be a PostgreSQL URL (postgresql://user@host/database), not \"{}\"",
                    postgres::redact_url(pg_url)));
  }
  auto source = SqliteSource::open(sqlite_path);
  if (!source) return std::unexpected(source.error());
  {
    // Creates PostgreSQL's tables (or checks they are this binary's) before anything is copied.
    auto db = postgres::Database::open(pg_url, 1);
    if (!db) return std::unexpected(db.error());
  }
  auto conn = Connection::open(pg_url);
  if (!conn) return std::unexpected(conn.error());
  auto tables = db_copy::postgres_tables(*conn);
  if (!tables) return std::unexpected(tables.error());
  auto sqlite_tables = (*source)->tables();
  if (!sqlite_tables) return std::unexpected(sqlite_tables.error());

  // Both databases' tables, parents first. SQLite's search index (FTS5), its body dictionaries and its
  // internals have no PostgreSQL table; PostgreSQL computes its generated columns, and the articles' search
  // vectors are made as they are copied (insert_batch).
  std::vector<Table> copied;
  std::vector<std::vector<std::string>> select_lists;
  for (const Table& table : *tables) {
    if (kNotCopied.contains(table.name) || !sqlite_tables->contains(table.name)) continue;
    auto list = (*source)->select_list(table);
    if (!list) return std::unexpected(list.error());
    copied.push_back(table);
    select_lists.push_back(std::move(*list));
  }

  CopyReport report;
  auto tokenizer = SearchTokenizer::open();
  if (!tokenizer) return std::unexpected(tokenizer.error());
  auto common = postgres::read_common_words(*conn);
  if (!common) return std::unexpected(common.error());
  Copier copier(**source, *conn, **tokenizer, *common, options, progress);
  for (std::size_t i = 0; i < copied.size(); ++i) {
    auto inserted = copier.copy_table(copied[i], select_lists[i]);
    if (!inserted) return std::unexpected(inserted.error());
    report.tables.push_back(TableReport{.table = copied[i].name, .inserted = *inserted});
  }
  for (const Table& table : copied) {
    if (auto ok = copier.continue_identity(table); !ok) return std::unexpected(ok.error());
  }
  for (std::size_t i = 0; i < copied.size(); ++i) {
    auto ok =
        db_copy::check_table(**source, *conn, copied[i], select_lists[i], options.samples, report.tables[i]);
    if (!ok) return std::unexpected(ok.error());
  }
  return report;
}

}  // namespace longread::storage
