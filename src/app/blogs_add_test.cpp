// `longread blogs add URL` end to end: the real binary against a real HTTP server on 127.0.0.1 (the
// fixture server) and a real SQLite file, read back through the Store after each run.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>

#include "fixture_server/fixture_server.h"
#include "storage/store.h"
#include "testing/command.h"
#include "testing/test_dir.h"

namespace {
namespace fs = std::filesystem;

using Outcome = longread::testing::CommandOutcome;

class BlogsAddTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = longread::testing::fresh_test_dir("longread_blogs_add");
    fs::create_directories(dir_ / "www");
  }
  void TearDown() override { fs::remove_all(dir_); }

  void write(const std::string& path, const std::string& text) {
    fs::create_directories((dir_ / "www" / path).parent_path());
    std::ofstream(dir_ / "www" / path, std::ios::binary) << text;
  }

  void serve() {
    auto server = longread::testing::FixtureServer::start(dir_ / "www");
    ASSERT_TRUE(server) << server.error().message;
    server_.emplace(std::move(*server));
  }
  std::string url(const std::string& path) const { return server_->url(path); }

  // Runs `longread --db DIR/t.db ARGS`, stdout and stderr apart. The fixture server on 127.0.0.1 stands for
  // the public internet: the outbound policy is told to allow exactly that address.
  Outcome longread(const std::string& args) {
    return longread::testing::run_command(
        std::string("LONGREAD_FETCH_ALLOW_NETWORKS=127.0.0.1/32 " LONGREAD_BINARY_DIR
                    "/src/app/longread --db ") +
            (dir_ / "t.db").string() + " " + args,
        dir_ / "stderr");
  }

  // The blogs in the SQLite file, read with the Store (none when the file was never created).
  std::vector<longread::model::Blog> stored_blogs() {
    if (!fs::exists(dir_ / "t.db")) return {};
    auto store = longread::storage::open_sqlite_store((dir_ / "t.db").string());
    EXPECT_TRUE(store) << store.error().message;
    if (!store) return {};
    auto blogs = (*store)->blogs();
    EXPECT_TRUE(blogs);
    return blogs ? *blogs : std::vector<longread::model::Blog>{};
  }

  // Paths the server was asked for, in order.
  std::vector<std::string> requested_paths() const {
    std::vector<std::string> out;
    for (const auto& r : nlohmann::json::parse(server_->requests_json())) out.push_back(r["path"]);
    return out;
  }

  static std::string rss(const std::string& title, const std::string& link = "", int items = 2) {
    std::string s = "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>" + title + "</title>";
    if (!link.empty()) s += "<link>" + link + "</link>";
    for (int i = 0; i < items; ++i) {
      s +=
          "<item><title>Post " + std::to_string(i) + "</title><guid>p" + std::to_string(i) + "</guid></item>";
    }
    return s + "</channel></rss>";
  }
  static std::string atom(const std::string& title) {
    return "<?xml version=\"1.0\" encoding=\"utf-8\"?><feed xmlns=\"http://www.w3.org/2005/Atom\"><title>" +
           title +
           "</title><id>urn:x</id><updated>2024-05-01T00:00:00Z</updated><link "
           "href=\"http://site.example/\"/>"
           "<entry><title>One</title><id>urn:1</id><updated>2024-05-01T00:00:00Z</updated></entry></feed>";
  }
  static std::string page(const std::string& head) {
    return "<!DOCTYPE html><html><head><title>Home Page</title>" + head +
           "</head><body><h1>Hi</h1></body></html>";
  }

  fs::path dir_;
  std::optional<longread::testing::FixtureServer> server_;
};

