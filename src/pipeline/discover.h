// Finding a blog's feed from a URL someone typed (a home page, any page of the blog, or the feed itself),
// the way Miniflux, FreshRSS and NewsBlur do: the URL is fetched; a body that parses as a feed is the
// feed; an HTML page is searched for the feeds it declares (html::discover_feeds) and, when none of them
// works, the paths where blogs usually keep one are tried (html::well_known_feed_urls). Every candidate
// is fetched and parsed before it counts: a declaration is a hint, a parse is proof. Comment feeds go last.
//
// Used by `longread blogs add` and by the site's blog suggestions (run off the request thread by
// SuggestionWorker). Every request goes through the given fetch::HttpClient and so through its outbound
// address policy: a URL that points at a private address is refused (Error kind kForbidden).
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "core/time.h"

namespace longread::fetch {
class HttpClient;
}  // namespace longread::fetch

namespace longread::pipeline {

struct CurationContext;

// One entry of a found feed, as the crawler would judge it (the junk rules of curate, through
// build_articles with the blog's would-be settings).
struct DiscoveredPost {
  std::string title{};
  std::string link{};
  std::optional<TimePoint> published{};
  bool junk = false;
  std::string junk_reason{};  // the rule that caught it ("too short: 12 words"); empty when kept
};

// A URL that was fetched and parsed as a feed.
struct DiscoveredFeed {
  std::string url{};        // as found: the URL given, a link's href or a well-known path
  std::string final_url{};  // after redirects
  std::string feed_url{};   // what a blog is stored under: the target of a permanent redirect, else url
  // What is kept of the parsed feed (not its entries: a page may declare 32 feeds of 8 MiB each).
  std::string title{}, link{}, version{};
  std::size_t entries = 0;
  bool comments = false;
  // The newest few entries (DiscoverOptions::recent_posts), newest first, with their junk verdicts.
  std::vector<DiscoveredPost> recent{};
  std::optional<TimePoint> newest_post{};  // the newest dated entry of the whole feed
};

// A URL that was tried and is not a feed, and why.
struct RejectedFeed {
  std::string url{};
  std::string reason{};
  bool guessed = false;  // a well-known path, not something the page declared
};

// What discovery found at one URL. `feeds` holds posts feeds first, each group in the order found
// (document order, then well-known order); the first is the one to follow.
struct Discovery {
  std::string url{};       // the URL fetched (after the https -> http fallback, when it was taken)
  std::string page_url{};  // where it ended after redirects
  std::string page_title{};
  bool from_html = false;  // the URL was a page, not a feed
  std::vector<DiscoveredFeed> feeds{};
  std::vector<RejectedFeed> rejected{};

  [[nodiscard]] const DiscoveredFeed& chosen() const { return feeds.front(); }
  // The title a new blog gets: the chosen feed's, else the page's <title>, else the host.
  [[nodiscard]] std::string blog_title() const;
  // The site URL a new blog gets: the feed's <link> when it is http(s), else the page given (when one was),
  // else empty (the crawl fills it in).
  [[nodiscard]] std::string blog_site_url() const;
};

struct DiscoverOptions {
  // The URL was typed without a scheme and https was assumed: when https cannot be reached at all, plain
  // http is tried, and `on_scheme_fallback(https_url, error, http_url)` is told first.
  bool scheme_guessed = false;
  std::function<void(std::string_view https_url, std::string_view error, std::string_view http_url)>
      on_scheme_fallback{};
  // How many of each feed's newest entries are kept with their verdicts, and how they are judged (null:
  // the junk rules' defaults).
  std::size_t recent_posts = 5;
  const CurationContext* curation = nullptr;
};

// Finds the feeds at `url` (an http(s) URL). Errors (message "discover: <url>: <reason>", user message
// "<url>: <reason>" with the fetch stage's own reason text):
//   kForbidden   the outbound policy refused a request for the URL itself ("fetch: refused: 127.0.0.1 is
//                a private address (set fetch.allow_private to allow)")
//   kNetwork, kTimeout, kTooLarge, kHttpStatus  the URL could not be fetched ("fetch: HTTP 404")
//   kNotAFeed    neither an HTML page nor a feed, or a page where no feed was found ("no feed found at
//                URL (tried: ...)"; then the message has no "<url>: " before it)
// A request cut short by client.cancel() gives the client's own error (HttpClient::is_cancelled).
[[nodiscard]] Result<Discovery> discover_feeds(fetch::HttpClient& client, const std::string& url,
                                               const DiscoverOptions& options = {});

// feedparser's version names as people say them: "rss20" -> "RSS 2.0", "atom10" -> "Atom 1.0".
[[nodiscard]] std::string feed_format_name(std::string_view version);

}  // namespace longread::pipeline
