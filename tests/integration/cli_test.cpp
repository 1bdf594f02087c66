// The `longread` command line end to end: import/export round trip, `blogs` after a crawl that
// fails for one blog, `inspect` JSON lines, clear errors for bad arguments and bad configuration, and the
// operator's `readers` commands.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <regex>
#include <sstream>

#include "accounts/accounts.h"
#include "core/time.h"
#include "fixture_server/fixture_server.h"
#include "storage/store.h"
#include "testing/test_dir.h"

namespace {
namespace fs = std::filesystem;

struct Run {
  int status = -1;
  std::string output;  // stdout and stderr
};

Run run(const std::string& command) {
  Run r;
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return r;
  char buf[4096];
  while (std::fgets(buf, sizeof buf, pipe)) r.output += buf;
  const int status = pclose(pipe);
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

class CliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = longread::testing::fresh_test_dir("longread_cli");
    fs::create_directories(dir_ / "www");
    // The fixture server on 127.0.0.1 stands for the public internet: the outbound policy allows exactly it.
    bin_ = std::string("LONGREAD_FETCH_ALLOW_NETWORKS=127.0.0.1/32 " LONGREAD_BINARY_DIR
                       "/src/app/longread --db ") +
           (dir_ / "t.db").string();
  }
  void TearDown() override { fs::remove_all(dir_); }

  // A fixture server with one good feed ("Fine", one short item) and one 404 ("Gone"), both imported.
  std::optional<longread::testing::FixtureServer> import_fine_and_gone() {
    std::ofstream(dir_ / "www/feed.xml")
        << "<rss version=\"2.0\"><channel><title>Fine</title><item><title>a</title>"
           "<guid>a</guid></item></channel></rss>";
    auto server = longread::testing::FixtureServer::start(dir_ / "www");
    if (!server) {
      ADD_FAILURE() << server.error().message;
      return std::nullopt;
    }
    std::ofstream(dir_ / "list.opml") << "<opml version=\"2.0\"><body><outline text=\"essays\">"
                                         "<outline type=\"rss\" text=\"Fine\" xmlUrl=\"" +
                                             server->url("/feed.xml") +
                                             "\"/><outline type=\"rss\" text=\"Gone\" xmlUrl=\"" +
                                             server->url("/status/404") + "\"/></outline></body></opml>";
    const auto imported = run(bin_ + " import " + (dir_ / "list.opml").string());
    EXPECT_EQ(imported.status, 0) << imported.output;
    return std::move(*server);
  }

  fs::path dir_;
  std::string bin_;
};

TEST_F(CliTest, ImportIsIdempotentAndExportRoundTrips) {
  std::ofstream(dir_ / "list.opml") << R"(<?xml version="1.0"?><opml version="2.0"><body>
<outline text="history"><outline type="rss" text="Abbeys &amp; Granges" xmlUrl="https://abbeys.example/feed"/></outline>
<outline text="systems"><outline text="nested"><outline type="rss" text="Caches" xmlUrl="https://caches.example/atom.xml" htmlUrl="https://caches.example/"/></outline></outline>
</body></opml>)";
  auto first = run(bin_ + " import " + (dir_ / "list.opml").string());
  ASSERT_EQ(first.status, 0) << first.output;
  EXPECT_NE(first.output.find("imported 2 blogs"), std::string::npos) << first.output;
  auto again = run(bin_ + " import " + (dir_ / "list.opml").string());
  EXPECT_NE(again.output.find("(2 blogs in all)"), std::string::npos) << again.output;

  auto exported = run(bin_ + " export");
  ASSERT_EQ(exported.status, 0);
  std::ofstream(dir_ / "exported.opml") << exported.output;
  const std::string other =
      std::string(LONGREAD_BINARY_DIR "/src/app/longread --db ") + (dir_ / "u.db").string();
  ASSERT_EQ(run(other + " import " + (dir_ / "exported.opml").string()).status, 0);
  EXPECT_EQ(run(other + " export").output, exported.output);  // export -> import -> export is stable
  EXPECT_NE(exported.output.find("Abbeys &amp; Granges"), std::string::npos);
  EXPECT_NE(exported.output.find("text=\"history\""), std::string::npos);
}

