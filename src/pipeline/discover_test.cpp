// Feed discovery and the suggestion worker against a real HTTP server on 127.0.0.1 (the fixture server)
// and a real SQLite file: what is found at a home page, a feed and a page without links, the junk verdicts
// of the recent posts, the outbound policy's refusals, and suggestions discovered in the background.
#include "pipeline/discover.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "fetch/http_client.h"
#include "fixture_server/fixture_server.h"
#include "pipeline/article_builder.h"
#include "pipeline/suggestions.h"
#include "storage/store.h"
#include "testing/test_dir.h"

namespace longread::pipeline {
namespace {
namespace fs = std::filesystem;

// An English paragraph long enough for the "too short" rule (150 words by default) when repeated.
constexpr const char* kParagraph =
    "Every winter the river below the old mill freezes from the banks inward, and the village gathers to "
    "watch the last channel of open water close. My grandmother kept a notebook of the dates for sixty "
    "years, and reading it now I can see the winters getting shorter, one careful line at a time. ";

std::string long_post_html() {
  std::string html;
  for (int i = 0; i < 6; ++i) html += std::string("<p>") + kParagraph + "</p>";
  return html;
}

struct Item {
  std::string title;
  std::string date;  // RFC 822, or empty
  std::string html;
};

std::string rss(const std::string& title, const std::string& link, const std::vector<Item>& items) {
  std::string s = "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>" + title + "</title>";
  if (!link.empty()) s += "<link>" + link + "</link>";
  int n = 0;
  for (const auto& item : items) {
    ++n;
    s += "<item><title>" + item.title + "</title><guid>g" + std::to_string(n) + "</guid><link>" + link +
         "p/" + std::to_string(n) + "</link>";
    if (!item.date.empty()) s += "<pubDate>" + item.date + "</pubDate>";
    s += "<description><![CDATA[" + item.html + "]]></description></item>";
  }
  return s + "</channel></rss>";
}

std::string page(const std::string& head) {
  return "<!DOCTYPE html><html><head><title>River Notes Home</title>" + head +
         "</head><body><h1>Hi</h1></body></html>";
}

// The fixture server on 127.0.0.1 stands for the public internet; the outbound policy refuses loopback by
// default, so these requests opt in to exactly that address, as the crawler's tests do.
fetch::ClientOptions fixture_client_options() {
  fetch::ClientOptions options;
  options.address_policy.allow_networks.push_back(*IpNetwork::parse("127.0.0.1/32"));
  return options;
}

class DiscoverTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = longread::testing::fresh_test_dir("longread_discover");
    fs::create_directories(dir_ / "www");
    auto server = testing::FixtureServer::start(dir_ / "www");
    ASSERT_TRUE(server) << server.error().message;
    server_.emplace(std::move(*server));
  }
  void TearDown() override {
    server_.reset();
    fs::remove_all(dir_);
  }
  void write(const std::string& path, const std::string& text) {
    fs::create_directories((dir_ / "www" / path).parent_path());
    std::ofstream(dir_ / "www" / path, std::ios::binary) << text;
  }
  std::string url(const std::string& path) const { return server_->url(path); }
  std::vector<std::string> requested_paths() const {
    std::vector<std::string> out;
    for (const auto& r : nlohmann::json::parse(server_->requests_json())) out.push_back(r["path"]);
    return out;
  }

  // A blog home page declaring its comments feed first and its posts feed second; the posts feed has a
  // long post, a one-line note and an older long post, in no particular order.
  void write_blog() {
    write(
        "blog/index.html",
        page(
            R"(<link rel="alternate" type="application/rss+xml" title="River &raquo; Comments Feed" href="comments/feed.xml">)"
            R"(<link rel="alternate" type="application/rss+xml" title="River" href="feed.xml">)"));
    write("blog/feed.xml", rss("River Notes", "http://river.example/",
                               {{"The old mill", "Mon, 01 Apr 2024 08:30:00 GMT", long_post_html()},
                                {"Back soon", "Mon, 06 May 2024 10:00:00 GMT", "<p>Back next week.</p>"},
                                {"Ice dates", "Fri, 01 Mar 2024 08:00:00 GMT", long_post_html()}}));
    write("blog/comments/feed.xml", rss("Comments for River Notes", "http://river.example/", {}));
  }

