#include "storage/postgres/pg.h"

#include <libpq-fe.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <new>

#include <fmt/format.h>

namespace longread::storage::postgres {
namespace {

// Rows an INSERT, UPDATE or DELETE changed (PQcmdTuples' text), 0 for any other statement.
std::int64_t rows_changed(pg_result* result) noexcept {
  const char* text = PQcmdTuples(result);
  std::int64_t n = 0;
  std::from_chars(text, text + std::strlen(text), n);
  return n;
}

// SQLSTATE classes the server uses for "another row has this key" and "the row you refer to is gone".
constexpr std::string_view kUniqueViolation = "23505";
constexpr std::string_view kForeignKeyViolation = "23503";
constexpr std::string_view kSerializationFailure = "40001";
constexpr std::string_view kDeadlockDetected = "40P01";
constexpr std::string_view kFeatureNotSupported = "0A000";

std::string first_line(const char* text) {
  std::string s = text == nullptr ? "" : text;
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

std::string sqlstate(const PGresult* result) {
  const char* state = result == nullptr ? nullptr : PQresultErrorField(result, PG_DIAG_SQLSTATE);
  return state == nullptr ? "" : state;
}

// The error for a statement the server refused, kConflict for key violations (the caller may say which).
Error statement_error(PGconn* conn, const PGresult* result) {
  const std::string state = sqlstate(result);
  const std::string text =
      first_line(result != nullptr ? PQresultErrorMessage(result) : PQerrorMessage(conn));
  const ErrorKind kind = (state == kUniqueViolation || state == kForeignKeyViolation) ? ErrorKind::kConflict
                                                                                      : ErrorKind::kStorage;
  return Error{kind,
               fmt::format("store: {}{}", text, state.empty() ? "" : fmt::format(" (SQLSTATE {})", state))};
}

bool retryable(const Error& error) {
  return error.message.find(kSerializationFailure) != std::string::npos ||
         error.message.find(kDeadlockDetected) != std::string::npos;
}

}  // namespace

Params& Params::add(std::int64_t value) {
  values_.emplace_back(std::to_string(value));
  binary_.push_back(false);
  return *this;
}

Params& Params::add(double value) {
  values_.emplace_back(fmt::format("{:.17g}", value));
  binary_.push_back(false);
  return *this;
}

Params& Params::add(std::string_view value) {
  // PostgreSQL text cannot hold NUL; a feed's stray NUL byte must not make a whole save fail.
  std::string text(value);
  if (text.find('\0') != std::string::npos) std::erase(text, '\0');
  values_.emplace_back(std::move(text));
  binary_.push_back(false);
  return *this;
}

Params& Params::add(std::nullopt_t) {
  values_.emplace_back(std::nullopt);
  binary_.push_back(false);
  return *this;
}

Params& Params::add(Binary value) {
  values_.emplace_back(std::move(value.bytes));
  binary_.push_back(true);
  return *this;
}

Params::Wire Params::wire() const {
  Wire out;
  out.values.reserve(values_.size());
  for (const auto& value : values_) out.values.push_back(value ? value->c_str() : nullptr);
  if (std::ranges::find(binary_, true) == binary_.end()) return out;
  // A binary value's length is its own (it may hold NULs); libpq ignores the lengths of text values.
  out.lengths.reserve(values_.size());
  out.formats.reserve(values_.size());
  for (std::size_t i = 0; i < values_.size(); ++i) {
    out.lengths.push_back(values_[i] ? static_cast<int>(values_[i]->size()) : 0);
    out.formats.push_back(binary_[i] ? 1 : 0);
  }
  return out;
}

Rows::Rows(Rows&& other) noexcept : result_(std::exchange(other.result_, nullptr)) {}

Rows& Rows::operator=(Rows&& other) noexcept {
  if (this != &other) {
    if (result_ != nullptr) PQclear(result_);
    result_ = std::exchange(other.result_, nullptr);
  }
  return *this;
}

Rows::~Rows() {
  if (result_ != nullptr) PQclear(result_);
}

int Rows::size() const noexcept {
  return result_ == nullptr ? 0 : PQntuples(result_);
}

std::int64_t Rows::affected() const noexcept {
  return result_ == nullptr ? 0 : rows_changed(result_);
}

bool Rows::null(int row, int col) const noexcept {
  return PQgetisnull(result_, row, col) != 0;
}

std::string_view Rows::text(int row, int col) const noexcept {
  if (null(row, col)) return {};
  return {PQgetvalue(result_, row, col), static_cast<std::size_t>(PQgetlength(result_, row, col))};
}

std::string Rows::bytes(int row, int col) const {
  if (null(row, col)) return {};
  std::size_t n = 0;
  unsigned char* raw =
      PQunescapeBytea(reinterpret_cast<const unsigned char*>(PQgetvalue(result_, row, col)), &n);
  if (raw == nullptr) throw std::bad_alloc();
  std::string out(reinterpret_cast<const char*>(raw), n);
  PQfreemem(raw);
  return out;
}

std::int64_t Rows::int64(int row, int col) const noexcept {
  const std::string_view t = text(row, col);
  std::int64_t n = 0;
  std::from_chars(t.data(), t.data() + t.size(), n);
  return n;
}

double Rows::real(int row, int col) const noexcept {
  if (null(row, col)) return 0;
  return std::strtod(PQgetvalue(result_, row, col), nullptr);
}

std::optional<std::int64_t> Rows::optional_int64(int row, int col) const noexcept {
  if (null(row, col)) return std::nullopt;
  return int64(row, col);
}

std::optional<TimePoint> Rows::optional_time(int row, int col) const noexcept {
  if (null(row, col)) return std::nullopt;
  return time(row, col);
}

Result<Connection> Connection::open(const std::string& url) {
  PGconn* conn = PQconnectdb(url.c_str());
  if (conn == nullptr) return fail(ErrorKind::kStorage, "store: cannot allocate a PostgreSQL connection");
  if (PQstatus(conn) != CONNECTION_OK) {
    std::string why = first_line(PQerrorMessage(conn));
    PQfinish(conn);
    return fail(ErrorKind::kStorage, fmt::format("store: cannot connect to {}: {}", redact_url(url), why));
  }
  Connection c(conn);
  // Server notices (a table that already exists, say) are not errors; keep them out of stderr.
  PQsetNoticeProcessor(
      conn, [](void*, const char*) {}, nullptr);
  // Times are unix seconds in BIGINT columns, so the session's time zone never matters; names are
  // compared byte-wise, the way SQLite compares them.
  if (auto r = c.exec_script("SET client_min_messages = warning; SET client_encoding = 'UTF8'"); !r) {
    return std::unexpected(r.error());
  }
  return c;
}

Connection::Connection(Connection&& other) noexcept
    : conn_(std::exchange(other.conn_, nullptr)),
      prepared_(std::exchange(other.prepared_, {})),
      next_prepared_(other.next_prepared_) {}

Connection& Connection::operator=(Connection&& other) noexcept {
  if (this != &other) {
    if (conn_ != nullptr) PQfinish(conn_);
    conn_ = std::exchange(other.conn_, nullptr);
    prepared_ = std::exchange(other.prepared_, {});
    next_prepared_ = other.next_prepared_;
  }
  return *this;
}

Connection::~Connection() {
  if (conn_ != nullptr) PQfinish(conn_);
}

Result<Rows> Connection::exec(std::string_view sql, const Params& params) {
  const std::string statement(sql);
  const Params::Wire wire = params.wire();
  return rows_of(PQexecParams(conn_, statement.c_str(), params.size(), nullptr, wire.value_data(),
                              wire.length_data(), wire.format_data(), 0));
}

Result<Rows> Connection::rows_of(pg_result* result) {
  const ExecStatusType status = result == nullptr ? PGRES_FATAL_ERROR : PQresultStatus(result);
  if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
    Error error = statement_error(conn_, result);
    if (result != nullptr) PQclear(result);
    return std::unexpected(std::move(error));
  }
  return Rows(result);
}

Result<std::string> Connection::prepared_name(const std::string& sql, int params, bool may_drop) {
  if (const auto it = prepared_.find(sql); it != prepared_.end()) return it->second;
  if (prepared_.size() >= kMaxPrepared) {
    if (!may_drop) return std::string();
    // The server keeps each prepared statement's parse tree and plan for the connection's life: drop
    // them all rather than let that memory grow with every statement a long-lived connection meets.
    if (auto dropped = exec_script("DEALLOCATE ALL"); !dropped) return std::unexpected(dropped.error());
    prepared_.clear();
  }
  // A fresh name each time: a statement prepared under a name the map lost (a failed transaction) can
  // never clash with a new one.
  std::string name = fmt::format("longread_{}", next_prepared_++);
  PGresult* result = PQprepare(conn_, name.c_str(), sql.c_str(), params, nullptr);
  if (result == nullptr || PQresultStatus(result) != PGRES_COMMAND_OK) {
    Error error = statement_error(conn_, result);
    if (result != nullptr) PQclear(result);
    return std::unexpected(std::move(error));
  }
  PQclear(result);
  prepared_.emplace(sql, name);
  return name;
}

Result<Rows> Connection::exec_prepared(std::string_view sql, const Params& params) {
  const std::string statement(sql);
  auto name = prepared_name(statement, params.size());
  if (!name) return std::unexpected(name.error());
  const Params::Wire wire = params.wire();
  PGresult* result = PQexecPrepared(conn_, name->c_str(), params.size(), wire.value_data(),
                                    wire.length_data(), wire.format_data(), 0);
  // A table changed under the kept statement (a migration by another process) can make it unusable
  // ("cached plan must not change result type"): prepared again on its next use.
  if (result != nullptr && sqlstate(result) == kFeatureNotSupported) prepared_.erase(statement);
  return rows_of(result);
}

Result<void> Connection::exec_pipeline(std::span<const Statement> statements,
                                       std::vector<std::int64_t>* affected) {
  if (statements.size() == 1) {
    const Statement& only = statements.front();
    auto rows = only.prepared ? exec_prepared(only.sql, only.params) : exec(only.sql, only.params);
    if (!rows) return std::unexpected(rows.error());
    if (affected) affected->push_back(rows->affected());
    return {};
  }
  if (statements.empty()) return {};
  // Prepared before the pipeline starts (PQprepare waits for its answer), once per connection and SQL.
  // Never dropping the others here, which would take away the names of the statements before: past the
  // cap, a statement is sent unprepared (an empty name).
  std::vector<std::string> names(statements.size());
  for (std::size_t i = 0; i < statements.size(); ++i) {
    if (!statements[i].prepared) continue;
    auto name = prepared_name(statements[i].sql, statements[i].params.size(), false);
    if (!name) return std::unexpected(name.error());
    names[i] = std::move(*name);
  }
  if (PQenterPipelineMode(conn_) != 1) {
    return fail(ErrorKind::kStorage, "store: " + first_line(PQerrorMessage(conn_)));
  }
  std::optional<Error> error;
  std::size_t sent = 0;
  for (std::size_t i = 0; i < statements.size(); ++i) {
    const Statement& s = statements[i];
    const Params::Wire wire = s.params.wire();
    const int ok = !names[i].empty()
                       ? PQsendQueryPrepared(conn_, names[i].c_str(), s.params.size(), wire.value_data(),
                                             wire.length_data(), wire.format_data(), 0)
                       : PQsendQueryParams(conn_, s.sql.c_str(), s.params.size(), nullptr, wire.value_data(),
                                           wire.length_data(), wire.format_data(), 0);
    if (ok != 1) {
      error = statement_error(conn_, nullptr);
      break;
    }
    ++sent;
  }
  if (PQpipelineSync(conn_) != 1 && !error) error = statement_error(conn_, nullptr);
  // Each statement sent gives its result and then a NULL; the sync gives PGRES_PIPELINE_SYNC. After the
  // first error the server skips the rest (PGRES_PIPELINE_ABORTED). A lost connection gives NULLs only,
  // so the NULLs are counted to never wait past the statements sent.
  std::size_t ends = 0;
  bool synced = false;
  while (!synced && ends <= sent && PQstatus(conn_) == CONNECTION_OK) {
    PGresult* result = PQgetResult(conn_);
    if (result == nullptr) {
      ++ends;
      continue;
    }
    const ExecStatusType status = PQresultStatus(result);
    synced = status == PGRES_PIPELINE_SYNC;
    if (status == PGRES_FATAL_ERROR && !error) error = statement_error(conn_, result);
    if (affected && (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK))
      affected->push_back(rows_changed(result));
    PQclear(result);
  }
  if (!synced && !error) error = statement_error(conn_, nullptr);
  if (PQexitPipelineMode(conn_) != 1 && !error) error = statement_error(conn_, nullptr);
  if (error) return std::unexpected(std::move(*error));
  return {};
}

Result<void> Connection::exec_script(std::string_view sql) {
  const std::string script(sql);
  PGresult* result = PQexec(conn_, script.c_str());
  const ExecStatusType status = result == nullptr ? PGRES_FATAL_ERROR : PQresultStatus(result);
  if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
    Error error = statement_error(conn_, result);
    if (result != nullptr) PQclear(result);
    return std::unexpected(std::move(error));
  }
  PQclear(result);
  return {};
}

