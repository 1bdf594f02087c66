// Similar articles as stored (migration 0027): document frequencies counted once per bucket, postings
// capped per term keeping the heaviest, picks replaced, a newer article joining an older one's full list
// only when it beats the lowest pick, and the page's read leaving out hidden and same-blog picks and
// deleted articles. Real SQLite files.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "storage/store.h"
#include "testing/store_test.h"

namespace longread::storage {
namespace {

class SimilarStoreTest : public longread::testing::StoreSuite {
 protected:
  SimilarStoreTest() : StoreSuite("longread-similar-store") {}

  // Adds `n` articles to `blog` and returns their ids, oldest first.
  std::vector<std::int64_t> add_articles(std::int64_t blog, int n) {
    CrawlRecord r{.blog_id = blog, .attempted_at = now_, .success = true, .status = "ok"};
    for (int i = 0; i < n; ++i) {
      model::Article a;
      a.guid = "g" + std::to_string(next_++);
      a.title = "Article " + a.guid;
      a.link = "https://blog" + std::to_string(blog) + ".example/" + a.guid;
      a.published = now_ - std::chrono::hours(next_);
      a.text = "text of " + a.guid;
      a.word_count = 300;
      a.first_seen = now_;
      r.articles.push_back(a);
    }
    EXPECT_TRUE(store_->save_crawl(r));
    std::vector<std::int64_t> ids;
    const auto keys = store_->article_keys(blog).value();
    for (const auto& key : keys) ids.push_back(key.id);
    std::sort(ids.begin(), ids.end());
    return std::vector<std::int64_t>(ids.end() - n, ids.end());
  }
  std::vector<std::int64_t> shown(std::int64_t article, int limit = 5) {
    std::vector<std::int64_t> out;
    const auto similar = store_->similar_articles(article, limit).value();
    for (const auto& s : similar) out.push_back(s.view.article.id);
    return out;
  }

