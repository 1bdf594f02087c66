// SimilarIndexer's document frequencies on each backend: counted in the process, written once enough
// articles' counts are held and when told (flush, the indexer's end), and weighed with before they are
// written. Two stores over one database stand for two crawler processes.
#include <gtest/gtest.h>

#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "curate/similar.h"
#include "pipeline/similar.h"
#include "testing/ring_buffer_article.h"
#include "testing/store_test.h"

namespace longread::pipeline {
namespace {

class SimilarIndexerTest : public longread::testing::TwoProcessStoreTest {
 protected:
  SimilarIndexerTest() : TwoProcessStoreTest("longread-similar-indexer") {}

  // `n` stored articles of a new blog on ring buffers (each with a word of its own), oldest first, as the
  // indexer is given them.
  std::vector<SimilarSource> articles(const std::string& blog_name, int n) {
    const auto blog = add_blog(blog_name, "programming");
    std::vector<model::Article> saved;
    for (int i = 0; i < n; ++i) {
      saved.push_back(longread::testing::ring_buffer_article(
          blog_name, blog, i, now_ - std::chrono::hours(24 * (10 - i)), now_,
          "ring buffer lock-free producer consumer cache line atomic wraparound ring buffer " +
              std::string(i % 2 == 0 ? "padding false sharing " : "memory ordering fences ")));
    }
    const auto ids = save_articles(blog, saved, now_);
    std::vector<SimilarSource> out;
    for (const auto& a : saved) {
      const auto& title = texts_.emplace_back(a.title);
      const auto& text = texts_.emplace_back(a.text);
      out.push_back(
          {.id = ids.at(a.guid), .blog_id = blog, .simhash = a.simhash, .title = title, .text = text});
    }
    return out;
  }
  // The stored frequency of a bucket every article above has ("ring"), and the articles counted.
  static std::pair<std::int64_t, std::int64_t> stored(storage::Store& store) {
    const std::vector<std::uint32_t> ring = {curate::df_bucket(curate::term_hash("ring"))};
    const auto stats = store.similar_term_frequencies(ring);
    EXPECT_TRUE(stats) << stats.error().message;
    if (!stats) return {-1, -1};
    return {stats->df.at(0), stats->documents};
  }
  // Each article's stored picks (id and score), in the order given.
  std::vector<std::vector<std::pair<std::int64_t, double>>> picks(const std::vector<SimilarSource>& of) {
    std::vector<std::vector<std::pair<std::int64_t, double>>> out;
    for (const auto& a : of) {
      auto& list = out.emplace_back();
      const auto similar = store_->similar_articles(a.id, 8);
      EXPECT_TRUE(similar) << similar.error().message;
      if (!similar) continue;
      for (const auto& s : *similar) list.emplace_back(s.view.article.id, s.score);
    }
    return out;
  }

  const TimePoint now_ = now_seconds();
  std::deque<std::string> texts_;  // what the sources' views point into (a deque never moves its elements)
};

TEST_P(SimilarIndexerTest, CountsAreHeldUntilWrittenThenWrittenOnce) {
  const auto a = articles("a", 3);
  SimilarIndexer indexer(*store_);
  for (const auto& article : a) ASSERT_TRUE(indexer.add(article));
  EXPECT_EQ(stored(*store_), (std::pair<std::int64_t, std::int64_t>{0, 0})) << "held in the process";
  EXPECT_EQ(stored(*other_), (std::pair<std::int64_t, std::int64_t>{0, 0})) << "another process sees none";
  ASSERT_TRUE(indexer.flush());
  EXPECT_EQ(stored(*other_), (std::pair<std::int64_t, std::int64_t>{3, 3}));
  ASSERT_TRUE(indexer.flush()) << "nothing held";
  EXPECT_EQ(stored(*store_), (std::pair<std::int64_t, std::int64_t>{3, 3})) << "written once";
}

TEST_P(SimilarIndexerTest, WrittenOnceTheBatchIsHeldAndWhenTheIndexerEnds) {
  const auto a = articles("a", 3);
  {
    SimilarIndexer indexer(*store_, {.counts_written_every = 2});
    ASSERT_TRUE(indexer.add(a[0]));
    ASSERT_TRUE(indexer.add(a[1]));
    EXPECT_EQ(stored(*store_).second, 0);
    ASSERT_TRUE(indexer.add(a[2]));
    EXPECT_EQ(stored(*store_), (std::pair<std::int64_t, std::int64_t>{2, 2})) << "the two held before it";
  }
  EXPECT_EQ(stored(*store_), (std::pair<std::int64_t, std::int64_t>{3, 3})) << "the rest when it ended";
}

// The weights an article gets do not depend on when the counts are written: held counts are weighed as if
// stored, so the picks and their scores are the same as with every count written at once.
TEST_P(SimilarIndexerTest, PicksAreTheSameWhetherCountsAreHeldOrWrittenAtOnce) {
  auto all = articles("a", 3);
  const auto b = articles("b", 3);
  all.insert(all.end(), b.begin(), b.end());
  std::optional<std::vector<std::vector<std::pair<std::int64_t, double>>>> first;
  for (const std::int64_t every : {std::int64_t{1000}, std::int64_t{1}}) {
    SCOPED_TRACE(every);
    ASSERT_TRUE(store_->clear_similar());
    SimilarIndexer indexer(*store_, {.counts_written_every = every});
    for (std::size_t i = 0; i < all.size(); i += 2)
      ASSERT_TRUE(indexer.add_all(std::span(all).subspan(i, 2)));
    ASSERT_TRUE(indexer.flush());
    EXPECT_EQ(stored(*store_), (std::pair<std::int64_t, std::int64_t>{6, 6}));
    const auto now = picks(all);
    EXPECT_FALSE(now.back().empty()) << "b's newest finds a's posts";
    if (!first) {
      first = now;
    } else {
      EXPECT_EQ(now, *first);
    }
  }
}

TEST_P(SimilarIndexerTest, TwoProcessesCountsAddUp) {
  const auto a = articles("a", 2);
  const auto b = articles("b", 1);
  SimilarIndexer mine(*store_);
  SimilarIndexer theirs(*other_);
  ASSERT_TRUE(theirs.add(b[0]));
  ASSERT_TRUE(theirs.flush());
  ASSERT_TRUE(mine.add_all(a));
  ASSERT_TRUE(mine.flush());
  EXPECT_EQ(stored(*other_), (std::pair<std::int64_t, std::int64_t>{3, 3}));
  EXPECT_FALSE(store_->similar_articles(a.back().id, 5).value().empty());
}

LONGREAD_STORE_BACKENDS(SimilarIndexerTest);

}  // namespace
}  // namespace longread::pipeline
