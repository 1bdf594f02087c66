// Move-only RAII wrappers for SQLite's C handles (sqlite3*, sqlite3_stmt*), a per-connection cache of
// prepared statements, and a transaction guard. Internal to the SQLite backend.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "core/error.h"
#include "core/time.h"

struct sqlite3;
struct sqlite3_stmt;

namespace longread::storage::sqlite {

// One prepared statement; finalized on destruction.
class Statement {
 public:
  Statement() = default;
  explicit Statement(sqlite3_stmt* stmt) noexcept : stmt_(stmt) {}
  ~Statement();
  Statement(Statement&& other) noexcept;
  Statement& operator=(Statement&& other) noexcept;
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  [[nodiscard]] sqlite3_stmt* get() const noexcept { return stmt_; }

 private:
  sqlite3_stmt* stmt_ = nullptr;
};

// One open database connection; closed on destruction (after its statements are finalized).
class Database {
 public:
  Database() = default;
  explicit Database(sqlite3* db) noexcept : db_(db) {}
  ~Database();
  Database(Database&& other) noexcept;
  Database& operator=(Database&& other) noexcept;
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  [[nodiscard]] sqlite3* get() const noexcept { return db_; }
  // The connection's last error message ("database is locked", ...).
  [[nodiscard]] std::string errmsg() const;

 private:
  sqlite3* db_ = nullptr;
};

// A use of a cached statement: binds by parameter name, steps, reads columns, and resets and clears the
// bindings when it goes out of scope, so a reader never keeps a read transaction open by accident.
class Query {
 public:
  explicit Query(sqlite3_stmt* stmt, sqlite3* db) noexcept : stmt_(stmt), db_(db) {}
  ~Query();
  Query(Query&& other) noexcept
      : stmt_(std::exchange(other.stmt_, nullptr)), db_(std::exchange(other.db_, nullptr)) {}
  Query& operator=(Query&&) = delete;
  Query(const Query&) = delete;
  Query& operator=(const Query&) = delete;

  // Binding a name the SQL does not have is a bug and throws std::logic_error.
  Query& bind(const char* name, std::int64_t value);
  Query& bind(const char* name, int value) { return bind(name, static_cast<std::int64_t>(value)); }
  Query& bind(const char* name, bool value) { return bind(name, static_cast<std::int64_t>(value ? 1 : 0)); }
  Query& bind(const char* name, double value);
  Query& bind(const char* name, std::string_view value);
  Query& bind(const char* name, const std::string& value) { return bind(name, std::string_view(value)); }
  Query& bind(const char* name, const char* value) { return bind(name, std::string_view(value)); }
  // As a BLOB (copied), where bind(std::string_view) binds TEXT.
  Query& bind_blob(const char* name, std::string_view bytes);
  Query& bind_null(const char* name);
  template <typename T>
  Query& bind(const char* name, const std::optional<T>& value) {
    return value ? bind(name, *value) : bind_null(name);
  }

  // Advances: true when a row is available, false when done; an error carries SQLite's message.
  [[nodiscard]] Result<bool> step();
  // Runs a statement that returns no rows (or ignores them).
  [[nodiscard]] Result<void> run();

  [[nodiscard]] bool is_null(int column) const;
  [[nodiscard]] std::int64_t int64(int column) const;
  [[nodiscard]] int integer(int column) const { return static_cast<int>(int64(column)); }
  [[nodiscard]] double real(int column) const;
  [[nodiscard]] std::string text(int column) const;
  [[nodiscard]] std::optional<std::int64_t> optional_int64(int column) const;

  [[nodiscard]] std::string errmsg() const;

 private:
  int index(const char* name) const;

  sqlite3_stmt* stmt_;
  sqlite3* db_;
};

// A connection with its prepared-statement cache (statements are prepared once per connection, keyed by
// their SQL text). Used by one thread at a time; the store hands connections out.
class Connection {
 public:
  // Milliseconds a connection waits for another writer (another thread's or process's) before SQLITE_BUSY.
  static constexpr int kBusyTimeoutMs = 5000;

  // Opens `path` (creating it when `create`) and applies the per-connection pragmas: busy_timeout,
  // foreign_keys, synchronous=NORMAL. The caller switches the database to WAL once.
  static Result<std::unique_ptr<Connection>> open(const std::string& path, bool create);

  // A statement for `sql`, prepared on first use; errors carry SQLite's message.
  [[nodiscard]] Result<Query> query(std::string_view sql);
  // Runs one or more statements without parameters (pragmas, migrations, BEGIN/COMMIT).
  [[nodiscard]] Result<void> exec(const char* sql);
  [[nodiscard]] std::int64_t last_insert_rowid() const;
  [[nodiscard]] int changes() const;
  [[nodiscard]] std::string errmsg() const { return db_.errmsg(); }
  [[nodiscard]] sqlite3* raw() const noexcept { return db_.get(); }

 private:
  explicit Connection(Database db) : db_(std::move(db)) {}

  // Declared after db_ so statements are finalized before the connection closes.
  Database db_;
  std::unordered_map<std::string, Statement> statements_;
};

// BEGIN IMMEDIATE on construction (take the write lock up front, so two writers never deadlock on a lock
// upgrade); ROLLBACK on destruction unless commit() succeeded.
class Transaction {
 public:
  static Result<Transaction> begin(Connection& connection);
  ~Transaction();
  Transaction(Transaction&& other) noexcept : connection_(std::exchange(other.connection_, nullptr)) {}
  Transaction& operator=(Transaction&&) = delete;
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;

  [[nodiscard]] Result<void> commit();

 private:
  explicit Transaction(Connection& connection) : connection_(&connection) {}
  Connection* connection_;
};

// A time budget for what one connection runs while it is in scope: past `budget`, SQLite interrupts the
// running statement (sqlite3_progress_handler, checked every 1,000 virtual-machine instructions), whose
// step then fails. Guards a reader's connection against a query whose cost the visitor chooses (search).
class StatementBudget {
 public:
  StatementBudget(Connection& connection, std::chrono::steady_clock::duration budget);
  ~StatementBudget();
  StatementBudget(const StatementBudget&) = delete;
  StatementBudget& operator=(const StatementBudget&) = delete;

  // True once a statement was interrupted for running past the budget.
  [[nodiscard]] bool exceeded() const { return exceeded_; }

 private:
  static int check(void* self);

  sqlite3* db_;
  std::chrono::steady_clock::time_point deadline_;
  bool exceeded_ = false;
};

// "store: <what>: <SQLite's message>" as a kStorage error: how every SQL file of the backend reports a
// failed statement.
std::unexpected<Error> db_error(std::string_view what, const Error& cause);
// A nullable Unix-seconds column as a time.
std::optional<TimePoint> optional_time(const Query& q, int column);
// A nullable time as Unix seconds, for a nullable column.
std::optional<std::int64_t> optional_unix(const std::optional<TimePoint>& t);

}  // namespace longread::storage::sqlite
