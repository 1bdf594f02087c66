// Hostile blogs against the real Crawler, a real SQLite file and real HTTP servers: a server on 127.0.0.1
// stands for the public internet (the client allows exactly that address, fetch.allow_networks =
// 127.0.0.1/32), a second one on 127.0.0.2 stands for a service inside the operator's network and serves a
// secret. Every case is one SSRF attack (or a variant) made by a followed blog, and asserts three things:
//   1. the attacker gets nothing: the secret is in no stored article (content, text, excerpt) and not in
//      search, and the internal server was never asked;
//   2. the operator sees why: the article's stored full-text reason, or the blog's last error;
//   3. nothing already stored is lost: the articles stored before the hostile crawl are there, unchanged.
#include <curl/curl.h>
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "fetch/http_client.h"
#include "fixture_server/fixture_server.h"
#include "pipeline/crawler.h"
#include "storage/store.h"
#include "testing/test_dir.h"

namespace longread {
namespace {
namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::StartsWith;

constexpr const char* kSecret = "INTERNAL-SECRET-d41d8cd98f";

std::string url_encode(const std::string& text) {
  char* encoded = curl_easy_escape(nullptr, text.c_str(), static_cast<int>(text.size()));
  std::string out(encoded);
  curl_free(encoded);
  return out;
}

void write(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

std::string paragraph(int seed) {
  static const char* kWords[] = {"garden",  "river",   "meadow",  "apple",   "spring", "school", "pupil",
                                 "soil",    "stone",   "bridge",  "market",  "winter", "summer", "harvest",
                                 "orchard", "village", "lantern", "harbour", "island", "valley"};
  std::string s;
  for (int i = 0; i < 70; ++i) {
    s += kWords[(seed * 7 + i * 3 + i / 5) % 20];
    s += (i % 13 == 12) ? ". " : " ";
  }
  return s;
}

// A long page; the internal one carries the secret in every paragraph, so any use of it would show.
std::string page(const std::string& marker) {
  std::string html = "<!DOCTYPE html><html><head><title>Page</title></head><body><article><h1>A page</h1>";
  for (int p = 0; p < 8; ++p) html += "<p>" + marker + " " + paragraph(p) + "</p>";
  return html + "</article></body></html>";
}

// One feed entry: a full post (stored as it is) or a one-line summary whose page the crawler fetches.
struct Entry {
  std::string guid;
  std::string link;
  bool summary_only = false;
};

std::size_t asked(const testing::FixtureServer& server) {
  return nlohmann::json::parse(server.requests_json()).size();
}

std::string feed(const std::string& site_link, const std::vector<Entry>& entries) {
  std::string items;
  int seed = 0;
  for (const auto& e : entries) {
    std::string body;
    if (e.summary_only) {
      body = "The first lines of a long post […]";
    } else {
      for (int p = 0; p < 4; ++p) body += "<p>" + paragraph(++seed) + "</p>";
    }
    items += "<item><title>Post " + e.guid + "</title><guid>" + e.guid + "</guid><link>" + e.link +
             "</link><pubDate>Mon, 23 May 2022 10:00:00 GMT</pubDate><description><![CDATA[" + body +
             "]]></description></item>";
  }
  return "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>Hostile</title><link>" + site_link +
         "</link>" + items + "</channel></rss>";
}

class HostileBlogTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = longread::testing::fresh_test_dir("longread_hostile");
    write(dir_ / "internal/secret", page(kSecret));
    write(dir_ / "internal/latest/meta-data/index.html", page(kSecret));
    write(dir_ / "internal/feed.xml",
          feed("http://127.0.0.2/", {{"s1", "http://127.0.0.2/x", false}}) + kSecret);
    write(dir_ / "public/post.html", page("public"));
    auto internal = testing::FixtureServer::start(dir_ / "internal", "127.0.0.2");
    if (!internal) GTEST_SKIP() << "skipped: 127.0.0.2 is not usable here: " << internal.error().message;
    internal_.emplace(std::move(*internal));
    auto pub = testing::FixtureServer::start(dir_ / "public");
    ASSERT_TRUE(pub) << pub.error().message;
    public_.emplace(std::move(*pub));
    auto store = storage::open_sqlite_store((dir_ / "hostile.db").string());
    ASSERT_TRUE(store) << store.error().message;
    store_ = std::move(*store);
  }
  void TearDown() override {
    store_.reset();
    public_.reset();
    internal_.reset();
    fs::remove_all(dir_);
  }

