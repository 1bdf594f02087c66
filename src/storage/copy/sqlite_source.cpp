#include "storage/copy/sqlite_source.h"

#include <fmt/format.h>
#include <sqlite3.h>

#include <array>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>

#include "storage/migrations.h"
#include "storage/sqlite/article_body.h"
#include "storage/store.h"

namespace longread::storage::db_copy {
namespace {

// The article's texts, kept inside its zstd body where a row has one (docs/storage.md, "Article bodies"),
// and the part number longread_body_part reads each from.
const std::map<std::string, int, std::less<>> kBodyParts = {
    {"summary_html", 0}, {"content_html", 1}, {"text", 2}, {"excerpt", 3}};

// Every SQLite database file begins with these 16 bytes (https://www.sqlite.org/fileformat.html).
constexpr std::array<char, 16> kSqliteHeader = {'S', 'Q', 'L', 'i', 't', 'e', ' ', 'f',
                                                'o', 'r', 'm', 'a', 't', ' ', '3', '\0'};

Result<void> check_file(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec))
    return fail(ErrorKind::kInvalidInput, fmt::format("db copy: --from {}: no such file", path));
  if (!std::filesystem::is_regular_file(path, ec))
    return fail(ErrorKind::kInvalidInput, fmt::format("db copy: --from {}: not a file", path));
  std::array<char, 16> header{};
  std::ifstream in(path, std::ios::binary);
  if (!in) return fail(ErrorKind::kInvalidInput, fmt::format("db copy: --from {}: cannot be read", path));
  in.read(header.data(), header.size());
  if (in.gcount() != static_cast<std::streamsize>(header.size()) || header != kSqliteHeader)
    return fail(ErrorKind::kInvalidInput, fmt::format("db copy: --from {} is not a SQLite database", path));
  return {};
}

std::string sqlite_error(sqlite3* db, const std::string& what) {
  return fmt::format("db copy: {}: {}", what, sqlite3_errmsg(db));
}

struct Handle {
  sqlite3* db = nullptr;
  Handle() = default;
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  ~Handle() {
    if (db) sqlite3_close_v2(db);
  }
};

// The newest migration the file records, or an error when it has none: a SQLite file that longread did
// not make.
Result<int> schema_version(sqlite3* db, const std::string& path) {
  sqlite3_stmt* stmt = nullptr;
  const std::string not_longread =
      fmt::format("db copy: --from {} is not a longread database (it has no schema_migrations)", path);
  if (sqlite3_prepare_v2(db, "SELECT MAX(version) FROM schema_migrations", -1, &stmt, nullptr) != SQLITE_OK) {
    const std::string message = sqlite3_errmsg(db);
    sqlite3_finalize(stmt);
    if (message.find("no such table") != std::string::npos)
      return fail(ErrorKind::kInvalidInput, not_longread);
    return fail(ErrorKind::kStorage, fmt::format("db copy: cannot read {}: {}", path, message));
  }
  const int rc = sqlite3_step(stmt);
  const bool empty = rc != SQLITE_ROW || sqlite3_column_type(stmt, 0) == SQLITE_NULL;
  const int version = rc == SQLITE_ROW ? sqlite3_column_int(stmt, 0) : 0;
  sqlite3_finalize(stmt);
  if (rc != SQLITE_ROW && rc != SQLITE_DONE)
    return fail(ErrorKind::kStorage, sqlite_error(db, "cannot read " + path));
  if (empty) return fail(ErrorKind::kInvalidInput, not_longread);
  return version;
}

Result<void> run(sqlite3* db, const char* sql) {
  if (sqlite3_exec(db, sql, nullptr, nullptr, nullptr) != SQLITE_OK)
    return fail(ErrorKind::kStorage, sqlite_error(db, sql));
  return {};
}

}  // namespace

