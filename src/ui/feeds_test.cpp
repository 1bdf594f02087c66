// The site's Atom feeds over real HTTP, read back with longread's own feed parser: each document is
// bounded, and following rel="next" (RFC 5005) from the first page visits every article once, in order.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <regex>
#include <set>

#include "feed/feed.h"
#include "storage/store.h"
#include "ui/testing/running_site.h"
#include "web/testing/client.h"

namespace longread::ui {
namespace {

using std::chrono::days;
using std::chrono::hours;
using ::testing::HasSubstr;
using web::testing::http_get;

constexpr int kPageSize = 5;

model::Article article(const std::string& guid, TimePoint when) {
  model::Article a;
  a.guid = guid;
  a.title = "Essay " + guid;
  a.link = "https://blog.example/" + guid;
  a.published = when;
  a.first_seen = when;
  a.text = "A long essay about " + guid + " with enough words to be an article.";
  a.excerpt = a.text;
  a.word_count = 14;
  a.reading_minutes = 1;
  a.category = "programming";
  return a;
}

class FeedsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("longread-feeds-test-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    auto store = storage::open_sqlite_store((dir_ / "site.db").string());
    ASSERT_TRUE(store) << store.error().message;
    store_ = std::move(*store);
  }
  void TearDown() override {
    site_.reset();
    store_.reset();
    std::filesystem::remove_all(dir_);
  }

  std::int64_t add_blog(const std::string& name, const std::string& category) {
    storage::BlogSeed seed;
    seed.feed_url = "https://" + name + ".example/feed";
    seed.site_url = "https://" + name + ".example/";
    seed.title = name;
    seed.category = category;
    auto id = store_->upsert_blog(seed);
    EXPECT_TRUE(id) << id.error().message;
    return id.value_or(0);
  }

  void save(std::int64_t blog, std::vector<model::Article> articles) {
    storage::CrawlRecord record;
    record.blog_id = blog;
    record.attempted_at = now_;
    record.success = true;
    record.status = "ok";
    record.next_due_at = now_ + hours(1);
    record.articles = std::move(articles);
    ASSERT_TRUE(store_->save_crawl(record).has_value());
  }

  std::int64_t article_id(std::int64_t blog, const std::string& guid) {
    const auto keys = store_->article_keys(blog);
    EXPECT_TRUE(keys);
    for (const auto& key : keys.value_or(std::vector<storage::StoredArticleKey>{}))
      if (key.guid == guid) return key.id;
    ADD_FAILURE() << "no article " << guid;
    return 0;
  }

  void serve() {
    SiteOptions options = testing::test_site_options();
    options.feed_page_size = kPageSize;
    auto running = testing::RunningSite::over(*store_, std::move(options));
    ASSERT_TRUE(running) << running.error().message;
    site_ = std::move(*running);
  }

  web::testing::ClientResponse get(const std::string& target) {
    auto res = http_get(site_->port(), target);
    EXPECT_TRUE(res) << target;
    return res.value_or(web::testing::ClientResponse{});
  }

