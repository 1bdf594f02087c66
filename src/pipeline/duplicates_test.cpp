// Near-duplicate decisions across crawler processes: two DuplicateIndex objects on two stores over one
// SQLite file stand for two crawlers, each having read the index before the other saved anything. The
// earliest copy stays the original whichever process saves first, and a later copy saved by the other
// process is marked a duplicate of it.
#include "pipeline/duplicates.h"

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "testing/store_test.h"

namespace longread::pipeline {
namespace {

constexpr std::uint64_t kPost = 0x9E3779B97F4A7C15ULL;

class DuplicatesAcrossProcessesTest : public longread::testing::TwoProcessStoreTest {
 protected:
  DuplicatesAcrossProcessesTest() : TwoProcessStoreTest("longread-duplicates-processes") {}
  void SetUp() override {
    TwoProcessStoreTest::SetUp();
    for (const char* name : {"a", "b", "c"}) blogs_.push_back(add_blog(name, "programming"));
  }

  storage::CrawlRecord record(std::int64_t blog, const std::string& guid, std::uint64_t simhash,
                              int days_ago) {
    model::Article a;
    a.guid = guid;
    a.title = "Lock-free queues " + guid;
    a.link = "https://example.org/" + guid;
    a.published = now_ - std::chrono::hours(24 * days_ago);
    a.first_seen = now_;
    a.text = "text of " + guid;
    a.word_count = 1200;
    a.simhash = simhash;
    return {.blog_id = blog, .attempted_at = now_, .success = true, .status = "ok", .articles = {a}};
  }
  static void save(DuplicateIndex& index, storage::CrawlRecord r) {
    std::vector<storage::CrawlRecord> group{std::move(r)};
    for (const auto& result : index.save_all(group)) ASSERT_TRUE(result) << result.error().message;
  }
  std::map<std::string, model::Article> articles() {
    std::map<std::string, model::Article> out;
    for (const auto blog : blogs_) {
      const auto keys = store_->article_keys(blog);
      EXPECT_TRUE(keys);
      if (!keys) continue;
      for (const auto& key : *keys) {
        const auto view = store_->article(key.id);
        if (view && *view) out[key.guid] = (*view)->article;
      }
    }
    return out;
  }

  const TimePoint now_ = now_seconds();
  std::vector<std::int64_t> blogs_;
};

TEST_P(DuplicatesAcrossProcessesTest, ALaterCopySavedByAnotherProcessIsMarked) {
  DuplicateIndex first(*store_, *store_, "crawler-1");
  DuplicateIndex second(*other_, *other_, "crawler-2");  // read before the first saved anything
  save(first, record(blogs_[0], "original", kPost, 3));
  save(second, record(blogs_[1], "copy", kPost ^ 0b101, 1));
  auto stored = articles();
  EXPECT_FALSE(stored["original"].junk) << stored["original"].junk_reason;
  EXPECT_EQ(stored["copy"].duplicate_of, stored["original"].id);
  EXPECT_TRUE(stored["copy"].junk);
}

TEST_P(DuplicatesAcrossProcessesTest, AnEarlierCopySavedByAnotherProcessBecomesTheOriginal) {
  DuplicateIndex first(*store_, *store_, "crawler-1");
  DuplicateIndex second(*other_, *other_, "crawler-2");
  save(first, record(blogs_[0], "later", kPost, 1));
  save(second, record(blogs_[1], "earlier", kPost ^ 0b11, 5));
  auto stored = articles();
  EXPECT_FALSE(stored["earlier"].junk) << stored["earlier"].junk_reason;
  EXPECT_EQ(stored["later"].duplicate_of, stored["earlier"].id);
  // And the first process, catching up, counts the earlier one too: a third copy is its duplicate.
  save(first, record(blogs_[2], "third", kPost ^ 0b1, 0));
  stored = articles();
  EXPECT_EQ(stored["third"].duplicate_of, stored["earlier"].id);
}

TEST_P(DuplicatesAcrossProcessesTest, TheDatabaseLockIsGivenBackAfterEachSave) {
  DuplicateIndex first(*store_, *store_, "crawler-1");
  save(first, record(blogs_[0], "one", kPost, 1));
  const TimePoint now = now_seconds();
  auto taken = other_->try_lock("near-duplicates", "crawler-2", now, now + std::chrono::minutes(2));
  ASSERT_TRUE(taken) << taken.error().message;
  EXPECT_TRUE(*taken);
}

LONGREAD_STORE_BACKENDS(DuplicatesAcrossProcessesTest);

}  // namespace
}  // namespace longread::pipeline
