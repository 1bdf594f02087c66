#include "core/url.h"

#include <gtest/gtest.h>

#include <utility>
#include <vector>

namespace longread {
namespace {

TEST(Url, ResolvesRelativeReferences) {
  EXPECT_EQ(resolve_url("https://example.com/blog/feed.xml", "post/1.html"),
            "https://example.com/blog/post/1.html");
  EXPECT_EQ(resolve_url("https://example.com/blog/feed.xml", "/about"), "https://example.com/about");
  EXPECT_EQ(resolve_url("https://example.com/a/b", "../c"), "https://example.com/c");
  EXPECT_EQ(resolve_url("https://example.com/a", "//cdn.example.org/x"), "https://cdn.example.org/x");
  EXPECT_EQ(resolve_url("https://example.com/a", "http://other.org/y"), "http://other.org/y");
}

TEST(Url, EmptyBaseNeedsAbsoluteReference) {
  EXPECT_EQ(resolve_url("", "http://a.org/x"), "http://a.org/x");
  EXPECT_EQ(resolve_url("", "relative/x"), std::nullopt);
}

TEST(Url, HttpCheckRejectsOtherSchemes) {
  EXPECT_TRUE(is_http_url("https://example.com/x"));
  EXPECT_TRUE(is_http_url("HTTP://Example.com"));
  EXPECT_FALSE(is_http_url("javascript:alert(1)"));
  EXPECT_FALSE(is_http_url("ftp://example.com/"));
  EXPECT_FALSE(is_http_url("not a url"));
  EXPECT_EQ(url_host("https://Example.COM:8080/x"), "example.com");
}

}  // namespace
}  // namespace longread

namespace longread {
namespace {
TEST(Url, NormalizeLowercasesHostAndDropsDefaultPort) {
  EXPECT_EQ(normalize_url("HTTPS://Blog.Example:443/Post?x=1"), "https://blog.example/Post?x=1");
  EXPECT_EQ(normalize_url("http://a.org:8080/"), "http://a.org:8080/");
  EXPECT_EQ(normalize_url("no scheme"), std::nullopt);
}
}  // namespace
}  // namespace longread

namespace longread {
namespace {
// Found by fuzz/url_fuzz.cpp (fuzz/regressions/url/): libcurl 7.88 accepts "file:///" and "file:00" but
// writes them back as "file://(nil)" and "file://00", which it then rejects; such URLs are not handed out.
TEST(Url, NeverHandsOutAUrlThatDoesNotParseBack) {
  EXPECT_EQ(normalize_url("file:///"), std::nullopt);
  EXPECT_EQ(normalize_url("file:00"), std::nullopt);
  EXPECT_EQ(resolve_url("", "file:00"), std::nullopt);
  EXPECT_EQ(normalize_url("file:///etc/x"), "file:///etc/x");
  for (const auto& url : {normalize_url("HTTP://A.example/x"), resolve_url("https://a.example/b/", "../c")})
    EXPECT_EQ(normalize_url(url.value()), url);
}

// libcurl keeps a host's raw bytes; a URL that is not UTF-8 is neither handed out nor called http(s).
TEST(Url, NoUrlThatIsNotUtf8) {
  const std::string bad_host = "http://a\xe1.example/feed";
  EXPECT_FALSE(is_http_url(bad_host));
  EXPECT_EQ(resolve_url(bad_host, "/atom.xml"), std::nullopt);
  EXPECT_EQ(resolve_url("", bad_host), std::nullopt);
  EXPECT_EQ(normalize_url(bad_host), std::nullopt);
  // A valid UTF-8 path stays usable.
  EXPECT_TRUE(is_http_url("https://a.example/\xc3\xa9t\xc3\xa9"));
  EXPECT_TRUE(resolve_url("https://a.example/\xc3\xa9/", "b").has_value());
}
}  // namespace
}  // namespace longread

namespace longread {
namespace {
// What people paste into "add a blog": the browser's habits (https when no scheme is given) and the feed:
// pseudo-scheme; nothing that is not http(s) comes out.
TEST(Url, TypedAddresses) {
  const auto typed = [](std::string_view in) { return http_url_from_input(in); };
  ASSERT_TRUE(typed("https://a.example/feed"));
  EXPECT_EQ(typed("https://a.example/feed")->url, "https://a.example/feed");
  EXPECT_FALSE(typed("https://a.example/feed")->scheme_guessed);
  EXPECT_FALSE(typed("  HTTP://a.example/x \n")->scheme_guessed);
  EXPECT_EQ(typed("  HTTP://a.example/x \n")->url, "http://a.example/x");

  ASSERT_TRUE(typed("a.example/blog/"));
  EXPECT_EQ(typed("a.example/blog/")->url, "https://a.example/blog/");
  EXPECT_TRUE(typed("a.example/blog/")->scheme_guessed);
  EXPECT_EQ(typed("localhost:8080/x")->url, "https://localhost:8080/x");
  EXPECT_EQ(typed("//a.example/x")->url, "https://a.example/x");
  EXPECT_TRUE(typed("//a.example/x")->scheme_guessed);

  EXPECT_EQ(typed("feed://a.example/rss")->url, "http://a.example/rss");
  EXPECT_FALSE(typed("feed://a.example/rss")->scheme_guessed);
  EXPECT_EQ(typed("FEED:https://a.example/rss")->url, "https://a.example/rss");
  EXPECT_EQ(typed("feed:http://a.example/rss")->url, "http://a.example/rss");

  for (const auto* bad : {"", "   ", "file:///etc/passwd", "javascript:alert(1)", "ftp://a.example/",
                          "feed:file:///etc/passwd", "feed:", "mailto:a@b.example", "http://"}) {
    EXPECT_EQ(typed(bad), std::nullopt) << bad;
  }
}

// The site a full-text page must be on: the registrable domain by the Public Suffix List (libpsl's built-in
// copy), compared case-blind and without the root's trailing dot; an address is its own site.
TEST(Url, SiteOfHost) {
  const std::vector<std::pair<const char*, const char*>> cases = {
      {"www.example.com", "example.com"},
      {"WWW.Example.COM.", "example.com"},
      {"example.com", "example.com"},
      {"a.b.example.co.uk", "example.co.uk"},
      {"alice.github.io", "alice.github.io"},  // a private suffix: each user's site is its own
      {"bob.blogspot.com", "bob.blogspot.com"},
      {"127.0.0.1", "127.0.0.1"},  // not "0.1"
      {"10.1.2.3", "10.1.2.3"},
      {"[::1]", "::1"},
      {"[FE80::1]", "fe80::1"},
      {"localhost", "localhost"},
      {"LOCALHOST.", "localhost"},
      {"com", "com"},
      {"", ""},
  };
  for (const auto& [host, site] : cases) EXPECT_EQ(site_of_host(host), site) << host;
  EXPECT_EQ(canonical_host("Example.COM."), "example.com");
  EXPECT_EQ(canonical_host("[::1]"), "::1");
}
}  // namespace
}  // namespace longread
