// Per-feed budgets and crash marks in the crawler, over the fixture server and a real SQLite file: the
// newest entries taken, entries cut and flagged, the per-blog cap (never a voted, saved or kept article,
// never one the feed still holds), hidden bodies pruned while guid and verdict stay, parsing marks.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>

#include "fetch/http_client.h"
#include "fixture_server/fixture_server.h"
#include "pipeline/crawler.h"
#include "storage/store.h"
#include "testing/test_dir.h"

namespace longread::pipeline {
namespace {
namespace fs = std::filesystem;

// ~240 words: kept by the junk rules.
std::string long_body(int seed) {
  static const char* kWords[] = {"queue",  "memory", "thread",  "atomic",
                                 "kernel", "buffer", "latency", "page"};
  std::string s = "<p>";
  for (int i = 0; i < 240; ++i) s += std::string(kWords[(seed + i * 3) % 8]) + (i % 12 == 11 ? ". " : " ");
  return s + "</p>";
}

// `count` items from `first`, day `first + i` of 2022-05 and later, guids "<prefix><i>"; `short_body` makes
// them junk (too short).
std::string rss(int first, int count, const std::string& prefix = "post-", bool short_body = false) {
  std::string items;
  for (int i = first; i < first + count; ++i) {
    const int day = i % 28 + 1;
    const int month = 1 + (i / 28) % 12;
    items += "<item><title>Post " + prefix + std::to_string(i) + "</title><link>https://example.org/p/" +
             prefix + std::to_string(i) + "</link><guid>" + prefix + std::to_string(i) + "</guid><pubDate>" +
             std::to_string(day) + " " +
             std::string("JanFebMarAprMayJunJulAugSepOctNovDec")
                 .substr(static_cast<std::size_t>(month - 1) * 3, 3) +
             " 2022 10:00:00 GMT</pubDate><description><![CDATA[" +
             (short_body ? std::string("<p>Short note ") + std::to_string(i) + "</p>" : long_body(i)) +
             "]]></description></item>";
  }
  return "<?xml version=\"1.0\"?><rss "
         "version=\"2.0\"><channel><title>B</title><link>https://example.org/</link>" +
         items + "</channel></rss>";
}

void write(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

class CrawlBudgetTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = longread::testing::fresh_test_dir("longread_budget");
    fs::create_directories(dir_ / "www");
    auto server = testing::FixtureServer::start(dir_ / "www");
    ASSERT_TRUE(server) << server.error().message;
    server_.emplace(std::move(*server));
    auto store = storage::open_sqlite_store(db_path());
    ASSERT_TRUE(store) << store.error().message;
    store_ = std::move(*store);
  }
  void TearDown() override {
    store_.reset();
    server_.reset();
    fs::remove_all(dir_);
  }
  std::string db_path() const { return (dir_ / "test.db").string(); }

  std::int64_t add_blog(const std::string& path) {
    auto id = store_->upsert_blog({.feed_url = server_->url(path), .title = path, .category = "programming"});
    EXPECT_TRUE(id) << id.error().message;
    return id ? *id : 0;
  }

  CrawlSummary crawl() {
    // The fixture server on 127.0.0.1 stands for the public internet: the outbound policy allows exactly it.
    fetch::ClientOptions client_options;
    client_options.address_policy.allow_networks.push_back(*IpNetwork::parse("127.0.0.1/32"));
    fetch::HttpClient client(client_options);
    options_.all = true;
    options_.fetch_full_text = false;
    Crawler crawler(*store_, client, options_, {});
    auto summary = crawler.run();
    EXPECT_TRUE(summary) << summary.error().message;
    return summary ? *summary : CrawlSummary{};
  }

  model::Blog blog(std::int64_t id) {
    auto b = store_->blog(id);
    EXPECT_TRUE(b && *b);
    return (b && *b) ? **b : model::Blog{};
  }

