// Move-only RAII wrappers for libpq (PGconn*, PGresult*), parameters, a connection pool and
// transactions: the small layer every PostgreSQL role implementation runs its SQL through.
//
// Values go to the server as text and come back as text: the statement's own types decide how the server
// reads a parameter (`$1::bigint` where it cannot infer one), which keeps the C++ side free of OIDs and byte
// orders. The exception is a value wrapped in Binary, sent in its type's binary form: the bytes of a bytea,
// an int4[] or a tsvector as search_vectors.h builds them. Those are the crawl's largest values, which the
// server would otherwise decode from hex or parse, sort and deduplicate from a literal for every article. The
// statements a crawl runs for every blog are prepared once per connection (exec_prepared), so the server does
// not parse and plan them again for each blog; this needs a connection of its own for the session (no pooler
// in transaction mode between longread and the server).
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/error.h"
#include "core/time.h"

struct pg_conn;
struct pg_result;

namespace longread::storage::postgres {

// A parameter sent in its type's binary form (PostgreSQL's receive function for the type reads it): the
// raw bytes of a bytea, or a value an encoder of this backend made for its type (search_vectors.h).
struct Binary {
  std::string bytes;
};

// The parameters of one statement, $1 … $n in the order added. Each is kept as text (or NULL), or as the
// binary form of its type (Binary).
class Params {
 public:
  Params() = default;
  template <typename... Ts>
  explicit Params(const Ts&... values) {
    (add(values), ...);
  }

  Params& add(std::int64_t value);
  Params& add(int value) { return add(static_cast<std::int64_t>(value)); }
  Params& add(double value);
  Params& add(bool value) { return add(static_cast<std::int64_t>(value ? 1 : 0)); }
  Params& add(std::string_view value);
  Params& add(const std::string& value) { return add(std::string_view(value)); }
  Params& add(const char* value) { return add(std::string_view(value)); }
  Params& add(TimePoint value) { return add(to_unix(value)); }
  Params& add(std::nullopt_t);
  Params& add(Binary value);
  template <typename T>
  Params& add(const std::optional<T>& value) {
    return value ? add(*value) : add(std::nullopt);
  }

  // Appends every value of `other`, after this one's.
  Params& append(const Params& other) {
    values_.insert(values_.end(), other.values_.begin(), other.values_.end());
    binary_.insert(binary_.end(), other.binary_.begin(), other.binary_.end());
    return *this;
  }

  [[nodiscard]] int size() const noexcept { return static_cast<int>(values_.size()); }
  // PQexecParams' paramValues, paramLengths and paramFormats, pointing into this object and valid while it
  // lives unchanged. The formats are null when every value is text, which libpq reads as all text.
  struct Wire {
    std::vector<const char*> values;
    std::vector<int> lengths;
    std::vector<int> formats;
    [[nodiscard]] const char* const* value_data() const { return values.empty() ? nullptr : values.data(); }
    [[nodiscard]] const int* length_data() const { return formats.empty() ? nullptr : lengths.data(); }
    [[nodiscard]] const int* format_data() const { return formats.empty() ? nullptr : formats.data(); }
  };
  [[nodiscard]] Wire wire() const;

 private:
  std::vector<std::optional<std::string>> values_;
  std::vector<bool> binary_;  // binary_[i]: values_[i] is in its type's binary form
};

// One statement with $n placeholders and its parameters, to send in a pipeline (Connection::exec_pipeline).
// `prepared`: run as the connection's prepared statement (Connection::exec_prepared).
struct Statement {
  std::string sql;
  Params params;
  bool prepared = false;
};

// The rows a statement returned. Columns are read by index, as text converted on the way out.
class Rows {
 public:
  Rows() = default;
  explicit Rows(pg_result* result) noexcept : result_(result) {}
  Rows(Rows&& other) noexcept;
  Rows& operator=(Rows&& other) noexcept;
  Rows(const Rows&) = delete;
  Rows& operator=(const Rows&) = delete;
  ~Rows();

