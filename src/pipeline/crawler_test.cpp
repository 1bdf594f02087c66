// Crawling against a real HTTP server on 127.0.0.1: conditional GET, permanent redirects,
// Retry-After, timeouts, body cap, clear stored errors, identity across crawls, full text for summaries.
#include "pipeline/crawler.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <array>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <thread>

#include <sqlite3.h>

#include "fetch/http_client.h"
#include "fixture_server/fixture_server.h"
#include "pipeline/duplicates.h"
#include "pipeline/similar.h"
#include "pipeline/similar_catch_up.h"
#include "storage/article_body.h"
#include "storage/store.h"
#include "testing/test_dir.h"

namespace longread::pipeline {
namespace {
namespace fs = std::filesystem;

std::string paragraph(int seed, int words) {
  static const char* kWords[] = {"cache",  "line", "queue",  "memory",   "order",    "thread",  "atomic",
                                 "store",  "load", "fence",  "writer",   "reader",   "latency", "throughput",
                                 "kernel", "page", "buffer", "producer", "consumer", "barrier"};
  std::string s;
  for (int i = 0; i < words; ++i) {
    s += kWords[(seed * 7 + i * 3 + i / 5) % 20];
    s += (i % 13 == 12) ? ". " : (i % 7 == 6 ? ", " : " ");
  }
  return s;
}

std::string article_html(int seed) {
  std::string html;
  for (int p = 0; p < 4; ++p) html += "<p>" + paragraph(seed * 10 + p, 60) + "</p>";
  return html;
}

std::string rss(const std::string& title, int first, int count, const std::string& variant = "") {
  std::string items;
  for (int i = first; i < first + count; ++i) {
    items += "<item><title>Post " + std::to_string(i) + variant + "</title><link>https://example.org/p/" +
             std::to_string(i) + "</link><guid>post-" + std::to_string(i) +
             "</guid><pubDate>Mon, 23 May 2022 10:00:00 GMT</pubDate><description><![CDATA[" +
             article_html(i) + variant + "]]></description></item>";
  }
  return "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>" + title +
         "</title><link>https://example.org/</link>" + items + "</channel></rss>";
}

// The fixture server on 127.0.0.1 stands for the public internet; the outbound policy refuses loopback by
// default, so these crawls opt in to exactly that address.
fetch::ClientOptions fixture_client_options() {
  fetch::ClientOptions options;
  options.address_policy.allow_networks.push_back(*IpNetwork::parse("127.0.0.1/32"));
  return options;
}

void write(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

class CrawlTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = longread::testing::fresh_test_dir("longread_crawl");
    fs::create_directories(dir_ / "www");
    auto server = testing::FixtureServer::start(dir_ / "www");
    ASSERT_TRUE(server) << server.error().message;
    server_.emplace(std::move(*server));
    auto store = storage::open_sqlite_store((dir_ / "test.db").string());
    ASSERT_TRUE(store) << store.error().message;
    store_ = std::move(*store);
  }
  void TearDown() override {
    store_.reset();
    server_.reset();
    fs::remove_all(dir_);
  }

  std::int64_t add_blog(const std::string& path) {
    auto id = store_->upsert_blog({.feed_url = server_->url(path), .title = path, .category = "programming"});
    EXPECT_TRUE(id) << id.error().message;
    return id ? *id : 0;
  }

  CrawlSummary crawl(fetch::ClientOptions client_options = fixture_client_options(), bool all = true) {
    fetch::HttpClient client(client_options);
    CrawlOptions options;
    options.all = all;
    options.schedule = schedule_;
    Crawler crawler(*store_, client, options, {});
    auto summary = crawler.run();
    EXPECT_TRUE(summary) << summary.error().message;
    return summary ? *summary : CrawlSummary{};
  }

  model::Blog blog(std::int64_t id) {
    auto b = store_->blog(id);
    EXPECT_TRUE(b && *b);
    return (b && *b) ? **b : model::Blog{};
  }

  std::vector<storage::ArticleView> articles_of(std::int64_t blog_id) {
    storage::ArticleQuery q;
    q.blog_id = blog_id;
    q.include_junk = true;
    q.limit = 1000;
    auto a = store_->articles(q);
    EXPECT_TRUE(a) << a.error().message;
    return a ? *a : std::vector<storage::ArticleView>{};
  }

