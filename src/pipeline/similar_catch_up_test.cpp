// The similar-articles catch-up on each backend: it indexes the queue oldest first a batch at a time, drops
// what was hidden since, stops between batches when told, and runs in one process at a time: two stores
// over one database stand for two processes, and the lock's lease is what lets a dead holder's work be
// taken over.
#include "pipeline/similar_catch_up.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "pipeline/similar.h"
#include "testing/ring_buffer_article.h"
#include "testing/store_test.h"

namespace longread::pipeline {
namespace {

class SimilarCatchUpTest : public longread::testing::TwoProcessStoreTest {
 protected:
  SimilarCatchUpTest() : TwoProcessStoreTest("longread-similar-catch-up") {}

  // `n` articles of a new blog, queued as a crawl queues a back catalogue; ids oldest first.
  std::vector<std::int64_t> queue_articles(const std::string& blog_name, int n) {
    const auto blog = add_blog(blog_name, "programming");
    storage::CrawlRecord r{.blog_id = blog, .attempted_at = now_, .success = true, .status = "ok"};
    for (int i = 0; i < n; ++i) {
      r.articles.push_back(longread::testing::ring_buffer_article(
          blog_name, blog, i, now_ - std::chrono::hours(24 * (400 - i)), now_,
          "ring buffer lock-free producer consumer cache line atomic wraparound "));
    }
    EXPECT_TRUE(store_->save_crawl(r));
    std::vector<std::int64_t> ids;
    const auto keys = store_->article_keys(blog).value();
    for (const auto& key : keys) ids.push_back(key.id);
    std::sort(ids.begin(), ids.end());
    EXPECT_TRUE(store_->queue_similar(ids));
    return ids;
  }
  CatchUpOptions options(const std::string& owner, int batch = 2) {
    return {.batch = batch, .owner = owner, .lease = std::chrono::seconds{300}, .clock = [this] {
              return clock_;
            }};
  }
  std::int64_t queued() { return store_->similar_queue_size().value(); }

  const TimePoint now_ = now_seconds();
  TimePoint clock_ = now_;
};

TEST_P(SimilarCatchUpTest, IndexesTheQueueABatchAtATimeAndStopsBetweenBatchesWhenTold) {
  queue_articles("a", 3);
  const auto b = queue_articles("b", 2);
  SimilarIndexer indexer(*store_);
  int asked = 0;
  auto done = catch_up_similar(indexer, *store_, *store_, options("crawler-1"), [&] { return asked++ < 1; });
  ASSERT_TRUE(done) << done.error().message;
  EXPECT_EQ(done->indexed, 2) << "one batch of two";
  EXPECT_FALSE(done->finished);
  EXPECT_EQ(queued(), 3);
  const std::vector<std::uint32_t> none;
  EXPECT_EQ(store_->similar_term_frequencies(none)->documents, 2) << "its term counts written as it returned";
  done = catch_up_similar(indexer, *store_, *store_, options("crawler-1"));
  ASSERT_TRUE(done) << done.error().message;
  EXPECT_EQ(done->indexed, 3);
  EXPECT_TRUE(done->finished);
  EXPECT_EQ(queued(), 0);
  // Indexed as at crawl time: b's newest finds the other blog's posts on the same subject.
  EXPECT_FALSE(store_->similar_articles(b.back(), 5).value().empty());
}

TEST_P(SimilarCatchUpTest, AnArticleHiddenSinceItWasQueuedIsDroppedUnindexed) {
  const auto ids = queue_articles("a", 3);
  ASSERT_TRUE(store_->set_keep_override(ids[1], false));
  SimilarIndexer indexer(*store_);
  auto done = catch_up_similar(indexer, *store_, *store_, options("crawler-1", 10));
  ASSERT_TRUE(done) << done.error().message;
  EXPECT_EQ(done->indexed, 2);
  EXPECT_EQ(done->dropped, 1);
  EXPECT_EQ(queued(), 0);
}

TEST_P(SimilarCatchUpTest, OneProcessAtATimeAndADeadHoldersLeaseLapses) {
  queue_articles("a", 3);
  // Another process took the catch-up and died (kill -9) without giving it back.
  ASSERT_TRUE(
      other_->try_lock(kSimilarCatchUpLock, "crawler-2", now_, now_ + std::chrono::seconds{300}).value());
  SimilarIndexer indexer(*store_);
  auto done = catch_up_similar(indexer, *store_, *store_, options("crawler-1"));
  ASSERT_TRUE(done) << done.error().message;
  EXPECT_TRUE(done->busy);
  EXPECT_EQ(done->indexed, 0);
  EXPECT_EQ(queued(), 3) << "nothing was taken while the other held it";
  clock_ = now_ + std::chrono::seconds{301};  // its lease ran out
  done = catch_up_similar(indexer, *store_, *store_, options("crawler-1"));
  ASSERT_TRUE(done) << done.error().message;
  EXPECT_FALSE(done->busy);
  EXPECT_EQ(done->indexed, 3);
  EXPECT_EQ(queued(), 0);
  // Given back at the end: the other process may take it at once.
  EXPECT_TRUE(
      other_->try_lock(kSimilarCatchUpLock, "crawler-2", clock_, clock_ + std::chrono::seconds{300}).value());
}

LONGREAD_STORE_BACKENDS(SimilarCatchUpTest);

}  // namespace
}  // namespace longread::pipeline
