#include "html/discover.h"

#include <array>
#include <optional>
#include <string_view>
#include <unordered_set>
#include <utility>

#include "core/strings.h"
#include "core/url.h"
#include "html/dom.h"

namespace longread::html {
namespace {

// ASCII whitespace (HTML Living Standard, Infra): what separates rel tokens and is stripped from URLs.
bool is_ascii_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r';
}

std::string_view strip_ascii_space(std::string_view s) {
  while (!s.empty() && is_ascii_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_ascii_space(s.back())) s.remove_suffix(1);
  return s;
}

// rel is a set of space-separated tokens, compared ASCII case-insensitively (HTML 4.6.7).
bool has_rel_token(std::string_view rel, std::string_view token) {
  std::size_t i = 0;
  while (i < rel.size()) {
    while (i < rel.size() && is_ascii_space(rel[i])) ++i;
    std::size_t end = i;
    while (end < rel.size() && !is_ascii_space(rel[end])) ++end;
    if (end > i && iequals(rel.substr(i, end - i), token)) return true;
    i = end;
  }
  return false;
}

// "Application/RSS+XML; charset=utf-8" -> "application/rss+xml".
std::string essence(std::string_view mime) {
  if (const auto semicolon = mime.find(';'); semicolon != std::string_view::npos)
    mime = mime.substr(0, semicolon);
  return to_lower_ascii(strip_ascii_space(mime));
}

bool is_feed_type(std::string_view type) {
  static constexpr std::array<std::string_view, 11> kTypes = {
      "application/rss+xml",    "application/atom+xml",
      "application/feed+json",  "application/json",
      "application/rss",        "application/atom",
      "application/rdf+xml",    "application/x-rss+xml",
      "application/x-atom+xml", "text/xml",
      "application/xml"};
  for (const auto t : kTypes) {
    if (type == t) return true;
  }
  return false;
}

bool is_html_element(const GumboNode* n, GumboTag tag) {
  return detail::is_tag(n, tag) && n->v.element.tag_namespace == GUMBO_NAMESPACE_HTML;
}

// A <link> as written, before resolution; the views point into the Document.
struct RawLink {
  std::string_view rel, type, href, title;
};

// The pieces of a page discovery needs, in document (tree) order.
struct PageParts {
  std::vector<RawLink> links;
  std::optional<std::string_view> base_href;  // the first <base> with an href (HTML 4.2.3)
  std::string title;                          // the first HTML <title>
};

PageParts collect(const GumboNode* root) {
  PageParts parts;
  bool title_seen = false;
  // Iterative pre-order walk: the Document flattens nesting, but an explicit stack costs nothing.
  std::vector<const GumboNode*> stack;
  if (root != nullptr) stack.push_back(root);
  while (!stack.empty()) {
    const GumboNode* n = stack.back();
    stack.pop_back();
    if (!detail::is_element(n)) continue;
    if (is_html_element(n, GUMBO_TAG_LINK)) {
      parts.links.push_back({detail::attr(n, "rel"), detail::attr(n, "type"), detail::attr(n, "href"),
                             detail::attr(n, "title")});
    } else if (is_html_element(n, GUMBO_TAG_BASE)) {
      if (!parts.base_href && detail::has_attr(n, "href")) parts.base_href = detail::attr(n, "href");
    } else if (is_html_element(n, GUMBO_TAG_TITLE)) {
      if (!title_seen) parts.title = collapse_whitespace(sanitize_utf8(detail::inner_text(n)));
      title_seen = true;
    }
    const GumboVector& children = n->v.element.children;
    for (unsigned i = children.length; i > 0; --i) {
      stack.push_back(static_cast<const GumboNode*>(children.data[i - 1]));
    }
  }
  return parts;
}

// A URL discovery may hand out: http(s) and valid UTF-8. libcurl keeps the bytes of a host as they came, so a
// page URL with a stray non-UTF-8 byte in its host (a redirect's Location is only bytes) would otherwise give
// feed URLs that cannot be stored or shown as text; no such host resolves anyway (IDNA needs Unicode).
bool is_usable_url(const std::string& url) {
  return is_http_url(url) && is_valid_utf8(url);
}

// The document base URL (HTML 2.4.1): the first <base href> resolved against the page's URL. A base that
// does not resolve to http(s) is ignored: feeds are only ever fetched over HTTP.
std::string document_base(std::string_view page_url, const std::optional<std::string_view>& base_href) {
  if (base_href) {
    auto base = resolve_url(page_url, strip_ascii_space(*base_href));
    if (base && is_usable_url(*base)) return std::move(*base);
  }
  return std::string(page_url);
}

// A token of a URL's path and query: the pieces between / ? & = . # ;
bool has_comment_token(std::string_view path_and_query) {
  std::size_t i = 0;
  while (i <= path_and_query.size()) {
    std::size_t end = path_and_query.find_first_of("/?&=.#;", i);
    if (end == std::string_view::npos) end = path_and_query.size();
    const std::string_view token = path_and_query.substr(i, end - i);
    if (token == "comments" || token == "comment" || token.starts_with("comments-") ||
        token.starts_with("comments_")) {
      return true;
    }
    i = end + 1;
  }
  return false;
}

}  // namespace

