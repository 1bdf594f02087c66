#include "curate/similar.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "curate/curate.h"

namespace longread::curate {
namespace {

// Document frequencies of a small collection built the way the store counts them: each article's
// distinct terms once.
class Collection {
 public:
  void add(std::int64_t id, std::string_view title, std::string_view text) {
    auto terms = article_terms(title, text);
    for (const auto& t : terms) ++df_[t.hash];
    texts_.emplace_back(id, std::move(terms));
  }
  Signature signature_of(std::int64_t id) const {
    for (const auto& [article, terms] : texts_) {
      if (article != id) continue;
      std::vector<std::int64_t> df;
      for (const auto& t : terms) df.push_back(df_.at(t.hash));
      return signature(terms, df, static_cast<std::int64_t>(texts_.size()), NewTerms::kDrop);
    }
    return {};
  }
  std::vector<Posting> postings() const {
    std::vector<Posting> out;
    for (const auto& [id, terms] : texts_) {
      for (const auto& t : signature_of(id).terms)
        out.push_back({.article_id = id, .term = t.hash, .weight = t.weight});
    }
    return out;
  }

 private:
  std::map<std::uint64_t, std::int64_t> df_;
  std::vector<std::pair<std::int64_t, std::vector<TermCount>>> texts_;
};

constexpr const char* kQueueText =
    "A lock-free ring buffer lets one producer and one consumer exchange messages without a mutex. The ring "
    "buffer keeps a head index and a tail index on separate cache lines, so the producer and consumer do "
    "not bounce the same cache line between cores. Atomic loads with acquire ordering and stores with "
    "release ordering are enough for a single producer single consumer queue.";
constexpr const char* kQueueText2 =
    "Our bounded queue is a ring buffer with atomic head and tail counters. Padding each counter to its own "
    "cache line removed false sharing between the producer thread and the consumer thread; the lock-free "
    "queue then beat the mutex queue by a factor of four. Memory ordering: acquire on load, release on "
    "store.";
constexpr const char* kBakingText =
    "Sourdough bread needs a lively starter, flour, water and salt. Knead the dough, let it rise overnight "
    "in "
    "a cool kitchen, shape the loaf and bake it in a hot dutch oven until the crust is deep brown.";
constexpr const char* kBakingText2 =
    "A rye loaf with a sourdough starter rises slowly. The dough is sticky, so wet hands help when shaping; "
    "bake the loaf covered, then uncovered for a dark crust. Flour choice changes the crumb.";
constexpr const char* kGardenText =
    "Tomatoes want full sun, deep watering and a trellis. Pinch the suckers, mulch the beds, and pick the "
    "fruit when it gives slightly under the thumb. Compost keeps the soil alive through the summer.";

Collection sample() {
  Collection c;
  c.add(1, "A lock-free ring buffer", kQueueText);
  c.add(2, "Bounded lock-free queues", kQueueText2);
  c.add(3, "Baking sourdough", kBakingText);
  c.add(4, "Rye sourdough loaf", kBakingText2);
  c.add(5, "Growing tomatoes", kGardenText);
  return c;
}

TEST(SimilarTerms, WordsArePluralStemmedAndPairedWithoutStopwords) {
  const auto terms = article_terms("", "Lock-free queues and the ring buffers. Lock-free ring buffers");
  std::vector<std::string> names;
  for (const auto& t : terms) names.push_back(t.term);
  std::sort(names.begin(), names.end());
  // "and the" breaks the pair "queue ring"; "free queue" and "free ring" occur once: chance adjacency.
  EXPECT_EQ(names, (std::vector<std::string>{"buffer", "free", "lock", "lock free", "queue", "ring",
                                             "ring buffer"}));
  // A pair in the title counts: the title counts kTitleWeight times.
  const auto titled = article_terms("Ring buffers", "");
  EXPECT_TRUE(
      std::any_of(titled.begin(), titled.end(), [](const auto& t) { return t.term == "ring buffer"; }));
}

TEST(SimilarTerms, TitleWordsCountMoreThanTextWords) {
  const auto terms = article_terms("Caches", "caches matter");
  const auto cache =
      std::find_if(terms.begin(), terms.end(), [](const auto& t) { return t.term == "cache"; });
  ASSERT_NE(cache, terms.end());
  EXPECT_EQ(cache->count, kTitleWeight + 1);
}

TEST(SimilarSignature, IsUnitLengthHeaviestFirstAndAtMostK) {
  const auto c = sample();
  const auto s = c.signature_of(1);
  ASSERT_FALSE(s.terms.empty());
  EXPECT_LE(s.terms.size(), static_cast<std::size_t>(kSignatureTerms));
  double norm = 0;
  for (const auto& t : s.terms) norm += t.weight * t.weight;
  EXPECT_NEAR(norm, 1.0, 1e-9);
  for (std::size_t i = 1; i < s.terms.size(); ++i) EXPECT_GE(s.terms[i - 1].weight, s.terms[i].weight);
}

TEST(SimilarSignature, LeavesOutTermsInMoreThanTheDfRatio) {
  const std::vector<TermCount> terms = {{.term = "common", .hash = 1, .count = 9},
                                        {.term = "rare", .hash = 2, .count = 1},
                                        {.term = "other", .hash = 3, .count = 1}};
  const std::int64_t documents = 10000;
  const std::vector<std::int64_t> df = {static_cast<std::int64_t>(documents * kMaxDfRatio) + 1, 3, 40};
  const auto s = signature(terms, df, documents);
  ASSERT_EQ(s.terms.size(), 2u);
  EXPECT_EQ(s.terms[0].term, "rare");
  EXPECT_EQ(s.terms[1].term, "other");
}

TEST(SimilarSignature, NewTermsAreKeptAtCrawlTimeAndDroppedWhenEveryArticleWasCounted) {
  const std::vector<TermCount> terms = {{.term = "new", .hash = 1, .count = 3},
                                        {.term = "seen", .hash = 2, .count = 1}};
  const std::vector<std::int64_t> df = {1, 4};
  const auto kept = signature(terms, df, 100, NewTerms::kKeep);
  ASSERT_EQ(kept.terms.size(), 2u);
  EXPECT_EQ(kept.terms[0].term, "new") << "weighed as if in kMinDf documents, and more frequent here";
  const auto dropped = signature(terms, df, 100, NewTerms::kDrop);
  ASSERT_EQ(dropped.terms.size(), 1u);
  EXPECT_EQ(dropped.terms[0].term, "seen");
}

// The first article of a new site (one document counted: itself) still gets a signature, so the next
// article on its subject finds it.
TEST(SimilarSignature, TheFirstArticleOfASiteHasASignature) {
  const std::vector<TermCount> terms = {{.term = "ring buffer", .hash = 1, .count = 3},
                                        {.term = "lock free", .hash = 2, .count = 2}};
  const std::vector<std::int64_t> df = {1, 1};
  const auto first = signature(terms, df, 1, NewTerms::kKeep);
  ASSERT_EQ(first.terms.size(), 2u);
  EXPECT_EQ(first.terms[0].term, "ring buffer");
  EXPECT_GT(first.terms[1].weight, 0.0);
}

TEST(SimilarPicks, SameTopicRanksFirstAndReasonsAreSharedTopTerms) {
  const auto c = sample();
  const auto query = c.signature_of(1);
  const auto postings = c.postings();
  const auto scored = score_candidates(query, postings, 1);
  ASSERT_FALSE(scored.empty());
  EXPECT_EQ(scored.front().article_id, 2);
  for (std::size_t i = 1; i < scored.size(); ++i) EXPECT_GE(scored[i - 1].score, scored[i].score);
  std::vector<CandidateInfo> infos;
  for (std::int64_t id = 1; id <= 5; ++id)
    infos.push_back({.id = id, .blog_id = 100 + id, .simhash = 0, .visible = true});
  const auto picks = pick_similar(query, {.id = 1, .blog_id = 101, .simhash = 0}, scored, infos, 5);
  ASSERT_FALSE(picks.empty());
  EXPECT_EQ(picks.front().article_id, 2);
  // The reason names terms both signatures hold.
  const auto other = c.signature_of(2);
  ASSERT_FALSE(picks.front().shared.empty());
  for (const auto& term : picks.front().shared) {
    const auto in = [&](const Signature& s) {
      return std::any_of(s.terms.begin(), s.terms.end(), [&](const auto& t) { return t.term == term; });
    };
    EXPECT_TRUE(in(query)) << term;
    EXPECT_TRUE(in(other)) << term;
  }
  for (const auto& pick : picks)
    EXPECT_NE(pick.article_id, 5) << "a gardening post is no pick for a queue post";
}

TEST(SimilarPicks, OrderedByScore) {
  const Signature query{
      .terms = {{.term = "a", .hash = 1, .weight = 0.8}, {.term = "b", .hash = 2, .weight = 0.6}}};
  const std::vector<Posting> postings = {
      {.article_id = 10, .term = 1, .weight = 0.1}, {.article_id = 10, .term = 2, .weight = 0.1},
      {.article_id = 11, .term = 1, .weight = 0.9}, {.article_id = 11, .term = 2, .weight = 0.4},
      {.article_id = 12, .term = 1, .weight = 0.5}, {.article_id = 12, .term = 2, .weight = 0.5}};
  const auto scored = score_candidates(query, postings, 99);
  ASSERT_EQ(scored.size(), 3u);
  EXPECT_EQ(scored[0].article_id, 11);
  EXPECT_EQ(scored[1].article_id, 12);
  EXPECT_EQ(scored[2].article_id, 10);
  EXPECT_EQ(scored[0].shared, (std::vector<int>{0, 1}));  // a contributes 0.72, b 0.24
}

TEST(SimilarPicks, OneSharedTermIsNoPick) {
  const Signature query{.terms = {{.term = "a", .hash = 1, .weight = 1.0}}};
  const std::vector<Posting> postings = {{.article_id = 10, .term = 1, .weight = 1.0}};
  EXPECT_TRUE(score_candidates(query, postings, 99).empty());
}

TEST(SimilarPicks, NearDuplicateSameBlogAndHiddenAreExcluded) {
  const auto c = sample();
  const auto query = c.signature_of(1);
  const auto scored = score_candidates(query, c.postings(), 1);
  const auto own = simhash(kQueueText);
  std::vector<CandidateInfo> infos;
  for (std::int64_t id = 2; id <= 5; ++id)
    infos.push_back({.id = id, .blog_id = 100 + id, .simhash = 0, .visible = true});
  const SimilarSubject subject{.id = 1, .blog_id = 101, .simhash = own};
  auto first_pick = [&] {
    const auto picks = pick_similar(query, subject, scored, infos, 5);
    return picks.empty() ? std::int64_t{0} : picks.front().article_id;
  };
  ASSERT_EQ(first_pick(), 2);
  infos[0].simhash = own ^ 0x3;  // two bits off: a near-duplicate
  ASSERT_TRUE(near_duplicate(own, infos[0].simhash));
  EXPECT_NE(first_pick(), 2);
  infos[0].simhash = ~own;  // far apart again, but the same blog
  infos[0].blog_id = 101;
  EXPECT_NE(first_pick(), 2);
  infos[0].blog_id = 102;  // another blog, but hidden (junk or held)
  infos[0].visible = false;
  EXPECT_NE(first_pick(), 2);
  infos[0].visible = true;
  EXPECT_EQ(first_pick(), 2);
  EXPECT_EQ(pick_similar(query, subject, scored, {}, 5).size(), 0u) << "deleted candidates have no info";
}

TEST(SimilarPicks, JoinReason) {
  EXPECT_EQ(join_reason({"lock free", "ring buffer", "cache line"}), "lock free, ring buffer, cache line");
  EXPECT_EQ(join_reason({}), "");
}

}  // namespace
}  // namespace longread::curate
