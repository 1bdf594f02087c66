// Keyset pagination of every listing (ArticleQuery::after, HotPageQuery::after): walked page by page on a
// fixture, every listed article comes exactly once and in order, also when articles arrive between page
// loads; forged cursors are refused, never an error of the database. Real database files.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "storage/store.h"
#include "testing/test_dir.h"

namespace longread::storage {
namespace {

namespace fs = std::filesystem;

constexpr std::int64_t kBase = 1'700'000'000;
TimePoint at(std::int64_t hours) {
  return from_unix(kBase + hours * 3600);
}

// One page from a cursor ("" = the first).
using PageCall = std::function<Result<ArticlePage>(const std::string& after)>;

class ListingPagesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = longread::testing::fresh_test_dir("longread-listing-pages");
    fs::create_directories(dir_);
    auto store = open_sqlite_store((dir_ / "db.sqlite").string());
    ASSERT_TRUE(store) << store.error().message;
    store_ = std::move(*store);
    // 6 blogs in 2 categories, 20 articles each; dates repeat (ties broken by id), every 7th is junk.
    for (int b = 0; b < 6; ++b) {
      auto id = store_->upsert_blog({.feed_url = "https://b" + std::to_string(b) + ".example/feed",
                                     .title = "Blog " + std::to_string(b),
                                     .category = b % 2 == 0 ? "even" : "odd"});
      ASSERT_TRUE(id) << id.error().message;
      blogs_.push_back(*id);
      add_articles(*id, "b" + std::to_string(b) + "-", 20, b * 3);
    }
    for (int r = 0; r < 8; ++r) {
      auto id = store_->create_reader("r" + std::to_string(r) + "@example.org", "x", at(0), at(0));
      ASSERT_TRUE(id) << id.error().message;
      readers_.push_back(*id);
    }
    // Votes: article i gets (i % 5) votes, cast 1 to 40 days before `now_` (so week and month differ).
    auto visible = all_visible();
    for (std::size_t i = 0; i < visible.size(); ++i) {
      for (std::size_t r = 0; r < i % 5; ++r) {
        const auto when = now_ - std::chrono::hours(24 * static_cast<int>((i * 7 + r * 11) % 40) + 1);
        ASSERT_TRUE(store_->set_vote(readers_[r], visible[i], true, when));
        votes_.push_back({visible[i], when});
      }
    }
    ASSERT_TRUE(store_->age_period_votes(now_));
  }
  void TearDown() override {
    store_.reset();
    fs::remove_all(dir_);
  }

  void add_articles(std::int64_t blog, const std::string& prefix, int n, int shift) {
    CrawlRecord record{.blog_id = blog, .attempted_at = at(1000), .success = true, .status = "ok"};
    for (int i = 0; i < n; ++i) {
      model::Article a;
      a.guid = prefix + std::to_string(i);
      a.title = a.guid;
      a.link = "https://example.org/" + a.guid;
      a.published = at((i * 5 + shift) % 40);  // many articles share a date
      a.first_seen = at(1000);
      a.text = "text of " + a.guid;
      a.junk = (i + shift) % 7 == 0;
      record.articles.push_back(a);
    }
    ASSERT_TRUE(store_->save_crawl(record));
  }

  std::vector<std::int64_t> all_visible() {
    auto all = store_->articles({.limit = 100000});
    EXPECT_TRUE(all);
    std::vector<std::int64_t> ids;
    for (const auto& v : all.value_or(std::vector<ArticleView>{})) ids.push_back(v.article.id);
    return ids;
  }

  // Follows the cursors from the first page to the last; `between` runs after each page load.
  std::vector<std::vector<ArticleView>> walk(const PageCall& page,
                                             const std::function<void(int)>& between = {}) {
    std::vector<std::vector<ArticleView>> pages;
    std::string cursor;
    for (int n = 0; n < 1000; ++n) {
      auto p = page(cursor);
      EXPECT_TRUE(p) << p.error().message;
      if (!p) break;
      pages.push_back(p->articles);
      if (between) between(n);
      if (!p->has_more) {
        EXPECT_TRUE(p->next.empty());
        break;
      }
      EXPECT_FALSE(p->articles.empty()) << "an empty page before the end";
      EXPECT_FALSE(p->next.empty());
      cursor = p->next;
    }
    return pages;
  }

  PageCall listing(ArticleQuery query, int size) {
    query.limit = size;
    return [this, query](const std::string& after) {
      ArticleQuery q = query;
      q.after = after;
      return store_->article_page(q);
    };
  }
  PageCall hot(HotPageQuery query, int size) {
    query.page_size = size;
    return [this, query](const std::string& after) {
      HotPageQuery q = query;
      q.after = after;
      return store_->hot_page(q);
    };
  }

