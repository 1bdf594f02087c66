#include "core/url.h"

#include <gtest/gtest.h>

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