  fs::path dir_;
  std::optional<testing::FixtureServer> server_;
};

TEST_F(DiscoverTest, HomePageGivesItsPostsFeedFirstWithTheNewestPostsJudged) {
  write_blog();
  fetch::HttpClient client(fixture_client_options());
  auto found = discover_feeds(client, url("/blog/index.html"), {.recent_posts = 2});
  ASSERT_TRUE(found) << found.error().message;
  EXPECT_TRUE(found->from_html);
  ASSERT_EQ(found->feeds.size(), 2u);
  const DiscoveredFeed& chosen = found->chosen();
  EXPECT_EQ(chosen.feed_url, url("/blog/feed.xml"));
  EXPECT_FALSE(chosen.comments);
  EXPECT_TRUE(found->feeds[1].comments);  // declared first, passed over
  EXPECT_EQ(feed_format_name(chosen.version), "RSS 2.0");
  EXPECT_EQ(chosen.entries, 3u);
  EXPECT_EQ(chosen.newest_post, from_unix(1714989600));  // 6 May 2024 10:00 UTC
  EXPECT_EQ(found->blog_title(), "River Notes");
  EXPECT_EQ(found->blog_site_url(), "http://river.example/");
  // The two newest, newest first, judged as the crawler judges entries: the note is too short.
  ASSERT_EQ(chosen.recent.size(), 2u);
  EXPECT_EQ(chosen.recent[0].title, "Back soon");
  EXPECT_TRUE(chosen.recent[0].junk);
  EXPECT_TRUE(chosen.recent[0].junk_reason.starts_with("too short")) << chosen.recent[0].junk_reason;
  EXPECT_EQ(chosen.recent[1].title, "The old mill");
  EXPECT_FALSE(chosen.recent[1].junk) << chosen.recent[1].junk_reason;
  EXPECT_EQ(chosen.recent[1].published, from_unix(1711960200));
  // What the page declared worked: nothing was guessed.
  for (const auto& p : requested_paths()) EXPECT_TRUE(p.starts_with("/blog/")) << p;
}

TEST_F(DiscoverTest, AFeedURLIsTakenAsItIsAndAPermanentRedirectMovesIt) {
  write_blog();
  fetch::HttpClient client(fixture_client_options());
  auto found = discover_feeds(client, url("/redirect-permanent/blog/comments/feed.xml"));
  ASSERT_TRUE(found) << found.error().message;
  EXPECT_FALSE(found->from_html);
  ASSERT_EQ(found->feeds.size(), 1u);
  EXPECT_FALSE(found->chosen().comments);  // asked for by name
  EXPECT_EQ(found->chosen().feed_url, url("/blog/comments/feed.xml"));
  EXPECT_EQ(found->blog_site_url(), "http://river.example/");
}

TEST_F(DiscoverTest, APageWithoutLinksFallsBackToTheWellKnownPaths) {
  write("notes/index.html", page(""));
  write("notes/atom.xml",
        "<?xml version=\"1.0\"?><feed xmlns=\"http://www.w3.org/2005/Atom\"><title>Plain Notes</title>"
        "<id>urn:x</id><updated>2024-05-01T00:00:00Z</updated>"
        "<entry><title>One</title><id>urn:1</id><updated>2024-05-01T00:00:00Z</updated></entry></feed>");
  fetch::HttpClient client(fixture_client_options());
  auto found = discover_feeds(client, url("/notes/index.html"));
  ASSERT_TRUE(found) << found.error().message;
  EXPECT_EQ(found->chosen().feed_url, url("/notes/atom.xml"));
  EXPECT_EQ(feed_format_name(found->chosen().version), "Atom 1.0");
  EXPECT_FALSE(found->rejected.empty());
  for (const auto& r : found->rejected) EXPECT_TRUE(r.guessed) << r.url;
  // No link in the feed: the page given is the site.
  EXPECT_EQ(found->blog_site_url(), url("/notes/index.html"));
}

