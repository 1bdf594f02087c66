// Near-duplicate decisions across crawler processes: two DuplicateIndex objects on two stores over one
// database (a SQLite file, a PostgreSQL database) stand for two crawlers, each having read the index before
// the other saved anything. The earliest copy stays the original whichever process saves first, and a
// later copy saved by the other process is marked a duplicate of it, also when both save at the same time.
// Below them, the store's side of the decision: the near-duplicate log's order, and a failed decision.
#include "pipeline/duplicates.h"

#include <gtest/gtest.h>

#include <barrier>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

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
  DuplicateIndex first(*store_);
  DuplicateIndex second(*other_);  // read before the first saved anything
  save(first, record(blogs_[0], "original", kPost, 3));
  save(second, record(blogs_[1], "copy", kPost ^ 0b101, 1));
  auto stored = articles();
  EXPECT_FALSE(stored["original"].junk) << stored["original"].junk_reason;
  EXPECT_EQ(stored["copy"].duplicate_of, stored["original"].id);
  EXPECT_TRUE(stored["copy"].junk);
}

// A blog's new post that repeats an older one of the same blog, which the blog's cap deletes in the same save
// (the feed no longer holds it): the deleted article is no original any more, so the new post is, and a later
// copy elsewhere is marked a duplicate of it. Taken for the deleted one's copy, the new post would be neither
// (the mark names a row that is gone) and the later copy would go unmarked.
TEST_P(DuplicatesAcrossProcessesTest, AnOriginalItsBlogsCapDeletesGivesWayToTheNewPostThatRepeatsIt) {
  DuplicateIndex first(*store_);
  save(first, record(blogs_[0], "old", kPost, 10));
  save(first, record(blogs_[0], "middle", ~kPost, 5));
  auto capped = record(blogs_[0], "new", kPost ^ 0b1, 1);
  capped.max_articles = 2;
  capped.feed_guids = {"new", "middle"};
  save(first, capped);
  auto stored = articles();
  ASSERT_FALSE(stored.contains("old")) << "the cap deleted it";
  EXPECT_FALSE(stored["new"].junk) << stored["new"].junk_reason;
  save(first, record(blogs_[1], "copy", kPost ^ 0b11, 0));
  stored = articles();
  EXPECT_EQ(stored["copy"].duplicate_of, stored["new"].id);
  EXPECT_TRUE(stored["copy"].junk);
}