Result<std::unique_ptr<SqliteSource>> SqliteSource::open(const std::string& path) {
  if (auto ok = check_file(path); !ok) return std::unexpected(ok.error());
  const int newest = migrations().empty() ? 0 : migrations().back().version;
  {
    Handle probe;
    if (sqlite3_open_v2(path.c_str(), &probe.db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK)
      return fail(ErrorKind::kStorage, sqlite_error(probe.db, "cannot open " + path));
    sqlite3_busy_timeout(probe.db, 5000);
    auto version = schema_version(probe.db, path);
    if (!version) return std::unexpected(version.error());
    if (*version > newest) {
      return fail(
          ErrorKind::kInvalidInput,
          fmt::format("db copy: --from {} has schema version {}, newer than this longread's {}: copy it "
                      "with the longread that wrote it",
                      path, *version, newest));
    }
    if (*version < newest) {
      sqlite3_close_v2(probe.db);
      probe.db = nullptr;
      // An older site: its migrations first, as any longread command on it would apply them, so its
      // tables are the ones PostgreSQL's schema mirrors.
      auto store = open_sqlite_store(path);
      if (!store) return std::unexpected(store.error());
    }
  }

  auto source = std::unique_ptr<SqliteSource>(new SqliteSource());
  // Read-write without create (a read-only connection cannot always use the WAL index), but query_only:
  // the copy never writes the file.
  if (sqlite3_open_v2(path.c_str(), &source->db_, SQLITE_OPEN_READWRITE, nullptr) != SQLITE_OK)
    return fail(ErrorKind::kStorage, sqlite_error(source->db_, "cannot open " + path));
  sqlite3_busy_timeout(source->db_, 5000);
  if (const std::string error =
          sqlite::register_body_functions(source->db_, std::make_shared<sqlite::BodyDictionaries>());
      !error.empty()) {
    return fail(ErrorKind::kStorage, fmt::format("db copy: cannot open {}: {}", path, error));
  }
  if (auto ok = run(source->db_, "PRAGMA query_only = ON"); !ok) return std::unexpected(ok.error());
  // One read transaction for the whole copy and its check: they see one state of the file even if
  // something writes to it meanwhile. It starts at the first read.
  if (auto ok = run(source->db_, "BEGIN"); !ok) return std::unexpected(ok.error());
  if (auto ok = run(source->db_, "SELECT COUNT(*) FROM sqlite_master"); !ok)
    return std::unexpected(ok.error());
  return source;
}

SqliteSource::~SqliteSource() {
  if (db_) {
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    sqlite3_close_v2(db_);
  }
}

Result<std::set<std::string>> SqliteSource::tables() {
  std::set<std::string> out;
  auto ok =
      each("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'",
           {}, [&](const Row& row) -> Result<bool> {
             if (row[0]) out.insert(*row[0]);
             return true;
           });
  if (!ok) return std::unexpected(ok.error());
  return out;
}

Result<std::vector<std::string>> SqliteSource::select_list(const Table& table) {
  std::set<std::string> have;
  auto ok = each(fmt::format("SELECT name FROM pragma_table_xinfo({})", sql_name(table.name)), {},
                 [&](const Row& row) -> Result<bool> {
                   if (row[0]) have.insert(*row[0]);
                   return true;
                 });
  if (!ok) return std::unexpected(ok.error());
  const bool has_body = have.contains("body");
  std::vector<std::string> out;
  for (const Column& c : table.columns) {
    if (!have.contains(c.name)) {
      return fail(ErrorKind::kStorage,
                  fmt::format("db copy: PostgreSQL's {}.{} has no column in the SQLite database", table.name,
                              c.name));
    }
    auto part = kBodyParts.find(c.name);
    if (table.name == "articles" && has_body && part != kBodyParts.end()) {
      out.push_back(fmt::format("longread_body_part(body, {}, {})", part->second, sql_name(c.name)));
    } else {
      out.push_back(sql_name(c.name));
    }
  }
  return out;
}

Result<std::int64_t> SqliteSource::count(const Table& table) {
  std::int64_t n = 0;
  auto ok = each(fmt::format("SELECT COUNT(*) FROM {}", sql_name(table.name)), {},
                 [&](const Row& row) -> Result<bool> {
                   n = row[0] ? std::stoll(*row[0]) : 0;
                   return false;
                 });
  if (!ok) return std::unexpected(ok.error());
  return n;
}

Result<void> SqliteSource::each(const std::string& sql, std::span<const Param> params,
                                const std::function<Result<bool>(const Row&)>& on_row) {
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) {
    sqlite3_finalize(stmt);
    return fail(ErrorKind::kStorage, sqlite_error(db_, "SQLite refused " + sql));
  }
  struct Finalizer {
    sqlite3_stmt* stmt;
    ~Finalizer() { sqlite3_finalize(stmt); }
  } finalizer{stmt};
  for (std::size_t i = 0; i < params.size(); ++i) {
    const int n = static_cast<int>(i) + 1;
    const Param& p = params[i];
    int rc = SQLITE_OK;
    if (!p.value) {
      rc = sqlite3_bind_null(stmt, n);
    } else if (p.integer) {
      rc = sqlite3_bind_int64(stmt, n, std::stoll(*p.value));
    } else {
      rc = sqlite3_bind_text(stmt, n, p.value->data(), static_cast<int>(p.value->size()), SQLITE_TRANSIENT);
    }
    if (rc != SQLITE_OK) return fail(ErrorKind::kStorage, sqlite_error(db_, "cannot bind a parameter"));
  }
  const int columns = sqlite3_column_count(stmt);
  Row row(static_cast<std::size_t>(columns));
  for (;;) {
    const int rc = sqlite3_step(stmt);
    if (rc == SQLITE_DONE) return {};
    if (rc != SQLITE_ROW) return fail(ErrorKind::kStorage, sqlite_error(db_, "SQLite failed in " + sql));
    for (int c = 0; c < columns; ++c) {
      auto& v = row[static_cast<std::size_t>(c)];
      switch (sqlite3_column_type(stmt, c)) {
        case SQLITE_NULL:
          v.reset();
          break;
        case SQLITE_INTEGER:
          v = std::to_string(sqlite3_column_int64(stmt, c));
          break;
        case SQLITE_FLOAT:
          // fmt's shortest form reads back to the same double; SQLite's own text keeps 15 digits only.
          v = fmt::format("{}", sqlite3_column_double(stmt, c));
          break;
        default: {
          const auto* bytes = static_cast<const char*>(sqlite3_column_blob(stmt, c));
          v = std::string(bytes ? bytes : "", static_cast<std::size_t>(sqlite3_column_bytes(stmt, c)));
        }
      }
    }
    auto more = on_row(row);
    if (!more) return std::unexpected(more.error());
    if (!*more) return {};
  }
}

}  // namespace longread::storage::db_copy
