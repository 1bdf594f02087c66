// The hot order's prior (pipeline/ranking.h) and the per-blog cap of the store's hot pages, on a fixture of
// one prolific blog of short posts and four quiet blogs of long, structured ones, stored in a real SQLite
// file.
#include "pipeline/ranking.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/strings.h"
#include "storage/store.h"
#include "testing/test_dir.h"

namespace longread::pipeline {
namespace {

namespace fs = std::filesystem;
using std::chrono::days;
using std::chrono::hours;

const TimePoint kNow = from_unix(1'800'000'000);

std::string words(int n, const std::string& word = "word") {
  std::string out;
  for (int i = 0; i < n; ++i) out += (i == 0 ? "" : " ") + word;
  return out + ".";
}

// A long post as html_to_text leaves it: headings, prose paragraphs and a code block.
std::string structured_text(int sections) {
  std::string text;
  for (int i = 0; i < sections; ++i) {
    if (!text.empty()) text += "\n\n";
    text += "Section " + std::to_string(i) + "\n\n" + words(120, "prose") + "\n\n" + words(120, "more");
    if (i % 2 == 0) text += "\n\nint main() {\n  return 0;\n}";
  }
  return text;
}

TEST(RankingPrior, DepthFavoursLongStructuredTextOverShortText) {
  const RankingOptions options;
  const std::string deep = structured_text(6);
  const TextShape shape = text_shape(deep, static_cast<int>(count_words(deep)));
  EXPECT_EQ(shape.headings, 6);
  EXPECT_EQ(shape.code_blocks, 3);
  EXPECT_EQ(shape.prose_paragraphs, 12);
  // 1,400+ words: log2(words / 1000) plus the whole structure bonus.
  EXPECT_NEAR(depth_score(shape, options), std::log2(shape.words / 1000.0) + 0.75, 1e-9);

  const std::string flat = words(2000);  // as long, one paragraph: no structure
  const TextShape flat_shape = text_shape(flat, 2000);
  EXPECT_EQ(flat_shape.prose_paragraphs, 1);
  EXPECT_LT(depth_score(flat_shape, options), depth_score(text_shape(structured_text(12), 3000), options));
  // Short posts: clamped at -2 (80 words would be log2(0.08) = -3.6), plus 1/8 of the prose bonus for
  // their one paragraph.
  EXPECT_DOUBLE_EQ(depth_score(text_shape(words(80), 80), options), -2.0 + 0.25 / 8);
  // A list of short items is not a list of headings: no prose follows them.
  EXPECT_EQ(text_shape("one\n\ntwo\n\nthree", 3).headings, 0);
}

TEST(RankingPrior, QuietBlogsGainAndBusyOnesLose) {
  const RankingOptions options;  // 4 posts a month scores 0
  std::vector<TimePoint> busy;
  for (int i = 0; i < 30; ++i) busy.push_back(kNow - hours(3 * i));  // 29 gaps over 87 hours
  const auto busy_rate = posts_per_month(busy);
  ASSERT_TRUE(busy_rate);
  EXPECT_NEAR(*busy_rate, 29.0 / (87.0 / 24.0 / 30.44), 1e-9);
  EXPECT_NEAR(quiet_score(busy_rate, options), std::max(-2.0, std::log10(4.0 / *busy_rate)), 1e-9);
  EXPECT_LT(quiet_score(busy_rate, options), -1.0);

  const std::vector<TimePoint> quiet{kNow, kNow - days(60), kNow - days(120)};
  EXPECT_NEAR(*posts_per_month(quiet), 2.0 / (120.0 / 30.44), 1e-9);
  EXPECT_GT(quiet_score(posts_per_month(quiet), options), 0.8);
  EXPECT_DOUBLE_EQ(quiet_score(posts_per_month(std::vector<TimePoint>{kNow - days(9000), kNow}), options),
                   0.0);  // two dates tell nothing
  // Weights 0 turn each part off.
  model::Article a;
  a.text = words(80);
  a.word_count = 80;
  EXPECT_DOUBLE_EQ(rank_prior(a, busy_rate, {.depth_weight_days = 0, .quiet_weight_days = 0}), 0.0);
  EXPECT_DOUBLE_EQ(rank_prior(a, busy_rate, {.depth_weight_days = 2, .quiet_weight_days = 0}),
                   2 * (-2.0 + 0.25 / 8));
}

// One prolific blog (30 short posts, one every 3 hours) and four quiet ones (three long posts each, two
// months apart, the newest 1-4 days old), all in one category, priors computed as the crawler does.
class CappedHotPages : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = longread::testing::fresh_test_dir("longread-ranking");
    fs::create_directories(dir_);
    auto store = storage::open_sqlite_store((dir_ / "db.sqlite").string());
    ASSERT_TRUE(store) << store.error().message;
    store_ = std::move(*store);
    const RankingOptions options;

    std::vector<model::Article> photos;
    std::vector<TimePoint> photo_dates;
    for (int i = 0; i < 30; ++i) {
      model::Article a = article("photo" + std::to_string(i), kNow - hours(3 * i), words(80));
      photos.push_back(a);
      photo_dates.push_back(*a.published);
    }
    photos_ = add_blog("photos", photos, photo_dates, options);
    for (int q = 0; q < 4; ++q) {
      std::vector<model::Article> posts;
      std::vector<TimePoint> dates;
      for (int i = 0; i < 3; ++i) {
        model::Article a = article("quiet" + std::to_string(q) + "-" + std::to_string(i),
                                   kNow - days(1 + q) - days(60 * i), structured_text(8));
        posts.push_back(a);
        dates.push_back(*a.published);
      }
      quiet_.push_back(add_blog("quiet" + std::to_string(q), posts, dates, options));
    }
  }
  void TearDown() override {
    store_.reset();
    fs::remove_all(dir_);
  }