// A retired blog leaves through `export` with its reason and comes back retired through `import`, in
// another database: retirement is the operator's decision about the blog, not a crawl state.
TEST_F(CliTest, ExportAndImportCarryARetiredBlogAndItsReason) {
  std::ofstream(dir_ / "list.opml") << R"(<?xml version="1.0"?><opml version="2.0"><body>
<outline text="history"><outline type="rss" text="Abbeys" xmlUrl="https://abbeys.example/feed"/>
<outline type="rss" text="Quiet" xmlUrl="https://quiet.example/feed"/></outline></body></opml>)";
  ASSERT_EQ(run(bin_ + " import " + (dir_ / "list.opml").string()).status, 0);
  {
    auto store = longread::storage::open_sqlite_store((dir_ / "t.db").string());
    ASSERT_TRUE(store) << store.error().message;
    auto quiet = (*store)->blog_by_feed_url("https://quiet.example/feed");
    ASSERT_TRUE(quiet && *quiet);
    ASSERT_TRUE((*store)->retire_blog((*quiet)->id, "no post in 12 months", longread::now_seconds()));
  }
  auto exported = run(bin_ + " export");
  ASSERT_EQ(exported.status, 0) << exported.output;
  EXPECT_NE(exported.output.find("longread:retired=\"no post in 12 months\""), std::string::npos)
      << exported.output;
  EXPECT_EQ(exported.output.find("retired=\"\""), std::string::npos);
  std::ofstream(dir_ / "exported.opml") << exported.output;

  const std::string other =
      std::string(LONGREAD_BINARY_DIR "/src/app/longread --db ") + (dir_ / "u.db").string();
  ASSERT_EQ(run(other + " import " + (dir_ / "exported.opml").string()).status, 0);
  auto store = longread::storage::open_sqlite_store((dir_ / "u.db").string());
  ASSERT_TRUE(store) << store.error().message;
  auto lifecycle = (*store)->blog_lifecycle();
  ASSERT_TRUE(lifecycle) << lifecycle.error().message;
  auto quiet = (*store)->blog_by_feed_url("https://quiet.example/feed");
  auto abbeys = (*store)->blog_by_feed_url("https://abbeys.example/feed");
  ASSERT_TRUE(quiet && *quiet && abbeys && *abbeys);
  EXPECT_TRUE((*quiet)->paused);
  EXPECT_FALSE((*abbeys)->paused);
  int retired = 0;
  for (const auto& l : *lifecycle) {
    if (!l.retired_at) continue;
    ++retired;
    EXPECT_EQ(l.blog_id, (*quiet)->id);
    EXPECT_EQ(l.retired_reason, "no post in 12 months");
  }
  EXPECT_EQ(retired, 1);
  // And the round trip is stable.
  EXPECT_EQ(run(other + " export").output, exported.output);
}

TEST_F(CliTest, BlogsShowsCrawlStateAndErrors) {
  auto server = import_fine_and_gone();
  ASSERT_TRUE(server);
  auto crawl = run(bin_ + " crawl");
  ASSERT_EQ(crawl.status, 0) << crawl.output;
  EXPECT_NE(crawl.output.find("1 fetched, 0 not modified, 1 failed (1 http_status); 1 new articles"),
            std::string::npos)
      << crawl.output;
  auto blogs = run(bin_ + " blogs");
  ASSERT_EQ(blogs.status, 0);
  std::istringstream lines(blogs.output);
  std::string header, row1, row2;
  std::getline(lines, header);
  std::getline(lines, row1);
  std::getline(lines, row2);
  EXPECT_NE(header.find("last error at"), std::string::npos);
  const std::string& fine = row1.find("Fine") != std::string::npos ? row1 : row2;
  const std::string& gone = row1.find("Gone") != std::string::npos ? row1 : row2;
  EXPECT_NE(fine.find("ok"), std::string::npos) << fine;
  EXPECT_NE(gone.find("HTTP 404"), std::string::npos) << gone;
  // The failing blog has an error time and no success; the fine one shows "-" for the error and a success
  // time. The status is the last column, whole.
  EXPECT_TRUE(std::regex_search(gone, std::regex(R"( 20\d\d-\d\d-\d\d \d\d:\d\d +- +.* HTTP 404$)"))) << gone;
  EXPECT_TRUE(std::regex_search(fine, std::regex(R"( - +20\d\d-\d\d-\d\d \d\d:\d\d +.* ok$)"))) << fine;
}

