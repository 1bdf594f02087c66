// A fresh database on the test PostgreSQL (testing/postgres_server.h) for one test.
#pragma once

#include <gtest/gtest.h>

#include <atomic>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "storage/postgres/pg.h"
#include "testing/postgres_server.h"

namespace longread::testing {

// A fresh, empty database on the shared server, for one test; dropped when this goes. `url` is "" (and the
// test is failed, not skipped) when the server cannot be started: the PostgreSQL suite is part of every run.
class PostgresDatabase {
 public:
  PostgresDatabase() {
    server_ = shared_postgres();
    if (!server_.error.empty()) {
      ADD_FAILURE() << "no test PostgreSQL: " << server_.error;
      return;
    }
    static std::atomic<int> counter{0};
    name_ = fmt::format("longread_test_{}_{}", getpid(), counter++);
    auto admin = storage::postgres::Connection::open(server_.url("postgres"));
    if (!admin) {
      ADD_FAILURE() << admin.error().message;
      return;
    }
    (void)admin->exec_script("DROP DATABASE IF EXISTS " + name_);
    if (auto r = admin->exec_script("CREATE DATABASE " + name_); !r) {
      ADD_FAILURE() << r.error().message;
      return;
    }
    url_ = server_.url(name_);
  }
  PostgresDatabase(const PostgresDatabase&) = delete;
  PostgresDatabase& operator=(const PostgresDatabase&) = delete;
  ~PostgresDatabase() {
    if (url_.empty()) return;
    if (auto admin = storage::postgres::Connection::open(server_.url("postgres"))) {
      (void)admin->exec_script("DROP DATABASE IF EXISTS " + name_ + " WITH (FORCE)");
    }
  }

  [[nodiscard]] const std::string& url() const noexcept { return url_; }
  [[nodiscard]] const PostgresServer& server() const noexcept { return server_; }

 private:
  PostgresServer server_;
  std::string name_;
  std::string url_;
};

// One column (the first unless told) of each row `sql` gives, as text ("NULL" for NULL), run on a connection
// of its own to `url`; empty, and the test failed, when the server refuses it.
inline std::vector<std::string> query_column(const std::string& url, const std::string& sql, int column = 0) {
  std::vector<std::string> out;
  auto conn = storage::postgres::Connection::open(url);
  if (!conn) {
    ADD_FAILURE() << conn.error().message;
    return out;
  }
  auto rows = conn->exec(sql);
  if (!rows) {
    ADD_FAILURE() << rows.error().message;
    return out;
  }
  for (int r = 0; r < rows->size(); ++r)
    out.push_back(rows->null(r, column) ? "NULL" : rows->string(r, column));
  return out;
}

}  // namespace longread::testing
