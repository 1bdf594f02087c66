// Feed autodiscovery: which feeds an HTML page declares, and where a site without declarations usually
// keeps one. Pure functions over bytes and URLs; the caller fetches (and must parse every candidate as a
// feed before trusting it: a declaration is only a hint).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace longread::html {

// One feed a page declares with <link rel="alternate" type="..." href="..."> (HTML Living Standard
// 4.6.7.1 "alternate" with a feed MIME type; the RSS Advisory Board's "RSS Autodiscovery").
struct FeedLink {
  std::string url;        // absolute http(s) URL, resolved against <base href>, else the page URL
  std::string type;       // declared MIME type, lower case, parameters dropped: "application/atom+xml"
  std::string title;      // the link's title attribute, whitespace folded ("" when absent)
  bool comments = false;  // looks_like_comment_feed(url, title)
};

// What a page says about its feeds.
struct Discovery {
  std::vector<FeedLink> feeds;  // document order, each URL once, at most kMaxFeedLinks
  std::string page_title;       // the page's <title>, whitespace folded
};

// A page declaring more feeds than this is hostile or a directory; the rest are ignored, so a caller that
// fetches each candidate makes a bounded number of requests.
inline constexpr std::size_t kMaxFeedLinks = 32;

// Reads the <link> elements of `html` (gumbo's HTML5 tree, so unclosed and misplaced tags parse as a
// browser reads them). A link counts when its rel token list (ASCII-whitespace separated, case-insensitive)
// holds "alternate" and its type is a feed type: application/rss+xml, application/atom+xml,
// application/feed+json, application/json, and the variants older sites declare (application/rss,
// application/atom, application/rdf+xml, application/x-rss+xml, application/x-atom+xml, text/xml,
// application/xml). hrefs resolve against the first <base href> (itself resolved against `page_url`),
// else `page_url` (pass the final URL after redirects); only http(s) results are kept (javascript:, data:,
// mailto:, file: are dropped).
[[nodiscard]] Discovery discover_feeds(std::string_view html, std::string_view page_url);

// Where blogs commonly keep a feed when their pages declare none (the paths Miniflux, FreshRSS and
// WordPress/Hugo/Jekyll/Ghost defaults use): feed.xml, atom.xml, rss.xml, index.xml, feed/, feed, rss/, rss,
// index.rss, feed.json, atom -- first beside the page (https://x.example/blog/feed.xml for a page in
// /blog/), then at the site root. Absolute URLs, each once, in the order to try.
[[nodiscard]] std::vector<std::string> well_known_feed_urls(std::string_view page_url);

// True when a feed is clearly one of comments rather than posts: a title such as WordPress's "Blog »
// Comments Feed", "Comments on: Post", "Comments for Blog", or a URL with a comments path segment
// (/comments/feed/, /feeds/comments/default, comments.xml, ?feed=comments-rss2).
[[nodiscard]] bool looks_like_comment_feed(std::string_view url, std::string_view title);

// True when a response is an HTML page: its Content-Type says text/html or application/xhtml+xml, or its
// first bytes match the WHATWG MIME Sniffing Standard's HTML patterns (7.1: "<!DOCTYPE HTML", "<HTML",
// "<HEAD", "<BODY", "<SCRIPT", "<TITLE", "<!--", ... case-insensitive, after leading whitespace and a BOM).
[[nodiscard]] bool looks_like_html(std::string_view body, std::string_view content_type);

}  // namespace longread::html