  static model::Article article(const std::string& guid, TimePoint date, const std::string& text) {
    model::Article a;
    a.guid = guid;
    a.title = guid;
    a.link = "https://example.org/" + guid;
    a.published = date;
    a.first_seen = kNow;
    a.text = text;
    a.excerpt = text.substr(0, 200);
    a.word_count = static_cast<int>(count_words(text));
    return a;
  }

  std::int64_t add_blog(const std::string& name, std::vector<model::Article> articles,
                        const std::vector<TimePoint>& dates, const RankingOptions& options) {
    auto id = store_->upsert_blog(
        {.feed_url = "https://" + name + ".example/feed", .title = name, .category = "programming"});
    EXPECT_TRUE(id) << id.error().message;
    const auto rate = posts_per_month(dates);
    for (auto& a : articles) a.rank_prior = rank_prior(a, rate, options);
    storage::CrawlRecord record{
        .blog_id = *id, .attempted_at = kNow, .success = true, .status = "ok", .articles = articles};
    EXPECT_TRUE(store_->save_crawl(record));
    return *id;
  }

  storage::HotPage page(int n, int size, int cap, std::optional<std::string> category = "programming") {
    auto got = store_->hot_page({.category = category, .page = n, .page_size = size, .per_blog_cap = cap});
    EXPECT_TRUE(got) << got.error().message;
    return got.value_or(storage::HotPage{});
  }

  static std::map<std::int64_t, int> per_blog(const storage::HotPage& p) {
    std::map<std::int64_t, int> n;
    for (const auto& v : p.articles) ++n[v.article.blog_id];
    return n;
  }

