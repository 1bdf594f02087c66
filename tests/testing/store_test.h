// A test with a real SQLite store in a fresh directory, which it can close and open again (to check what
// survives a restart). Shared by the storage tests that need nothing else in their fixture.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/time.h"
#include "storage/store.h"
#include "testing/test_dir.h"

namespace longread::testing {

class StoreTest : public ::testing::Test {
 protected:
  explicit StoreTest(std::string prefix) : prefix_(std::move(prefix)) {}

  void SetUp() override {
    dir_ = fresh_test_dir(prefix_);
    std::filesystem::create_directories(dir_);
    reopen();
  }
  void TearDown() override {
    store_.reset();
    std::filesystem::remove_all(dir_);
  }
  // Closes the store (checkpointing its WAL) and opens the same file again.
  void reopen() {
    store_.reset();
    auto store = storage::open_sqlite_store((dir_ / "db.sqlite").string());
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

  std::filesystem::path dir_;
  std::unique_ptr<storage::Store> store_;

 private:
  std::string prefix_;
};

// A StoreTest with a second store open on the same file: what another process over the database has
// (another crawler, another web process). Both see each other's committed writes.
class TwoProcessStoreTest : public StoreTest {
 protected:
  using StoreTest::StoreTest;

  void SetUp() override {
    StoreTest::SetUp();
    auto other = storage::open_sqlite_store((dir_ / "db.sqlite").string());
    ASSERT_TRUE(other) << other.error().message;
    other_ = std::move(*other);
  }
  void TearDown() override {
    other_.reset();
    StoreTest::TearDown();
  }

  std::unique_ptr<storage::Store> other_;
};

}  // namespace longread::testing