TEST_F(DiscoverTest, FailuresSayWhichURLAndWhy) {
  write("empty/index.html", page(""));
  write("notes.txt", "just text");
  fetch::HttpClient client(fixture_client_options());

  auto missing = discover_feeds(client, url("/gone/"));
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().kind, ErrorKind::kHttpStatus);
  EXPECT_EQ(missing.error().display(), url("/gone/") + ": fetch: HTTP 404");
  EXPECT_TRUE(missing.error().message.starts_with("discover: "));

  auto text = discover_feeds(client, url("/notes.txt"));
  ASSERT_FALSE(text);
  EXPECT_EQ(text.error().kind, ErrorKind::kNotAFeed);
  EXPECT_NE(text.error().display().find("neither an HTML page nor a feed"), std::string::npos);

  auto nothing = discover_feeds(client, url("/empty/index.html"));
  ASSERT_FALSE(nothing);
  EXPECT_EQ(nothing.error().kind, ErrorKind::kNotAFeed);
  EXPECT_TRUE(nothing.error().display().starts_with("no feed found at " + url("/empty/index.html")))
      << nothing.error().display();
}

// Discovery goes through the client's outbound policy: with the default policy a loopback URL is refused
// before any request is sent, and a page on an allowed host cannot make discovery probe another address.
TEST_F(DiscoverTest, APrivateAddressIsRefusedBeforeAnyRequest) {
  write_blog();
  fetch::HttpClient strict{fetch::ClientOptions{}};
  auto refused = discover_feeds(strict, url("/blog/index.html"));
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().kind, ErrorKind::kForbidden);
  EXPECT_EQ(refused.error().display(),
            url("/blog/index.html") +
                ": fetch: refused: 127.0.0.1 is a private address (set fetch.allow_private to allow)");
  EXPECT_TRUE(requested_paths().empty());

  // Allowed: 127.0.0.1 only. Another loopback address is still refused, by name, before connecting.
  fetch::HttpClient client(fixture_client_options());
  auto other = discover_feeds(client, "http://127.0.0.2:" + std::to_string(server_->port()) + "/blog/");
  ASSERT_FALSE(other);
  EXPECT_EQ(other.error().kind, ErrorKind::kForbidden);
  EXPECT_NE(other.error().display().find("fetch: refused: 127.0.0.2 is a private address"), std::string::npos)
      << other.error().display();
  // A redirect from the allowed host to the refused one is refused on that hop.
  auto hop = discover_feeds(
      client, url("/redirect-to?url=http://127.0.0.2:" + std::to_string(server_->port()) + "/blog/feed.xml"));
  ASSERT_FALSE(hop);
  EXPECT_EQ(hop.error().kind, ErrorKind::kForbidden);
  EXPECT_TRUE(requested_paths().size() == 1u && requested_paths()[0].starts_with("/redirect-to"));
}

// The suggestion worker over a real store: a found feed with its posts, an already-followed feed, a
// refused private address, and a suggestion left pending by a killed process taken over by a new worker.
class SuggestionWorkerTest : public DiscoverTest {
 protected:
  void SetUp() override {
    DiscoverTest::SetUp();
    auto store = storage::open_sqlite_store((dir_ / "db.sqlite").string());
    ASSERT_TRUE(store) << store.error().message;
    store_ = std::move(*store);
  }
  void TearDown() override {
    store_.reset();
    DiscoverTest::TearDown();
  }
  std::int64_t suggest(const std::string& u) {
    auto s = store_->add_suggestion({.url = u, .now = now_seconds() - std::chrono::seconds(5)});
    EXPECT_TRUE(s) << s.error().message;
    return s ? s->id : 0;
  }
  std::unique_ptr<storage::Store> store_;
};