Result<void> Connection::listen(std::string_view channel) {
  char* quoted = PQescapeIdentifier(conn_, channel.data(), channel.size());
  if (quoted == nullptr) return fail(ErrorKind::kStorage, "store: " + first_line(PQerrorMessage(conn_)));
  std::string sql = fmt::format("LISTEN {}", quoted);
  PQfreemem(quoted);
  return exec_script(sql);
}

Result<int> Connection::drain_notifications() {
  if (PQconsumeInput(conn_) == 0) {
    return fail(ErrorKind::kStorage,
                "store: lost the PostgreSQL connection: " + first_line(PQerrorMessage(conn_)));
  }
  int n = 0;
  while (PGnotify* note = PQnotifies(conn_)) {
    ++n;
    PQfreemem(note);
  }
  return n;
}

bool Connection::healthy() const noexcept {
  return conn_ != nullptr && PQstatus(conn_) == CONNECTION_OK && PQtransactionStatus(conn_) == PQTRANS_IDLE &&
         PQpipelineStatus(conn_) == PQ_PIPELINE_OFF;
}

void Connection::reset() noexcept {
  if (conn_ == nullptr) return;
  // A pipeline left unfinished (a lost connection) cannot be ended cleanly: start a new connection.
  if (PQstatus(conn_) != CONNECTION_OK || PQpipelineStatus(conn_) != PQ_PIPELINE_OFF) {
    PQreset(conn_);
    prepared_.clear();  // a new session holds none of the old one's prepared statements
  } else if (PQtransactionStatus(conn_) != PQTRANS_IDLE) {
    // A transaction left open by an error path: end it so the next user starts clean.
    PGresult* r = PQexec(conn_, "ROLLBACK");
    if (r != nullptr) PQclear(r);
  }
}