  static std::vector<std::int64_t> ids_of(const std::vector<std::vector<ArticleView>>& pages) {
    std::vector<std::int64_t> ids;
    for (const auto& p : pages) {
      for (const auto& v : p) ids.push_back(v.article.id);
    }
    return ids;
  }

  static std::int64_t display_at(const model::Article& a) {
    return to_unix(a.published.value_or(a.first_seen));
  }

  std::map<std::int64_t, int> votes_since(TimePoint since) const {
    std::map<std::int64_t, int> n;
    for (const auto& [id, when] : votes_) {
      if (when >= since) ++n[id];
    }
    return n;
  }

  fs::path dir_;
  std::unique_ptr<Store> store_;
  std::vector<std::int64_t> blogs_;
  std::vector<std::int64_t> readers_;
  std::vector<std::pair<std::int64_t, TimePoint>> votes_;
  TimePoint now_ = at(2000);
};

// What a listing should hold, worked out from the fixture (not by the store): the ids, in order of a key.
template <typename Key>
std::vector<std::int64_t> expected_order(const std::vector<ArticleView>& candidates,
                                         const std::function<bool(const model::Article&)>& keep, Key key) {
  std::vector<const model::Article*> rows;
  for (const auto& v : candidates) {
    if (keep(v.article)) rows.push_back(&v.article);
  }
  std::ranges::sort(rows,
                    [&](const model::Article* a, const model::Article* b) { return key(*b) < key(*a); });
  std::vector<std::int64_t> ids;
  for (const auto* a : rows) ids.push_back(a->id);
  return ids;
}

TEST_F(ListingPagesTest, EveryListingWalkedByCursorsListsEachArticleOnceInOrder) {
  auto everything = store_->articles({.include_junk = true, .limit = 100000});
  ASSERT_TRUE(everything);
  std::vector<ArticleView> visible;
  for (const auto& v : *everything) {
    if (!v.article.junk) visible.push_back(v);
  }
  ASSERT_GT(visible.size(), 90u);
  auto all = [](const model::Article&) { return true; };
  auto newest = [](const model::Article& a) { return std::tuple(display_at(a), a.id); };
  auto top = [](const model::Article& a) { return std::tuple(a.votes, display_at(a), a.id); };
  auto hot_key = [](const model::Article& a) { return std::tuple(a.score, display_at(a), a.id); };
  const auto week = votes_since(now_ - std::chrono::days(7));
  const auto month = votes_since(now_ - std::chrono::days(30));
  auto period = [](const std::map<std::int64_t, int>& counts) {
    return [&counts](const model::Article& a) {
      const auto it = counts.find(a.id);
      return std::tuple(it == counts.end() ? 0 : it->second, a.votes, display_at(a), a.id);
    };
  };
  auto in = [](const std::map<std::int64_t, int>& counts) {
    return [&counts](const model::Article& a) { return counts.contains(a.id); };
  };
  const std::string even = "even";
  for (const int size : {1, 4, 7, 25}) {
    SCOPED_TRACE("page size " + std::to_string(size));
    EXPECT_EQ(ids_of(walk(listing({}, size))), expected_order(visible, all, newest));
    EXPECT_EQ(ids_of(walk(listing({.blog_id = blogs_[1]}, size))),
              expected_order(
                  visible, [&](const model::Article& a) { return a.blog_id == blogs_[1]; }, newest));
    EXPECT_EQ(ids_of(walk(listing({.category = even}, size))),
              expected_order(
                  visible, [&](const model::Article& a) { return a.category == even; }, newest));
    EXPECT_EQ(ids_of(walk(listing({.voted_only = true, .order = ArticleOrder::kTop}, size))),
              expected_order(
                  visible, [](const model::Article& a) { return a.votes > 0; }, top));
    EXPECT_EQ(ids_of(walk(listing({.order = ArticleOrder::kHot}, size))),
              expected_order(visible, all, hot_key));
    EXPECT_EQ(ids_of(walk(hot({.category = even}, size))),
              expected_order(
                  visible, [&](const model::Article& a) { return a.category == even; }, hot_key));
    const auto week_ids =
        ids_of(walk(listing({.vote_period = VotePeriod::kWeek, .order = ArticleOrder::kTop}, size)));
    EXPECT_EQ(week_ids, expected_order(visible, in(week), period(week)));
    EXPECT_EQ(ids_of(walk(listing({.vote_period = VotePeriod::kMonth, .order = ArticleOrder::kTop}, size))),
              expected_order(visible, in(month), period(month)));
    EXPECT_LT(week_ids.size(), month.size());

    // Hot with the cap per blog: the pages the cursors give are the pages cut from the top by number.
    for (const auto& category : {std::optional<std::string>(), std::optional<std::string>(even)}) {
      for (const int cap : {1, 2}) {
        const auto pages = walk(hot({.category = category, .per_blog_cap = cap}, size));
        for (std::size_t n = 0; n < pages.size(); ++n) {
          auto by_number = store_->hot_page({.category = category,
                                             .page = static_cast<int>(n) + 1,
                                             .page_size = size,
                                             .per_blog_cap = cap});
          ASSERT_TRUE(by_number);
          std::vector<std::vector<ArticleView>> one{by_number->articles};
          EXPECT_EQ(ids_of({pages[n]}), ids_of(one)) << "page " << n + 1 << " cap " << cap;
        }
        auto ids = ids_of(pages);
        auto want = expected_order(
            visible, [&](const model::Article& a) { return !category || a.category == *category; }, hot_key);
        std::ranges::sort(ids);
        std::ranges::sort(want);
        EXPECT_EQ(ids, want) << "cap " << cap;
      }
    }
  }
}