TEST_F(SuggestionWorkerTest, APassSavesFoundFollowedAndRefusedSuggestions) {
  write_blog();
  write("other/feed.xml", rss("Followed Already", "http://followed.example/", {}));
  ASSERT_TRUE(store_->upsert_blog({.feed_url = url("/other/feed.xml"), .title = "Followed Already"}));
  const auto found_id = suggest(url("/blog/index.html"));
  const auto followed_id = suggest(url("/redirect-temp/other/feed.xml"));
  const auto private_id = suggest("http://127.0.0.2:" + std::to_string(server_->port()) + "/blog/");

  SuggestionWorker worker(*store_, *store_, fixture_client_options(), CurationContext{});
  auto saved = worker.run_once();
  ASSERT_TRUE(saved) << saved.error().message;
  EXPECT_EQ(*saved, 3);

  auto found = store_->suggestion(found_id).value().value();
  EXPECT_EQ(found.status, storage::SuggestionStatus::kFound);
  EXPECT_EQ(found.feed_url, url("/blog/feed.xml"));
  EXPECT_EQ(found.title, "River Notes");
  EXPECT_EQ(found.format, "RSS 2.0");
  EXPECT_EQ(found.entries, 3);
  ASSERT_EQ(found.posts.size(), 3u);
  EXPECT_EQ(found.posts[0].title, "Back soon");
  EXPECT_TRUE(found.posts[0].junk);
  EXPECT_FALSE(found.posts[1].junk);

  auto followed = store_->suggestion(followed_id).value().value();
  EXPECT_EQ(followed.status, storage::SuggestionStatus::kFollowed);
  EXPECT_EQ(followed.blog_id, store_->blog_by_feed_url(url("/other/feed.xml")).value()->id);

  auto refused = store_->suggestion(private_id).value().value();
  EXPECT_EQ(refused.status, storage::SuggestionStatus::kRefused);
  EXPECT_NE(refused.error.find("refused: 127.0.0.2 is a private address"), std::string::npos)
      << refused.error;
  // Nothing on the fixture server was asked for on 127.0.0.2's behalf, and nothing became a blog.
  EXPECT_EQ(store_->blog_count().value(), 1);
}

TEST_F(SuggestionWorkerTest, ASuggestionLeftPendingByAKilledProcessIsDiscoveredAfterTheRestart) {
  write_blog();
  const auto id = suggest(url("/blog/index.html"));
  // The first process claimed it with a lease and died before saving anything.
  ASSERT_EQ(store_
                ->claim_suggestions(now_seconds() - std::chrono::seconds(5),
                                    now_seconds() - std::chrono::seconds(1), 10, 3)
                .value()
                .size(),
            1u);
  store_.reset();
  auto reopened = storage::open_sqlite_store((dir_ / "db.sqlite").string());
  ASSERT_TRUE(reopened);
  store_ = std::move(*reopened);
  EXPECT_EQ(store_->suggestion(id).value()->status, storage::SuggestionStatus::kPending);

  // The restarted worker's thread takes it over on its first pass, without being woken.
  SuggestionWorker worker(*store_, *store_, fixture_client_options(), CurationContext{});
  worker.start();
  for (int i = 0; i < 200 && store_->suggestion(id).value()->status == storage::SuggestionStatus::kPending;
       ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  worker.stop();
  auto done = store_->suggestion(id).value().value();
  EXPECT_EQ(done.status, storage::SuggestionStatus::kFound);
  EXPECT_EQ(done.attempts, 2);
}

}  // namespace
}  // namespace longread::pipeline
