// "For you" as stored: fresh articles like a reader's votes and saves (the stored similar picks, both
// ways), the most alike first with the seed that weighs most as the reason; what the reader saved, voted
// for, read or muted, hidden articles and stale ones are left out; another reader's choices count for
// nothing. Real SQLite files.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "storage/store.h"
#include "testing/store_test.h"

namespace longread::storage {
namespace {

using std::chrono::days;
using std::chrono::hours;

class ForYouStoreTest : public longread::testing::StoreSuite {
 protected:
  ForYouStoreTest() : StoreSuite("longread-for-you-store") {}

  // One article of `blog`, dated `age` ago; returns its id.
  std::int64_t add_article(std::int64_t blog, const std::string& title, hours age) {
    model::Article a;
    a.guid = title;
    a.title = title;
    a.link = "https://blog" + std::to_string(blog) + ".example/" + std::to_string(next_++);
    a.published = now_ - age;
    a.text = a.excerpt = "Words of " + title + ".";
    a.word_count = 600;
    a.first_seen = now_;
    const auto ids = save_articles(blog, {a}, now_);
    const auto found = ids.find(title);
    if (found == ids.end()) {
      ADD_FAILURE() << "no article " << title;
      return 0;
    }
    return found->second;
  }
  // Stores `article`'s picks as the crawl would.
  void picks(std::int64_t article, std::vector<std::pair<std::int64_t, double>> similar,
             const std::string& shared = "lock free, ring buffer") {
    SimilarWrite write{.article_id = article};
    for (const auto& [id, score] : similar) {
      write.picks.push_back({.article_id = article, .similar_id = id, .score = score, .shared = shared});
    }
    ASSERT_TRUE(store_->save_similar(write));
  }
  std::int64_t reader(const std::string& email) {
    auto id = store_->create_reader(email, "hash", now_, now_);
    EXPECT_TRUE(id) << id.error().message;
    return id.value_or(0);
  }
  ForYou for_you(std::int64_t reader_id) {
    auto found = store_->for_you({.reader_id = reader_id, .since = now_ - days{30}, .limit = 10});
    EXPECT_TRUE(found) << found.error().message;
    return found.value_or(ForYou{});
  }
  static std::vector<std::int64_t> ids(const ForYou& found) {
    std::vector<std::int64_t> out;
    for (const auto& p : found.picks) out.push_back(p.article.article.id);
    return out;
  }

  const TimePoint now_ = now_seconds();
  int next_ = 1;
};

TEST_P(ForYouStoreTest, RanksFreshArticlesByLikenessToVotesAndSavesWithTheStrongestSeedAsReason) {
  const auto a = add_blog("a"), b = add_blog("b"), c = add_blog("c");
  const auto spin = add_article(a, "Optimizing a Spin-Lock", hours(24 * 60));
  const auto queue = add_article(a, "A lock-free queue", hours(24 * 50));
  const auto ring = add_article(b, "Ring buffers", hours(5));               // like both seeds
  const auto atomics = add_article(c, "Atomics explained", hours(6));       // like one seed
  const auto old = add_article(c, "Old concurrency post", hours(24 * 90));  // like, but stale
  const auto gardening = add_article(b, "Gardening", hours(3));             // like nothing
  picks(spin, {{ring, 0.5}, {old, 0.9}});
  picks(atomics, {{queue, 0.4}});  // a newer article that picked the seed: counts the other way
  picks(queue, {{ring, 0.3}});
  picks(ring, {{spin, 0.45}});  // the same pair stored the other way too: counted once, at its higher score
  const auto ada = reader("ada@example.org");
  ASSERT_TRUE(store_->set_saved(ada, spin, true, now_));
  ASSERT_TRUE(store_->set_vote(ada, queue, true, now_));

  const auto found = for_you(ada);
  EXPECT_EQ(found.seeds, 2);
  ASSERT_EQ(ids(found), (std::vector<std::int64_t>{ring, atomics}));
  // Ring buffers: 0.5 via the saved spin-lock post (the stronger seed) + 0.3 via the voted queue post.
  EXPECT_NEAR(found.picks[0].score, 0.8, 1e-9);
  EXPECT_EQ(found.picks[0].because.id, spin);
  EXPECT_EQ(found.picks[0].because.title, "Optimizing a Spin-Lock");
  EXPECT_TRUE(found.picks[0].because_saved);
  EXPECT_EQ(found.picks[0].shared, "lock free, ring buffer");
  EXPECT_EQ(found.picks[1].because.id, queue);
  EXPECT_FALSE(found.picks[1].because_saved);
  (void)gardening;
}

TEST_P(ForYouStoreTest, LeavesOutWhatTheReaderSavedVotedReadOrMutedAndHiddenArticles) {
  const auto a = add_blog("a"), b = add_blog("b"), c = add_blog("c"), d = add_blog("d");
  const auto seed = add_article(a, "Seed", hours(24 * 40));
  const auto saved = add_article(b, "Saved already", hours(1));
  const auto voted = add_article(b, "Voted already", hours(2));
  const auto read = add_article(b, "Read already", hours(3));
  const auto muted_blog = add_article(c, "On a muted blog", hours(4));
  const auto hidden = add_article(b, "Junked", hours(5));
  const auto kept = add_article(d, "Still a pick", hours(6));
  picks(seed, {{saved, 0.9}, {voted, 0.8}, {read, 0.7}, {muted_blog, 0.6}, {hidden, 0.5}, {kept, 0.1}});
  const auto ada = reader("ada@example.org");
  ASSERT_TRUE(store_->set_vote(ada, seed, true, now_));
  ASSERT_TRUE(store_->set_saved(ada, saved, true, now_));
  ASSERT_TRUE(store_->set_vote(ada, voted, true, now_));
  ASSERT_EQ(store_->set_articles_read(ada, {read}, true, now_).value(), 1);
  ASSERT_TRUE(store_->set_blog_muted(ada, c, true, now_));
  ASSERT_TRUE(store_->set_keep_override(hidden, false));

  EXPECT_EQ(ids(for_you(ada)), (std::vector<std::int64_t>{kept}));
  // Seeds are never picks of their own: the saved and voted articles are seeds now too.
  EXPECT_EQ(for_you(ada).seeds, 3);

  // Another reader's choices count for nothing; with none of their own they get nothing.
  const auto bob = reader("bob@example.org");
  EXPECT_EQ(for_you(bob).seeds, 0);
  EXPECT_TRUE(for_you(bob).picks.empty());
  // Bob's read marks and mutes do not touch Ada's page.
  ASSERT_EQ(store_->set_articles_read(bob, {kept}, true, now_).value(), 1);
  ASSERT_TRUE(store_->set_blog_muted(bob, d, true, now_));
  EXPECT_EQ(ids(for_you(ada)), (std::vector<std::int64_t>{kept}));
}

LONGREAD_STORE_BACKENDS(ForYouStoreTest);

}  // namespace
}  // namespace longread::storage