// `blogs remove ID`: the operator stops following a blog (the one that keeps failing, here); its row and
// articles go, the others stay, and an unknown id is a clear error.
TEST_F(CliTest, BlogsRemoveStopsFollowingABlog) {
  auto server = import_fine_and_gone();
  ASSERT_TRUE(server);
  ASSERT_EQ(run(bin_ + " crawl").status, 0);
  auto store = longread::storage::open_sqlite_store((dir_ / "t.db").string());
  ASSERT_TRUE(store);
  auto gone = (*store)->blog_by_feed_url(server->url("/status/404")).value();
  auto fine = (*store)->blog_by_feed_url(server->url("/feed.xml")).value();
  ASSERT_TRUE(gone && fine);

  auto removed = run(bin_ + " blogs remove " + std::to_string(gone->id));
  ASSERT_EQ(removed.status, 0) << removed.output;
  EXPECT_NE(removed.output.find("removed blog " + std::to_string(gone->id)), std::string::npos)
      << removed.output;
  auto listed = run(bin_ + " blogs");
  EXPECT_EQ(listed.output.find("/status/404"), std::string::npos) << listed.output;
  EXPECT_NE(listed.output.find("/feed.xml"), std::string::npos);
  EXPECT_FALSE((*store)->blog(gone->id).value());
  EXPECT_EQ((*store)->article_keys(fine->id).value().size(), 1u);  // stored (a junk-short one)
  EXPECT_EQ((*store)->blog_count().value(), 1);

  auto unknown = run(bin_ + " blogs remove 999999");
  EXPECT_EQ(unknown.status, 1);
  EXPECT_NE(unknown.output.find("no blog 999999"), std::string::npos) << unknown.output;
  // Removing the fine blog takes its article with it.
  ASSERT_EQ(run(bin_ + " blogs remove " + std::to_string(fine->id)).status, 0);
  EXPECT_TRUE((*store)->article_keys(fine->id).value().empty());
  EXPECT_EQ((*store)->blog_count().value(), 0);
}

// The default blog list goes into a database on its first run, once: a database whose blogs were all
// removed stays empty, and the crawl says what to do.
TEST_F(CliTest, TheDefaultListIsImportedOnTheFirstRunOnly) {
  auto server = longread::testing::FixtureServer::start(dir_ / "www");
  ASSERT_TRUE(server) << server.error().message;
  std::ofstream(dir_ / "defaults.opml") << "<opml version=\"2.0\"><body><outline text=\"essays\"><outline "
                                           "type=\"rss\" text=\"D\" xmlUrl=\"" +
                                               server->url("/status/404") + "\"/></outline></body></opml>";
  const std::string crawl =
      "LONGREAD_DEFAULT_BLOG_LIST=" + (dir_ / "defaults.opml").string() + " " + bin_ + " crawl";
  auto first = run(crawl);
  ASSERT_EQ(first.status, 0) << first.output;
  auto store = longread::storage::open_sqlite_store((dir_ / "t.db").string());
  ASSERT_TRUE(store);
  ASSERT_EQ((*store)->blog_count().value(), 1);
  ASSERT_EQ(run(crawl).status, 0);
  EXPECT_EQ((*store)->blog_count().value(), 1);  // not imported twice

  auto blog = (*store)->blog_by_feed_url(server->url("/status/404")).value();
  ASSERT_TRUE(blog);
  ASSERT_EQ(run(bin_ + " blogs remove " + std::to_string(blog->id)).status, 0);
  auto after = run(crawl);
  EXPECT_EQ(after.status, 0) << after.output;
  EXPECT_NE(after.output.find("no blogs to crawl"), std::string::npos) << after.output;
  EXPECT_EQ((*store)->blog_count().value(), 0);
}

