// Readers' flags as stored (migration 0023): once per reader and article, the daily limit, the hold at
// moderation.flags_to_hide distinct flags (gone from listings, search, feeds and counts alike), an
// operator's keep that sticks and junk that is the usual override, and flags going with their reader.
// On both backends.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "storage/store.h"
#include "testing/store_test.h"

namespace longread::storage {
namespace {

TimePoint at(std::int64_t hours_after) {
  return from_unix(1'700'000'000 + hours_after * 3600);
}

constexpr FlagRules kRules{.flags_to_hide = 3, .flags_per_day = 5};

class FlagsStoreTest : public longread::testing::StoreSuite {
 protected:
  FlagsStoreTest() : StoreSuite("longread-flags-store") {}

  void SetUp() override {
    StoreTest::SetUp();
    auto blog = store_->upsert_blog(
        {.feed_url = "https://flags.example/feed", .title = "Flags Blog", .category = "essays"});
    ASSERT_TRUE(blog) << blog.error().message;
    blog_ = *blog;
    CrawlRecord record{.blog_id = blog_, .attempted_at = at(0), .success = true, .status = "ok"};
    for (int i = 0; i < 12; ++i) {
      model::Article a;
      a.guid = "post-" + std::to_string(i);
      // One word every article has, and one only the first has, so search can find either.
      a.title = i == 0 ? "Quokka migration" : "Essay " + std::to_string(i);
      a.link = "https://flags.example/" + a.guid;
      a.published = at(-i);
      a.text = i == 0 ? "The quokka crosses the plain with the others." : "Plain words about plain things.";
      a.excerpt = a.text;
      a.word_count = 500;
      a.category = "essays";
      record.articles.push_back(a);
    }
    ASSERT_TRUE(store_->save_crawl(record));
    auto stored = store_->articles({.blog_id = blog_, .limit = 50});
    ASSERT_TRUE(stored);
    for (const auto& v : *stored) {
      if (v.article.guid == "post-0") target_ = v.article.id;
      ids_.push_back(v.article.id);
    }
    ASSERT_NE(target_, 0);
    for (int i = 0; i < 6; ++i) {
      auto r =
          store_->create_reader("reader" + std::to_string(i) + "@example.org", "hash", at(-100), at(-100));
      ASSERT_TRUE(r) << r.error().message;
      readers_.push_back(*r);
    }
  }

  Result<FlagResult> flag(int reader, FlagReason reason = FlagReason::kSpam, std::int64_t article = 0,
                          TimePoint when = at(1)) {
    return store_->flag_article(readers_.at(reader), article ? article : target_, reason, when, kRules);
  }

  // Where the target shows: the newest listing, its blog and category, the Atom feed's query (the
  // newest of all, as pages/feeds.cpp asks), hot pages, search, and the visible counts.
  struct Places {
    bool newest = false, blog = false, category = false, hot = false, search = false, newsletter = false;
    std::int64_t count_all = 0, count_blog = 0, count_category = 0;
  };
  Places where_shown() {
    Places p;
    auto has = [&](const std::vector<ArticleView>& list) {
      for (const auto& v : list)
        if (v.article.id == target_) return true;
      return false;
    };
    p.newest = has(store_->articles({.limit = 100}).value());
    p.blog = has(store_->articles({.blog_id = blog_, .limit = 100}).value());
    p.category = has(store_->articles({.category = "essays", .limit = 100}).value());
    p.hot = has(store_->hot_page({.page_size = 100}).value().articles);
    // The newsletter's selection (mail/newsletter.cpp): the week's articles by votes.
    p.newsletter =
        has(store_->articles({.since = at(-100), .order = ArticleOrder::kTop, .limit = 100}).value());
    const auto hits = store_->search("quokka", 10, 0).value();
    for (const auto& hit : hits) p.search |= hit.view.article.id == target_;
    p.count_all = store_->count_articles({}).value();
    p.count_blog = store_->count_articles({.blog_id = blog_}).value();
    p.count_category = store_->count_articles({.category = "essays"}).value();
    return p;
  }
  void expect_shown(bool shown) {
    const Places p = where_shown();
    EXPECT_EQ(p.newest, shown);
    EXPECT_EQ(p.blog, shown);
    EXPECT_EQ(p.category, shown);
    EXPECT_EQ(p.hot, shown);
    EXPECT_EQ(p.search, shown);
    EXPECT_EQ(p.newsletter, shown);
    const std::int64_t expected = shown ? 12 : 11;
    EXPECT_EQ(p.count_all, expected);
    EXPECT_EQ(p.count_blog, expected);
    EXPECT_EQ(p.count_category, expected);
    EXPECT_EQ(store_->site_stats(at(1)).value().articles_visible, expected);
  }

  std::int64_t blog_ = 0;
  std::int64_t target_ = 0;
  std::vector<std::int64_t> ids_;
  std::vector<std::int64_t> readers_;
};

TEST_P(FlagsStoreTest, AReaderFlagsAnArticleOnceAndMayWithdrawIt) {
  auto first = flag(0, FlagReason::kAiGenerated);
  ASSERT_TRUE(first) << first.error().message;
  EXPECT_EQ(first->outcome, FlagOutcome::kFlagged);
  EXPECT_EQ(first->state.flags, 1);
  EXPECT_EQ(first->state.reader_flag, FlagReason::kAiGenerated);

  // The same reader again, with another reason: nothing changes, and the answer says so.
  auto again = flag(0, FlagReason::kSpam);
  ASSERT_TRUE(again);
  EXPECT_EQ(again->outcome, FlagOutcome::kAlreadyFlagged);
  EXPECT_EQ(again->state.flags, 1);
  EXPECT_EQ(again->state.reader_flag, FlagReason::kAiGenerated);
  auto listed = store_->flagged_articles(10).value();
  ASSERT_EQ(listed.size(), 1u);
  EXPECT_EQ(listed[0].flags, 1);
  EXPECT_EQ(listed[0].by_reason[1], 1);  // ai
  EXPECT_EQ(listed[0].by_reason[0], 0);  // spam

  EXPECT_TRUE(store_->withdraw_flag(readers_[0], target_).value());
  EXPECT_FALSE(store_->withdraw_flag(readers_[0], target_).value());
  EXPECT_EQ(store_->flag_state(target_, readers_[0]).value().flags, 0);
  EXPECT_FALSE(store_->flag_state(target_, readers_[0]).value().reader_flag);
  EXPECT_TRUE(store_->flagged_articles(10).value().empty());

  // Unknown or hidden articles cannot be flagged.
  EXPECT_EQ(flag(0, FlagReason::kSpam, 999999).error().kind, ErrorKind::kNotFound);
  ASSERT_TRUE(store_->set_keep_override(ids_.back(), false));
  EXPECT_EQ(flag(0, FlagReason::kSpam, ids_.back()).error().kind, ErrorKind::kNotFound);
}

TEST_P(FlagsStoreTest, TheThresholdHidesTheArticleFromListingsSearchFeedsAndCounts) {
  expect_shown(true);
  ASSERT_EQ(flag(0)->outcome, FlagOutcome::kFlagged);
  ASSERT_EQ(flag(1, FlagReason::kNotAnArticle)->outcome, FlagOutcome::kFlagged);
  // One short of flags_to_hide: still everywhere.
  EXPECT_FALSE(store_->flag_state(target_, std::nullopt).value().held);
  expect_shown(true);
  auto third = flag(2, FlagReason::kBrokenLink);
  ASSERT_TRUE(third);
  EXPECT_TRUE(third->state.held);
  EXPECT_EQ(third->state.flags, 3);
  expect_shown(false);
  EXPECT_EQ(store_->site_stats(at(1)).value().articles_held, 1);
  // Held, not judged: the article itself is still stored whole.
  auto article = store_->article(target_).value();
  ASSERT_TRUE(article);
  EXPECT_FALSE(article->article.junk);
  EXPECT_FALSE(article->article.keep_override);

  // A re-crawl that changes the article (new verdict, same "not junk") keeps it held.
  CrawlRecord record{.blog_id = blog_, .attempted_at = at(2), .success = true, .status = "ok"};
  model::Article a = article->article;
  a.title = "Quokka migration, revised";
  a.content_hash = "changed";
  a.text = "The quokka crosses the plain again.";
  a.excerpt = a.text;
  record.articles.push_back(a);
  ASSERT_TRUE(store_->save_crawl(record));
  expect_shown(false);

  // Withdrawing one of the three takes it below the count that held it: shown again everywhere.
  ASSERT_TRUE(store_->withdraw_flag(readers_[1], target_).value());
  EXPECT_FALSE(store_->flag_state(target_, std::nullopt).value().held);
  expect_shown(true);
  EXPECT_EQ(store_->site_stats(at(1)).value().articles_held, 0);
}

TEST_P(FlagsStoreTest, KeepLiftsTheHoldAndLaterFlagsNeverHoldItAgain) {
  for (int r = 0; r < 3; ++r) ASSERT_TRUE(flag(r));
  expect_shown(false);
  ASSERT_TRUE(store_->decide_flags(target_, FlagDecision::kKeep));
  expect_shown(true);
  auto state = store_->flag_state(target_, std::nullopt).value();
  EXPECT_FALSE(state.held);
  EXPECT_EQ(state.decision, "keep");
  // Flags after the decision are recorded, and hide nothing.
  ASSERT_EQ(flag(3)->outcome, FlagOutcome::kFlagged);
  ASSERT_EQ(flag(4)->outcome, FlagOutcome::kFlagged);
  EXPECT_EQ(store_->flag_state(target_, std::nullopt).value().flags, 5);
  expect_shown(true);
  // Across a re-open, and a re-crawl with unchanged content.
  reopen();
  expect_shown(true);
  EXPECT_EQ(store_->flagged_articles(10).value().at(0).decision, "keep");
}

TEST_P(FlagsStoreTest, JunkIsTheOperatorsOverrideAndSticksAcrossReCrawls) {
  for (int r = 0; r < 3; ++r) ASSERT_TRUE(flag(r));
  ASSERT_TRUE(store_->decide_flags(target_, FlagDecision::kJunk));
  expect_shown(false);
  auto article = store_->article(target_).value();
  EXPECT_EQ(article->article.keep_override, std::optional<bool>(false));
  EXPECT_FALSE(store_->flag_state(target_, std::nullopt).value().held);
  EXPECT_EQ(store_->site_stats(at(1)).value().articles_held, 0);
  // The feed changes the entry: the override still hides it.
  CrawlRecord record{.blog_id = blog_, .attempted_at = at(2), .success = true, .status = "ok"};
  model::Article a = article->article;
  a.content_hash = "changed again";
  record.articles.push_back(a);
  ASSERT_TRUE(store_->save_crawl(record));
  expect_shown(false);
  // Withdrawn flags do not undo an operator's decision.
  ASSERT_TRUE(store_->withdraw_flag(readers_[0], target_).value());
  expect_shown(false);
}

TEST_P(FlagsStoreTest, AKeepFromTheJunkReviewAlsoDecidesAHeldArticle) {
  for (int r = 0; r < 3; ++r) ASSERT_TRUE(flag(r));
  expect_shown(false);
  ASSERT_TRUE(store_->set_keep_override(target_, true));
  expect_shown(true);
  EXPECT_EQ(store_->flag_state(target_, std::nullopt).value().decision, "keep");
  ASSERT_TRUE(flag(3));
  expect_shown(true);
}

TEST_P(FlagsStoreTest, ADeletedReadersFlagsGoWithThemAndCanLiftAHold) {
  for (int r = 0; r < 3; ++r) ASSERT_TRUE(flag(r));
  expect_shown(false);
  ASSERT_TRUE(store_->delete_reader(readers_[2]));
  auto state = store_->flag_state(target_, std::nullopt).value();
  EXPECT_EQ(state.flags, 2);
  EXPECT_FALSE(state.held);
  expect_shown(true);
  EXPECT_EQ(store_->flagged_articles(10).value().at(0).flags, 2);
}

TEST_P(FlagsStoreTest, AReaderFlagsAtMostFlagsPerDayArticlesIn24Hours) {
  // kRules.flags_per_day is 5: the sixth article within 24 hours is refused and nothing is written.
  for (int i = 1; i <= 5; ++i) {
    auto r = flag(0, FlagReason::kSpam, ids_[i], at(1) + std::chrono::minutes(i));
    ASSERT_TRUE(r);
    EXPECT_EQ(r->outcome, FlagOutcome::kFlagged) << i;
  }
  auto over = flag(0, FlagReason::kSpam, ids_[6], at(2));
  ASSERT_TRUE(over);
  EXPECT_EQ(over->outcome, FlagOutcome::kOverDailyLimit);
  EXPECT_EQ(store_->flag_state(ids_[6], readers_[0]).value().flags, 0);
  // Another reader is not limited by it; and a day after the first flag the reader may flag again.
  EXPECT_EQ(flag(1, FlagReason::kSpam, ids_[6], at(2))->outcome, FlagOutcome::kFlagged);
  EXPECT_EQ(flag(0, FlagReason::kSpam, ids_[6], at(25) + std::chrono::minutes(2))->outcome,
            FlagOutcome::kFlagged);
}

TEST_P(FlagsStoreTest, FlaggedArticlesListNewestFlagFirstWithCountsPerReason) {
  ASSERT_TRUE(flag(0, FlagReason::kSpam, ids_[3], at(1)));
  ASSERT_TRUE(flag(1, FlagReason::kBrokenLink, ids_[3], at(2)));
  ASSERT_TRUE(flag(0, FlagReason::kAiGenerated, ids_[5], at(3)));
  auto listed = store_->flagged_articles(10).value();
  ASSERT_EQ(listed.size(), 2u);
  EXPECT_EQ(listed[0].article_id, ids_[5]);
  EXPECT_EQ(listed[0].blog_title, "Flags Blog");
  EXPECT_EQ(listed[1].article_id, ids_[3]);
  EXPECT_EQ(listed[1].flags, 2);
  EXPECT_EQ(listed[1].by_reason[0], 1);
  EXPECT_EQ(listed[1].by_reason[3], 1);
  EXPECT_EQ(listed[1].last_flag_at, at(2));
  EXPECT_EQ(store_->flagged_articles(1).value().size(), 1u);
}

TEST_P(FlagsStoreTest, ReasonNamesRoundTrip) {
  for (const FlagReason reason : kFlagReasons) {
    EXPECT_EQ(parse_flag_reason(flag_reason_name(reason)), reason);
  }
  EXPECT_FALSE(parse_flag_reason("nonsense"));
  EXPECT_FALSE(parse_flag_reason(""));
}

LONGREAD_STORE_BACKENDS(FlagsStoreTest);

}  // namespace
}  // namespace longread::storage