// Top by period keeps per-article counts that age_period_votes ages in batches of 10,000 votes (one
// transaction each, every vote of one second in the same batch). Here 15,000 more votes, many sharing a
// second, pass the week's start in more than one batch; the counts must equal what the votes themselves
// say, and withdrawing votes (one by one, and a reader's all at once when the account is deleted) must
// lower them exactly.
TEST_F(ListingPagesTest, PeriodCountsAgeInBatchesAndFollowWithdrawnVotes) {
  auto everything = store_->articles({.include_junk = true, .limit = 100000});
  ASSERT_TRUE(everything);
  std::vector<ArticleView> visible;
  for (const auto& v : *everything) {
    if (!v.article.junk) visible.push_back(v);
  }
  ASSERT_GE(visible.size(), 100u);
  const TimePoint later = now_ + std::chrono::days(20);
  std::vector<std::int64_t> voters;
  for (int r = 0; r < 150; ++r) {
    auto id = store_->create_reader("v" + std::to_string(r) + "@example.org", "x", at(0), at(0));
    ASSERT_TRUE(id) << id.error().message;
    voters.push_back(*id);
    for (std::size_t i = 0; i < 100; ++i) {
      // From the week's start at now_ to `later`, on whole hours: about 30 votes share each second.
      const auto when =
          now_ - std::chrono::days(7) + std::chrono::hours(static_cast<int>((r * 100 + i) % 648));
      ASSERT_TRUE(store_->set_vote(*id, visible[i].article.id, true, when));
      votes_.push_back({visible[i].article.id, when});
    }
  }
  // Withdrawn before the aging: one vote, and all of one reader's (through the account's deletion).
  ASSERT_TRUE(store_->set_vote(voters[3], visible[5].article.id, false, later));
  std::erase(votes_,
             std::pair{visible[5].article.id, now_ - std::chrono::days(7) +
                                                  std::chrono::hours(static_cast<int>((3 * 100 + 5) % 648))});
  ASSERT_TRUE(store_->delete_reader(voters[4]));
  for (std::size_t i = 0; i < 100; ++i) {
    const auto when = now_ - std::chrono::days(7) + std::chrono::hours(static_cast<int>((4 * 100 + i) % 648));
    std::erase(votes_, std::pair{visible[i].article.id, when});
  }

  std::int64_t leaving = 0;  // the votes that pass the week's or the month's start between now_ and later
  for (const auto& [id, when] : votes_) {
    if (when >= now_ - std::chrono::days(7) && when < later - std::chrono::days(7)) ++leaving;
    if (when >= now_ - std::chrono::days(30) && when < later - std::chrono::days(30)) ++leaving;
  }
  ASSERT_GT(leaving, 10000);
  auto aged = store_->age_period_votes(later);
  ASSERT_TRUE(aged) << aged.error().message;
  EXPECT_EQ(*aged, leaving);

  auto fresh = store_->articles({.include_junk = true, .limit = 100000});
  ASSERT_TRUE(fresh);
  std::vector<ArticleView> now_visible;
  for (const auto& v : *fresh) {
    if (!v.article.junk) now_visible.push_back(v);
  }
  auto counts_since = [this](TimePoint since) {
    std::map<std::int64_t, int> n;
    for (const auto& [id, when] : votes_) {
      if (when >= since) ++n[id];
    }
    return n;
  };
  for (const auto& [period, days] : {std::pair{VotePeriod::kWeek, 7}, std::pair{VotePeriod::kMonth, 30}}) {
    SCOPED_TRACE(days);
    const auto counts = counts_since(later - std::chrono::days(days));
    auto key = [&counts](const model::Article& a) {
      const auto it = counts.find(a.id);
      return std::tuple(it == counts.end() ? 0 : it->second, a.votes, display_at(a), a.id);
    };
    EXPECT_EQ(ids_of(walk(listing({.vote_period = period, .order = ArticleOrder::kTop}, 25))),
              expected_order(
                  now_visible, [&counts](const model::Article& a) { return counts.contains(a.id); }, key));
  }
}