TEST_F(CliTest, InspectPrintsOneJsonObjectPerEntry) {
  std::ofstream(dir_ / "f.xml") << R"(<?xml version="1.0"?><rss version="2.0"><channel><title>Notes</title>
<item><title>Draft</title><guid>d</guid><pubDate>Mon, 01 Jan 0001 00:00:00 +0000</pubDate><description>Pending.</description></item>
<item><title>Real</title><guid>r</guid><link>/r.html</link><pubDate>Mon, 23 May 2022 10:00:00 GMT</pubDate><description>A &amp; B</description></item>
</channel></rss>)";
  auto out = run(bin_ + " inspect " + (dir_ / "f.xml").string());
  ASSERT_EQ(out.status, 0) << out.output;
  std::istringstream lines(out.output);
  std::vector<nlohmann::json> objects;
  for (std::string line; std::getline(lines, line);) objects.push_back(nlohmann::json::parse(line));
  ASSERT_EQ(objects.size(), 3u);
  EXPECT_EQ(objects[0]["type"], "feed");
  EXPECT_EQ(objects[0]["title"], "Notes");
  const auto& draft = objects[1];
  EXPECT_TRUE(draft["published"].is_null());
  EXPECT_EQ(draft["undated"], true);
  EXPECT_EQ(draft["junk"], true);
  EXPECT_NE(draft["junk_reason"].get<std::string>().find("draft placeholder"), std::string::npos);
  const auto& real = objects[2];
  EXPECT_EQ(real["published"], "2022-05-23T10:00:00Z");
  EXPECT_EQ(real["summary_text"], "A & B");
  for (const char* key :
       {"title", "link", "author", "words", "content_text", "category", "reading_minutes", "excerpt"})
    EXPECT_TRUE(real.contains(key)) << key;
  EXPECT_EQ(run(bin_ + " inspect " + (dir_ / "missing.xml").string()).status, 1);
}

TEST_F(CliTest, BadArgumentsAndConfigurationAreClearErrors) {
  auto bad_env = run("LONGREAD_CRAWL_TIMEOUT=soon " + bin_ + " blogs");
  EXPECT_EQ(bad_env.status, 2);
  EXPECT_NE(bad_env.output.find("crawl.timeout must be an integer"), std::string::npos) << bad_env.output;
  auto no_command = run(bin_);
  EXPECT_NE(no_command.status, 0);
  std::ofstream(dir_ / "not.db") << "this is not a database, just text that is long enough to be read";
  auto bad_db =
      run(std::string(LONGREAD_BINARY_DIR "/src/app/longread --db ") + (dir_ / "not.db").string() + " blogs");
  EXPECT_EQ(bad_db.status, 1);
  EXPECT_NE(bad_db.output.find("file is not a database"), std::string::npos) << bad_db.output;
}

