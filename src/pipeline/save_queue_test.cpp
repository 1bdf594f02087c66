// The save queue against a real SQLite store: records saved on the writer thread in the order blogs
// finish, each reported once with what its save did.
#include "pipeline/save_queue.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "pipeline/duplicates.h"
#include "pipeline/similar.h"
#include "testing/store_test.h"

namespace longread::pipeline {
namespace {

const TimePoint kNow = from_unix(1'717'243'200);  // 2024-06-01T12:00:00Z

class SaveQueueTest : public testing::StoreTest {
 protected:
  SaveQueueTest() : StoreTest("longread_save_queue") {}

  // One successful crawl of `blog` bringing one article, `guid`, whose text is `words`.
  static storage::CrawlRecord record(std::int64_t blog, const std::string& guid, const std::string& words) {
    model::Article a;
    a.guid = guid;
    a.title = "Title " + guid;
    a.link = "https://example.org/" + guid;
    a.content_html = "<p>" + words + "</p>";
    a.text = words;
    a.word_count = 4;
    a.content_hash = words;
    a.published = kNow - std::chrono::hours{1};
    storage::CrawlRecord r{.blog_id = blog, .attempted_at = kNow, .success = true, .status = "ok"};
    r.articles.push_back(std::move(a));
    return r;
  }
  static BlogResult result(std::int64_t blog) {
    BlogResult r;
    r.blog_id = blog;
    r.status = "ok";
    return r;
  }

  std::size_t stored(std::int64_t blog) {
    auto keys = store_->article_keys(blog);
    EXPECT_TRUE(keys) << keys.error().message;
    return keys ? keys->size() : 0;
  }

  std::mutex mutex_;
  std::vector<BlogResult> reported_;  // guarded by mutex_ (the writer thread adds to it)
};

TEST_F(SaveQueueTest, SavesInTheOrderBlogsFinishAndReportsEachOnce) {
  const auto a = add_blog("a");
  const auto b = add_blog("b");
  const auto c = add_blog("c");
  DuplicateIndex duplicates(*store_);
  {
    SaveQueue saves(duplicates, nullptr, [&](BlogResult& r) {
      std::lock_guard lock(mutex_);
      reported_.push_back(r);
    });
    const auto started = SaveQueue::Clock::now();
    saves.push(record(c, "c-1", "gamma words about caches"), result(c), started);
    saves.push(record(a, "a-1", "alpha words about queues"), result(a), started);
    saves.push(record(b, "b-1", "beta words about fences"), result(b), started);
    saves.wait_idle();
    std::lock_guard lock(mutex_);
    ASSERT_EQ(reported_.size(), 3u);
  }
  EXPECT_EQ(reported_[0].blog_id, c);
  EXPECT_EQ(reported_[1].blog_id, a);
  EXPECT_EQ(reported_[2].blog_id, b);
  for (const auto& r : reported_) {
    EXPECT_EQ(r.outcome, PollOutcome::kFetched) << r.blog_id;
    EXPECT_EQ(r.new_articles, 1) << r.blog_id;
    EXPECT_EQ(r.updated_articles, 0) << r.blog_id;
  }
  EXPECT_EQ(stored(a), 1u);
  EXPECT_EQ(stored(b), 1u);
  EXPECT_EQ(stored(c), 1u);
}

TEST_F(SaveQueueTest, AChangedArticleIsReportedAsUpdated) {
  const auto a = add_blog("a");
  DuplicateIndex duplicates(*store_);
  SaveQueue saves(duplicates, nullptr, [&](BlogResult& r) {
    std::lock_guard lock(mutex_);
    reported_.push_back(r);
  });
  saves.push(record(a, "a-1", "alpha words about queues"), result(a), SaveQueue::Clock::now());
  saves.wait_idle();  // the next poll of the blog: a later pass
  saves.push(record(a, "a-1", "alpha words about bounded queues"), result(a), SaveQueue::Clock::now());
  saves.wait_idle();
  std::lock_guard lock(mutex_);
  ASSERT_EQ(reported_.size(), 2u);
  EXPECT_EQ(reported_[0].new_articles, 1);
  EXPECT_EQ(reported_[1].new_articles, 0);
  EXPECT_EQ(reported_[1].updated_articles, 1) << reported_[1].status;
}

TEST_F(SaveQueueTest, ARecordTheStoreRefusesFailsThatBlogAloneAndSaysWhy) {
  const auto a = add_blog("a");
  const auto b = add_blog("b");
  const std::int64_t gone = b + 1000;  // no such blog
  DuplicateIndex duplicates(*store_);
  {
    SaveQueue saves(duplicates, nullptr, [&](BlogResult& r) {
      std::lock_guard lock(mutex_);
      reported_.push_back(r);
    });
    const auto started = SaveQueue::Clock::now();
    saves.push(record(a, "a-1", "alpha words about queues"), result(a), started);
    saves.push(record(gone, "x-1", "words of a blog that is gone"), result(gone), started);
    saves.push(record(b, "b-1", "beta words about fences"), result(b), started);
  }  // the queue saves what is queued before it goes
  ASSERT_EQ(reported_.size(), 3u);
  EXPECT_EQ(reported_[0].outcome, PollOutcome::kFetched);
  EXPECT_EQ(reported_[1].blog_id, gone);
  EXPECT_EQ(reported_[1].outcome, PollOutcome::kFailed);
  EXPECT_EQ(reported_[1].error_kind, ErrorKind::kNotFound);
  EXPECT_TRUE(reported_[1].status.starts_with("not saved: store: ")) << reported_[1].status;
  EXPECT_EQ(reported_[2].outcome, PollOutcome::kFetched);
  EXPECT_EQ(stored(a), 1u);
  EXPECT_EQ(stored(b), 1u);
}

// The records waiting for the writer are bounded: with a bound of one byte, a push waits while the record
// before it is not yet saved and reported (here the writer is held inside its report), then goes on. The
// first record, larger than the bound, is queued at once (nothing was waiting).
TEST_F(SaveQueueTest, APushWaitsWhileTheWaitingRecordsHoldTheBound) {
  const auto a = add_blog("a");
  const auto b = add_blog("b");
  DuplicateIndex duplicates(*store_);
  std::promise<void> writer_reporting;
  std::promise<void> let_writer_go;
  std::shared_future<void> go = let_writer_go.get_future().share();
  std::atomic<bool> second_pushed{false};
  {
    SaveQueue saves(
        duplicates, nullptr,
        [&](BlogResult& r) {
          if (r.blog_id == a) {
            writer_reporting.set_value();
            go.wait();
          }
          std::lock_guard lock(mutex_);
          reported_.push_back(r);
        },
        std::nullopt, 1);
    const auto started = SaveQueue::Clock::now();
    saves.push(record(a, "a-1", "alpha words about queues"), result(a), started);
    writer_reporting.get_future().wait();
    std::thread pusher([&] {
      saves.push(record(b, "b-1", "beta words about fences"), result(b), started);
      second_pushed = true;
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    EXPECT_FALSE(second_pushed) << "the second push did not wait for the first record's save";
    let_writer_go.set_value();
    pusher.join();
    EXPECT_TRUE(second_pushed);
    saves.wait_idle();
  }
  ASSERT_EQ(reported_.size(), 2u);
  EXPECT_EQ(reported_[0].blog_id, a);
  EXPECT_EQ(reported_[1].blog_id, b);
  EXPECT_EQ(stored(a), 1u);
  EXPECT_EQ(stored(b), 1u);
}

// Similar articles are made on a thread of their own, after the saves and in the order of the groups: a
// post saved in a later group, with no wait in between, picks one saved in an earlier group (whose
// postings the similar thread wrote first), and wait_idle returns only once both have their picks. An
// older post is queued for the catch-up instead.
TEST_F(SaveQueueTest, SavedGroupsGetTheirSimilarArticlesInOrderBeforeWaitIdleReturns) {
  const auto q1 = add_blog("q1");
  const auto q2 = add_blog("q2");
  const auto h = add_blog("h");
  const std::string queues =
      "A lock free ring buffer lets one producer and one consumer share a queue without a mutex. The ring "
      "buffer keeps a head index and a tail index on separate cache lines, and the producer publishes each "
      "slot with release ordering so the consumer reads it with acquire ordering.";
  const std::string buffers =
      "Ring buffer designs for a lock free queue: the producer writes the slot, then the tail index with "
      "release ordering; the consumer reads the head index with acquire ordering. Cache lines keep the "
      "producer and the consumer from sharing a line.";
  DuplicateIndex duplicates(*store_);
  SimilarIndexer similar(*store_);
  auto old = record(h, "h-1", "Cistercian abbeys of the twelfth century and their granges");
  old.articles[0].published = kNow - std::chrono::days{400};
  {
    SaveQueue saves(
        duplicates, &similar,
        [&](BlogResult& r) {
          std::lock_guard lock(mutex_);
          reported_.push_back(r);
        },
        kNow - std::chrono::days{14});
    const auto started = SaveQueue::Clock::now();
    saves.push(record(q1, "q1-1", queues), result(q1), started);
    saves.wait_idle();  // q1 alone in the first group
    saves.push(record(q2, "q2-1", buffers), result(q2), started);
    saves.push(std::move(old), result(h), started);
    saves.wait_idle();
    const auto first = store_->article_keys(q1).value().at(0).id;
    const auto second = store_->article_keys(q2).value().at(0).id;
    auto picks = store_->similar_articles(second, 5);
    ASSERT_TRUE(picks) << picks.error().message;
    ASSERT_EQ(picks->size(), 1u) << "the later group's post picks the earlier one";
    EXPECT_EQ(picks->at(0).view.article.id, first);
    picks = store_->similar_articles(first, 5);
    ASSERT_TRUE(picks) << picks.error().message;
    ASSERT_EQ(picks->size(), 1u) << "the earlier post gains the later one";
    EXPECT_EQ(picks->at(0).view.article.id, second);
    EXPECT_EQ(store_->similar_queue_size().value(), 1) << "the 400-day-old post waits for the catch-up";
  }
  std::lock_guard lock(mutex_);
  EXPECT_EQ(reported_.size(), 3u);
}

}  // namespace
}  // namespace longread::pipeline
