// Blogs claimed by crawler processes (migration 0030) over real SQLite files, two stores on one file
// standing for two processes: a claim hands each due blog to one owner, in due order and at most `limit`;
// claimed blogs are not due for anyone else until the poll is recorded, the owner gives them back, or the
// lease lapses.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "storage/store.h"
#include "testing/store_test.h"

namespace longread::storage {
namespace {

using std::chrono::minutes;

class BlogClaimsStoreTest : public longread::testing::TwoProcessStoreTest {
 protected:
  BlogClaimsStoreTest() : TwoProcessStoreTest("longread-blog-claims") {}

  void SetUp() override {
    TwoProcessStoreTest::SetUp();
    for (int i = 0; i < 6; ++i) ids_.push_back(add_blog("blog" + std::to_string(i)));
  }

  static std::vector<std::int64_t> ids_of(const Result<std::vector<model::Blog>>& blogs) {
    EXPECT_TRUE(blogs) << blogs.error().message;
    std::vector<std::int64_t> out;
    if (blogs) {
      for (const auto& b : *blogs) out.push_back(b.id);
    }
    std::sort(out.begin(), out.end());
    return out;
  }

  const TimePoint now_ = from_unix(1'700'000'000);
  std::vector<std::int64_t> ids_;
};

TEST_P(BlogClaimsStoreTest, EachDueBlogGoesToOneCrawler) {
  const auto first = ids_of(store_->claim_due_blogs("a:1:1", now_, now_ + minutes(60), 4));
  ASSERT_EQ(first, (std::vector<std::int64_t>{ids_[0], ids_[1], ids_[2], ids_[3]}));  // never polled: by id
  const auto second = ids_of(other_->claim_due_blogs("b:2:2", now_, now_ + minutes(60), 4));
  EXPECT_EQ(second, (std::vector<std::int64_t>{ids_[4], ids_[5]}));
  EXPECT_TRUE(ids_of(store_->claim_due_blogs("c:3:3", now_, now_ + minutes(60), 0)).empty());
  EXPECT_TRUE(ids_of(store_->due_blogs(now_)).empty());
}

TEST_P(BlogClaimsStoreTest, RecordingAPollEndsTheClaimAndReleaseGivesBackTheRest) {
  ASSERT_EQ(ids_of(store_->claim_due_blogs("a:1:1", now_, now_ + minutes(60), 0)).size(), 6u);
  // Blog 0 polled and recorded (due again in an hour); blogs 1-5 still held.
  ASSERT_TRUE(store_->save_crawl({.blog_id = ids_[0],
                                  .attempted_at = now_,
                                  .success = true,
                                  .status = "ok",
                                  .next_due_at = now_ + minutes(60)}));
  EXPECT_TRUE(ids_of(other_->due_blogs(now_)).empty());
  ASSERT_TRUE(store_->release_blog_claims("a:1:1"));
  // The five that were not recorded are due at once; the recorded one at its own time.
  EXPECT_EQ(ids_of(other_->claim_due_blogs("b:2:2", now_, now_ + minutes(120), 0)),
            (std::vector<std::int64_t>{ids_[1], ids_[2], ids_[3], ids_[4], ids_[5]}));
  EXPECT_EQ(ids_of(other_->claim_due_blogs("c:3:3", now_ + minutes(61), now_ + minutes(120), 0)),
            (std::vector<std::int64_t>{ids_[0]}));
  // Releasing someone else's claims is a no-op: "a" holds nothing now, "b" still holds its five.
  ASSERT_TRUE(store_->release_blog_claims("a:1:1"));
  EXPECT_TRUE(ids_of(store_->due_blogs(now_ + minutes(1))).empty());
}

TEST_P(BlogClaimsStoreTest, AClaimWhoseCrawlerDiedLapsesAndIsTakenOver) {
  ASSERT_EQ(ids_of(store_->claim_due_blogs("dead:1:1", now_, now_ + minutes(10), 0)).size(), 6u);
  // The owner never records nor releases (kill -9). Before the lease ends nobody else gets the blogs...
  EXPECT_TRUE(ids_of(other_->claim_due_blogs("b:2:2", now_ + minutes(9), now_ + minutes(70), 0)).empty());
  // ...and once it has, another crawler takes them over.
  EXPECT_EQ(ids_of(other_->claim_due_blogs("b:2:2", now_ + minutes(10), now_ + minutes(70), 0)).size(), 6u);
}

TEST_P(BlogClaimsStoreTest, PausedAndQuarantinedBlogsAreNeverClaimed) {
  BlogEdit pause;
  pause.paused = true;
  ASSERT_TRUE(store_->edit_blog(ids_[1], pause));
  const auto claimed = ids_of(store_->claim_due_blogs("a:1:1", now_, now_ + minutes(60), 0));
  EXPECT_EQ(std::count(claimed.begin(), claimed.end(), ids_[1]), 0);
  EXPECT_EQ(claimed.size(), 5u);
}

LONGREAD_STORE_BACKENDS(BlogClaimsStoreTest);

}  // namespace
}  // namespace longread::storage