// The entry-frequency scheduler's settings reach the crawl through the configuration (environment here):
// one post 10 days old is outside a 7-day window ("no posts in 1 week") and inside a 14-day one ("1 post in
// 2 weeks"); either way the wait is the 24 h cap, and the blog's status says why.
TEST_F(CliTest, EntryFrequencySettingsReachTheCrawl) {
  const auto ten_days_ago = longread::now_seconds() - std::chrono::days{10};
  std::ofstream(dir_ / "www/feed.xml")
      << "<rss version=\"2.0\"><channel><title>Quiet</title><item><title>a</title>"
         "<guid>a</guid><pubDate>"
      << longread::format_http_date(ten_days_ago) << "</pubDate></item></channel></rss>";
  auto server = longread::testing::FixtureServer::start(dir_ / "www");
  ASSERT_TRUE(server) << server.error().message;
  std::ofstream(dir_ / "list.opml")
      << "<opml version=\"2.0\"><body><outline type=\"rss\" text=\"Quiet\" xmlUrl=\"" +
             server->url("/feed.xml") + "\"/></body></opml>";
  ASSERT_EQ(run(bin_ + " import " + (dir_ / "list.opml").string()).status, 0);
  const auto status_after = [&](const std::string& days) {
    const auto crawl =
        run("LONGREAD_CRAWL_SCHEDULER=entry_frequency LONGREAD_CRAWL_ENTRY_FREQUENCY_WINDOW_DAYS=" + days +
            " LONGREAD_CRAWL_FETCH_FULL_TEXT=false " + bin_ + " crawl --all");
    EXPECT_EQ(crawl.status, 0) << crawl.output;
    auto store = longread::storage::open_sqlite_store((dir_ / "t.db").string());
    EXPECT_TRUE(store) << store.error().message;
    return (*store)->blog_by_feed_url(server->url("/feed.xml")).value().value().last_status;
  };
  EXPECT_EQ(status_after("7"), "ok (frequency: 24 h, no posts in 1 week)");
  EXPECT_EQ(status_after("14"), "not modified (frequency: 24 h, 1 post in 2 weeks)");
}

}  // namespace

// `longread readers`: the operator lists accounts, sets a reader's password from standard input (every
// session of the account ends) and deletes an account. The accounts are made through the same Accounts
// code the site uses, on the same database file.
TEST_F(CliTest, ReadersListSetPasswordAndDelete) {
  const std::string db = (dir_ / "t.db").string();
  std::string session_token;
  {
    auto store = longread::storage::open_sqlite_store(db);
    ASSERT_TRUE(store) << store.error().message;
    auto accounts = longread::accounts::Accounts::open(
        **store, **store, **store, {.password_cost = longread::accounts::PasswordCost::minimum()});
    ASSERT_TRUE(accounts);
    auto made =
        (*accounts)->sign_up("Ada@example.org", "a long passphrase", "10.0.0.1", longread::now_seconds());
    ASSERT_TRUE(made && made->session);
    session_token = made->session->token;
    ASSERT_TRUE(
        (*accounts)->sign_up("bob@example.org", "bob's passphrase", "10.0.0.1", longread::now_seconds()));
  }

  auto listed = run(bin_ + " readers");
  ASSERT_EQ(listed.status, 0) << listed.output;
  EXPECT_NE(listed.output.find("Ada@example.org"), std::string::npos) << listed.output;
  EXPECT_NE(listed.output.find("bob@example.org"), std::string::npos);
  EXPECT_NE(listed.output.find("2 readers"), std::string::npos);
  EXPECT_EQ(listed.output.find("$argon2id$"), std::string::npos);  // no password hash is ever printed

  // Bad requests change nothing and say why.
  auto unknown = run("echo 'a new passphrase' | " + bin_ + " readers password nobody@example.org");
  EXPECT_EQ(unknown.status, 1);
  EXPECT_NE(unknown.output.find("no reader nobody@example.org"), std::string::npos) << unknown.output;
  auto weak = run("echo 'short' | " + bin_ + " readers password ada@example.org");
  EXPECT_EQ(weak.status, 1);
  auto nothing = run(bin_ + " readers password ada@example.org < /dev/null");
  EXPECT_EQ(nothing.status, 2);
  EXPECT_NE(nothing.output.find("no password given"), std::string::npos) << nothing.output;

  auto set = run("echo 'the operator set this' | " + bin_ + " readers password ADA@example.org");
  ASSERT_EQ(set.status, 0) << set.output;
  EXPECT_NE(set.output.find("password set"), std::string::npos);
  auto deleted = run(bin_ + " readers delete bob@example.org");
  ASSERT_EQ(deleted.status, 0) << deleted.output;
  EXPECT_EQ(run(bin_ + " readers delete bob@example.org").status, 1);

  auto store = longread::storage::open_sqlite_store(db);
  ASSERT_TRUE(store);
  auto accounts = longread::accounts::Accounts::open(
      **store, **store, **store, {.password_cost = longread::accounts::PasswordCost::minimum()});
  ASSERT_TRUE(accounts);
  const auto now = longread::now_seconds();
  EXPECT_FALSE((*accounts)->reader(session_token, now).value());  // the old session ended
  EXPECT_FALSE((*accounts)->log_in("ada@example.org", "a long passphrase", "10.0.0.2", now));
  EXPECT_TRUE((*accounts)->log_in("ada@example.org", "the operator set this", "10.0.0.2", now));
  EXPECT_FALSE((*store)->reader_by_email("bob@example.org").value());
}