// The home page declares its feed (and WordPress's comments feed first, which is passed over); the blog
// gets the feed's title, the feed's link as site URL, the default category, and is due at once.
TEST_F(BlogsAddTest, HomePageWithALinkTagAddsTheFeed) {
  write(
      "blog/index.html",
      page(
          R"(<link rel="alternate" type="application/rss+xml" title="Ann &raquo; Comments Feed" href="comments/feed.xml">)"
          R"(<link rel="alternate" type="application/rss+xml" title="Ann" href="feed.xml">)"));
  write("blog/feed.xml", rss("Ann's Notes", "http://ann.example/"));
  write("blog/comments/feed.xml", rss("Comments for Ann's Notes"));
  serve();
  const auto r = longread("blogs add " + url("/blog/index.html"));
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  const auto blogs = stored_blogs();
  ASSERT_EQ(blogs.size(), 1u);
  EXPECT_EQ(blogs[0].feed_url, url("/blog/feed.xml"));
  EXPECT_EQ(blogs[0].title, "Ann's Notes");
  EXPECT_EQ(blogs[0].site_url, "http://ann.example/");
  EXPECT_EQ(blogs[0].category, "uncategorized");
  EXPECT_FALSE(blogs[0].next_due_at);  // due now
  EXPECT_EQ(r.out, "added blog " + std::to_string(blogs[0].id) +
                       " \"Ann's Notes\" (uncategorized): " + url("/blog/feed.xml") + "\n");
  // Only what the page declared was fetched: no guessing when a declaration works.
  for (const auto& p : requested_paths()) EXPECT_TRUE(p.starts_with("/blog/")) << p;

  // The next crawl reads it.
  const auto crawl = longread("crawl");
  ASSERT_EQ(crawl.status, 0) << crawl.out << crawl.err;
  EXPECT_NE(crawl.out.find("1 fetched"), std::string::npos) << crawl.out;
}

TEST_F(BlogsAddTest, OptionsSetTitleCategoryAndShortForm) {
  write("index.html", page(R"(<link rel="alternate feed" type="application/atom+xml" href="/atom.xml">)"));
  write("atom.xml", atom("Bob"));
  serve();
  const auto r = longread("blogs add " + url("/index.html") +
                          " --category history --title 'Bob on Abbeys' --short-form");
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  const auto blogs = stored_blogs();
  ASSERT_EQ(blogs.size(), 1u);
  EXPECT_EQ(blogs[0].title, "Bob on Abbeys");
  EXPECT_EQ(blogs[0].category, "history");
  EXPECT_TRUE(blogs[0].short_form);
  EXPECT_EQ(blogs[0].site_url, "http://site.example/");
  EXPECT_NE(r.out.find("\"Bob on Abbeys\" (history)"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("new category"), std::string::npos) << r.err;  // a fresh database has none yet
}

TEST_F(BlogsAddTest, BadCategoryIsRefusedListingTheExistingOnes) {
  write("feed.xml", rss("C"));
  serve();
  ASSERT_EQ(longread("blogs add " + url("/feed.xml") + " --category essays").status, 0);
  write("other.xml", rss("D"));
  const auto r = longread("blogs add " + url("/other.xml") + " --category 'Long Essays'");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("category \"Long Essays\" is not a slug"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("\"long-essays\""), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("existing categories: essays"), std::string::npos) << r.err;
  EXPECT_EQ(stored_blogs().size(), 1u);
}

// No link tags: the well-known paths find /feed.xml at the site root (the page lives in /about/, and
// nothing is beside it). Served without an extension-derived type hint: detected by content.
TEST_F(BlogsAddTest, PageWithoutLinksFindsAWellKnownPath) {
  write("about/me", page(""));  // served as application/octet-stream: HTML by its first bytes
  write("feed.xml", rss("Carol", "", 3));
  write("rss", page(""));  // an HTML page at a well-known path is not a feed
  serve();
  const auto r = longread("blogs add " + url("/about/me"));
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  const auto blogs = stored_blogs();
  ASSERT_EQ(blogs.size(), 1u);
  EXPECT_EQ(blogs[0].feed_url, url("/feed.xml"));
  EXPECT_EQ(blogs[0].title, "Carol");
  EXPECT_EQ(blogs[0].site_url, url("/about/me"));  // the feed gives no link: the page
}

// A direct feed URL without a feed-like name or type (application/octet-stream): told by its bytes.
TEST_F(BlogsAddTest, DirectFeedUrlDetectedByContent) {
  write("data/stream", atom("Dora"));
  serve();
  const auto r = longread("blogs add " + url("/data/stream"));
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  const auto blogs = stored_blogs();
  ASSERT_EQ(blogs.size(), 1u);
  EXPECT_EQ(blogs[0].feed_url, url("/data/stream"));
  EXPECT_EQ(blogs[0].title, "Dora");
  EXPECT_EQ(requested_paths(), std::vector<std::string>{"/data/stream"});  // nothing else was tried
}

// The page is reached through a redirect: its relative link resolves against the final URL (/blog/...),
// not the one typed (/redirect-to?...), where "atom.xml" would mean /atom.xml, which does not exist.
TEST_F(BlogsAddTest, RedirectedPageResolvesLinksAgainstTheFinalUrl) {
  write("blog/index.html", page(R"(<link rel="alternate" type="application/atom+xml" href="atom.xml">)"));
  write("blog/atom.xml", atom("Eve"));
  serve();
  const auto r = longread("blogs add '" + url("/redirect-to?url=/blog/index.html") + "'");
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  const auto blogs = stored_blogs();
  ASSERT_EQ(blogs.size(), 1u);
  EXPECT_EQ(blogs[0].feed_url, url("/blog/atom.xml"));
}

// A feed URL that permanently redirects is stored under its new address, as the crawler would move it.
TEST_F(BlogsAddTest, PermanentlyRedirectedFeedIsStoredAtItsTarget) {
  write("new/feed.xml", rss("Finn"));
  serve();
  const auto r = longread("blogs add " + url("/redirect-permanent/new/feed.xml"));
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  const auto blogs = stored_blogs();
  ASSERT_EQ(blogs.size(), 1u);
  EXPECT_EQ(blogs[0].feed_url, url("/new/feed.xml"));
}

TEST_F(BlogsAddTest, AlreadyFollowedAddsNothing) {
  write("index.html", page(R"(<link rel="alternate" type="application/rss+xml" href="/feed.xml">)"));
  write("feed.xml", rss("Gus"));
  serve();
  const auto first = longread("blogs add " + url("/feed.xml"));
  ASSERT_EQ(first.status, 0) << first.out << first.err;
  const auto blogs = stored_blogs();
  ASSERT_EQ(blogs.size(), 1u);
  const std::string expected = "already following blog " + std::to_string(blogs[0].id) +
                               " \"Gus\" (uncategorized): " + url("/feed.xml") + "\n";
  for (const std::string& again : {url("/feed.xml"), url("/index.html"), url("/redirect-temp/feed.xml"),
                                   url("/redirect-temp/index.html")}) {
    const auto r = longread("blogs add " + again);
    EXPECT_EQ(r.status, 0) << again << r.err;
    EXPECT_EQ(r.out, expected) << again;
  }
  EXPECT_EQ(stored_blogs().size(), 1u);
}

TEST_F(BlogsAddTest, NotFoundIsAnErrorAndStoresNothing) {
  serve();
  const auto r = longread("blogs add " + url("/nothing-here"));
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "longread: " + url("/nothing-here") + ": fetch: HTTP 404\n");
  EXPECT_TRUE(stored_blogs().empty());
}