  std::vector<storage::ArticleView> articles_of(std::int64_t blog_id, bool include_junk = true) {
    storage::ArticleQuery q;
    q.blog_id = blog_id;
    q.include_junk = include_junk;
    q.limit = 100000;
    auto a = store_->articles(q);
    EXPECT_TRUE(a) << a.error().message;
    return a ? *a : std::vector<storage::ArticleView>{};
  }

  // A statement on the database file itself, as another process would run it.
  void sql(const std::string& statement) {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(db_path().c_str(), &db), SQLITE_OK);
    sqlite3_busy_timeout(db, 5000);
    char* error = nullptr;
    EXPECT_EQ(sqlite3_exec(db, statement.c_str(), nullptr, nullptr, &error), SQLITE_OK)
        << (error ? error : "");
    sqlite3_free(error);
    sqlite3_close(db);
  }

  fs::path dir_;
  CrawlOptions options_;
  std::optional<testing::FixtureServer> server_;
  std::unique_ptr<storage::Store> store_;
};

TEST_F(CrawlBudgetTest, OnlyTheNewestEntriesOfAnOversizedFeedAreTaken) {
  write(dir_ / "www/big.xml", rss(0, 30));
  const auto id = add_blog("/big.xml");
  options_.max_entries_per_feed = 10;
  const auto summary = crawl();
  EXPECT_EQ(summary.new_articles, 10);
  std::set<std::string> guids;
  for (const auto& v : articles_of(id)) guids.insert(v.article.guid);
  std::set<std::string> newest;
  for (int i = 20; i < 30; ++i) newest.insert("post-" + std::to_string(i));
  EXPECT_EQ(guids, newest);
  EXPECT_NE(blog(id).last_status.find("newest 10 of 30 entries: crawl.max_entries_per_feed"),
            std::string::npos)
      << blog(id).last_status;
}

TEST_F(CrawlBudgetTest, AnEntryPastItsByteBudgetIsCutAndFlagged) {
  std::string huge = "<p>";
  for (int i = 0; i < 40; ++i) huge += long_body(i).substr(3, 1500);
  huge += "</p>";
  const std::string feed =
      "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>B</title>"
      "<item><title>Huge</title><guid>huge</guid><description><![CDATA[" +
      huge + "]]></description></item><item><title>Normal</title><guid>normal</guid><description><![CDATA[" +
      long_body(1) + "]]></description></item></channel></rss>";
  write(dir_ / "www/cut.xml", feed);
  const auto id = add_blog("/cut.xml");
  options_.max_entry_bytes = 8 * 1024;
  crawl();
  std::map<std::string, model::Article> by_guid;
  for (const auto& v : articles_of(id)) {
    auto full = store_->article(v.article.id);
    ASSERT_TRUE(full && *full);
    by_guid[v.article.guid] = (*full)->article;
  }
  ASSERT_EQ(by_guid.size(), 2u);
  EXPECT_TRUE(by_guid["huge"].truncated);
  EXPECT_LE(by_guid["huge"].summary_html.size() + by_guid["huge"].content_html.size(), 8u * 1024);
  EXPECT_GT(by_guid["huge"].summary_html.size(), 7u * 1024);
  EXPECT_FALSE(by_guid["normal"].truncated);
  EXPECT_NE(blog(id).last_status.find("1 entry cut to 8 KiB"), std::string::npos) << blog(id).last_status;

  // The cut is the same on every crawl: the entry is unchanged, not updated again.
  write(dir_ / "www/cut.xml", feed + " ");
  const auto again = crawl();
  EXPECT_EQ(again.new_articles, 0);
  EXPECT_EQ(again.updated_articles, 0);
}

