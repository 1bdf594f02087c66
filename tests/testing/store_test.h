// A test with a real store in a fresh directory (SQLite) or a fresh database (PostgreSQL, on the test server
// of testing/postgres_server.h), which it can close and open again (to check what survives a restart).
// Shared by the storage tests that need nothing else in their fixture.
//
// StoreSuite runs a fixture's tests on both backends: derive from it, write TEST_P, and say
// LONGREAD_STORE_BACKENDS(Fixture) once. A test of one backend's own behaviour derives from StoreTest, which
// is SQLite unless told otherwise.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "core/time.h"
#include "storage/store.h"
#include "testing/postgres_database.h"
#include "testing/test_dir.h"

namespace longread::testing {

enum class Backend { kSqlite, kPostgres };

// How gtest (and so ctest's list) prints a backend: "PostgreSQL" rather than its bytes.
inline void PrintTo(Backend backend, std::ostream* os) {
  *os << (backend == Backend::kSqlite ? "SQLite" : "PostgreSQL");
}

inline std::string backend_name(const ::testing::TestParamInfo<Backend>& info) {
  return info.param == Backend::kSqlite ? "SQLite" : "PostgreSQL";
}

class StoreTest : public ::testing::Test {
 protected:
  explicit StoreTest(std::string prefix, Backend backend = Backend::kSqlite)
      : backend_(backend), prefix_(std::move(prefix)) {}

  void SetUp() override {
    dir_ = fresh_test_dir(prefix_);
    std::filesystem::create_directories(dir_);
    if (backend_ == Backend::kPostgres) {
      postgres_ = std::make_unique<PostgresDatabase>();
      ASSERT_FALSE(postgres_->url().empty());
    }
    reopen();
  }
  void TearDown() override {
    store_.reset();
    postgres_.reset();
    std::filesystem::remove_all(dir_);
  }
  // What open_store is given: the SQLite file, or the PostgreSQL database's URL.
  [[nodiscard]] std::string db() const {
    return backend_ == Backend::kPostgres ? postgres_->url() : (dir_ / "db.sqlite").string();
  }
  // Closes the store (checkpointing SQLite's WAL) and opens the same database again.
  void reopen() {
    store_.reset();
    auto store = storage::open_store(db());
    ASSERT_TRUE(store) << store.error().message;
    store_ = std::move(*store);
  }

  // A followed blog at https://<name>.example/ (its feed at /feed), filed under `category`; 0 (and a
  // failure) when the store refuses it.
  std::int64_t add_blog(const std::string& name, const std::string& category = "") {
    auto id = store_->upsert_blog({.feed_url = "https://" + name + ".example/feed",
                                   .site_url = "https://" + name + ".example/",
                                   .title = name,
                                   .category = category});
    EXPECT_TRUE(id) << id.error().message;
    return id.value_or(0);
  }
  // Saves `articles` as one successful crawl of `blog` at `when`, as the crawler does; the ids of the
  // blog's stored articles by guid (empty, and a failure, when the store refuses the crawl).
  std::map<std::string, std::int64_t> save_articles(std::int64_t blog, std::vector<model::Article> articles,
                                                    TimePoint when) {
    storage::CrawlRecord record{.blog_id = blog, .attempted_at = when, .success = true, .status = "ok"};
    record.articles = std::move(articles);
    std::map<std::string, std::int64_t> ids;
    const auto saved = store_->save_crawl(record);
    EXPECT_TRUE(saved) << saved.error().message;
    const auto keys = store_->article_keys(blog);
    EXPECT_TRUE(keys) << keys.error().message;
    if (!saved || !keys) return ids;
    for (const auto& key : *keys) ids[key.guid] = key.id;
    return ids;
  }

  Backend backend_;
  std::filesystem::path dir_;
  std::unique_ptr<PostgresDatabase> postgres_;  // the test's own database, on PostgreSQL
  std::unique_ptr<storage::Store> store_;

 private:
  std::string prefix_;
};

// A StoreTest whose tests run on each backend (TEST_P, with LONGREAD_STORE_BACKENDS(Fixture)).
class StoreSuite : public StoreTest, public ::testing::WithParamInterface<Backend> {
 protected:
  explicit StoreSuite(std::string prefix) : StoreTest(std::move(prefix), GetParam()) {}
};

#define LONGREAD_STORE_BACKENDS(Fixture)                                                                 \
  INSTANTIATE_TEST_SUITE_P(                                                                              \
      Backends, Fixture,                                                                                 \
      ::testing::Values(::longread::testing::Backend::kSqlite, ::longread::testing::Backend::kPostgres), \
      ::longread::testing::backend_name)

// A StoreSuite with a second store open on the same database: what another process over the database has
// (another crawler, another web process). Both see each other's committed writes.
class TwoProcessStoreTest : public StoreSuite {
 protected:
  using StoreSuite::StoreSuite;

  void SetUp() override {
    StoreSuite::SetUp();
    if (HasFatalFailure()) return;
    auto other = storage::open_store(db());
    ASSERT_TRUE(other) << other.error().message;
    other_ = std::move(*other);
  }
  void TearDown() override {
    other_.reset();
    StoreSuite::TearDown();
  }

  std::unique_ptr<storage::Store> other_;
};

}  // namespace longread::testing