TEST_F(BlogsAddTest, NetworkErrorIsAnError) {
  serve();
  const std::string closed = "http://127.0.0.1:1/";  // port 1: nothing listens, connection refused
  const auto r = longread("blogs add " + closed);
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("longread: " + closed + ": fetch: could not connect"), std::string::npos) << r.err;
  EXPECT_TRUE(stored_blogs().empty());
}

// A page that declares a feed that 404s, another that is HTML, and no well-known path has one.
TEST_F(BlogsAddTest, NoFeedFoundListsWhatWasTried) {
  write("index.html", page(R"(<link rel="alternate" type="application/rss+xml" href="/gone.xml">)"
                           R"(<link rel="alternate" type="application/json" href="/wp-json/posts">)"));
  write("wp-json/posts", "{\"routes\": {}}");  // WordPress's REST API: JSON, but no JSON Feed
  serve();
  const auto r = longread("blogs add " + url("/index.html"));
  EXPECT_EQ(r.status, 1);
  EXPECT_TRUE(r.err.starts_with("longread: no feed found at " + url("/index.html") + " (tried: " +
                                url("/gone.xml") + ", " + url("/wp-json/posts") + ", " + url("/feed.xml")))
      << r.err;
  EXPECT_NE(r.err.find(url("/feed.json")), std::string::npos) << r.err;
  EXPECT_TRUE(stored_blogs().empty());
}

TEST_F(BlogsAddTest, NeitherHtmlNorFeedIsAnError) {
  write("notes.txt", "just some text\n");
  serve();
  const auto r = longread("blogs add " + url("/notes.txt"));
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find(url("/notes.txt") + ": neither an HTML page nor a feed (feed: not a feed"),
            std::string::npos)
      << r.err;
  EXPECT_TRUE(stored_blogs().empty());
}