  std::string pub(const std::string& path) const { return public_->url(path); }
  std::string internal(const std::string& path) const { return internal_->url(path); }
  std::string internal_port() const { return std::to_string(internal_->port()); }

  // The public server allowed, as an operator whose blogs are on the internet would have it.
  static fetch::ClientOptions public_only() {
    fetch::ClientOptions options;
    options.address_policy.allow_networks.push_back(*IpNetwork::parse("127.0.0.1/32"));
    return options;
  }

  void crawl(const fetch::ClientOptions& options = public_only()) {
    fetch::HttpClient client(options);
    pipeline::CrawlOptions crawl_options;
    crawl_options.all = true;
    pipeline::Crawler crawler(*store_, client, crawl_options, {});
    auto summary = crawler.run();
    ASSERT_TRUE(summary) << summary.error().message;
  }

  std::int64_t add_blog(const std::string& feed_url) {
    auto id = store_->upsert_blog({.feed_url = feed_url, .title = "hostile", .category = "programming"});
    EXPECT_TRUE(id) << id.error().message;
    return id.value_or(0);
  }

  model::Blog blog(std::int64_t id) {
    auto b = store_->blog(id);
    EXPECT_TRUE(b && *b);
    return b && *b ? **b : model::Blog{};
  }

  // Every article of the blog in full (content and text included), by guid.
  std::map<std::string, model::Article> articles(std::int64_t blog_id) {
    std::map<std::string, model::Article> out;
    auto views = store_->articles({.blog_id = blog_id, .include_junk = true, .limit = 1000});
    EXPECT_TRUE(views) << views.error().message;
    for (const auto& v : views.value_or(std::vector<storage::ArticleView>{})) {
      auto full = store_->article(v.article.id);
      EXPECT_TRUE(full && *full);
      if (full && *full) out.emplace(v.article.guid, (*full)->article);
    }
    return out;
  }

  // Assertion 1: nothing of the secret anywhere the site shows, and the internal server never asked.
  void expect_attacker_got_nothing() {
    auto blogs = store_->blogs();
    ASSERT_TRUE(blogs);
    for (const auto& b : *blogs) {
      for (const auto& [guid, a] : articles(b.id)) {
        for (const std::string* field : {&a.content_html, &a.summary_html, &a.text, &a.excerpt, &a.title}) {
          EXPECT_EQ(field->find(kSecret), std::string::npos) << "blog " << b.id << " article " << guid;
        }
      }
    }
    auto hits = store_->search(kSecret, 10, 0);
    ASSERT_TRUE(hits) << hits.error().message;
    EXPECT_TRUE(hits->empty());
    if (internal_) {
      EXPECT_EQ(asked(*internal_), 0u) << "the internal server was asked";
    }
  }

  // The blog with two full posts stored, as a crawl before the attack left it.
  std::int64_t blog_with_stored_posts(const std::string& feed_path, const std::string& site_link) {
    write(dir_ / "public" / feed_path, feed(site_link, stored_entries()));
    const auto id = add_blog(pub("/no-validators/" + feed_path));
    crawl();
    before_ = articles(id);
    EXPECT_EQ(before_.size(), 2u);
    return id;
  }
  static std::vector<Entry> stored_entries() {
    return {{"kept-1", "https://example.org/1", false}, {"kept-2", "https://example.org/2", false}};
  }