  const TimePoint now_ = now_seconds();
  int next_ = 1;
};

TEST_P(SimilarStoreTest, DocumentFrequenciesAreAddedPerBucketAndReadInTheOrderAsked) {
  const std::vector<std::uint32_t> read = {9, 7, 11, 13, 15, 7};
  auto stats = store_->similar_term_frequencies(read);
  ASSERT_TRUE(stats) << stats.error().message;
  EXPECT_EQ(stats->documents, 0);
  EXPECT_EQ(stats->df, (std::vector<std::int64_t>(6, 0))) << "nothing counted yet";
  // Two articles, {7, 9} and {9, 11}, then a third, {7, 13}, with the largest bucket there is.
  const std::vector<storage::SimilarTermCount> two = {{7, 1}, {9, 2}, {11, 1}};
  ASSERT_TRUE(store_->add_similar_terms(two, 2));
  const std::uint32_t largest = (1U << 22) - 1;
  const std::vector<storage::SimilarTermCount> third = {{7, 1}, {13, 1}, {largest, 1}};
  ASSERT_TRUE(store_->add_similar_terms(third, 1));
  stats = store_->similar_term_frequencies(read);
  ASSERT_TRUE(stats);
  EXPECT_EQ(stats->documents, 3);
  EXPECT_EQ(stats->df, (std::vector<std::int64_t>{2, 2, 1, 1, 0, 2})) << "reading counts nothing";
  const std::vector<std::uint32_t> edge = {largest};
  EXPECT_EQ(store_->similar_term_frequencies(edge)->df, (std::vector<std::int64_t>{1}));
  ASSERT_TRUE(store_->add_similar_terms({}, 0)) << "nothing to add is no write";
  reopen();
  EXPECT_EQ(store_->similar_term_frequencies(read)->df, (std::vector<std::int64_t>{2, 2, 1, 1, 0, 2}));
  EXPECT_EQ(store_->similar_term_frequencies(read)->documents, 3);
}

TEST_P(SimilarStoreTest, PostingsKeepTheHeaviestWithinTheCap) {
  const auto ids = add_articles(add_blog("a"), 4);
  const std::uint64_t term = 0xF000000000000001ULL;  // above INT64_MAX: stored as its bit pattern
  const double weights[] = {0.5, 0.2, 0.9, 0.1};
  for (std::size_t i = 0; i < ids.size(); ++i) {
    ASSERT_TRUE(store_->save_similar(
        {.article_id = ids[i], .postings = {{term, weights[i]}}, .postings_per_term = 2}));
  }
  const std::vector<std::uint64_t> terms = {term};
  const auto postings = store_->similar_postings(terms, 10).value();
  ASSERT_EQ(postings.size(), 2u);
  EXPECT_EQ(postings[0].article_id, ids[2]);  // 0.9
  EXPECT_EQ(postings[1].article_id, ids[0]);  // 0.5
  EXPECT_EQ(postings[0].term, term);
  EXPECT_EQ(store_->similar_postings(terms, 1)->size(), 1u);
}

TEST_P(SimilarStoreTest, ABatchIsDecidedFromItsTermsHeaviestPostingsAndWhatItDecidesIsWritten) {
  const auto stored = add_articles(add_blog("a"), 3);
  const auto newer = add_articles(add_blog("b"), 1)[0];
  const std::uint64_t term = 0xF000000000000002ULL;
  const std::uint64_t unposted = 77;
  const double weights[] = {0.5, 0.2, 0.9};
  for (std::size_t i = 0; i < stored.size(); ++i) {
    ASSERT_TRUE(store_->save_similar(
        {.article_id = stored[i], .postings = {{term, weights[i]}}, .postings_per_term = 3}));
  }
  const std::vector<std::uint64_t> terms = {unposted, term};
  std::vector<SimilarPostingRow> given;
  int calls = 0;
  auto saved = store_->index_similar(terms, 2, [&](const std::vector<SimilarPostingRow>& postings) {
    ++calls;
    given = postings;
    return Result<std::vector<SimilarWrite>>(
        std::vector<SimilarWrite>{{.article_id = newer,
                                   .postings = {{term, 0.7}},
                                   .postings_per_term = 3,
                                   .picks = {{newer, stored[2], 0.6, "shared"}}}});
  });
  ASSERT_TRUE(saved) << saved.error().message;
  EXPECT_EQ(calls, 1);
  ASSERT_EQ(given.size(), 2u) << "the term's two heaviest, nothing for a term without postings";
  EXPECT_EQ(given[0].article_id, stored[2]);
  EXPECT_EQ(given[1].article_id, stored[0]);
  EXPECT_EQ(given[0].term, term);
  // The cap of 3 keeps the heaviest: the 0.2 posting, which the decision was not even shown, makes way.
  const std::vector<std::uint64_t> one = {term};
  const auto after = store_->similar_postings(one, 10).value();
  std::vector<std::int64_t> kept;
  for (const auto& p : after) kept.push_back(p.article_id);
  EXPECT_EQ(kept, (std::vector<std::int64_t>{stored[2], newer, stored[0]}));
  EXPECT_EQ(shown(newer), (std::vector<std::int64_t>{stored[2]}));

  // A decision that fails writes nothing and its error is the call's.
  auto failed = store_->index_similar(terms, 2, [&](const std::vector<SimilarPostingRow>&) {
    return Result<std::vector<SimilarWrite>>(fail(ErrorKind::kInternal, "no decision"));
  });
  ASSERT_FALSE(failed);
  EXPECT_EQ(failed.error().message, "no decision");
  EXPECT_EQ(store_->similar_postings(one, 10)->size(), 3u);
}

TEST_P(SimilarStoreTest, PicksAreReplacedAndOffersJoinOnlyAboveTheLowest) {
  const auto a = add_blog("a");
  const auto b = add_blog("b");
  const auto older = add_articles(a, 1)[0];
  const auto others = add_articles(b, 3);
  // The older article's list is full at 2 picks: scores 0.5 and 0.3.
  ASSERT_TRUE(
      store_->save_similar({.article_id = older,
                            .picks = {{older, others[0], 0.5, "x, y"}, {older, others[1], 0.3, "y, z"}},
                            .picks_per_article = 2}));
  EXPECT_EQ(shown(older), (std::vector<std::int64_t>{others[0], others[1]}));
  // A newer article scoring 0.2 does not get in; at 0.4 it replaces the 0.3 pick.
  ASSERT_TRUE(store_->save_similar(
      {.article_id = others[2], .offers = {{older, others[2], 0.2, "q, r"}}, .picks_per_article = 2}));
  EXPECT_EQ(shown(older), (std::vector<std::int64_t>{others[0], others[1]}));
  ASSERT_TRUE(store_->save_similar(
      {.article_id = others[2], .offers = {{older, others[2], 0.4, "q, r"}}, .picks_per_article = 2}));
  EXPECT_EQ(shown(older), (std::vector<std::int64_t>{others[0], others[2]}));
  const auto read = store_->similar_articles(older, 5).value();
  ASSERT_EQ(read.size(), 2u);
  EXPECT_EQ(read[1].shared, "q, r");
  EXPECT_DOUBLE_EQ(read[1].score, 0.4);
  EXPECT_EQ(read[1].view.blog_title, "b");
  // Saving an article's own picks replaces its list.
  ASSERT_TRUE(store_->save_similar({.article_id = older, .picks = {{older, others[1], 0.7, "z"}}}));
  EXPECT_EQ(shown(older), (std::vector<std::int64_t>{others[1]}));
}

TEST_P(SimilarStoreTest, ThePageNeverShowsHiddenSameBlogOrDeletedPicks) {
  const auto a = add_blog("a");
  const auto b = add_blog("b");
  const auto c = add_blog("c");
  const auto own = add_articles(a, 2);
  const auto bs = add_articles(b, 2);
  const auto cs = add_articles(c, 1);
  ASSERT_TRUE(store_->save_similar({.article_id = own[0],
                                    .picks = {{own[0], own[1], 0.9, "same blog"},
                                              {own[0], bs[0], 0.8, "junk later"},
                                              {own[0], bs[1], 0.7, "fine"},
                                              {own[0], cs[0], 0.6, "blog deleted"}}}));
  EXPECT_EQ(shown(own[0]), (std::vector<std::int64_t>{bs[0], bs[1], cs[0]}));
  ASSERT_TRUE(store_->set_keep_override(bs[0], false));
  EXPECT_EQ(shown(own[0]), (std::vector<std::int64_t>{bs[1], cs[0]}));
  EXPECT_EQ(shown(own[0], 1), (std::vector<std::int64_t>{bs[1]}));
  ASSERT_TRUE(store_->delete_blog(c));
  EXPECT_EQ(shown(own[0]), (std::vector<std::int64_t>{bs[1]}));
  // Deleting a blog takes its postings and lists with it (foreign keys), so nothing points at a gone row.
  const std::vector<std::uint64_t> terms = {42};
  ASSERT_TRUE(store_->save_similar({.article_id = bs[1], .postings = {{42, 0.5}}}));
  ASSERT_EQ(store_->similar_postings(terms, 5)->size(), 1u);
  ASSERT_TRUE(store_->delete_blog(b));
  EXPECT_TRUE(store_->similar_postings(terms, 5)->empty());
  EXPECT_TRUE(shown(own[0]).empty());
}

TEST_P(SimilarStoreTest, CandidatesClearAndArticlesForTheRebuild) {
  const auto a = add_blog("a");
  const auto ids = add_articles(a, 3);
  ASSERT_TRUE(store_->set_keep_override(ids[1], false));
  const std::vector<std::int64_t> asked = {ids[0], ids[1], 999999};
  auto candidates = store_->similar_candidates(asked).value();
  std::sort(candidates.begin(), candidates.end(), [](const auto& x, const auto& y) { return x.id < y.id; });
  ASSERT_EQ(candidates.size(), 2u);
  EXPECT_EQ(candidates[0].blog_id, a);
  EXPECT_TRUE(candidates[0].visible);
  EXPECT_FALSE(candidates[1].visible);
  const auto batch = store_->articles_for_similar(0, 10).value();
  ASSERT_EQ(batch.size(), 2u) << "visible articles only";
  EXPECT_EQ(batch[0].article.id, ids[0]);
  EXPECT_FALSE(batch[0].article.text.empty());
  EXPECT_EQ(store_->articles_for_similar(ids[0], 10)->front().article.id, ids[2]);
  const std::vector<std::uint32_t> buckets = {1};
  const std::vector<storage::SimilarTermCount> counts = {{1, 1}};
  ASSERT_TRUE(store_->add_similar_terms(counts, 1));
  ASSERT_TRUE(store_->save_similar(
      {.article_id = ids[0], .postings = {{5, 0.5}}, .picks = {{ids[0], ids[2], 0.5, "t"}}}));
  ASSERT_TRUE(store_->clear_similar());
  EXPECT_EQ(store_->similar_term_frequencies(buckets)->documents, 0);
  EXPECT_EQ(store_->similar_term_frequencies(buckets)->df, (std::vector<std::int64_t>{0}));
  const std::vector<std::uint64_t> terms = {5};
  EXPECT_TRUE(store_->similar_postings(terms, 5)->empty());
  EXPECT_TRUE(store_->similar_articles(ids[0], 5)->empty());
}

TEST_P(SimilarStoreTest, TheQueueGivesItsArticlesOldestFirstVisibleOnesWithTheirText) {
  const auto a = add_blog("a");
  const auto ids = add_articles(a, 4);
  EXPECT_EQ(store_->similar_queue_size().value(), 0);
  const std::vector<std::int64_t> later = {ids[3], ids[1], ids[0], ids[2]};
  ASSERT_TRUE(store_->queue_similar(later));
  ASSERT_TRUE(store_->queue_similar(later)) << "queuing twice changes nothing";
  const std::vector<std::int64_t> gone = {999999};
  ASSERT_TRUE(store_->queue_similar(gone)) << "an article deleted meanwhile is not queued";
  EXPECT_EQ(store_->similar_queue_size().value(), 4);
  ASSERT_TRUE(store_->set_keep_override(ids[1], false));  // hidden since it was queued

  auto first = store_->similar_backlog(3);
  ASSERT_TRUE(first) << first.error().message;
  EXPECT_EQ(first->queued, (std::vector<std::int64_t>{ids[0], ids[1], ids[2]}));
  ASSERT_EQ(first->articles.size(), 2u) << "the hidden one is read from the queue but has no text to index";
  EXPECT_EQ(first->articles[0].article.id, ids[0]);
  EXPECT_EQ(first->articles[1].article.id, ids[2]);
  EXPECT_EQ(first->articles[0].article.text, "text of g1");
  EXPECT_EQ(first->articles[0].article.blog_id, a);

  ASSERT_TRUE(store_->unqueue_similar(first->queued));
  reopen();
  EXPECT_EQ(store_->similar_queue_size().value(), 1);
  EXPECT_EQ(store_->similar_backlog(3)->queued, (std::vector<std::int64_t>{ids[3]}));
  ASSERT_TRUE(store_->delete_blog(a));
  EXPECT_EQ(store_->similar_queue_size().value(), 0) << "deleting an article takes it off the queue";
  EXPECT_TRUE(store_->similar_backlog(3)->queued.empty());
}

TEST_P(SimilarStoreTest, ClearingTheIndexEmptiesTheQueue) {
  const auto ids = add_articles(add_blog("a"), 2);
  ASSERT_TRUE(store_->queue_similar(ids));
  ASSERT_TRUE(store_->clear_similar());
  EXPECT_EQ(store_->similar_queue_size().value(), 0);
}

LONGREAD_STORE_BACKENDS(SimilarStoreTest);

}  // namespace
}  // namespace longread::storage