TEST_F(ListingPagesTest, ArticlesArrivingBetweenPageLoadsAreNeitherRepeatedNorSkipped) {
  const auto before = all_visible();
  int added = 0;
  // After each page load a crawl brings two articles: one newer than anything, one as old as the oldest.
  auto crawl = [&](int) {
    CrawlRecord record{
        .blog_id = blogs_[added % 6], .attempted_at = at(1000), .success = true, .status = "ok"};
    for (const std::int64_t hours : {std::int64_t{5000} + added, std::int64_t{0}}) {
      model::Article a;
      a.guid = "late-" + std::to_string(added) + "-" + std::to_string(hours);
      a.title = a.guid;
      a.published = at(hours);
      a.first_seen = at(1000);
      a.text = "late";
      record.articles.push_back(a);
    }
    ++added;
    ASSERT_TRUE(store_->save_crawl(record));
  };
  for (const auto& [name, call] : std::vector<std::pair<std::string, PageCall>>{
           {"newest", listing({}, 6)},
           {"hot", listing({.order = ArticleOrder::kHot}, 6)},
           {"hot capped", hot({.per_blog_cap = 2}, 6)},
           {"category hot capped", hot({.category = "odd", .per_blog_cap = 1}, 6)}}) {
    SCOPED_TRACE(name);
    const auto listed_before = name.starts_with("category") ? std::vector<std::int64_t>{} : before;
    auto ids = ids_of(walk(call, crawl));
    std::set<std::int64_t> seen;
    for (const auto id : ids) EXPECT_TRUE(seen.insert(id).second) << "article " << id << " repeated";
    for (const auto id : listed_before) EXPECT_TRUE(seen.contains(id)) << "article " << id << " skipped";
  }
  EXPECT_GT(added, 20);
}

TEST_F(ListingPagesTest, ForgedCursorsAreRefusedAndCostNoMoreThanRealOnes) {
  auto first = store_->article_page({.limit = 5});
  ASSERT_TRUE(first && first->has_more);
  const std::string nan_bits =
      std::to_string(std::bit_cast<std::int64_t>(std::numeric_limits<double>::quiet_NaN()));
  std::string many_held = "1.1.1_";
  for (int i = 0; i < 300; ++i) many_held += (i ? "." : "") + std::to_string(i + 1);
  for (const std::string& bad :
       {std::string("x"), std::string("."), std::string("1."), std::string(".1"), std::string("1..2"),
        std::string("1.2.3"), std::string("1"), std::string("99999999999999999999.1"), std::string("1.-5"),
        std::string("1.0"), std::string("1 .2"), std::string("1.2_3"), std::string("0x10.2"),
        std::string("'; DROP TABLE articles; --"), std::string(10000, '1'), std::string("+1.2")}) {
    SCOPED_TRACE(bad);
    auto page = store_->article_page({.limit = 5, .after = bad});
    ASSERT_FALSE(page);
    EXPECT_EQ(page.error().kind, ErrorKind::kInvalidInput);
    EXPECT_EQ(page.error().message, "store: bad listing cursor");
  }
  for (const std::string& bad : {nan_bits + ".1.1", std::string("1.1"), many_held, std::string("1.1.1_0"),
                                 std::string("1.1.1_x"), std::string("1.1.1_")}) {
    SCOPED_TRACE(bad);
    auto page = store_->hot_page({.after = bad, .per_blog_cap = 2});
    ASSERT_FALSE(page);
    EXPECT_EQ(page.error().kind, ErrorKind::kInvalidInput);
    auto plain = store_->article_page({.order = ArticleOrder::kHot, .limit = 5, .after = bad});
    ASSERT_FALSE(plain);
    EXPECT_EQ(plain.error().kind, ErrorKind::kInvalidInput);
  }
  // Well formed but from nowhere: a page from that position (nothing past the end, everything before the
  // start), never an error.
  auto past_end = store_->article_page({.limit = 5, .after = "-9223372036854775808.1"});
  ASSERT_TRUE(past_end);
  EXPECT_TRUE(past_end->articles.empty());
  EXPECT_FALSE(past_end->has_more);
  auto before_start = store_->article_page({.limit = 5, .after = "9223372036854775807.9223372036854775807"});
  ASSERT_TRUE(before_start);
  EXPECT_EQ(before_start->articles.size(), 5u);
  // Held ids of articles that are gone or hidden are dropped.
  auto held = store_->hot_page(
      {.after = first->next.substr(0, 0) + "4607182418800017408.1.1_999999.2.3", .per_blog_cap = 2});
  ASSERT_TRUE(held) << held.error().message;
}

}  // namespace
}  // namespace longread::storage