  // Follows rel="next" from `path`; the entries' titles in the order read, one vector per document.
  std::vector<std::vector<std::string>> walk(const std::string& path) {
    std::vector<std::vector<std::string>> pages;
    std::string target = path;
    while (!target.empty() && pages.size() < 100) {
      auto res = get(target);
      EXPECT_EQ(res.status, 200) << target << ": " << res.body;
      EXPECT_EQ(res.header("Content-Type").value_or(""), "application/atom+xml; charset=utf-8");
      auto feed = feed::parse_feed(res.body);
      EXPECT_TRUE(feed) << target;
      if (!feed) break;
      EXPECT_FALSE(feed->bozo) << target << ": " << feed->bozo_message;
      std::vector<std::string> titles;
      for (const auto& e : feed->entries) titles.push_back(e.title);
      pages.push_back(titles);
      // Every page names its own URL and the first page (RFC 5005 section 3).
      EXPECT_THAT(res.body,
                  HasSubstr("<link rel=\"self\" type=\"application/atom+xml\" href=\"https://longread.test" +
                            target + "\"/>"));
      EXPECT_THAT(res.body,
                  HasSubstr("<link rel=\"first\" type=\"application/atom+xml\" href=\"https://longread.test" +
                            path + "\"/>"));
      std::smatch next;
      static const std::regex kNext(
          R"re(<link rel="next" type="application/atom\+xml" href="https://longread\.test([^"]+)"/>)re");
      target = std::regex_search(res.body, next, kNext) ? next[1].str() : std::string();
    }
    return pages;
  }

  std::filesystem::path dir_;
  std::unique_ptr<storage::Store> store_;
  std::unique_ptr<testing::RunningSite> site_;
  TimePoint now_ = now_seconds();
};

std::vector<std::string> flatten(const std::vector<std::vector<std::string>>& pages) {
  std::vector<std::string> all;
  for (const auto& p : pages) all.insert(all.end(), p.begin(), p.end());
  return all;
}

TEST_F(FeedsTest, ListingFeedsArePagedAndReachEveryArticleOnce) {
  const auto busy = add_blog("busy", "programming");
  const auto quiet = add_blog("quiet", "history");
  std::vector<model::Article> busy_articles;
  std::vector<std::string> newest_first;  // expected order: by date, newest first
  for (int i = 0; i < 23; ++i) busy_articles.push_back(article("b" + std::to_string(i), now_ - hours(2 * i)));
  std::vector<model::Article> quiet_articles;
  for (int i = 0; i < 4; ++i) {
    auto a = article("q" + std::to_string(i), now_ - hours(2 * i + 1));
    a.category = "history";
    quiet_articles.push_back(a);
  }
  for (int h = 0; h < 46; ++h) {
    if (h % 2 == 0 && h / 2 < 23) newest_first.push_back("Essay b" + std::to_string(h / 2));
    if (h % 2 == 1 && h / 2 < 4) newest_first.push_back("Essay q" + std::to_string(h / 2));
  }
  save(busy, busy_articles);
  save(quiet, quiet_articles);
  serve();

  // 27 articles in pages of at most 5: six documents, newest first, none repeated or skipped.
  const auto site = walk("/feed.atom");
  ASSERT_EQ(site.size(), 6u);
  for (const auto& page : site) EXPECT_LE(page.size(), static_cast<std::size_t>(kPageSize));
  EXPECT_EQ(flatten(site), newest_first);

  // A blog's own feed: that blog only.
  std::vector<std::string> busy_titles;
  for (const auto& t : newest_first)
    if (t.starts_with("Essay b")) busy_titles.push_back(t);
  const auto blog_pages = walk("/blog/" + std::to_string(busy) + "/feed.atom");
  EXPECT_EQ(blog_pages.size(), 5u);
  EXPECT_EQ(flatten(blog_pages), busy_titles);
  EXPECT_EQ(flatten(walk("/category/history/feed.atom")),
            (std::vector<std::string>{"Essay q0", "Essay q1", "Essay q2", "Essay q3"}));

  // An article added while a reader pages through does not shift the pages that follow (keyset paging).
  auto first = get("/feed.atom");
  std::smatch next;
  ASSERT_TRUE(std::regex_search(
      first.body, next,
      std::regex(R"re(rel="next" type="application/atom\+xml" href="https://longread\.test([^"]+)")re")));
  const std::string second_page = next[1].str();
  const auto before = feed::parse_feed(get(second_page).body).value().entries.size();
  save(quiet, {article("fresh", now_)});
  auto again = feed::parse_feed(get(second_page).body);
  ASSERT_TRUE(again);
  ASSERT_EQ(again->entries.size(), before);
  EXPECT_EQ(again->entries.front().title, newest_first[kPageSize]);

  // The blog page names its feed for feed readers.
  EXPECT_THAT(get("/blog/" + std::to_string(busy)).body,
              HasSubstr("type=\"application/atom+xml\" title=\"busy — longread\" href=\"/blog/" +
                        std::to_string(busy) + "/feed.atom\""));

  // Bad input: a forged or empty cursor is a 400, an unknown or malformed blog a 404.
  EXPECT_EQ(get("/feed.atom?after=forged").status, 400);
  EXPECT_EQ(get("/feed.atom?after=").status, 400);
  EXPECT_EQ(get("/blog/" + std::to_string(busy) + "/feed.atom?after=1.2.3.4.5.6").status, 400);
  EXPECT_EQ(get("/blog/999/feed.atom").status, 404);
  EXPECT_EQ(get("/blog/x1/feed.atom").status, 404);
}

TEST_F(FeedsTest, TheWeeklyTopFeedHasOneWeekPerDocument) {
  const auto blog = add_blog("weekly", "programming");
  const TimePoint this_week = iso_week_start(now_);
  const TimePoint last_week = this_week - days(7);
  const TimePoint three_weeks_ago = this_week - days(21);
  std::vector<model::Article> articles;
  // Last week: seven articles; "l<i>" gets i votes.
  for (int i = 0; i < 7; ++i)
    articles.push_back(article("l" + std::to_string(i), last_week + hours(20 * i + 1)));
  // As many votes as l6 but older: ties go to the newer article.
  articles.push_back(article("tie", last_week + hours(2)));
  // This week (not complete yet, so not in the feed) and three weeks ago; two weeks ago is empty.
  articles.push_back(article("now", this_week + std::chrono::minutes(1)));
  articles.push_back(article("old-a", three_weeks_ago + hours(1)));
  articles.push_back(article("old-b", three_weeks_ago + days(6)));
  save(blog, articles);
  std::vector<std::int64_t> readers;
  for (int r = 0; r < 6; ++r) {
    auto id = store_->create_reader("r" + std::to_string(r) + "@example.org", "x", now_, now_);
    ASSERT_TRUE(id) << id.error().message;
    readers.push_back(*id);
  }
  for (int i = 0; i < 7; ++i) {
    const auto id = article_id(blog, "l" + std::to_string(i));
    for (int r = 0; r < i; ++r) ASSERT_TRUE(store_->set_vote(readers[r], id, true, now_));
  }
  for (int r = 0; r < 6; ++r) ASSERT_TRUE(store_->set_vote(readers[r], article_id(blog, "tie"), true, now_));
  // Votes for this week's article do not bring it into a complete week's page.
  ASSERT_TRUE(store_->set_vote(readers[0], article_id(blog, "now"), true, now_));
  serve();

  const auto pages = walk("/top/feed.atom");
  ASSERT_EQ(pages.size(), 3u);
  EXPECT_EQ(pages[0],
            (std::vector<std::string>{"Essay l6", "Essay tie", "Essay l5", "Essay l4", "Essay l3"}));
  EXPECT_TRUE(pages[1].empty());  // a week without articles is an empty page, and the walk goes on
  EXPECT_EQ(pages[2], (std::vector<std::string>{"Essay old-b", "Essay old-a"}));

  auto first = get("/top/feed.atom");
  EXPECT_THAT(first.body, HasSubstr("href=\"https://longread.test/top/feed.atom?week=" +
                                    iso_week_key(last_week - days(7)) + "\""));
  EXPECT_THAT(get("/top").body, HasSubstr("href=\"/top/feed.atom\""));

  // The week in progress, a future week and anything that is not a week are 404s.
  EXPECT_EQ(get("/top/feed.atom?week=" + iso_week_key(now_)).status, 404);
  EXPECT_EQ(get("/top/feed.atom?week=" + iso_week_key(now_ + days(30))).status, 404);
  EXPECT_EQ(get("/top/feed.atom?week=2021-W53").status, 404);
  EXPECT_EQ(get("/top/feed.atom?week=%00").status, 404);
}

}  // namespace
}  // namespace longread::ui