  fs::path dir_;
  ScheduleOptions schedule_;  // what crawl() polls with
  std::optional<testing::FixtureServer> server_;
  std::unique_ptr<storage::Store> store_;
};

TEST_F(CrawlTest, SecondCrawlIsAllNotModifiedAndAddsNothing) {
  write(dir_ / "www/a.xml", rss("Blog A", 1, 3));
  write(dir_ / "www/b.xml", rss("Blog B", 10, 2));
  const auto a = add_blog("/a.xml");
  const auto b = add_blog("/b.xml");

  const auto first = crawl();
  EXPECT_EQ(first.fetched, 2);
  EXPECT_EQ(first.new_articles, 5);
  EXPECT_EQ(blog(a).last_status, "ok");
  EXPECT_EQ(blog(a).title, "/a.xml");  // the list's title wins over the feed's
  ASSERT_EQ(articles_of(a).size(), 3u);
  EXPECT_EQ(articles_of(b).size(), 2u);

  server_->reset();
  const auto second = crawl();
  EXPECT_EQ(second.not_modified, 2);
  EXPECT_EQ(second.fetched, 0);
  EXPECT_EQ(second.new_articles, 0);
  EXPECT_EQ(blog(a).last_status, "not modified");
  const auto log = server_->requests_json();
  EXPECT_NE(log.find("\"if_none_match\": \"\\\""), std::string::npos) << log;  // the stored ETag was sent
  EXPECT_EQ(articles_of(a).size(), 3u);
}

// A new site's first pass stores its blogs' back catalogues at once: the pass trains the first body
// dictionary as soon as it has stored enough articles to learn from, not at its end, and every article
// reads back whichever frame it got.
TEST_F(CrawlTest, AFirstPassTrainsTheBodyDictionaryOnceItHasStoredEnoughArticles) {
  constexpr int kBlogs = 12;
  constexpr int kPosts = 100;
  static_assert(kBlogs * kPosts > storage::kMinBodyDictionarySamples);
  std::vector<std::int64_t> blogs;
  for (int b = 0; b < kBlogs; ++b) {
    write(dir_ / fmt::format("www/{}.xml", b), rss(fmt::format("Blog {}", b), b * kPosts, kPosts));
    blogs.push_back(add_blog(fmt::format("/{}.xml", b)));
  }
  auto dictionaries = [&] {
    sqlite3* db = nullptr;
    EXPECT_EQ(sqlite3_open_v2((dir_ / "test.db").c_str(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
    sqlite3_stmt* stmt = nullptr;
    int count = -1;
    if (sqlite3_prepare_v2(db, "SELECT count(*) FROM body_dictionaries", -1, &stmt, nullptr) == SQLITE_OK &&
        sqlite3_step(stmt) == SQLITE_ROW)
      count = sqlite3_column_int(stmt, 0);
    sqlite3_finalize(stmt);
    sqlite3_close(db);
    return count;
  };
  ASSERT_EQ(dictionaries(), 0);

  const auto summary = crawl();
  EXPECT_EQ(summary.new_articles, kBlogs * kPosts);
  EXPECT_EQ(dictionaries(), 1) << "trained during the pass";
  for (const auto id : blogs) {
    const auto listed = articles_of(id);
    ASSERT_EQ(listed.size(), static_cast<std::size_t>(kPosts));
    auto read = store_->article(listed.front().article.id);
    ASSERT_TRUE(read && *read) << (read ? "none" : read.error().message);
    const auto& a = (*read)->article;
    EXPECT_NE((a.summary_html + a.content_html).find("<p>"), std::string::npos) << "the feed's HTML";
    EXPECT_FALSE((*read)->article.text.empty());
  }
}

TEST_F(CrawlTest, ChangedEntryIsUpdatedInPlaceKeepingIdAndFirstSeen) {
  write(dir_ / "www/a.xml", rss("Blog A", 1, 2));
  const auto a = add_blog("/a.xml");
  crawl();
  const auto before = articles_of(a);
  ASSERT_EQ(before.size(), 2u);

  write(dir_ / "www/a.xml", rss("Blog A", 1, 2, " (revised)"));
  const auto summary = crawl();
  EXPECT_EQ(summary.updated_articles, 2);
  EXPECT_EQ(summary.new_articles, 0);
  const auto after = articles_of(a);
  ASSERT_EQ(after.size(), 2u);
  std::map<std::string, storage::ArticleView> by_guid;
  for (const auto& v : before) by_guid[v.article.guid] = v;
  for (const auto& v : after) {
    ASSERT_TRUE(by_guid.contains(v.article.guid));
    EXPECT_EQ(v.article.id, by_guid[v.article.guid].article.id);
    EXPECT_EQ(v.article.first_seen, by_guid[v.article.guid].article.first_seen);
    EXPECT_TRUE(v.article.title.ends_with("(revised)"));
  }
}

// A feed that repeats a guid for two different posts (scripting.com's feeds in ../shared/corpus do):
// the first wins, and keeps winning on every later crawl instead of the two taking turns.
TEST_F(CrawlTest, AGuidRepeatedInOneFeedKeepsTheFirstEntryOnEveryCrawl) {
  auto feed = [](int extra) {
    std::string doc = rss("Blog A", 1, extra);
    const std::string twins =
        "<item><title>First of the twins</title><guid>twin</guid><description><![CDATA[" + article_html(50) +
        "]]></description></item><item><title>Second of the twins</title><guid>twin</guid>"
        "<description><![CDATA[" +
        article_html(60) + "]]></description></item>";
    return doc.insert(doc.find("<item>"), twins);
  };
  write(dir_ / "www/a.xml", feed(1));
  const auto a = add_blog("/a.xml");
  EXPECT_EQ(crawl().new_articles, 2);
  for (int round = 2; round <= 3; ++round) {
    write(dir_ / "www/a.xml", feed(round));  // one more post, so the feed is fetched and parsed again
    const auto summary = crawl();
    EXPECT_EQ(summary.fetched, 1) << round;
    EXPECT_EQ(summary.new_articles, 1) << round;
    EXPECT_EQ(summary.updated_articles, 0) << round;
  }
  int twins = 0;
  for (const auto& v : articles_of(a)) {
    if (v.article.guid != "twin") continue;
    ++twins;
    EXPECT_EQ(v.article.title, "First of the twins");
  }
  EXPECT_EQ(twins, 1);
}

TEST_F(CrawlTest, PermanentRedirectUpdatesTheStoredFeedUrl) {
  write(dir_ / "www/new.xml", rss("Moved", 1, 1));
  const auto id = add_blog("/redirect-permanent/new.xml");
  const auto temp = add_blog("/redirect-temp/new.xml");
  crawl();
  EXPECT_EQ(blog(id).feed_url, server_->url("/new.xml"));
  EXPECT_EQ(blog(temp).feed_url, server_->url("/redirect-temp/new.xml"));  // 302 changes nothing
  EXPECT_EQ(articles_of(id).size(), 1u);
}

TEST_F(CrawlTest, FailuresAreStoredClearlyAndTheCrawlGoesOn) {
  write(dir_ / "www/good.xml", rss("Good", 1, 1));
  write(dir_ / "www/page.html",
        "<!DOCTYPE html><html><head><title>Hi</title></head><body><p>Hello</p></body></html>");
  write(dir_ / "www/broken.xml",
        "<?xml version=\"1.0\"?>\n<rss version=\"2.0\">\n<channel><title>x</title>\n<item>"
        "<title>a</title></item></channel>");
  const auto good = add_blog("/good.xml");
  const auto missing = add_blog("/status/404");
  const auto html = add_blog("/page.html");
  const auto limited = add_blog("/status/429?retry_after=7200");
  const auto slow = add_blog("/slow/4/good.xml");
  const auto big = add_blog("/big/3000000");

  fetch::ClientOptions options = fixture_client_options();
  options.total_timeout = std::chrono::seconds{1};
  options.max_body_bytes = 1 << 20;
  const auto before = now_seconds();
  const auto summary = crawl(options);
  EXPECT_EQ(summary.total, 6);
  EXPECT_EQ(summary.fetched, 1);
  EXPECT_EQ(summary.failed, 5);

  EXPECT_EQ(blog(good).last_error, "");
  EXPECT_EQ(blog(missing).last_error, "HTTP 404");
  EXPECT_EQ(blog(html).last_error, "not a feed: got an HTML page");
  EXPECT_EQ(blog(slow).last_error, "timed out after 1 s");
  EXPECT_EQ(blog(big).last_error, "body over 1 MiB");
  EXPECT_EQ(blog(limited).last_error, "HTTP 429");
  for (auto id : {missing, html, limited, slow, big}) {
    const auto b = blog(id);
    EXPECT_EQ(b.consecutive_failures, 1) << b.feed_url;
    ASSERT_TRUE(b.last_error_at.has_value()) << b.feed_url;
    ASSERT_TRUE(b.next_due_at.has_value()) << b.feed_url;
  }
  // Retry-After: 7200 defers the blog two hours, past the one-hour back-off.
  EXPECT_GE(*blog(limited).next_due_at, before + std::chrono::seconds{7200});
  EXPECT_LE(*blog(missing).next_due_at, now_seconds() + std::chrono::minutes{61});

  // A failing blog keeps its articles: break the good feed and crawl again.
  write(dir_ / "www/good.xml", "<html><body>oops</body></html>");
  crawl(options);
  EXPECT_EQ(articles_of(good).size(), 1u);
  EXPECT_EQ(blog(good).last_error, "not a feed: got an HTML page");
  ASSERT_TRUE(blog(good).last_success_at.has_value());
}

// A document that holds items none of which can be read (here in a namespace RSS does not use) is a
// failure the operator sees as the blog's error, not a quiet "ok" with nothing new; the blog keeps the
// articles stored earlier, and the next read of the same document fails again rather than passing as
// "not modified".
TEST_F(CrawlTest, FeedWhoseItemsCannotBeReadIsStoredAsTheBlogsErrorKeepingItsArticles) {
  write(dir_ / "www/a.xml", rss("Blog A", 1, 3));
  const auto a = add_blog("/a.xml");
  EXPECT_EQ(crawl().new_articles, 3);
  ASSERT_EQ(articles_of(a).size(), 3u);
  const auto stored_etag = blog(a).etag;

  std::string unreadable = rss("Blog A", 4, 2);
  for (const std::string tag : {"<item>", "</item>"})
    for (auto pos = unreadable.find(tag); pos != std::string::npos; pos = unreadable.find(tag, pos + 1))
      unreadable.insert(pos + (tag[1] == '/' ? 2 : 1), "x:");
  unreadable.replace(unreadable.find("<rss "), 5, "<rss xmlns:x=\"https://example.org/ns\" ");
  write(dir_ / "www/a.xml", unreadable);
  for (int round = 1; round <= 2; ++round) {
    const auto summary = crawl();
    EXPECT_EQ(summary.failed, 1) << round;
    EXPECT_EQ(summary.fetched, 0) << round;
    const auto b = blog(a);
    EXPECT_EQ(b.last_error, "2 <item> elements but none could be read") << round;
    EXPECT_EQ(b.last_status, b.last_error) << round;
    EXPECT_EQ(b.consecutive_failures, round);
    EXPECT_TRUE(b.last_error_at.has_value());
    EXPECT_TRUE(b.last_success_at.has_value());  // from the first crawl
    EXPECT_EQ(b.etag, stored_etag) << round;     // the unreadable document's validator is not taken
    EXPECT_EQ(articles_of(a).size(), 3u) << round;
  }

  write(dir_ / "www/a.xml", rss("Blog A", 1, 4));
  crawl();
  EXPECT_EQ(blog(a).last_error, "");
  EXPECT_EQ(blog(a).consecutive_failures, 0);
  EXPECT_EQ(articles_of(a).size(), 4u);
}

TEST_F(CrawlTest, ScheduleSkipsBlogsThatAreNotDue) {
  write(dir_ / "www/a.xml", rss("A", 1, 1));
  add_blog("/a.xml");
  EXPECT_EQ(crawl({}, false).total, 1);
  EXPECT_EQ(crawl({}, false).total, 0);  // due again in an hour
  EXPECT_EQ(crawl({}, true).total, 1);   // --all ignores the schedule
}

// How many times the fixture server was asked for each path.
std::map<std::string, int> requests_by_path(const testing::FixtureServer& server) {
  std::map<std::string, int> out;
  for (const auto& request : nlohmann::json::parse(server.requests_json())) ++out[request["path"]];
  return out;
}

TEST_F(CrawlTest, APassClaimsItsBlogsInBatchesUpToItsCapAndPollsEachOnce) {
  for (int i = 0; i < 7; ++i) {
    write(dir_ / fmt::format("www/b{}.xml", i), rss(fmt::format("B{}", i), i * 10, 1));
    add_blog(fmt::format("/b{}.xml", i));
  }
  fetch::HttpClient client(fixture_client_options());
  CrawlOptions options;
  options.claim_batch = 2;
  options.max_blogs_per_pass = 5;
  Crawler crawler(*store_, client, options, {});
  auto first = crawler.run();
  ASSERT_TRUE(first) << first.error().message;
  EXPECT_EQ(first->total, 5);  // three batches (2, 2, 1): the cap holds across them
  EXPECT_EQ(first->fetched, 5);
  auto second = crawler.run();
  ASSERT_TRUE(second) << second.error().message;
  EXPECT_EQ(second->total, 2);  // the two left; the five are not due for an hour
  EXPECT_EQ(crawler.run()->total, 0);
  const auto polls = requests_by_path(*server_);
  ASSERT_EQ(polls.size(), 7u);
  for (const auto& [path, n] : polls) EXPECT_EQ(n, 1) << path;
}

TEST_F(CrawlTest, TwoCrawlersStartedTogetherShareTheDueBlogsAndPollEachOnce) {
  constexpr int kBlogs = 24;
  for (int i = 0; i < kBlogs; ++i) {
    write(dir_ / fmt::format("www/s{}.xml", i), rss(fmt::format("S{}", i), i * 10, 1));
    add_blog(fmt::format("/s{}.xml", i));
  }
  // Two processes' worth: each its own store connection, client and crawler, one batch of one blog at a time.
  auto other_store = storage::open_sqlite_store((dir_ / "test.db").string());
  ASSERT_TRUE(other_store) << other_store.error().message;
  std::array<Result<CrawlSummary>, 2> summaries;
  std::array<storage::Store*, 2> stores = {store_.get(), other_store->get()};
  std::vector<std::thread> crawlers;
  for (std::size_t i = 0; i < 2; ++i) {
    crawlers.emplace_back([&, i] {
      fetch::HttpClient client(fixture_client_options());
      CrawlOptions options;
      options.claim_batch = 1;
      Crawler crawler(*stores[i], client, options, {});
      summaries[i] = crawler.run();
    });
  }
  for (auto& t : crawlers) t.join();
  ASSERT_TRUE(summaries[0]) << summaries[0].error().message;
  ASSERT_TRUE(summaries[1]) << summaries[1].error().message;
  EXPECT_EQ(summaries[0]->total + summaries[1]->total, kBlogs);
  EXPECT_EQ(summaries[0]->fetched + summaries[1]->fetched, kBlogs);
  const auto polls = requests_by_path(*server_);
  ASSERT_EQ(polls.size(), static_cast<std::size_t>(kBlogs));
  for (const auto& [path, n] : polls) EXPECT_EQ(n, 1) << path;
}

TEST_F(CrawlTest, SummaryOnlyEntriesGetTheirPageOnce) {
  std::string page =
      "<!DOCTYPE html><html><head><title>Deep</title></head><body><nav><a href=/>Home</a> "
      "<a href=/about>About</a></nav><article><h1>Deep post</h1>";
  for (int p = 0; p < 8; ++p) page += "<p>" + paragraph(p, 70) + "</p>";
  page += "</article><footer>Copyright</footer></body></html>";
  write(dir_ / "www/posts/deep.html", page);
  const std::string feed =
      "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>S</title><item>"
      "<title>Deep post</title><guid>deep</guid><link>" +
      server_->url("/posts/deep.html") +
      "</link><description>The first lines of a long post about queues […]</description>"
      "</item></channel></rss>";
  write(dir_ / "www/s.xml", feed);
  const auto id = add_blog("/s.xml");
  crawl();
  auto stored = articles_of(id);
  ASSERT_EQ(stored.size(), 1u);
  EXPECT_TRUE(stored[0].article.full_text_fetched);
  EXPECT_GT(stored[0].article.word_count, 400);
  EXPECT_FALSE(stored[0].article.junk) << stored[0].article.junk_reason;

  server_->reset();
  crawl();  // unchanged feed: the page is not fetched again, the full text stays
  EXPECT_EQ(server_->requests_json().find("deep.html"), std::string::npos);
  stored = articles_of(id);
  EXPECT_GT(stored[0].article.word_count, 400);
}

// A blog's template: a footer in every post (its own words, with the post's number and addresses in it) is
// learned from the feed and taken off the stored text and excerpt; a short post it padded past the length
// rule is then too short. A later feed with only two entries learns it from the stored articles.
TEST_F(CrawlTest, AFooterInEveryPostIsRemovedAndNoLongerPadsAShortPost) {
  const auto footer = [](int n) {
    return "<p>Thanks for reading post " + std::to_string(n) +
           " of the Ledger. If you enjoyed it, leave a tip at https://tips.example/ledger/" +
           std::to_string(n) +
           " and every coffee helps me write the next one; replies to ledger@example.org always reach me.</p>"
           "<p>The Ledger is written in a shed in Leeds and sent to " +
           std::to_string(1200 + n) + " readers. Unsubscribe any time at https://ledger.example/u/" +
           std::to_string(n) + " or forward it to a friend who likes queues and caches.</p>";
  };
  const auto item = [&](int n, const std::string& body) {
    return "<item><title>Ledger " + std::to_string(n) + "</title><link>https://ledger.example/p/" +
           std::to_string(n) + "</link><guid>ledger-" + std::to_string(n) +
           "</guid><pubDate>Mon, 23 May 2022 10:00:00 GMT</pubDate><description><![CDATA[" + body +
           footer(n) + "]]></description></item>";
  };
  const auto feed = [](const std::string& items) {
    return "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>Ledger</title>"
           "<link>https://ledger.example/</link>" +
           items + "</channel></rss>";
  };
  std::string items;
  for (int n = 0; n < 6; ++n)
    items += item(n, "<p>" + paragraph(n, 80) + "</p><p>" + paragraph(n + 7, 80) + "</p>");
  items += item(6, "<p>" + paragraph(14, 100) + "</p>");  // 100 words of its own, 160 with the footer
  write(dir_ / "www/ledger.xml", feed(items));
  const auto id = add_blog("/ledger.xml");
  const auto crawl_summaries = [&] {
    fetch::HttpClient client(fixture_client_options());
    CrawlOptions options;
    options.all = true;
    options.fetch_full_text = false;  // the entries are whole; no page is asked for
    Crawler crawler(*store_, client, options, {});
    ASSERT_TRUE(crawler.run());
  };
  crawl_summaries();
  auto stored = articles_of(id);
  ASSERT_EQ(stored.size(), 7u);
  for (const auto& view : stored) {
    const auto full = store_->article(view.article.id).value().value().article;
    EXPECT_EQ(full.text.find("Thanks for reading"), std::string::npos) << full.title << ": " << full.text;
    EXPECT_EQ(full.text.find("Leeds"), std::string::npos) << full.title;
    EXPECT_EQ(full.excerpt.find("Leeds"), std::string::npos) << full.title;
    EXPECT_NE(full.summary_html.find("Leeds"), std::string::npos);  // the HTML as the feed gave it
    if (full.title == "Ledger 6") {
      EXPECT_EQ(full.word_count, 100);
      EXPECT_TRUE(full.junk);
      EXPECT_EQ(full.junk_reason, "too short: 100 words");
    } else {
      EXPECT_EQ(full.word_count, 160) << full.title;
      EXPECT_FALSE(full.junk) << full.title << ": " << full.junk_reason;
    }
  }

  // Two new entries only: too few to learn from, so the stored articles make up the sample.
  write(dir_ / "www/ledger.xml",
        feed(item(7, "<p>" + paragraph(15, 90) + "</p><p>" + paragraph(16, 90) + "</p>") +
             item(8, "<p>" + paragraph(17, 90) + "</p><p>" + paragraph(18, 90) + "</p>")));
  crawl_summaries();
  stored = articles_of(id);
  ASSERT_EQ(stored.size(), 9u);
  for (const auto& view : stored) {
    const auto full = store_->article(view.article.id).value().value().article;
    EXPECT_EQ(full.text.find("Leeds"), std::string::npos) << full.title << ": " << full.text;
    if (full.title == "Ledger 7" || full.title == "Ledger 8") {
      EXPECT_EQ(full.word_count, 180) << full.title;
    }
  }
}

// The page of a long post (8 paragraphs, ~560 words) that a summary-only entry links to.
std::string deep_page() {
  std::string page = "<!DOCTYPE html><html><head><title>Deep</title></head><body><article><h1>Deep post</h1>";
  for (int p = 0; p < 8; ++p) page += "<p>" + paragraph(p, 70) + "</p>";
  return page + "</article></body></html>";
}

// A feed of one summary-only entry whose page is at `page_url`.
std::string summary_only_feed(const std::string& page_url) {
  return "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>S</title><item>"
         "<title>Deep post</title><guid>deep</guid><link>" +
         page_url +
         "</link><description>The first lines of a long post about queues […]</description>"
         "</item></channel></rss>";
}
std::size_t count_of(const std::string& haystack, const std::string& needle) {
  std::size_t n = 0;
  for (auto pos = haystack.find(needle); pos != std::string::npos; pos = haystack.find(needle, pos + 1)) ++n;
  return n;
}

// A feed of one entry of full length (five paragraphs, 350 words) followed by `tail`, linking to `page_url`.
std::string long_entry_feed(const std::string& page_url, int seed, const std::string& tail) {
  std::string body;
  for (int p = 0; p < 5; ++p) body += "<p>" + paragraph(seed + p, 70) + "</p>";
  return "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>L</title><item>"
         "<title>Long post</title><guid>long</guid><link>" +
         page_url + "</link><description><![CDATA[" + body + tail +
         "]]></description></item></channel></rss>";
}

// An entry of full length whose HTML ends in a more-link is a summary: the link leaves its text with the
// boilerplate, so only the entry's HTML shows it, and the crawler reads the page. The same entry without
// the link is the whole post, and its page is never asked for.
TEST_F(CrawlTest, ALongEntryEndingInAMoreLinkIsASummaryWhosePageIsRead) {
  write(dir_ / "www/posts/cut.html", deep_page());
  write(dir_ / "www/posts/whole.html", deep_page());
  write(dir_ / "www/cut.xml",
        long_entry_feed(server_->url("/posts/cut.html"), 1,
                        "<p><a href=\"/posts/cut.html\">Continue reading \xE2\x86\x92</a></p>"));
  write(dir_ / "www/whole.xml", long_entry_feed(server_->url("/posts/whole.html"), 11, ""));
  const auto cut = add_blog("/cut.xml");
  const auto whole = add_blog("/whole.xml");
  crawl();
  const auto cut_articles = articles_of(cut);
  const auto whole_articles = articles_of(whole);
  ASSERT_EQ(cut_articles.size(), 1u);
  ASSERT_EQ(whole_articles.size(), 1u);
  const auto read = store_->article(cut_articles[0].article.id).value().value().article;
  EXPECT_EQ(read.text.find("Continue reading"), std::string::npos) << read.text;
  EXPECT_TRUE(read.full_text_fetched);
  EXPECT_EQ(read.word_count, 562);  // the page: its heading and eight paragraphs of 70 words, not the entry
  EXPECT_FALSE(whole_articles[0].article.full_text_fetched);
  const std::string log = server_->requests_json();
  EXPECT_EQ(count_of(log, "/posts/cut.html"), 1u) << log;
  EXPECT_EQ(count_of(log, "/posts/whole.html"), 0u) << log;
}

// A page that timed out is tried again when the feed is next read, and its full text replaces the summary
// then; a page that keeps answering 503 is given up after three attempts; a 404 after one.
TEST_F(CrawlTest, AFullTextPageThatFailedForAPassingReasonIsTriedAgain) {
  write(dir_ / "www/posts/deep.html", deep_page());
  write(dir_ / "www/slow.xml", summary_only_feed(server_->url("/slow/2/posts/deep.html")));
  write(dir_ / "www/busy.xml", summary_only_feed(server_->url("/status/503")));
  write(dir_ / "www/gone.xml", summary_only_feed(server_->url("/status/404")));
  const auto slow = add_blog("/no-validators/slow.xml");
  const auto busy = add_blog("/no-validators/busy.xml");
  const auto gone = add_blog("/no-validators/gone.xml");
  auto stored = [&](std::int64_t id) {
    const auto a = articles_of(id);
    EXPECT_EQ(a.size(), 1u);
    return a.empty() ? model::Article{} : a[0].article;
  };

  fetch::ClientOptions hasty = fixture_client_options();
  hasty.total_timeout = std::chrono::seconds{1};  // the slow page times out, the feeds do not
  crawl(hasty);
  EXPECT_FALSE(stored(slow).full_text_fetched);
  EXPECT_LT(stored(slow).word_count, 50);  // the summary meanwhile
  EXPECT_FALSE(stored(busy).full_text_fetched);
  EXPECT_TRUE(stored(gone).full_text_fetched);  // a 404 is final

  const auto second = crawl();
  EXPECT_EQ(second.updated_articles, 0);  // a retry is not an update of the entry
  EXPECT_TRUE(stored(slow).full_text_fetched);
  EXPECT_GT(stored(slow).word_count, 400);
  EXPECT_FALSE(stored(slow).junk) << stored(slow).junk_reason;
  EXPECT_FALSE(stored(busy).full_text_fetched);

  crawl();  // the third attempt at the 503 page is the last
  EXPECT_TRUE(stored(busy).full_text_fetched);
  EXPECT_LT(stored(busy).word_count, 50);
  server_->reset();
  crawl();
  const std::string log = server_->requests_json();
  EXPECT_EQ(count_of(log, "/status/503"), 0u) << log;
  EXPECT_EQ(count_of(log, "/status/404"), 0u) << log;
  EXPECT_EQ(count_of(log, "deep.html"), 0u) << log;
  EXPECT_GT(stored(slow).word_count, 400);  // the full text stays
}

// Stopping a pass (serve's SIGTERM): a blog whose feed or full-text page was still being fetched is not a
// failure. Nothing is recorded for it, so it keeps its schedule, validators and failure count, and the next
// pass polls it from scratch (a cut-short page is fetched then, not given up); blogs finished before the
// stop are saved as usual.
TEST_F(CrawlTest, StoppingAPassRecordsNoFailureForUnfinishedBlogs) {
  write(dir_ / "www/quick.xml", rss("Quick", 1, 2));
  write(dir_ / "www/feed.xml", rss("Slow", 10, 2));
  write(dir_ / "www/posts/deep.html", deep_page());
  write(dir_ / "www/s.xml", summary_only_feed(server_->url("/slow/2/posts/deep.html")));
  const auto quick = add_blog("/quick.xml");
  const auto slow_feed = add_blog("/slow/2/feed.xml");
  const auto slow_page = add_blog("/s.xml");

  fetch::HttpClient client(fixture_client_options());
  CrawlOptions options;
  options.all = true;
  Crawler crawler(*store_, client, options, {});
  std::thread stopper([&crawler] {
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    crawler.stop();
  });
  const auto summary = crawler.run();
  stopper.join();
  ASSERT_TRUE(summary) << summary.error().message;
  EXPECT_EQ(summary->fetched, 1);  // quick.xml
  EXPECT_EQ(summary->stopped, 2);
  EXPECT_EQ(summary->failed, 0);
  EXPECT_EQ(articles_of(quick).size(), 2u);
  for (const auto id : {slow_feed, slow_page}) {
    const model::Blog b = blog(id);
    EXPECT_FALSE(b.last_attempt_at.has_value()) << id;
    EXPECT_EQ(b.consecutive_failures, 0) << id;
    EXPECT_EQ(b.last_status, "") << id;
    EXPECT_EQ(b.last_error, "") << id;
    EXPECT_TRUE(articles_of(id).empty()) << id;
  }

  const auto next = crawl();
  EXPECT_EQ(next.stopped, 0);
  EXPECT_EQ(next.failed, 0);
  EXPECT_EQ(articles_of(slow_feed).size(), 2u);
  const auto stored = articles_of(slow_page);
  ASSERT_EQ(stored.size(), 1u);
  EXPECT_TRUE(stored[0].article.full_text_fetched);
  EXPECT_GT(stored[0].article.word_count, 400);
}

// The same when the stop comes while full-text pages are being fetched (after every feed was read): the
// blog waiting for its page is not recorded, and the next pass fetches the page.
TEST_F(CrawlTest, StoppingDuringFullTextFetchesRecordsNothingForThatBlog) {
  write(dir_ / "www/posts/deep.html", deep_page());
  write(dir_ / "www/s.xml", summary_only_feed(server_->url("/slow/3/posts/deep.html")));
  const auto id = add_blog("/s.xml");
  fetch::HttpClient client(fixture_client_options());
  CrawlOptions options;
  options.all = true;
  Crawler crawler(*store_, client, options, {});
  std::thread stopper([&crawler] {
    std::this_thread::sleep_for(std::chrono::milliseconds(1000));  // the feed is read; the page takes 3 s
    crawler.stop();
  });
  const auto summary = crawler.run();
  stopper.join();
  ASSERT_TRUE(summary) << summary.error().message;
  EXPECT_EQ(summary->stopped, 1);
  EXPECT_EQ(summary->fetched, 0);
  EXPECT_FALSE(blog(id).last_attempt_at.has_value());
  EXPECT_TRUE(blog(id).etag.empty());  // so the next pass gets the feed again, not a 304
  EXPECT_TRUE(articles_of(id).empty());
  EXPECT_NE(server_->requests_json().find("deep.html"), std::string::npos);  // the page fetch had begun

  const auto next = crawl();
  EXPECT_EQ(next.fetched, 1);
  const auto stored = articles_of(id);
  ASSERT_EQ(stored.size(), 1u);
  EXPECT_TRUE(stored[0].article.full_text_fetched);
  EXPECT_GT(stored[0].article.word_count, 400);
}

std::string syndicated_feed(const std::string& title, const std::string& date, const std::string& footer) {
  std::string body;
  for (int p = 0; p < 5; ++p) body += "<p>" + paragraph(100 + p, 60) + "</p>";
  return "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>" + title +
         "</title><item><title>Lock-free " + "queues</title><guid>" + title + "-q</guid><link>https://" +
         title + ".example/q</link><pubDate>" + date + "</pubDate><description><![CDATA[" + body + footer +
         "]]></description></item></channel></rss>";
}

// Issue 5: the same post syndicated on two blogs with different boilerplate keeps the earliest original
// and marks the other a duplicate of it, whichever is crawled first.
TEST_F(CrawlTest, SyndicatedCopiesAreMarkedDuplicatesOfTheEarliestOriginal) {
  write(dir_ / "www/orig.xml", syndicated_feed("orig", "Mon, 23 May 2022 10:00:00 GMT",
                                               "<p>The post Lock-free queues appeared first on Orig.</p>"));
  write(dir_ / "www/copy.xml", syndicated_feed("copy", "Tue, 24 May 2022 10:00:00 GMT",
                                               "<p>Originally published at orig.example. Follow me on Medium "
                                               "for more stories about concurrency.</p>"));
  // The copy is crawled first, then the original arrives.
  const auto copy = add_blog("/copy.xml");
  crawl();
  const auto orig = add_blog("/orig.xml");
  crawl();
  const auto o = articles_of(orig);
  const auto c = articles_of(copy);
  ASSERT_EQ(o.size(), 1u);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_FALSE(o[0].article.junk) << o[0].article.junk_reason;
  EXPECT_TRUE(c[0].article.junk);
  EXPECT_EQ(c[0].article.duplicate_of, o[0].article.id);
  EXPECT_EQ(c[0].article.junk_reason, "duplicate of article " + std::to_string(o[0].article.id));

  // A third copy, crawled after the original, is marked at once; a different post is not.
  write(dir_ / "www/third.xml", syndicated_feed("third", "Wed, 25 May 2022 10:00:00 GMT", ""));
  std::string history;
  for (int i = 0; i < 300; ++i) {
    static const char* kOther[] = {"the",        "abbey", "was",         "founded",   "in",   "1132",
                                   "by",         "monks", "from",        "clairvaux", "who",  "drained",
                                   "marshes",    "and",   "built",       "granges",   "wool", "trade",
                                   "flourished", "until", "dissolution", "under",     "henry"};
    history += std::string(kOther[(i * 5 + i / 7) % 23]) + (i % 11 == 10 ? ". " : " ");
  }
  write(dir_ / "www/other.xml",
        "<rss version=\"2.0\"><channel><title>Other</title><item><title>Abbeys</title>"
        "<guid>abbeys</guid><description>" +
            history + "</description></item></channel></rss>");
  const auto third = add_blog("/third.xml");
  const auto other = add_blog("/other.xml");
  crawl();
  EXPECT_EQ(articles_of(third).at(0).article.duplicate_of, o[0].article.id);
  EXPECT_FALSE(articles_of(other).at(0).article.duplicate_of.has_value());
}

// Group commit: the crawler saves several blogs in one transaction (DuplicateIndex::save_all). A copy
// whose original is in the same group has no stored original to point at yet; it is marked right after
// the commit, whichever record of the group holds the earlier date.
TEST(DuplicateIndexGroup, CopiesWithinOneGroupAreMarkedAfterTheCommit) {
  const fs::path dir = fs::temp_directory_path() / ("longread_dupgroup_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  auto opened = storage::open_sqlite_store((dir / "test.db").string());
  ASSERT_TRUE(opened) << opened.error().message;
  auto& store = **opened;
  std::vector<std::int64_t> blogs;
  for (const char* name : {"a", "b", "c", "d"}) {
    auto id = store.upsert_blog({.feed_url = std::string("https://") + name + ".example/feed",
                                 .title = name,
                                 .category = "programming"});
    ASSERT_TRUE(id) << id.error().message;
    blogs.push_back(*id);
  }
  const TimePoint now = now_seconds();
  auto article = [&](const std::string& guid, std::uint64_t simhash, int days_ago) {
    model::Article a;
    a.guid = guid;
    a.title = "Lock-free queues " + guid;
    a.link = "https://example.org/" + guid;
    a.published = now - std::chrono::hours(24 * days_ago);
    a.first_seen = now;
    a.text = "text of " + guid;
    a.word_count = 1200;
    a.simhash = simhash;
    return a;
  };
  auto record = [&](std::int64_t blog, std::vector<model::Article> articles) {
    storage::CrawlRecord r;
    r.blog_id = blog;
    r.attempted_at = now;
    r.success = true;
    r.status = "ok";
    r.articles = std::move(articles);
    return r;
  };
  constexpr std::uint64_t kPost = 0x9E3779B97F4A7C15ULL;
  constexpr std::uint64_t kOther = ~kPost;
  // Group 1: blog a holds the later copy, blog b the original (earlier date) and, on the same blog, a
  // repeat of it that stays (copies within one blog are left alone, as save() leaves them).
  // Group 2: blog c holds the original, blog d a later copy and an unrelated post.
  std::vector<storage::CrawlRecord> group1 = {
      record(blogs[0], {article("a-copy", kPost ^ 0b101, 1)}),
      record(blogs[1], {article("b-orig", kPost, 3), article("b-repeat", kPost ^ 0b1, 2)})};
  std::vector<storage::CrawlRecord> group2 = {
      record(blogs[2], {article("c-orig", kOther, 5)}),
      record(blogs[3], {article("d-copy", kOther ^ 0b11, 4), article("d-other", kPost ^ ~0ULL >> 40, 4)})};
  {
    DuplicateIndex index(store);
    for (auto* group : {&group1, &group2}) {
      const auto results = index.save_all(*group);
      ASSERT_EQ(results.size(), group->size());
      for (const auto& r : results) ASSERT_TRUE(r) << r.error().message;
    }
  }
  std::map<std::string, model::Article> by_guid;
  for (const auto blog : blogs) {
    const auto keys = store.article_keys(blog);
    ASSERT_TRUE(keys) << keys.error().message;
    for (const auto& key : *keys) {
      const auto view = store.article(key.id);
      ASSERT_TRUE(view && *view);
      by_guid[key.guid] = (*view)->article;
    }
  }
  ASSERT_EQ(by_guid.size(), 6u);
  EXPECT_EQ(by_guid["a-copy"].duplicate_of, by_guid["b-orig"].id);
  EXPECT_TRUE(by_guid["a-copy"].junk);
  EXPECT_FALSE(by_guid["b-orig"].junk) << by_guid["b-orig"].junk_reason;
  EXPECT_FALSE(by_guid["b-repeat"].duplicate_of.has_value());
  EXPECT_FALSE(by_guid["c-orig"].junk) << by_guid["c-orig"].junk_reason;
  EXPECT_EQ(by_guid["d-copy"].duplicate_of, by_guid["c-orig"].id);
  EXPECT_FALSE(by_guid["d-other"].duplicate_of.has_value());
  opened->reset();
  fs::remove_all(dir);
}

// --- polite polling: the feed's and the server's hints stretch the wait after a success -------------------

std::string rss_with(const std::string& channel_extra) {
  std::string feed = rss("Hinted", 1, 2);
  feed.insert(feed.find("<item>"), channel_extra);
  return "<?xml version=\"1.0\"?>" +
         feed.substr(feed.find("<rss"))
             .replace(0, 4, "<rss xmlns:sy=\"http://purl.org/rss/1.0/modules/syndication/\"");
}

std::string with_header(const std::string& path, const std::string& header) {
  std::string encoded;
  for (const char c : header) {
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' || c == '_')
      encoded += c;
    else
      encoded += fmt::format("%{:02X}", static_cast<unsigned char>(c));
  }
  return path + "?header=" + encoded;
}

class PolitePollingTest : public CrawlTest {
 protected:
  // Crawls every blog and returns the stored next_due_at of `id` less the time of the crawl: the wait, read
  // from what the store holds. The crawl's own clock reading is between `before` and `after`, so the wait
  // is known to within the crawl's duration; both ends are returned.
  std::pair<std::chrono::seconds, std::chrono::seconds> wait_after_crawl(std::int64_t id) {
    const TimePoint before = now_seconds();
    last_summary_ = crawl();
    const TimePoint after = now_seconds();
    const auto due = blog(id).next_due_at;
    EXPECT_TRUE(due);
    if (!due) return {};
    return {*due - after, *due - before};
  }
  // The wait is `expected`: the stored date lies within the crawl's duration of now + expected.
  void expect_wait(std::int64_t id, std::chrono::seconds expected) {
    const auto [low, high] = wait_after_crawl(id);
    EXPECT_LE(low, expected) << "blog " << id;
    EXPECT_GE(high, expected) << "blog " << id;
  }
  CrawlSummary last_summary_;
};

TEST_F(PolitePollingTest, TtlOf180MinutesIsDueInThreeHours) {
  write(dir_ / "www/ttl.xml", rss_with("<ttl>180</ttl>"));
  const auto id = add_blog("/ttl.xml");
  expect_wait(id, std::chrono::hours{3});
  EXPECT_EQ(blog(id).last_status, "ok (feed: 3 h)");
  EXPECT_EQ(blog(id).feed_update_interval, std::chrono::minutes{180});
  EXPECT_EQ(articles_of(id).size(), 2u);
}

TEST_F(PolitePollingTest, SyndicationModuleDailyIsDueInADay) {
  write(dir_ / "www/sy.xml", rss_with("<sy:updatePeriod>daily</sy:updatePeriod>"
                                      "<sy:updateFrequency>2</sy:updateFrequency>"));
  const auto id = add_blog("/sy.xml");
  expect_wait(id, std::chrono::hours{12});
  EXPECT_EQ(blog(id).last_status, "ok (feed: 12 h)");
}

TEST_F(PolitePollingTest, CacheControlMaxAge7200IsDueInTwoHours) {
  write(dir_ / "www/plain.xml", rss("Plain", 1, 2));
  const auto id = add_blog(with_header("/plain.xml", "Cache-Control: max-age=7200"));
  expect_wait(id, std::chrono::hours{2});
  EXPECT_EQ(blog(id).last_status, "ok (http: 2 h)");
  EXPECT_EQ(blog(id).feed_update_interval,
            std::nullopt);  // the server's hint is not stored: each response has it
}

TEST_F(PolitePollingTest, TtlOfTenDaysIsCappedAt24Hours) {
  write(dir_ / "www/ttl.xml", rss_with("<ttl>14400</ttl>"));
  const auto id = add_blog("/ttl.xml");
  expect_wait(id, std::chrono::hours{24});
  EXPECT_EQ(blog(id).last_status, "ok (feed: 10 d)");  // what the feed asked; next due shows the cap
}

TEST_F(PolitePollingTest, ANotModifiedResponseStillHonoursTheStoredFeedHint) {
  write(dir_ / "www/ttl.xml", rss_with("<ttl>180</ttl>"));
  const auto id = add_blog("/ttl.xml");
  crawl();
  server_->reset();
  expect_wait(id, std::chrono::hours{3});    // the second crawl
  EXPECT_EQ(last_summary_.not_modified, 1);  // the reason in the stored status does not hide the 304
  EXPECT_EQ(blog(id).last_status, "not modified (feed: 3 h)");
  const auto log = nlohmann::json::parse(server_->requests_json());
  ASSERT_EQ(log.size(), 1u);
  EXPECT_FALSE(log[0]["if_none_match"].is_null());  // it was a conditional GET, answered 304
}

TEST_F(PolitePollingTest, ANotModifiedResponseHonoursItsCacheControl) {
  write(dir_ / "www/plain.xml", rss("Plain", 1, 2));
  const auto id = add_blog(with_header("/plain.xml", "Cache-Control: public, max-age=7200"));
  crawl();
  expect_wait(id, std::chrono::hours{2});
  EXPECT_EQ(last_summary_.not_modified, 1);
  EXPECT_EQ(blog(id).last_status, "not modified (http: 2 h)");
}

TEST_F(PolitePollingTest, MaxAgeZeroIsTheNormalHour) {
  write(dir_ / "www/plain.xml", rss("Plain", 1, 2));
  const auto id = add_blog(with_header("/plain.xml", "Cache-Control: max-age=0"));
  expect_wait(id, std::chrono::hours{1});
  EXPECT_EQ(blog(id).last_status, "ok");
}

TEST_F(PolitePollingTest, AFeedThatDropsItsTtlLosesTheStoredHint) {
  write(dir_ / "www/ttl.xml", rss_with("<ttl>180</ttl>"));
  const auto id = add_blog("/ttl.xml");
  crawl();
  ASSERT_EQ(blog(id).feed_update_interval, std::chrono::minutes{180});
  write(dir_ / "www/ttl.xml", rss("Hinted", 1, 3));  // changed (new ETag): a 200 without <ttl>
  expect_wait(id, std::chrono::hours{1});
  EXPECT_EQ(blog(id).feed_update_interval, std::nullopt);
  EXPECT_EQ(blog(id).last_status, "ok");
}

TEST_F(PolitePollingTest, FailuresBackOffAsBeforeAndKeepTheHint) {
  write(dir_ / "www/ttl.xml", rss_with("<ttl>600</ttl>"));
  const auto id = add_blog("/ttl.xml");
  crawl();
  fs::remove(dir_ / "www/ttl.xml");        // now a 404
  expect_wait(id, std::chrono::hours{1});  // the first failure: one interval, not the feed's 10 h
  EXPECT_EQ(blog(id).consecutive_failures, 1);
  EXPECT_EQ(blog(id).feed_update_interval, std::chrono::minutes{600});  // kept for when it is back
}

TEST_F(PolitePollingTest, MaxIntervalIsConfigurable) {
  write(dir_ / "www/ttl.xml", rss_with("<ttl>600</ttl>"));
  const auto id = add_blog("/ttl.xml");
  fetch::HttpClient client(fixture_client_options());
  CrawlOptions options;
  options.all = true;
  options.schedule.max_interval = std::chrono::hours{4};
  const TimePoint before = now_seconds();
  ASSERT_TRUE(Crawler(*store_, client, options, {}).run());
  const TimePoint after = now_seconds();
  ASSERT_TRUE(blog(id).next_due_at);
  EXPECT_GE(*blog(id).next_due_at, before + std::chrono::hours{4});
  EXPECT_LE(*blog(id).next_due_at, after + std::chrono::hours{4});
}

// --- crawl.scheduler = entry_frequency: the wait follows how often the blog posted in the last 4 weeks.

// An RSS feed of `count` posts, the newest `newest_age` before now and each earlier one `gap` before the
// next. Every `short_every`-th post (0: none) is a two-line note that curation files as junk.
std::string dated_rss(int count, std::chrono::seconds newest_age, std::chrono::seconds gap,
                      int short_every = 0) {
  const TimePoint now = now_seconds();
  std::string items;
  for (int i = 0; i < count; ++i) {
    const bool note = short_every > 0 && i % short_every == short_every - 1;
    items += fmt::format(
        "<item><title>Post {0}</title><link>https://example.org/p/{0}</link><guid>post-{0}</guid>"
        "<pubDate>{1}</pubDate><description><![CDATA[{2}]]></description></item>",
        i, format_http_date(now - newest_age - gap * i), note ? "<p>A quick note.</p>" : article_html(i));
  }
  return "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>Dated</title>"
         "<link>https://example.org/</link>" +
         items + "</channel></rss>";
}

class EntryFrequencyTest : public PolitePollingTest {
 protected:
  void SetUp() override {
    PolitePollingTest::SetUp();
    schedule_.scheduler = Scheduler::kEntryFrequency;
  }
};

constexpr std::chrono::seconds kWindow = std::chrono::hours{24 * 28};

TEST_F(EntryFrequencyTest, ABusyFeedIsDueAfterTheInterval) {
  schedule_.interval = std::chrono::hours{3};
  // 300 posts two hours apart: an average gap of 28 d / 300 = 2.24 h, shorter than the interval.
  constexpr int kPosts = 300;
  static_assert(kWindow / kPosts < std::chrono::hours{3});
  write(dir_ / "www/busy.xml", dated_rss(kPosts, std::chrono::hours{1}, std::chrono::hours{2}));
  const auto id = add_blog("/busy.xml");
  expect_wait(id, schedule_.interval);
  EXPECT_EQ(blog(id).last_status, "ok");  // the interval decided
  EXPECT_EQ(articles_of(id).size(), static_cast<std::size_t>(kPosts));
}

TEST_F(EntryFrequencyTest, TheWaitIsTheAverageGapAndJunkAndThisCrawlsPostsCount) {
  // 56 posts in 4 weeks, one every 12 h (every 7th a junk note): 28 d / 56.
  constexpr int kPosts = 56;
  write(dir_ / "www/daily.xml",
        dated_rss(kPosts, std::chrono::hours{2}, std::chrono::hours{12}, /*short_every=*/7));
  const auto id = add_blog("/daily.xml");
  // The first crawl: none of the posts is stored yet, so only counting this crawl's new ones gives 56.
  expect_wait(id, kWindow / kPosts);
  EXPECT_EQ(blog(id).last_status, "ok (frequency: " + format_wait(kWindow / kPosts) + ")");
  EXPECT_EQ(blog(id).last_status, "ok (frequency: 12 h)");
  const auto stored = articles_of(id);
  ASSERT_EQ(stored.size(), static_cast<std::size_t>(kPosts));
  EXPECT_EQ(std::ranges::count_if(stored, [](const auto& v) { return v.article.junk; }), kPosts / 7);
  // The second crawl is a 304: the count comes from the store alone (junk included), the same 56.
  EXPECT_EQ(store_->count_recent_articles(id, now_seconds() - kWindow).value(), kPosts);
  server_->reset();
  expect_wait(id, kWindow / kPosts);
  EXPECT_EQ(last_summary_.not_modified, 1);
  EXPECT_EQ(blog(id).last_status, "not modified (frequency: 12 h)");
}

// An undated feed's posts take the time they were first seen: the back catalogue of the first crawl is not
// "30 posts today", only posts that appear later count.
TEST_F(EntryFrequencyTest, AnUndatedFeedsFirstCrawlIsNotABurstOfPosts) {
  auto undated_rss = [](int first, int count) {
    std::string items;
    for (int i = first; i < first + count; ++i) {
      items += fmt::format(
          "<item><title>Post {0}</title><link>https://example.org/p/{0}</link><guid>post-{0}</guid>"
          "<description><![CDATA[{1}]]></description></item>",
          i, article_html(i));
    }
    return "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>Undated</title>"
           "<link>https://example.org/</link>" +
           items + "</channel></rss>";
  };
  write(dir_ / "www/undated.xml", undated_rss(0, 30));
  const auto id = add_blog("/undated.xml");
  expect_wait(id, schedule_.max_interval);  // not 28 d / 30 = 22 h
  EXPECT_EQ(blog(id).last_status, "ok (frequency: 24 h, no posts in 4 weeks)");
  EXPECT_EQ(store_->count_recent_articles(id, now_seconds() - kWindow).value(), 0);
  // Later posts count, in the crawl that finds them and from the store afterwards.
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));  // a later first-seen second
  write(dir_ / "www/undated.xml", undated_rss(0, 40));
  schedule_.frequency_factor = 10.0;  // 28 d / 10 posts / 10 = 6.7 h: below the cap, so visible
  expect_wait(id, kWindow / 10 / 10);
  EXPECT_EQ(store_->count_recent_articles(id, now_seconds() - kWindow).value(), 10);
}

TEST_F(EntryFrequencyTest, AFeedSilentForTwoMonthsIsDueAfterMaxInterval) {
  // Ten weekly posts, the newest 60 days old: nothing in the last 4 weeks.
  write(dir_ / "www/quiet.xml", dated_rss(10, std::chrono::hours{24 * 60}, std::chrono::hours{24 * 7}));
  const auto id = add_blog("/quiet.xml");
  expect_wait(id, schedule_.max_interval);
  EXPECT_EQ(blog(id).last_status, "ok (frequency: 24 h, no posts in 4 weeks)");
  EXPECT_EQ(articles_of(id).size(), 10u);
  EXPECT_EQ(store_->count_recent_articles(id, now_seconds() - kWindow).value(), 0);
  server_->reset();
  expect_wait(id, schedule_.max_interval);
  EXPECT_EQ(blog(id).last_status, "not modified (frequency: 24 h, no posts in 4 weeks)");
  // A shorter cap is followed too.
  schedule_.max_interval = std::chrono::hours{6};
  server_->reset();
  expect_wait(id, std::chrono::hours{6});
  EXPECT_EQ(blog(id).last_status, "not modified (frequency: 6 h, no posts in 4 weeks)");
}

TEST_F(EntryFrequencyTest, TheFactorPollsMoreOften) {
  schedule_.frequency_factor = 4;
  constexpr int kPosts = 14;  // one every 2 days: 28 d / 14 / 4 = 12 h
  write(dir_ / "www/factor.xml", dated_rss(kPosts, std::chrono::hours{5}, std::chrono::hours{48}));
  const auto id = add_blog("/factor.xml");
  expect_wait(id, kWindow / kPosts / 4);
  EXPECT_EQ(blog(id).last_status, "ok (frequency: 12 h)");
}

TEST_F(EntryFrequencyTest, HintsLongerThanTheFrequencyStillWin) {
  write(dir_ / "www/busy.xml", dated_rss(56, std::chrono::hours{1}, std::chrono::hours{12}));
  const auto id = add_blog(with_header("/busy.xml", "Cache-Control: max-age=72000"));  // 20 h
  expect_wait(id, std::chrono::hours{20});
  EXPECT_EQ(blog(id).last_status, "ok (http: 20 h)");
}

TEST_F(EntryFrequencyTest, FailuresBackOffAsUnderTheFixedScheduler) {
  write(dir_ / "www/quiet.xml", dated_rss(3, std::chrono::hours{24 * 60}, std::chrono::hours{24}));
  const auto id = add_blog("/quiet.xml");
  crawl();
  fs::remove(dir_ / "www/quiet.xml");   // now a 404
  expect_wait(id, schedule_.interval);  // the first failure: one interval, not the frequency's 24 h
  EXPECT_EQ(blog(id).consecutive_failures, 1);
}

TEST_F(PolitePollingTest, TheFixedSchedulerIgnoresHowOftenABlogPosts) {
  ASSERT_EQ(ScheduleOptions{}.scheduler, Scheduler::kFixed);  // the default
  write(dir_ / "www/busy.xml", dated_rss(56, std::chrono::hours{1}, std::chrono::hours{12}));
  write(dir_ / "www/quiet.xml", dated_rss(10, std::chrono::hours{24 * 60}, std::chrono::hours{24 * 7}));
  const auto busy = add_blog("/busy.xml");
  const auto quiet = add_blog("/quiet.xml");
  const auto [low, high] = wait_after_crawl(busy);
  EXPECT_LE(low, std::chrono::hours{1});
  EXPECT_GE(high, std::chrono::hours{1});
  EXPECT_EQ(blog(busy).last_status, "ok");
  ASSERT_TRUE(blog(quiet).next_due_at);
  EXPECT_LE(*blog(quiet).next_due_at, now_seconds() + std::chrono::hours{1});
  EXPECT_EQ(blog(quiet).last_status, "ok");
}

// Similar articles at crawl time (docs/similar.md): a new post on a subject gets an earlier post of another
// blog on it as a pick, the earlier post gains the new one (an offer), and neither picks a post on another
// subject or a syndicated copy.
std::string feed_of(const std::string& title, const std::string& guid, const std::string& date,
                    const std::vector<const char*>& words, int salt) {
  std::string text;
  for (int i = 0; i < 320; ++i) {
    text += words[static_cast<std::size_t>((i * 7 + i / 5 + salt) % static_cast<int>(words.size()))];
    text += (i % 12 == 11) ? ". " : " ";
  }
  return "<rss version=\"2.0\"><channel><title>" + guid + "</title><item><title>" + title + "</title><guid>" +
         guid + "</guid><link>https://" + guid + ".example/post</link><pubDate>" + date +
         "</pubDate><description>" + text + "</description></item></channel></rss>";
}

// Three blogs: two posts on lock-free queues (q1, then q2 a day later) and one on abbeys, dated `days_ago`
// (q2 a day less). Crawled in two passes, q2 in the second. `read_before`: each blog was crawled once
// already, with no post in its feed, so the posts are not its first crawl (its back catalogue).
struct SimilarPosts {
  std::int64_t first = 0, second = 0, history = 0;
};

class SimilarCrawlTest : public CrawlTest {
 protected:
  SimilarPosts crawl_posts(int days_ago, bool read_before = true) {
    const std::vector<const char*> queues = {"lock-free", "queue",   "ring buffer", "producer",
                                             "consumer",  "atomic",  "cache line",  "memory ordering",
                                             "head",      "tail",    "the",         "and",
                                             "padding",   "threads", "benchmark"};
    const std::vector<const char*> buffers = {"ring buffer", "lock-free",    "cache line", "false sharing",
                                              "atomic",      "producer",     "consumer",   "index",
                                              "wraparound",  "power of two", "the",        "with",
                                              "latency",     "queue",        "cores"};
    const std::vector<const char*> abbeys = {"abbey",       "monks", "founded",    "clairvaux", "marshes",
                                             "granges",     "wool",  "trade",      "the",       "and",
                                             "dissolution", "henry", "cistercian", "chapter",   "cloister"};
    const auto day = [&](int n) { return format_http_date(now_seconds() - std::chrono::hours{24 * n}); };
    const std::string empty = "<rss version=\"2.0\"><channel><title>soon</title></channel></rss>";
    std::int64_t q2 = 0;
    if (read_before) {
      write(dir_ / "www/q2.xml", empty);
      q2 = add_blog("/q2.xml");
    }
    write(dir_ / "www/q1.xml",
          read_before ? empty : feed_of("Lock-free queues", "q1", day(days_ago), queues, 0));
    write(dir_ / "www/h.xml",
          read_before ? empty : feed_of("Cistercian abbeys", "h", day(days_ago), abbeys, 0));
    const auto q1 = add_blog("/q1.xml");
    const auto h = add_blog("/h.xml");
    crawl();
    if (read_before) {
      EXPECT_TRUE(articles_of(q1).empty());
      write(dir_ / "www/q1.xml", feed_of("Lock-free queues", "q1", day(days_ago), queues, 0));
      write(dir_ / "www/h.xml", feed_of("Cistercian abbeys", "h", day(days_ago), abbeys, 0));
      crawl();
    }
    write(dir_ / "www/q2.xml", feed_of("Ring buffers without locks", "q2", day(days_ago - 1), buffers, 3));
    if (!read_before) q2 = add_blog("/q2.xml");
    crawl();
    SimilarPosts out{.first = articles_of(q1).at(0).article.id,
                     .second = articles_of(q2).at(0).article.id,
                     .history = articles_of(h).at(0).article.id};
    for (const auto id : {out.first, out.second, out.history}) {
      const auto a = store_->article(id).value().value().article;
      EXPECT_FALSE(a.junk) << a.title << ": " << a.junk_reason;
    }
    return out;
  }
  std::vector<std::int64_t> picks_of(std::int64_t id) {
    auto similar = store_->similar_articles(id, 5);
    EXPECT_TRUE(similar) << similar.error().message;
    std::vector<std::int64_t> ids;
    for (const auto& s : similar.value_or(std::vector<storage::SimilarArticle>{}))
      ids.push_back(s.view.article.id);
    return ids;
  }
};

TEST_F(SimilarCrawlTest, ANewPostGetsSimilarPostsOfOtherBlogsAndJoinsTheirLists) {
  const auto posts = crawl_posts(3);  // fresh: within CrawlOptions::similar_fresh_days
  EXPECT_EQ(store_->similar_queue_size().value(), 0) << "fresh posts are indexed as they are saved";
  const std::vector<std::uint32_t> none;
  EXPECT_EQ(store_->similar_term_frequencies(none)->documents, 3) << "each pass writes its term counts";
  EXPECT_EQ(picks_of(posts.second), std::vector<std::int64_t>{posts.first});
  EXPECT_EQ(picks_of(posts.first), std::vector<std::int64_t>{posts.second})
      << "the older post gains the newer one";
  EXPECT_TRUE(picks_of(posts.history).empty());
  const auto reason = store_->similar_articles(posts.second, 5).value().at(0).shared;
  EXPECT_NE(reason.find("lock free"), std::string::npos) << reason;
}

// A new blog's first crawl is its back catalogue, however recent its posts: they are queued, not indexed,
// by the crawl (a list's first crawl would otherwise spend a third of its writer's time on them), and the
// catch-up gives them the picks the crawl would have.
TEST_F(SimilarCrawlTest, AFirstCrawlIsQueuedEvenWhenItsPostsAreFresh) {
  const auto posts = crawl_posts(3, /*read_before=*/false);
  EXPECT_EQ(store_->similar_queue_size().value(), 3);
  EXPECT_TRUE(picks_of(posts.second).empty());

  SimilarIndexer indexer(*store_);
  auto done = catch_up_similar(indexer, *store_, *store_, {});
  ASSERT_TRUE(done) << done.error().message;
  EXPECT_EQ(done->indexed, 3);
  EXPECT_EQ(store_->similar_queue_size().value(), 0);
  EXPECT_EQ(picks_of(posts.second), std::vector<std::int64_t>{posts.first});
  EXPECT_EQ(picks_of(posts.first), std::vector<std::int64_t>{posts.second});
  EXPECT_TRUE(picks_of(posts.history).empty());
}

// A new blog's back catalogue: posts older than similar_fresh_days are queued, not indexed, by the crawl;
// the catch-up then gives them the picks a crawl would have.
TEST_F(SimilarCrawlTest, OldPostsAreQueuedAndTheCatchUpGivesThemThePicksACrawlWould) {
  const auto posts = crawl_posts(400);
  EXPECT_EQ(store_->similar_queue_size().value(), 3);
  EXPECT_TRUE(picks_of(posts.second).empty());
  EXPECT_TRUE(picks_of(posts.first).empty());

  SimilarIndexer indexer(*store_);
  auto done = catch_up_similar(indexer, *store_, *store_, {});
  ASSERT_TRUE(done) << done.error().message;
  EXPECT_EQ(done->indexed, 3);
  EXPECT_EQ(done->dropped, 0);
  EXPECT_TRUE(done->finished);
  EXPECT_FALSE(done->busy);
  EXPECT_EQ(store_->similar_queue_size().value(), 0);
  EXPECT_EQ(picks_of(posts.second), std::vector<std::int64_t>{posts.first});
  EXPECT_EQ(picks_of(posts.first), std::vector<std::int64_t>{posts.second});
  EXPECT_TRUE(picks_of(posts.history).empty());
}

}  // namespace
}  // namespace longread::pipeline