  [[nodiscard]] int size() const noexcept;
  [[nodiscard]] bool empty() const noexcept { return size() == 0; }
  // Rows changed by an INSERT, UPDATE or DELETE (PQcmdTuples).
  [[nodiscard]] std::int64_t affected() const noexcept;

  [[nodiscard]] bool null(int row, int col) const noexcept;
  [[nodiscard]] std::string_view text(int row, int col) const noexcept;  // "" for NULL
  [[nodiscard]] std::string string(int row, int col) const { return std::string(text(row, col)); }
  // A bytea column's bytes (its text form, "\x" and hex, decoded by libpq's PQunescapeBytea); "" for NULL.
  [[nodiscard]] std::string bytes(int row, int col) const;
  [[nodiscard]] std::int64_t int64(int row, int col) const noexcept;  // 0 for NULL
  [[nodiscard]] int int32(int row, int col) const noexcept { return static_cast<int>(int64(row, col)); }
  [[nodiscard]] double real(int row, int col) const noexcept;  // 0 for NULL
  [[nodiscard]] bool flag(int row, int col) const noexcept { return int64(row, col) != 0; }
  [[nodiscard]] std::optional<std::int64_t> optional_int64(int row, int col) const noexcept;
  [[nodiscard]] TimePoint time(int row, int col) const noexcept { return from_unix(int64(row, col)); }
  [[nodiscard]] std::optional<TimePoint> optional_time(int row, int col) const noexcept;

 private:
  pg_result* result_ = nullptr;
};

// One connection to the server. Not thread-safe: a Pool hands each to one thread at a time.
class Connection {
 public:
  // Connects to `url` (a libpq connection URI, postgresql://…). The error names the server's reason.
  static Result<Connection> open(const std::string& url);

  Connection(Connection&& other) noexcept;
  Connection& operator=(Connection&& other) noexcept;
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;
  ~Connection();

  // Runs one statement. A unique or foreign-key violation is kConflict, anything else the server refused
  // kStorage; the message starts "store: " and carries the server's words.
  Result<Rows> exec(std::string_view sql, const Params& params = {});
  // The same, as a prepared statement of this connection: the server parses and analyzes `sql` the first
  // time this connection runs it and keeps it, and after five runs may keep one plan for every value
  // (PostgreSQL's plan_cache_mode = auto). Only for statements whose best plan does not depend on their
  // values: a search slice, whose plan must see its id bounds to pick the newest articles' index, is not.
  // At most kMaxPrepared statements are kept; past that they are all dropped and prepared again as used.
  Result<Rows> exec_prepared(std::string_view sql, const Params& params = {});
  static constexpr std::size_t kMaxPrepared = 200;
  // Statements this connection holds prepared (tests).
  [[nodiscard]] std::size_t prepared_count() const noexcept { return prepared_.size(); }
  // Sends `statements` in one round trip (libpq pipeline mode) and runs them in order; stops at the first
  // one the server refuses and returns its error, as exec would. Their rows are not read, so use it for
  // statements whose results are small (UPDATEs): a statement returning many rows could fill the socket
  // while this side is still sending. `affected`, when given, gets each statement's count of rows changed
  // (PQcmdTuples), in order.
  Result<void> exec_pipeline(std::span<const Statement> statements,
                             std::vector<std::int64_t>* affected = nullptr);
  // Runs a script of several statements (no parameters): migrations.
  Result<void> exec_script(std::string_view sql);
  // Starts listening on `channel` (LISTEN): notifications other sessions raise on it arrive once their
  // transaction commits.
  Result<void> listen(std::string_view channel);
  // Reads what the server sent without waiting and returns how many notifications had arrived; an error
  // when the connection is lost (the caller then resets it and listens again).
  Result<int> drain_notifications();
  // True when the connection is still usable (the server did not drop it).
  [[nodiscard]] bool healthy() const noexcept;
  // Reconnects a connection the server dropped.
  void reset() noexcept;