// `longread readers promote / demote`: the role shows in `readers`, a live session sees it at its next
// lookup (no new log-in), an unknown address changes nothing, and each change is in the audit log with the
// CLI as the actor.
TEST_F(CliTest, ReadersPromoteAndDemoteAnOperator) {
  const std::string db = (dir_ / "t.db").string();
  std::string session_token;
  {
    auto store = longread::storage::open_sqlite_store(db);
    ASSERT_TRUE(store) << store.error().message;
    auto accounts = longread::accounts::Accounts::open(
        **store, **store, **store, {.password_cost = longread::accounts::PasswordCost::minimum()});
    ASSERT_TRUE(accounts);
    auto made =
        (*accounts)->sign_up("ada@example.org", "a long passphrase", "10.0.0.1", longread::now_seconds());
    ASSERT_TRUE(made && made->session);
    session_token = made->session->token;
    EXPECT_FALSE((*accounts)->reader(session_token, longread::now_seconds()).value()->is_operator);
  }
  auto unknown = run(bin_ + " readers promote nobody@example.org");
  EXPECT_EQ(unknown.status, 1);
  EXPECT_NE(unknown.output.find("no reader nobody@example.org"), std::string::npos) << unknown.output;

  auto promoted = run(bin_ + " readers promote ADA@example.org");
  ASSERT_EQ(promoted.status, 0) << promoted.output;
  auto listed = run(bin_ + " readers");
  EXPECT_NE(listed.output.find("operator"), std::string::npos) << listed.output;
  {
    auto store = longread::storage::open_sqlite_store(db);
    ASSERT_TRUE(store);
    auto accounts = longread::accounts::Accounts::open(
        **store, **store, **store, {.password_cost = longread::accounts::PasswordCost::minimum()});
    ASSERT_TRUE(accounts);
    auto reader = (*accounts)->reader(session_token, longread::now_seconds());
    ASSERT_TRUE(reader && *reader);
    EXPECT_TRUE((*reader)->is_operator);
  }
  auto demoted = run(bin_ + " readers demote ada@example.org");
  ASSERT_EQ(demoted.status, 0) << demoted.output;
  EXPECT_EQ(run(bin_ + " readers").output.find("operator"), std::string::npos);

  auto store = longread::storage::open_sqlite_store(db);
  ASSERT_TRUE(store);
  auto accounts = longread::accounts::Accounts::open(
      **store, **store, **store, {.password_cost = longread::accounts::PasswordCost::minimum()});
  ASSERT_TRUE(accounts);
  EXPECT_FALSE((*accounts)->reader(session_token, longread::now_seconds()).value()->is_operator);
  auto log = (*store)->audit_entries(10, 0);
  ASSERT_TRUE(log) << log.error().message;
  ASSERT_EQ(log->entries.size(), 2u);  // the failed promote wrote nothing
  EXPECT_EQ(log->entries[0].action, "reader.demote");
  EXPECT_EQ(log->entries[1].action, "reader.promote");
  for (const auto& entry : log->entries) {
    EXPECT_EQ(entry.actor, "cli");
    EXPECT_FALSE(entry.actor_id);
    EXPECT_NE(entry.target.find("ada@example.org"), std::string::npos) << entry.target;
  }
}