  // Assertion 3: what was stored before the attack is there, unchanged.
  void expect_nothing_lost(std::int64_t blog_id) {
    const auto after = articles(blog_id);
    for (const auto& [guid, a] : before_) {
      const auto it = after.find(guid);
      ASSERT_NE(it, after.end()) << guid << " was lost";
      EXPECT_EQ(it->second.id, a.id);
      EXPECT_EQ(it->second.content_html, a.content_html);
      EXPECT_EQ(it->second.summary_html, a.summary_html);
      EXPECT_EQ(it->second.text, a.text);
      EXPECT_EQ(it->second.junk, a.junk);
    }
  }

  // Runs one attack: the feed keeps its stored posts and adds a summary-only entry linking to `link`; the
  // operator may have allowed `allow_host` for the blog. Returns the attacking article's stored reason.
  std::string attack_with_link(const std::string& link, const std::string& allow_host = "") {
    const std::string feed_path = fmt::format("blog{}.xml", ++attacks_);  // a new blog per attack
    const auto id = blog_with_stored_posts(feed_path, pub("/"));
    if (!allow_host.empty()) {
      auto edited = store_->edit_blog(id, {.allowed_hosts = std::vector<std::string>{allow_host}});
      EXPECT_TRUE(edited) << edited.error().message;
    }
    auto entries = stored_entries();
    entries.push_back({"attack", link, true});
    write(dir_ / "public" / feed_path, feed(pub("/"), entries));
    crawl();
    expect_attacker_got_nothing();
    expect_nothing_lost(id);
    const auto after = articles(id);
    const auto it = after.find("attack");
    EXPECT_NE(it, after.end()) << "the attacking entry is stored, with its summary";
    if (it == after.end()) return {};
    // A refusal is final: the page is not tried again (an entry with no usable link has no page to try).
    EXPECT_TRUE(it->second.link.empty() || it->second.full_text_fetched);
    EXPECT_THAT(it->second.text, HasSubstr("The first lines of a long post"));
    EXPECT_EQ(blog(id).last_error, "") << "the feed itself was fine";
    return it->second.full_text_error;
  }

  std::string private_refusal(const std::string& address) const {
    return "refused: " + address + " is a private address (set fetch.allow_private to allow)";
  }
  std::string off_site(const std::string& host, std::int64_t blog_id = 1) const {
    return fmt::format(
        "refused: {} is not on blog {}'s site (127.0.0.1) (allow it with `longread blogs edit {} "
        "--allow-host "
        "{}`)",
        host, blog_id, blog_id, host);
  }