// The attack: a feed whose guids change on every poll. Each poll adds at most max_entries_per_feed, the blog
// stays within max_articles_per_blog, and what readers voted for or saved, and what the operator kept, stays.
TEST_F(CrawlBudgetTest, AFeedWhoseGuidsChangeOnEveryPollStaysWithinItsCap) {
  options_.max_entries_per_feed = 20;
  options_.max_articles_per_blog = 50;
  write(dir_ / "www/churn.xml", rss(0, 200, "poll0-"));
  const auto id = add_blog("/churn.xml");
  crawl();
  auto first = articles_of(id);
  ASSERT_EQ(first.size(), 20u);
  // A reader votes for one, saves another; the operator keeps a third.
  auto reader = store_->create_reader("r@example.org", "hash", now_seconds(), now_seconds());
  ASSERT_TRUE(reader) << reader.error().message;
  const std::int64_t voted = first[0].article.id, saved = first[1].article.id, kept = first[2].article.id;
  ASSERT_TRUE(store_->set_vote(*reader, voted, true, now_seconds()));
  ASSERT_TRUE(store_->set_saved(*reader, saved, true, now_seconds()));
  ASSERT_TRUE(store_->set_keep_override(kept, true));

  for (int poll = 1; poll <= 6; ++poll) {
    write(dir_ / "www/churn.xml", rss(poll * 200, 200, "poll" + std::to_string(poll) + "-"));
    const auto summary = crawl();
    EXPECT_EQ(summary.new_articles, 20) << poll;
    const auto rows = articles_of(id);
    EXPECT_LE(rows.size(), 50u) << poll;
    std::set<std::int64_t> ids;
    for (const auto& v : rows) ids.insert(v.article.id);
    EXPECT_TRUE(ids.contains(voted) && ids.contains(saved) && ids.contains(kept)) << poll;
    // This poll's 20 are all there.
    int current = 0;
    for (const auto& v : rows) current += v.article.guid.starts_with("poll" + std::to_string(poll) + "-");
    EXPECT_EQ(current, 20) << poll;
    // The visible count the pages read follows the deletes.
    EXPECT_EQ(blog(id).article_count, static_cast<std::int64_t>(articles_of(id, false).size())) << poll;
  }
  EXPECT_EQ(articles_of(id).size(), 50u);
  // The search index lost the deleted articles: FTS5 checks its index against the visible articles.
  sql("INSERT INTO articles_fts (articles_fts) VALUES ('integrity-check')");
  auto hits = store_->search("poll0", 100, 0);
  ASSERT_TRUE(hits) << hits.error().message;
  std::set<std::int64_t> visible;
  for (const auto& v : articles_of(id, false)) visible.insert(v.article.id);
  for (const auto& hit : *hits) EXPECT_TRUE(visible.contains(hit.view.article.id)) << hit.view.article.title;
}

TEST_F(CrawlBudgetTest, TheCapNeverDeletesWhatTheFeedStillHolds) {
  // 40 entries in the feed, a cap of 25: the feed's own entries are never deleted (they would come back as
  // new on every crawl), so the blog keeps 40 and a re-crawl adds nothing.
  options_.max_articles_per_blog = 25;
  write(dir_ / "www/f.xml", rss(0, 40));
  const auto id = add_blog("/f.xml");
  EXPECT_EQ(crawl().new_articles, 40);
  write(dir_ / "www/f.xml", rss(0, 40) + " ");
  EXPECT_EQ(crawl().new_articles, 0);
  EXPECT_EQ(articles_of(id).size(), 40u);
  // Ten new posts push out the oldest ten that left the feed.
  write(dir_ / "www/f.xml", rss(10, 40));
  EXPECT_EQ(crawl().new_articles, 10);
  const auto rows = articles_of(id);
  EXPECT_EQ(rows.size(), 40u);
  for (const auto& v : rows) EXPECT_NE(v.article.guid, "post-0");
}