Pool::Lease::~Lease() {
  if (conn_ != nullptr) pool_->give_back(std::move(conn_));
}

Result<std::unique_ptr<Pool>> Pool::open(const std::string& url, int size) {
  std::unique_ptr<Pool> pool(new Pool());
  for (int i = 0; i < std::max(1, size); ++i) {
    auto conn = Connection::open(url);
    if (!conn) return std::unexpected(conn.error());
    pool->idle_.push_back(std::make_unique<Connection>(std::move(*conn)));
  }
  return pool;
}

Pool::Lease Pool::acquire() {
  std::unique_lock lock(mutex_);
  available_.wait(lock, [&] { return !idle_.empty(); });
  std::unique_ptr<Connection> conn = std::move(idle_.back());
  idle_.pop_back();
  return Lease(*this, std::move(conn));
}

void Pool::give_back(std::unique_ptr<Connection> conn) noexcept {
  if (!conn->healthy()) conn->reset();
  {
    std::lock_guard lock(mutex_);
    idle_.push_back(std::move(conn));
  }
  available_.notify_one();
}

namespace {

bool name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

}  // namespace

Query::Query(Connection& conn, std::string_view sql) : conn_(conn) {
  sql_.reserve(sql.size());
  std::size_t i = 0;
  while (i < sql.size()) {
    const char c = sql[i];
    if (c == '\'') {  // a literal: copied as it is, '' included
      const std::size_t end = sql.find('\'', i + 1);
      const std::size_t stop = end == std::string_view::npos ? sql.size() : end + 1;
      sql_.append(sql.substr(i, stop - i));
      i = stop;
      continue;
    }
    if (c == ':' && i + 1 < sql.size() && sql[i + 1] == ':') {  // a cast
      sql_.append("::");
      i += 2;
      continue;
    }
    if (c == ':' && i + 1 < sql.size() &&
        (std::isalpha(static_cast<unsigned char>(sql[i + 1])) != 0 || sql[i + 1] == '_')) {
      std::size_t j = i + 1;
      while (j < sql.size() && name_char(sql[j])) ++j;
      const std::string name(sql.substr(i + 1, j - i - 1));
      auto it = std::find(names_.begin(), names_.end(), name);
      if (it == names_.end()) {
        names_.push_back(name);
        it = names_.end() - 1;
      }
      sql_.append(fmt::format("${}", (it - names_.begin()) + 1));
      i = j;
      continue;
    }
    sql_.push_back(c);
    ++i;
  }
  values_.resize(names_.size());
}

