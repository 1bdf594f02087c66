#include "storage/sqlite/handles.h"

#include <fmt/format.h>
#include <sqlite3.h>

#include <stdexcept>

#include <fmt/core.h>

namespace longread::storage::sqlite {

namespace {

// Per-connection settings (https://sqlite.org/pragma.html). WAL itself is persistent in the file and set once
// by the store. synchronous=NORMAL in WAL mode keeps every commit safe from a process crash (kill -9); only
// an OS crash or power loss may lose the last commits.
constexpr const char* kConnectionPragmas =
    "PRAGMA foreign_keys = ON;"
    "PRAGMA synchronous = NORMAL;"
    "PRAGMA cache_size = -32000;";

}  // namespace

Statement::~Statement() {
  if (stmt_ != nullptr) sqlite3_finalize(stmt_);
}

Statement::Statement(Statement&& other) noexcept : stmt_(std::exchange(other.stmt_, nullptr)) {}

Statement& Statement::operator=(Statement&& other) noexcept {
  if (this != &other) {
    if (stmt_ != nullptr) sqlite3_finalize(stmt_);
    stmt_ = std::exchange(other.stmt_, nullptr);
  }
  return *this;
}

Database::~Database() {
  if (db_ != nullptr) sqlite3_close_v2(db_);
}

Database::Database(Database&& other) noexcept : db_(std::exchange(other.db_, nullptr)) {}

Database& Database::operator=(Database&& other) noexcept {
  if (this != &other) {
    if (db_ != nullptr) sqlite3_close_v2(db_);
    db_ = std::exchange(other.db_, nullptr);
  }
  return *this;
}

std::string Database::errmsg() const {
  return db_ != nullptr ? sqlite3_errmsg(db_) : "out of memory";
}

Query::~Query() {
  if (stmt_ != nullptr) {
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
  }
}

int Query::index(const char* name) const {
  const int i = sqlite3_bind_parameter_index(stmt_, name);
  if (i == 0) throw std::logic_error(fmt::format("store: SQL has no parameter {}", name));
  return i;
}

Query& Query::bind(const char* name, std::int64_t value) {
  sqlite3_bind_int64(stmt_, index(name), value);
  return *this;
}

Query& Query::bind(const char* name, double value) {
  sqlite3_bind_double(stmt_, index(name), value);
  return *this;
}

Query& Query::bind(const char* name, std::string_view value) {
  // SQLITE_TRANSIENT: SQLite copies the bytes, so a temporary argument is safe. A null data pointer (a
  // default std::string_view) would bind SQL NULL, so empty text is bound as "".
  const char* data = value.data() != nullptr ? value.data() : "";
  sqlite3_bind_text64(stmt_, index(name), data, value.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
  return *this;
}

Query& Query::bind_blob(const char* name, std::string_view bytes) {
  const char* data = bytes.data() != nullptr ? bytes.data() : "";
  sqlite3_bind_blob64(stmt_, index(name), data, bytes.size(), SQLITE_TRANSIENT);
  return *this;
}

Query& Query::bind_null(const char* name) {
  sqlite3_bind_null(stmt_, index(name));
  return *this;
}

Result<bool> Query::step() {
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  return fail(ErrorKind::kStorage, errmsg());
}

Result<void> Query::run() {
  for (;;) {
    auto row = step();
    if (!row) return std::unexpected(row.error());
    if (!*row) return {};
  }
}

bool Query::is_null(int column) const {
  return sqlite3_column_type(stmt_, column) == SQLITE_NULL;
}

std::int64_t Query::int64(int column) const {
  return sqlite3_column_int64(stmt_, column);
}

double Query::real(int column) const {
  return sqlite3_column_double(stmt_, column);
}

std::string Query::text(int column) const {
  const auto* bytes = sqlite3_column_text(stmt_, column);
  const int size = sqlite3_column_bytes(stmt_, column);
  if (bytes == nullptr) return {};
  return std::string(reinterpret_cast<const char*>(bytes), static_cast<std::size_t>(size));
}

std::optional<std::int64_t> Query::optional_int64(int column) const {
  if (is_null(column)) return std::nullopt;
  return int64(column);
}

std::string Query::errmsg() const {
  return db_ != nullptr ? sqlite3_errmsg(db_) : "no connection";
}

Result<std::unique_ptr<Connection>> Connection::open(const std::string& path, bool create) {
  sqlite3* raw = nullptr;
  // NOMUTEX: the store guarantees a connection is used by one thread at a time, so SQLite's per-connection
  // mutex is not needed ("multi-thread" mode, https://sqlite.org/threadsafe.html).
  int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX;
  if (create) flags |= SQLITE_OPEN_CREATE;
  const int rc = sqlite3_open_v2(path.c_str(), &raw, flags, nullptr);
  Database db(raw);
  if (rc != SQLITE_OK) {
    return fail(ErrorKind::kStorage, fmt::format("store: cannot open {}: {}", path, db.errmsg()));
  }
  sqlite3_extended_result_codes(db.get(), 1);
  sqlite3_busy_timeout(db.get(), Connection::kBusyTimeoutMs);
  std::unique_ptr<Connection> connection(new Connection(std::move(db)));
  if (auto ok = connection->exec(kConnectionPragmas); !ok) {
    return fail(ErrorKind::kStorage, fmt::format("store: cannot open {}: {}", path, ok.error().message));
  }
  return connection;
}

Result<Query> Connection::query(std::string_view sql) {
  auto it = statements_.find(std::string(sql));
  if (it == statements_.end()) {
    sqlite3_stmt* raw = nullptr;
    const int rc = sqlite3_prepare_v3(db_.get(), sql.data(), static_cast<int>(sql.size()),
                                      SQLITE_PREPARE_PERSISTENT, &raw, nullptr);
    Statement stmt(raw);
    if (rc != SQLITE_OK) return fail(ErrorKind::kStorage, db_.errmsg());
    it = statements_.emplace(std::string(sql), std::move(stmt)).first;
  }
  return Query(it->second.get(), db_.get());
}

Result<void> Connection::exec(const char* sql) {
  char* message = nullptr;
  const int rc = sqlite3_exec(db_.get(), sql, nullptr, nullptr, &message);
  if (rc != SQLITE_OK) {
    std::string text = message != nullptr ? message : db_.errmsg();
    sqlite3_free(message);
    return fail(ErrorKind::kStorage, std::move(text));
  }
  return {};
}

std::int64_t Connection::last_insert_rowid() const {
  return sqlite3_last_insert_rowid(db_.get());
}

int Connection::changes() const {
  return sqlite3_changes(db_.get());
}

Result<Transaction> Transaction::begin(Connection& connection) {
  if (auto ok = connection.exec("BEGIN IMMEDIATE"); !ok) return std::unexpected(ok.error());
  return Transaction(connection);
}

Transaction::~Transaction() {
  if (connection_ != nullptr) (void)connection_->exec("ROLLBACK");
}

Result<void> Transaction::commit() {
  auto ok = connection_->exec("COMMIT");
  // After a failed COMMIT the transaction is still open (e.g. SQLITE_BUSY); the destructor rolls it back.
  if (ok) connection_ = nullptr;
  return ok;
}

std::unexpected<Error> db_error(std::string_view what, const Error& cause) {
  return fail(ErrorKind::kStorage, fmt::format("store: {}: {}", what, cause.message));
}

std::optional<TimePoint> optional_time(const Query& q, int column) {
  if (q.is_null(column)) return std::nullopt;
  return from_unix(q.int64(column));
}

std::optional<std::int64_t> optional_unix(const std::optional<TimePoint>& t) {
  if (!t) return std::nullopt;
  return to_unix(*t);
}

StatementBudget::StatementBudget(Connection& connection, std::chrono::steady_clock::duration budget)
    : db_(connection.raw()), deadline_(std::chrono::steady_clock::now() + budget) {
  sqlite3_progress_handler(db_, 1000, &StatementBudget::check, this);
}

StatementBudget::~StatementBudget() {
  sqlite3_progress_handler(db_, 0, nullptr, nullptr);
}

int StatementBudget::check(void* self) {
  auto* budget = static_cast<StatementBudget*>(self);
  if (std::chrono::steady_clock::now() < budget->deadline_) return 0;
  budget->exceeded_ = true;
  return 1;  // non-zero: SQLite stops the statement with SQLITE_INTERRUPT
}

}  // namespace longread::storage::sqlite
