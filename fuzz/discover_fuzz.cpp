// Harness: feed autodiscovery (html/discover.h) on a hostile page and any page URL: the page of a blog an
// operator adds, fetched from a site we do not control. Input: a selector byte, then the page; with the
// selector's high bit set, the page URL is taken from the input (up to the first '\n') instead of a fixed
// list. Checks discover.h's promises: every discovered URL is an http(s) URL, valid UTF-8 and listed once, at
// most kMaxFeedLinks of them, each type a lower-case feed type, titles valid UTF-8 and folded, `comments`
// agrees with looks_like_comment_feed; well_known_feed_urls gives http(s) URLs, each once, and for a
// UTF-8 http(s) page URL at least one; looks_like_html is true for a text/html Content-Type.
#include <string>
#include <unordered_set>

#include "core/strings.h"
#include "core/url.h"
#include "fuzz/fuzz_support.h"
#include "html/discover.h"

namespace longread::fuzz {
namespace {

constexpr std::string_view kPageUrls[] = {"https://example.com/blog/2024/05/post.html",
                                          "https://example.com",
                                          "http://example.org/a/b/?q=1#frag",
                                          "",
                                          "not a url",
                                          "file:///etc/passwd"};
constexpr std::string_view kContentTypes[] = {"", "text/html; charset=utf-8", "application/octet-stream",
                                              "TEXT/HTML"};

// collapse_whitespace's result: no ASCII line break or tab, no leading/trailing space.
bool folded(std::string_view s) {
  if (s.find_first_of("\n\r\t") != std::string_view::npos) return false;
  return s.empty() || (s.front() != ' ' && s.back() != ' ');
}

}  // namespace

int discover_harness(const std::uint8_t* data, std::size_t size) {
  FuzzInput in(data, size);
  const unsigned char selector = in.selector();
  const std::string_view page_url =
      (selector & 0x80) != 0 ? in.field() : kPageUrls[(selector & 0x0f) % std::size(kPageUrls)];
  const std::string_view content_type = kContentTypes[(selector >> 4) & 0x03];
  const std::string_view page = in.rest();

  const html::Discovery found = html::discover_feeds(page, page_url);
  require(found.feeds.size() <= html::kMaxFeedLinks);
  require(is_valid_utf8(found.page_title));
  require(folded(found.page_title));
  std::unordered_set<std::string> seen;
  for (const auto& feed : found.feeds) {
    require(is_http_url(feed.url));
    require(is_valid_utf8(feed.url));
    require(seen.insert(feed.url).second);
    require(!feed.type.empty() && feed.type == to_lower_ascii(feed.type));
    require(is_valid_utf8(feed.title));
    require(folded(feed.title));
    require(feed.comments == html::looks_like_comment_feed(feed.url, feed.title));
  }

  const std::vector<std::string> known = html::well_known_feed_urls(page_url);
  std::unordered_set<std::string> known_seen;
  for (const auto& url : known) {
    require(is_http_url(url));
    require(known_seen.insert(url).second);
  }
  // A page URL that is not UTF-8 gives none (no such host resolves; discover.cpp's is_usable_url).
  if (is_http_url(page_url) && is_valid_utf8(page_url)) require(!known.empty());

  // Arbitrary bytes as a URL and title: only "no crash" is promised.
  (void)html::looks_like_comment_feed(page_url, page.substr(0, 256));
  const bool is_html = html::looks_like_html(page, content_type);
  if (to_lower_ascii(content_type).starts_with("text/html")) require(is_html);
  return 0;
}

}  // namespace longread::fuzz

LONGREAD_FUZZ_ENTRY(longread::fuzz::discover_harness)