int Query::index(std::string_view name) {
  if (name.starts_with(':')) name.remove_prefix(1);
  const auto it = std::find(names_.begin(), names_.end(), name);
  if (it == names_.end()) {
    unknown_ = std::string(name);
    return -1;
  }
  return static_cast<int>(it - names_.begin());
}

Result<Statement> Query::statement() const {
  if (!unknown_.empty()) {
    return fail(ErrorKind::kInternal, fmt::format("store: the statement has no parameter :{}", unknown_));
  }
  Statement out{sql_, {}, prepared_};
  for (std::size_t n = 0; n < values_.size(); ++n) {
    if (!values_[n]) {
      return fail(ErrorKind::kInternal, fmt::format("store: parameter :{} is not bound", names_[n]));
    }
    out.params.append(*values_[n]);
  }
  return out;
}

Result<Rows> Query::run() {
  auto s = statement();
  if (!s) return std::unexpected(s.error());
  return prepared_ ? conn_.exec_prepared(s->sql, s->params) : conn_.exec(s->sql, s->params);
}

Result<void> in_transaction(Pool& pool, const std::function<Result<void>(Connection&)>& work) {
  Pool::Lease conn = pool.acquire();
  Result<void> outcome;
  for (int attempt = 0; attempt < 3; ++attempt) {
    if (auto begun = conn->exec_script("BEGIN"); !begun) return begun;
    outcome = work(*conn);
    if (outcome) outcome = conn->exec_script("COMMIT");
    if (outcome) return outcome;
    (void)conn->exec_script("ROLLBACK");
    if (!retryable(outcome.error())) return outcome;
  }
  return outcome;
}

bool is_postgres_url(std::string_view db) noexcept {
  return db.starts_with("postgresql://") || db.starts_with("postgres://");
}

std::string redact_url(std::string_view url) {
  // postgresql://user:secret@host/db → postgresql://user:***@host/db
  const auto scheme = url.find("://");
  if (scheme == std::string_view::npos) return std::string(url);
  const auto at = url.find('@', scheme + 3);
  if (at == std::string_view::npos) return std::string(url);
  const auto colon = url.find(':', scheme + 3);
  if (colon == std::string_view::npos || colon > at) return std::string(url);
  return fmt::format("{}***{}", url.substr(0, colon + 1), url.substr(at));
}

}  // namespace longread::storage::postgres