// Comment feeds only when nothing else exists.
TEST_F(BlogsAddTest, OnlyACommentFeedIsTakenWhenNothingElseIsFound) {
  write("index.html",
        page(R"(<link rel="alternate" type="application/rss+xml" href="/comments/feed/index.xml">)"));
  write("comments/feed/index.xml", rss("Comments for Hal"));
  serve();
  const auto r = longread("blogs add " + url("/index.html"));
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  const auto blogs = stored_blogs();
  ASSERT_EQ(blogs.size(), 1u);
  EXPECT_EQ(blogs[0].feed_url, url("/comments/feed/index.xml"));
  // Adding it again says so instead of re-upserting (which would overwrite the title and category).
  const auto again = longread("blogs add " + url("/index.html") + " --category essays --title Other");
  EXPECT_EQ(again.status, 0) << again.err;
  EXPECT_TRUE(again.out.starts_with("already following blog " + std::to_string(blogs[0].id))) << again.out;
  EXPECT_EQ(stored_blogs()[0].category, "uncategorized");
}

TEST_F(BlogsAddTest, DryRunListsEveryCandidateAndStoresNothing) {
  write(
      "index.html",
      page(
          R"(<link rel="alternate" type="application/rss+xml" title="Iris &raquo; Comments Feed" href="/comments/feed.xml">)"
          R"(<link rel="alternate" type="application/rss+xml" href="/feed.xml">)"
          R"(<link rel="alternate" type="application/atom+xml" href="/atom.xml">)"
          R"(<link rel="alternate" type="application/rss+xml" href="/missing.xml">)"));
  write("feed.xml", rss("Iris", "", 3));
  write("atom.xml", atom("Iris (Atom)"));
  write("comments/feed.xml", rss("Comments for Iris", "", 1));
  serve();
  const auto r = longread("blogs add --dry-run " + url("/index.html"));
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  const std::string expected =
      "3 feeds at " + url("/index.html") + ":\n" +                                  //
      "  1. " + url("/feed.xml") + "  RSS 2.0  \"Iris\"  3 entries  <- chosen\n" +  //
      "  2. " + url("/atom.xml") + "  Atom 1.0  \"Iris (Atom)\"  1 entry\n" +       //
      "  3. " + url("/comments/feed.xml") +                                         //
      "  RSS 2.0  \"Comments for Iris\"  1 entry  (comments)\n" +                   //
      "  not a feed: " + url("/missing.xml") + "  (fetch: HTTP 404)\n" +            //
      "would add \"Iris\" (uncategorized): " + url("/feed.xml") + "  (dry run: nothing stored)\n";
  EXPECT_EQ(r.out, expected);
  EXPECT_TRUE(stored_blogs().empty());
}

TEST_F(BlogsAddTest, NotAnHttpUrl) {
  const auto r = longread("blogs add file:///etc/passwd");
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "longread: blogs add: not an http(s) URL: file:///etc/passwd\n");
  EXPECT_TRUE(stored_blogs().empty());
}

// feed://host/x (what "subscribe" links hand to a feed reader) is the http URL.
TEST_F(BlogsAddTest, FeedPseudoSchemeIsHttp) {
  write("feed.xml", rss("Wren"));
  serve();
  const std::string http = url("/feed.xml");
  ASSERT_TRUE(http.starts_with("http://"));
  const auto r = longread("blogs add feed:" + http.substr(5));
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  const auto blogs = stored_blogs();
  ASSERT_EQ(blogs.size(), 1u);
  EXPECT_EQ(blogs[0].feed_url, http);
}

// An address typed without a scheme is tried as https first; the fixture server speaks plain HTTP, so the
// TLS handshake fails, the command says so, and the http URL is the one stored.
TEST_F(BlogsAddTest, NoSchemeTriesHttpsThenHttp) {
  write("feed.xml", rss("Wren"));
  serve();
  const std::string http = url("/feed.xml");
  const std::string bare = http.substr(7);  // 127.0.0.1:PORT/feed.xml
  const auto r = longread("blogs add ' " + bare + " '");
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_TRUE(r.err.starts_with("longread: https://" + bare + ": ")) << r.err;
  EXPECT_NE(r.err.find("; trying " + http + "\n"), std::string::npos) << r.err;
  const auto blogs = stored_blogs();
  ASSERT_EQ(blogs.size(), 1u);
  EXPECT_EQ(blogs[0].feed_url, http);
}

// A scheme other than http(s) is refused before anything is fetched, however it is written.
TEST_F(BlogsAddTest, OtherSchemesAreRefused) {
  for (const std::string bad : {"mailto:ann@example.com", "feed:file:///etc/passwd", "javascript:alert(1)"}) {
    const auto r = longread("blogs add '" + bad + "'");
    EXPECT_EQ(r.status, 1) << bad;
    EXPECT_EQ(r.err, "longread: blogs add: not an http(s) URL: " + bad + "\n");
  }
  EXPECT_TRUE(stored_blogs().empty());
}

}  // namespace