Discovery discover_feeds(std::string_view html, std::string_view page_url) {
  const detail::Document document(html);
  PageParts parts = collect(document.root());
  Discovery out;
  out.page_title = std::move(parts.title);
  const std::string base = document_base(page_url, parts.base_href);
  std::unordered_set<std::string> seen;
  for (const auto& link : parts.links) {
    if (out.feeds.size() >= kMaxFeedLinks) break;
    if (!has_rel_token(link.rel, "alternate")) continue;
    std::string type = essence(link.type);
    if (!is_feed_type(type)) continue;
    const std::string_view href = strip_ascii_space(link.href);
    if (href.empty() || href.front() == '#') continue;  // the page itself, not a feed
    auto url = resolve_url(base, href);
    if (!url || !is_usable_url(*url)) continue;
    if (!seen.insert(*url).second) continue;
    std::string title = collapse_whitespace(sanitize_utf8(link.title));
    const bool comments = looks_like_comment_feed(*url, title);
    out.feeds.push_back({std::move(*url), std::move(type), std::move(title), comments});
  }
  return out;
}

std::vector<std::string> well_known_feed_urls(std::string_view page_url) {
  static constexpr std::array<std::string_view, 11> kPaths = {
      "feed.xml", "atom.xml", "rss.xml",   "index.xml", "feed/", "feed",
      "rss/",     "rss",      "index.rss", "feed.json", "atom"};
  std::vector<std::string> out;
  std::unordered_set<std::string> seen;
  auto add = [&](std::string_view ref) {
    auto url = resolve_url(page_url, ref);
    if (url && is_usable_url(*url) && seen.insert(*url).second) out.push_back(std::move(*url));
  };
  for (const auto path : kPaths) add(path);                                  // beside the page
  for (const auto path : kPaths) add(std::string("/") + std::string(path));  // at the site root
  return out;
}

bool looks_like_comment_feed(std::string_view url, std::string_view title) {
  const std::string t = to_lower_ascii(collapse_whitespace(title));
  if (t.find("comments feed") != std::string::npos || t.find("comment feed") != std::string::npos ||
      t.starts_with("comments on") || t.starts_with("comments for") || t == "comments") {
    return true;
  }
  // Only the path and query count: a host may be called comments.example.
  const std::string u = to_lower_ascii(url);
  const auto scheme_end = u.find("://");
  if (scheme_end == std::string::npos) return false;
  const auto path = u.find('/', scheme_end + 3);
  if (path == std::string::npos) return false;
  return has_comment_token(std::string_view(u).substr(path + 1));
}

bool looks_like_html(std::string_view body, std::string_view content_type) {
  const std::string type = essence(content_type);
  if (type == "text/html" || type == "application/xhtml+xml") return true;
  // MIME Sniffing Standard 7.1, "identifying a resource with an unknown MIME type": the HTML patterns.
  if (body.starts_with("\xEF\xBB\xBF")) body.remove_prefix(3);
  while (!body.empty() && is_ascii_space(body.front())) body.remove_prefix(1);
  static constexpr std::array<std::string_view, 17> kPatterns = {
      "<!doctype html", "<html",  "<head", "<script", "<iframe", "<h1", "<div", "<font", "<table", "<a",
      "<style",         "<title", "<b",    "<body",   "<br",     "<p",  "<!--"};
  for (const auto pattern : kPatterns) {
    if (body.size() > pattern.size() && starts_with_icase(body, pattern)) {
      // The standard's "tag-terminating byte" is a space or '>'; a newline or tab ends a tag as well.
      const char next = body[pattern.size()];
      if (is_ascii_space(next) || next == '>') return true;
    }
  }
  return false;
}

}  // namespace longread::html