  fs::path dir_;
  std::optional<testing::FixtureServer> internal_;
  std::optional<testing::FixtureServer> public_;
  std::unique_ptr<storage::Store> store_;
  std::map<std::string, model::Article> before_;
  int attacks_ = 0;
};

// --- entry links straight at internal addresses

TEST_F(HostileBlogTest, EntryLinkToAnInternalHostIsOffSite) {
  EXPECT_EQ(attack_with_link(internal("/secret")), off_site("127.0.0.2"));
}

TEST_F(HostileBlogTest, EntryLinkToAnInternalHostTheOperatorAllowedIsStillAPrivateAddress) {
  EXPECT_EQ(attack_with_link(internal("/secret"), "127.0.0.2"), private_refusal("127.0.0.2"));
}

TEST_F(HostileBlogTest, EntryLinkToIpv6Loopback) {
  // Refused before connect(): no server on ::1 is needed.
  EXPECT_EQ(attack_with_link("http://[::1]:" + internal_port() + "/secret", "::1"), private_refusal("::1"));
}

TEST_F(HostileBlogTest, EntryLinkToIpv4MappedIpv6Loopback) {
  EXPECT_EQ(attack_with_link("http://[::ffff:127.0.0.2]:" + internal_port() + "/secret", "::ffff:127.0.0.2"),
            private_refusal("::ffff:127.0.0.2"));
}

TEST_F(HostileBlogTest, EntryLinkToLocalhost) {
  // Off the blog's site. (A name that resolves to a refused address, allowed for the blog, is refused at
  // connect time: see the default-policy test below, where 127.0.0.1 is not opted in.)
  EXPECT_EQ(attack_with_link("http://localhost:" + internal_port() + "/secret"), off_site("localhost"));
}

TEST_F(HostileBlogTest, EntryLinkToTheHexFormOfAnInternalAddress) {
  // libcurl's URL parser writes 0x7f000002 and 2130706434 as 127.0.0.2 (reading them as inet_aton does), so
  // the stored link, the site check and the connect-time check all see that address, never the spelling.
  EXPECT_EQ(attack_with_link("http://0x7f000002:" + internal_port() + "/secret", "127.0.0.2"),
            private_refusal("127.0.0.2"));
}

TEST_F(HostileBlogTest, EntryLinkToTheDecimalFormOfAnInternalAddress) {
  EXPECT_EQ(attack_with_link("http://2130706434:" + internal_port() + "/secret", "127.0.0.2"),
            private_refusal("127.0.0.2"));
  // Not allowed for the blog: off its site, under the address's name.
  EXPECT_EQ(attack_with_link("http://2130706434:" + internal_port() + "/secret"), off_site("127.0.0.2", 2));
}

TEST_F(HostileBlogTest, EntryLinkToTheCloudMetadataAddress) {
  // Refused before connect(): nothing needs to listen on 169.254.169.254.
  EXPECT_EQ(attack_with_link("http://169.254.169.254/latest/meta-data/", "169.254.169.254"),
            private_refusal("169.254.169.254"));
  EXPECT_EQ(attack_with_link("http://169.254.169.254/latest/meta-data/"), off_site("169.254.169.254", 2));
}

// --- redirects

TEST_F(HostileBlogTest, SameSiteLinkThatRedirectsToAnInternalHost) {
  const std::string link = pub("/redirect-to?url=" + url_encode(internal("/secret")));
  EXPECT_EQ(attack_with_link(link), off_site("127.0.0.2"));
}

TEST_F(HostileBlogTest, SameSiteLinkThatRedirectsToAnAllowedInternalHostIsRefusedAtConnect) {
  const std::string link = pub("/redirect-to?url=" + url_encode(internal("/secret")));
  EXPECT_EQ(attack_with_link(link, "127.0.0.2"), private_refusal("127.0.0.2"));
}

TEST_F(HostileBlogTest, RedirectChainOfThreeHopsEndingInside) {
  const std::string last = pub("/redirect-to?code=301&url=" + url_encode(internal("/secret")));
  const std::string second = pub("/redirect-to?code=307&url=" + url_encode(last));
  const std::string first = pub("/redirect-to?url=" + url_encode(second));
  EXPECT_EQ(attack_with_link(first, "127.0.0.2"), private_refusal("127.0.0.2"));
  EXPECT_EQ(public_->requests_json().find("/secret\""), std::string::npos);
}

TEST_F(HostileBlogTest, FeedWhosePermanentRedirectPointsInsideKeepsItsStoredFeedUrl) {
  const auto id = blog_with_stored_posts("blog.xml", pub("/"));
  const std::string moved = pub("/redirect-to?code=301&url=" + url_encode(internal("/feed.xml")));
  ASSERT_TRUE(store_->edit_blog(id, {.feed_url = moved}));  // the server now answers 301
  crawl();
  expect_attacker_got_nothing();
  expect_nothing_lost(id);
  const auto b = blog(id);
  EXPECT_EQ(b.feed_url, moved) << "a refused hop never becomes the stored feed URL";
  EXPECT_EQ(b.last_error, private_refusal("127.0.0.2"));
  EXPECT_EQ(b.consecutive_failures, 1);
  // The same for the cloud metadata address and IPv6 loopback (refused before connect()).
  for (const std::string& target : {std::string("http://169.254.169.254/latest/meta-data/feed"),
                                    "http://[::1]:" + internal_port() + "/feed.xml"}) {
    const std::string other = pub("/redirect-to?code=308&url=" + url_encode(target));
    ASSERT_TRUE(store_->edit_blog(id, {.feed_url = other}));
    crawl();
    EXPECT_EQ(blog(id).feed_url, other);
    EXPECT_THAT(blog(id).last_error, HasSubstr("is a private address (set fetch.allow_private to allow)"));
  }
  expect_nothing_lost(id);
}

// --- file:// from a feed

TEST_F(HostileBlogTest, FileUrlAsAnEntryLinkIsNeverRead) {
  const std::string file = "file://" + (dir_ / "internal/secret").string();
  EXPECT_EQ(attack_with_link(file), "refused: " + file + " is not an http(s) link");
}

TEST_F(HostileBlogTest, FileUrlAsARedirectTargetIsNeverRead) {
  const std::string file = "file://" + (dir_ / "internal/secret").string();
  const std::string link = pub("/redirect-to?url=" + url_encode(file));
  EXPECT_EQ(attack_with_link(link), "refused: redirect to " + file + " (only http and https are followed)");
}

TEST_F(HostileBlogTest, FileUrlAsAFeedRedirectTargetKeepsTheStoredFeedUrl) {
  const auto id = blog_with_stored_posts("blog.xml", pub("/"));
  const std::string file = "file://" + (dir_ / "internal/feed.xml").string();
  const std::string moved = pub("/redirect-to?code=301&url=" + url_encode(file));
  ASSERT_TRUE(store_->edit_blog(id, {.feed_url = moved}));
  crawl();
  expect_attacker_got_nothing();
  expect_nothing_lost(id);
  EXPECT_EQ(blog(id).feed_url, moved);
  EXPECT_EQ(blog(id).last_error, "refused: redirect to " + file + " (only http and https are followed)");
}

// --- the default policy, no opt-in at all

// The operator imported a file:// feed (allowed: the operator gave it); its links and its site point at
// 127.0.0.1, which the default policy refuses like any other private address. A second blog whose feed is
// on 127.0.0.1 fails with the message the operator needs.
TEST_F(HostileBlogTest, WithTheDefaultPolicyAnImportedFileFeedReachesNoPrivateAddress) {
  write(dir_ / "public/inside.html", page(kSecret));  // on 127.0.0.1: "internal" under the default policy
  const fs::path feed_file = dir_ / "local/feed.xml";
  write(feed_file, feed(pub("/"), stored_entries()));
  const auto id = add_blog("file://" + feed_file.string());
  const fetch::ClientOptions defaults;
  crawl(defaults);
  before_ = articles(id);
  ASSERT_EQ(before_.size(), 2u);
  ASSERT_EQ(blog(id).last_error, "");

  auto entries = stored_entries();
  entries.push_back({"inside", pub("/inside.html"), true});
  entries.push_back({"redirected", pub("/redirect-to?url=" + url_encode(internal("/secret"))), true});
  entries.push_back(
      {"localhost", "http://localhost:" + std::to_string(public_->port()) + "/inside.html", true});
  write(feed_file, feed(pub("/"), entries));
  ASSERT_TRUE(store_->edit_blog(id, {.allowed_hosts = std::vector<std::string>{"localhost"}}));
  const auto on_loopback = add_blog(pub("/no-validators/inside.html"));
  public_->reset();
  crawl(defaults);

  expect_attacker_got_nothing();
  expect_nothing_lost(id);
  EXPECT_EQ(asked(*public_), 0u) << "under the default policy 127.0.0.1 was never asked";
  auto after = articles(id);
  EXPECT_EQ(after["inside"].full_text_error, private_refusal("127.0.0.1"));
  EXPECT_EQ(after["redirected"].full_text_error, private_refusal("127.0.0.1"));
  // "localhost" is allowed for the blog, so only the address check stands: 127.0.0.1 or ::1, both refused.
  EXPECT_THAT(after["localhost"].full_text_error,
              ::testing::AnyOf(private_refusal("127.0.0.1"), private_refusal("::1")));
  for (const char* guid : {"inside", "redirected", "localhost"}) {
    EXPECT_TRUE(after[guid].full_text_fetched) << guid;
    EXPECT_THAT(after[guid].text, HasSubstr("The first lines of a long post")) << guid;
  }
  EXPECT_EQ(blog(id).last_error, "");
  EXPECT_EQ(blog(on_loopback).last_error, private_refusal("127.0.0.1"));
}

}  // namespace
}  // namespace longread