  fs::path dir_;
  std::unique_ptr<storage::Store> store_;
  std::int64_t photos_ = 0;
  std::vector<std::int64_t> quiet_;
};

TEST_F(CappedHotPages, FirstPageIsCappedPerBlogAndLedByTheQuietBlogsDeepPosts) {
  // By date alone (what Hot showed without votes), the prolific blog owns the first page.
  auto newest = store_->articles({.limit = 10});
  ASSERT_TRUE(newest);
  EXPECT_GE(std::ranges::count_if(*newest, [&](const auto& v) { return v.article.blog_id == photos_; }), 8);

  for (const auto& category : {std::optional<std::string>("programming"), std::optional<std::string>()}) {
    const auto first = page(1, 10, 2, category);
    ASSERT_EQ(first.articles.size(), 10u);
    EXPECT_TRUE(first.has_more);
    for (const auto& [blog, n] : per_blog(first)) EXPECT_LE(n, 2) << "blog " << blog;
    // The four quiet blogs' newest posts (1-4 days old, deep, rare) lead, newest first, then the
    // prolific blog's two newest, whose short posts and rate cost them ~5 days against the quiet ones.
    for (int q = 0; q < 4; ++q) {
      EXPECT_EQ(first.articles[static_cast<std::size_t>(q)].article.guid, "quiet" + std::to_string(q) + "-0");
    }
    EXPECT_EQ(first.articles[4].article.guid, "photo0");
    EXPECT_EQ(first.articles[5].article.guid, "photo1");
    // Scores never rise down the page.
    for (std::size_t i = 1; i < first.articles.size(); ++i) {
      EXPECT_LE(first.articles[i].article.score, first.articles[i - 1].article.score);
    }
  }
}

TEST_F(CappedHotPages, PagesNeitherRepeatNorSkipAndFillUpOnceOtherBlogsRunOut) {
  for (const int size : {5, 7, 10, 25}) {
    std::vector<storage::HotPage> pages;
    for (int n = 1; n < 100; ++n) {
      pages.push_back(page(n, size, 2));
      ASSERT_FALSE(pages.back().articles.empty()) << "size " << size << " page " << n;
      if (!pages.back().has_more) break;
      EXPECT_EQ(static_cast<int>(pages.back().articles.size()), size) << "only the last page is short";
    }
    EXPECT_EQ(static_cast<int>(pages.back().articles.size()), (42 - 1) % size + 1);
    std::vector<std::string> seen;
    for (std::size_t i = 0; i < pages.size(); ++i) {
      for (const auto& v : pages[i].articles) seen.push_back(v.article.guid);
      // A page goes over the cap only when nothing within the cap was left for it: every blog that
      // still appears on a later page already has its 2 on this one.
      const auto counts = per_blog(pages[i]);
      const bool over = std::ranges::any_of(counts, [](const auto& c) { return c.second > 2; });
      if (!over) continue;
      for (std::size_t j = i + 1; j < pages.size(); ++j) {
        for (const auto& v : pages[j].articles) {
          const auto it = counts.find(v.article.blog_id);
          EXPECT_TRUE(it != counts.end() && it->second >= 2)
              << "size " << size << ": page " << i + 1 << " went over the cap while blog "
              << v.article.blog_id << " had room";
        }
      }
    }
    EXPECT_EQ(seen.size(), 42u) << "size " << size;
    EXPECT_EQ(std::set<std::string>(seen.begin(), seen.end()).size(), seen.size()) << "size " << size;
    // The first page is within the cap whatever its size (there are more than enough blogs for 5 or 10).
    if (size <= 10) {
      for (const auto& [blog, n] : per_blog(pages.front())) EXPECT_LE(n, 2) << "size " << size;
    }
    EXPECT_TRUE(page(static_cast<int>(pages.size()) + 1, size, 2).articles.empty());
  }
}

TEST_F(CappedHotPages, MoreInTheCategoryTakesOnePerOtherBlogAndNeverTheCurrentOne) {
  auto more = store_->hot_page({.category = "programming",
                                .exclude_blog_id = quiet_[0],
                                .page = 1,
                                .page_size = 5,
                                .per_blog_cap = 1,
                                .strict_cap = true});
  ASSERT_TRUE(more) << more.error().message;
  std::set<std::int64_t> blogs;
  for (const auto& v : more->articles) {
    EXPECT_NE(v.article.blog_id, quiet_[0]);
    EXPECT_TRUE(blogs.insert(v.article.blog_id).second) << "two from blog " << v.article.blog_id;
  }
  // Four other blogs: four articles, a short list rather than a second from one blog.
  EXPECT_EQ(more->articles.size(), 4u);
}

TEST_F(CappedHotPages, NoCapIsThePlainHotOrder) {
  const auto all = page(1, 50, 0);
  auto plain =
      store_->articles({.category = "programming", .order = storage::ArticleOrder::kHot, .limit = 50});
  ASSERT_TRUE(plain);
  ASSERT_EQ(all.articles.size(), plain->size());
  for (std::size_t i = 0; i < plain->size(); ++i)
    EXPECT_EQ(all.articles[i].article.id, (*plain)[i].article.id);
  EXPECT_FALSE(all.has_more);
}

}  // namespace
}  // namespace longread::pipeline