 private:
  explicit Connection(pg_conn* conn) noexcept : conn_(conn) {}
  // The server's name of `sql` prepared on this connection, preparing it first if needed. At the cap, all
  // are dropped first, or, without `may_drop`, "" is returned (run it unprepared).
  Result<std::string> prepared_name(const std::string& sql, int params, bool may_drop = true);
  // A statement's result as rows, or the server's error (the result then cleared).
  Result<Rows> rows_of(pg_result* result);

  pg_conn* conn_ = nullptr;
  std::unordered_map<std::string, std::string> prepared_;  // SQL → name of its prepared statement
  std::uint64_t next_prepared_ = 0;
};

// A fixed set of connections shared by threads. `acquire` waits for a free one.
class Pool {
 public:
  class Lease {
   public:
    Lease(Pool& pool, std::unique_ptr<Connection> conn) noexcept : pool_(&pool), conn_(std::move(conn)) {}
    Lease(Lease&&) noexcept = default;
    Lease& operator=(Lease&&) noexcept = delete;
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    ~Lease();
    Connection& operator*() const noexcept { return *conn_; }
    Connection* operator->() const noexcept { return conn_.get(); }

   private:
    Pool* pool_;
    std::unique_ptr<Connection> conn_;
  };

  // Opens `size` connections to `url` at once, so a bad URL or a refused login fails here.
  static Result<std::unique_ptr<Pool>> open(const std::string& url, int size);

  Lease acquire();
  // Runs `work` on one connection (a single statement, or several without a transaction).
  template <typename F>
  auto with(F&& work) {
    Lease lease = acquire();
    return work(*lease);
  }

 private:
  Pool() = default;
  void give_back(std::unique_ptr<Connection> conn) noexcept;

  std::mutex mutex_;
  std::condition_variable available_;
  std::vector<std::unique_ptr<Connection>> idle_;
};

// A statement with named parameters (":feed_url"), the way the SQLite backend writes its SQL, so one
// statement reads alike in both backends. The names become $1 … $n (a name used twice is one parameter);
// "::type" casts and quoted literals are left alone. Bind every name, in any order, then run.
class Query {
 public:
  Query(Connection& conn, std::string_view sql);

  template <typename T>
  Query& bind(std::string_view name, const T& value) {
    const int i = index(name);
    if (i >= 0) {
      Params one;
      one.add(value);
      values_[static_cast<std::size_t>(i)] = std::move(one);
    }
    return *this;
  }
  // Runs the statement; an unbound or unknown name is an error (a bug), never a silent NULL.
  Result<Rows> run();
  // The statement as $n SQL and its parameters, to run later (in a pipeline); the same checks as run.
  [[nodiscard]] Result<Statement> statement() const;
  // Runs it as a prepared statement of the connection (Connection::exec_prepared), in run and in a
  // pipeline: for the statements a crawl runs for every blog, whose plan does not depend on the values.
  Query& prepared() noexcept {
    prepared_ = true;
    return *this;
  }

 private:
  [[nodiscard]] int index(std::string_view name);

  Connection& conn_;
  std::string sql_;                 // with $n
  std::vector<std::string> names_;  // names_[n - 1] is $n's name, without the colon
  std::vector<std::optional<Params>> values_;
  std::string unknown_;  // a name bound that the statement does not have
  bool prepared_ = false;
};

// Runs `work(conn)` between BEGIN and COMMIT on one pooled connection; rolls back when it returns an error.
// A deadlock or serialization failure (which PostgreSQL asks the client to retry) runs the whole
// transaction again, up to three times.
Result<void> in_transaction(Pool& pool, const std::function<Result<void>(Connection&)>& work);

// True for a "postgresql://" or "postgres://" connection URI: the `db` setting selects this backend.
bool is_postgres_url(std::string_view db) noexcept;

// `url` with any password replaced by "***", for logs and error messages.
std::string redact_url(std::string_view url);

}  // namespace longread::storage::postgres