TEST_F(CrawlBudgetTest, JunkLosesItsBodiesAfterTheRetentionButNeverComesBack) {
  options_.junk_retention = std::chrono::days{30};
  write(dir_ / "www/j.xml", rss(0, 3, "junk-", true) + "");
  const auto id = add_blog("/j.xml");
  crawl();
  auto rows = articles_of(id);
  ASSERT_EQ(rows.size(), 3u);
  for (const auto& v : rows) ASSERT_TRUE(v.article.junk) << v.article.title;
  const std::int64_t one = rows[0].article.id;
  // Seen 40 days ago (as another process would find it).
  sql("UPDATE articles SET first_seen = first_seen - 40 * 86400");
  crawl();  // 304: the pruning runs on every saved poll
  auto pruned = store_->article(one);
  ASSERT_TRUE(pruned && *pruned);
  EXPECT_TRUE((*pruned)->article.junk);
  EXPECT_FALSE((*pruned)->article.junk_reason.empty());
  EXPECT_EQ((*pruned)->article.summary_html, "");
  EXPECT_EQ((*pruned)->article.text, "");
  EXPECT_EQ((*pruned)->article.guid, rows[0].article.guid);
  // The feed changes (200): the pruned entries are unchanged, not new.
  write(dir_ / "www/j.xml", rss(0, 3, "junk-", true) + " ");
  const auto again = crawl();
  EXPECT_EQ(again.new_articles, 0);
  EXPECT_EQ(again.updated_articles, 0);
  EXPECT_EQ(articles_of(id).size(), 3u);
  sql("INSERT INTO articles_fts (articles_fts) VALUES ('integrity-check')");
}

TEST_F(CrawlBudgetTest, APassLeavesNoParsingMarkAndADeadProcessMarkIsACrash) {
  write(dir_ / "www/a.xml", rss(0, 2));
  const auto a = add_blog("/a.xml");
  const auto b = add_blog("/b.xml");
  write(dir_ / "www/b.xml", rss(0, 2));
  crawl();
  auto marks = store_->parsing_marks();
  ASSERT_TRUE(marks);
  EXPECT_TRUE(marks->empty());

  // A mark of a process that is gone (a pid that exited), as a crawler killed mid-parse leaves it.
  const pid_t child = fork();
  if (child == 0) _exit(0);
  int status = 0;
  waitpid(child, &status, 0);
  const std::string host = parsing_owner().substr(0, parsing_owner().find(':'));
  const std::string dead = host + ":" + std::to_string(child) + ":00000000deadbeef";
  ASSERT_FALSE(parsing_owner_alive(dead, now_seconds(), now_seconds()));
  EXPECT_TRUE(parsing_owner_alive(parsing_owner(), now_seconds(), now_seconds()));
  EXPECT_TRUE(parsing_owner_alive("elsewhere:1:0", now_seconds(), now_seconds()));
  EXPECT_FALSE(parsing_owner_alive("elsewhere:1:0", now_seconds() - std::chrono::hours{2}, now_seconds()));
  ASSERT_TRUE(store_->mark_parsing(a, dead, now_seconds()));
  // And one of this process (a pass running beside): not a crash.
  ASSERT_TRUE(store_->mark_parsing(b, parsing_owner(), now_seconds()));

  for (int crash = 1; crash <= kQuarantineAfterCrashes; ++crash) {
    if (crash > 1) {
      ASSERT_TRUE(store_->mark_parsing(a, dead, now_seconds()));
    }
    crawl();
    const auto blog_a = blog(a);
    EXPECT_EQ(blog_a.crashes, crash);
    EXPECT_EQ(blog_a.quarantined, crash == kQuarantineAfterCrashes);
    EXPECT_NE(
        blog_a.last_status.find("crashed the crawler while parsing (" + std::to_string(crash) + " of 3)"),
        std::string::npos)
        << blog_a.last_status;
  }
  EXPECT_EQ(blog(b).crashes, 0);
  // Quarantined: not polled, --all included; its articles stay.
  server_->reset();
  crawl();
  EXPECT_EQ(server_->requests_json().find("/a.xml"), std::string::npos);
  EXPECT_EQ(articles_of(a).size(), 2u);
  // `blogs resume` lifts it.
  auto resumed = store_->edit_blog(a, {.paused = false});
  ASSERT_TRUE(resumed) << resumed.error().message;
  EXPECT_FALSE(resumed->quarantined);
  EXPECT_EQ(resumed->crashes, 0);
  EXPECT_FALSE(resumed->next_due_at.has_value());
  server_->reset();
  crawl();
  EXPECT_NE(server_->requests_json().find("/a.xml"), std::string::npos);
  EXPECT_EQ(blog(a).last_error, "");
}

}  // namespace
}  // namespace longread::pipeline