TEST_P(DuplicatesAcrossProcessesTest, AnEarlierCopySavedByAnotherProcessBecomesTheOriginal) {
  DuplicateIndex first(*store_);
  DuplicateIndex second(*other_);
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

TEST_P(DuplicatesAcrossProcessesTest, TwoCrawlersSavingAtOnceKeepTheEarliestCopyTheOriginal) {
  // Sixteen blogs, each with one copy of each of four posts, dated at random; two crawlers save eight blogs
  // each, one blog per group, in eight rounds. Whatever the order in which their inserts and decisions
  // meet, each post ends with one original, its earliest copy.
  // The two crawlers' blogs in two categories, so that no shared counter row orders their saves.
  blogs_.clear();
  for (int b = 0; b < 16; ++b)
    blogs_.push_back(add_blog(fmt::format("blog{}", b), b % 2 == 0 ? "programming" : "history"));
  constexpr int kPosts = 4;
  std::mt19937_64 random(20261203);
  std::vector<std::uint64_t> posts;
  for (int p = 0; p < kPosts; ++p) posts.push_back(random());
  std::map<std::string, int> days_ago;  // by guid: "p<post>-b<blog>"
  std::vector<std::vector<storage::CrawlRecord>> groups(2);
  for (std::size_t b = 0; b < blogs_.size(); ++b) {
    storage::CrawlRecord blog_record = record(blogs_[b], "unused", 0, 0);
    blog_record.articles.clear();
    for (int p = 0; p < kPosts; ++p) {
      const std::string guid = fmt::format("p{}-b{}", p, b);
      days_ago[guid] = static_cast<int>(random() % 1000);
      // One bit apart from the post's own hash, a different bit for each blog: every two copies are near,
      // and the posts, random hashes, are far apart.
      auto article = record(blogs_[b], guid, posts[p] ^ (1ULL << b), days_ago[guid]).articles.front();
      blog_record.articles.push_back(std::move(article));
    }
    groups[b % 2].push_back(std::move(blog_record));
  }
  DuplicateIndex first(*store_);
  DuplicateIndex second(*other_);
  // Each round both save at once, so their transactions overlap: without the lock each would decide
  // before the other's group is committed, and both copies of a post would stay originals.
  std::barrier round(2);
  auto crawl = [&round](DuplicateIndex& index, const std::vector<storage::CrawlRecord>& records) {
    for (const auto& r : records) {
      round.arrive_and_wait();
      save(index, r);
    }
  };
  std::thread one(crawl, std::ref(first), std::cref(groups[0]));
  std::thread two(crawl, std::ref(second), std::cref(groups[1]));
  one.join();
  two.join();

  const auto stored = articles();
  ASSERT_EQ(stored.size(), blogs_.size() * kPosts);
  for (int p = 0; p < kPosts; ++p) {
    std::string earliest;
    std::vector<std::string> originals;
    for (std::size_t b = 0; b < blogs_.size(); ++b) {
      const std::string guid = fmt::format("p{}-b{}", p, b);
      if (earliest.empty() || days_ago[guid] > days_ago[earliest]) earliest = guid;
      const auto& article = stored.at(guid);
      if (!article.junk)
        originals.push_back(guid);
      else
        EXPECT_NE(article.duplicate_of, std::nullopt) << guid << ": " << article.junk_reason;
    }
    ASSERT_EQ(originals.size(), 1U) << "post " << p << ": " << fmt::format("{}", fmt::join(originals, " "));
    EXPECT_EQ(originals.front(), earliest) << "post " << p;
  }
}

TEST_P(DuplicatesAcrossProcessesTest, ACrawlerWhosePlaceInTheLogWasDroppedReadsTheWholeIndex) {
  DuplicateIndex first(*store_);
  DuplicateIndex second(*other_);  // read the log when it was empty
  save(first, record(blogs_[0], "original", kPost, 3));
  // Others log more than the log keeps (ids of no article: the reads' join leaves them out), so the
  // original's place is dropped before the second crawler reads it.
  std::vector<std::int64_t> many(static_cast<std::size_t>(storage::kNearDuplicateLogKept) + 1);
  for (std::size_t i = 0; i < many.size(); ++i) many[i] = 1'000'000'000'000 + static_cast<std::int64_t>(i);
  const std::vector<storage::CrawlRecord> none{};
  auto logged = store_->save_crawls(none, [&](storage::DuplicateDecision& tx, auto) -> Result<void> {
    auto place = tx.log_originals(many);
    if (!place) return std::unexpected(place.error());
    auto read = tx.originals_since(0);
    if (!read) return std::unexpected(read.error());
    EXPECT_FALSE(read->complete);  // places 1 and 2 are gone
    EXPECT_TRUE(read->originals.empty());
    return {};
  });
  ASSERT_TRUE(logged) << logged.error().message;
  save(second, record(blogs_[1], "copy", kPost ^ 0b110, 1));
  auto stored = articles();
  EXPECT_FALSE(stored["original"].junk) << stored["original"].junk_reason;
  EXPECT_EQ(stored["copy"].duplicate_of, stored["original"].id);
}

// The store's side: the log's places follow the order in which decisions logged, not article ids.
TEST_P(DuplicatesAcrossProcessesTest, TheLogIsReadInTheOrderOriginalsWereLoggedNotByTheirIds) {
  auto head = store_->near_duplicate_log_head();
  ASSERT_TRUE(head) << head.error().message;
  EXPECT_EQ(*head, 0);
  const std::vector<storage::CrawlRecord> x{record(blogs_[0], "x", kPost, 2)};
  const std::vector<storage::CrawlRecord> y{record(blogs_[1], "y", ~kPost, 1)};
  const std::vector<storage::CrawlRecord> none{};
  std::int64_t x_id = 0;
  std::int64_t y_id = 0;
  auto id_of = [](storage::DuplicateDecision& tx, std::int64_t blog) {
    auto keys = tx.article_keys(blog);
    EXPECT_TRUE(keys && keys->size() == 1);
    return keys && !keys->empty() ? keys->front().id : 0;
  };
  // x is stored first and logged nothing; y is stored and logged; then another save logs x.
  auto saved = store_->save_crawls(x, [&](storage::DuplicateDecision& tx, auto) -> Result<void> {
    x_id = id_of(tx, blogs_[0]);
    return {};
  });
  ASSERT_TRUE(saved) << saved.error().message;
  std::int64_t y_place = 0;
  saved = other_->save_crawls(y, [&](storage::DuplicateDecision& tx, auto) -> Result<void> {
    y_id = id_of(tx, blogs_[1]);
    const std::vector<std::int64_t> ids{y_id};
    auto place = tx.log_originals(ids);
    if (!place) return std::unexpected(place.error());
    y_place = *place;
    return {};
  });
  ASSERT_TRUE(saved) << saved.error().message;
  saved = store_->save_crawls(none, [&](storage::DuplicateDecision& tx, auto) -> Result<void> {
    const std::vector<std::int64_t> ids{x_id};
    auto place = tx.log_originals(ids);
    if (!place) return std::unexpected(place.error());
    EXPECT_EQ(*place, y_place + 1);
    return {};
  });
  ASSERT_TRUE(saved) << saved.error().message;
  ASSERT_LT(x_id, y_id);

  head = other_->near_duplicate_log_head();
  ASSERT_TRUE(head) << head.error().message;
  EXPECT_EQ(*head, y_place + 1);
  saved = other_->save_crawls(none, [&](storage::DuplicateDecision& tx, auto) -> Result<void> {
    auto all = tx.originals_since(0);
    EXPECT_TRUE(all) << all.error().message;
    if (!all) return {};
    EXPECT_TRUE(all->complete);
    EXPECT_EQ(all->last_seq, y_place + 1);
    std::vector<std::int64_t> read;
    for (const auto& original : all->originals) read.push_back(original.entry.id);
    EXPECT_EQ(read, (std::vector<std::int64_t>{y_id, x_id}));
    // Having read up to y, the next read finds x, though its id is lower than y's.
    auto after_y = tx.originals_since(y_place);
    EXPECT_TRUE(after_y && after_y->originals.size() == 1 && after_y->originals.front().entry.id == x_id);
    // A logged original since marked a duplicate is not read back.
    const std::vector<std::pair<std::int64_t, std::int64_t>> marks{{x_id, y_id}};
    if (auto marked = tx.mark_duplicates(marks); !marked) return marked;
    after_y = tx.originals_since(y_place);
    EXPECT_TRUE(after_y && after_y->originals.empty());
    return {};
  });
  ASSERT_TRUE(saved) << saved.error().message;
}

TEST_P(DuplicatesAcrossProcessesTest, ADecisionThatFailsSavesNothingOfTheGroup) {
  const std::vector<storage::CrawlRecord> group{record(blogs_[0], "one", kPost, 1),
                                                record(blogs_[1], "two", ~kPost, 1)};
  auto saved = store_->save_crawls(group, [](storage::DuplicateDecision& tx, auto) -> Result<void> {
    const std::vector<std::int64_t> ids{1};
    (void)tx.log_originals(ids);
    return fail(ErrorKind::kStorage, "the decision broke");
  });
  ASSERT_FALSE(saved);
  EXPECT_NE(saved.error().message.find("the decision broke"), std::string::npos) << saved.error().message;
  for (const auto blog : {blogs_[0], blogs_[1]}) {
    auto keys = store_->article_keys(blog);
    ASSERT_TRUE(keys) << keys.error().message;
    EXPECT_TRUE(keys->empty());
  }
  auto head = store_->near_duplicate_log_head();
  ASSERT_TRUE(head) << head.error().message;
  EXPECT_EQ(*head, 0);
}

LONGREAD_STORE_BACKENDS(DuplicatesAcrossProcessesTest);

}  // namespace
}  // namespace longread::pipeline
