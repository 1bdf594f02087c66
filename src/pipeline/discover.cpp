// Feed discovery (pipeline/discover.h): one page fetched, its declared feeds probed at once, the
// well-known paths probed when none of them works, and each found feed's newest entries judged by the
// crawler's own article builder.
#include "pipeline/discover.h"

#include <fmt/format.h>

#include <algorithm>
#include <unordered_set>
#include <utility>
#include <variant>

#include "core/url.h"
#include "feed/feed.h"
#include "fetch/http_client.h"
#include "html/discover.h"
#include "model/model.h"
#include "pipeline/article_builder.h"

namespace longread::pipeline {
namespace {

// Entries judged per feed: a feed's newest are at its top by convention (RSS 2.0, RFC 4287 leave the order
// open, but every generator writes newest first), and judging thousands would only cost time.
constexpr std::size_t kJudgedEntries = 50;

// A URL to try, with what the page said about it.
struct Probe {
  std::string url;
  bool comments = false;  // the page's link looked like a comment feed
  bool guessed = false;   // a well-known path
};

DiscoveredFeed make_candidate(const fetch::Response& response, feed::Feed& parsed, bool comments_hint,
                              const DiscoverOptions& options) {
  DiscoveredFeed c;
  c.url = response.url;
  c.final_url = response.final_url.empty() ? response.url : response.final_url;
  // The crawler moves a blog on a permanent redirect (301/308) only; a temporary one keeps the URL given.
  c.feed_url = response.permanent_redirect.value_or(response.url);
  c.comments = comments_hint || html::looks_like_comment_feed(c.final_url, parsed.title);
  c.title = parsed.title;
  c.link = parsed.link;
  c.version = parsed.version;
  c.entries = parsed.entries.size();
  for (const auto& entry : parsed.entries) {
    const auto date = entry.published ? entry.published : entry.updated;
    if (date && (!c.newest_post || *date > *c.newest_post)) c.newest_post = date;
  }
  if (options.recent_posts == 0 || parsed.entries.empty()) return c;
  // Judged as the crawler would judge them for a new blog of this feed (its template learned from these
  // entries, the default category, not short-form).
  if (parsed.entries.size() > kJudgedEntries) parsed.entries.resize(kJudgedEntries);
  model::Blog blog;
  blog.feed_url = c.feed_url;
  blog.site_url = is_http_url(parsed.link) ? parsed.link : std::string();
  blog.title = parsed.title;
  static const CurationContext kDefaults{};
  auto articles =
      build_articles(parsed, blog, now_seconds(), options.curation ? *options.curation : kDefaults);
  std::stable_sort(articles.begin(), articles.end(), [](const model::Article& a, const model::Article& b) {
    return a.display_date() > b.display_date();
  });
  for (auto& a : articles) {
    if (c.recent.size() >= options.recent_posts) break;
    c.recent.push_back({.title = std::move(a.title),
                        .link = std::move(a.link),
                        .published = a.undated ? std::nullopt : a.published,
                        .junk = a.junk,
                        .junk_reason = std::move(a.junk_reason)});
  }
  return c;
}

// Fetches every probe at once (the client keeps to its per-host limit) and keeps those that parse as feeds,
// in the probes' order. Each body is parsed as it arrives and dropped. Two probes that end at the same URL
// (/feed and its redirect to /feed/) count once. Returns the client's cancellation error when any probe
// was cut short by HttpClient::cancel() (the process is stopping: what was found is not the answer).
std::optional<Error> probe_all(fetch::HttpClient& client, const std::vector<Probe>& probes,
                               const DiscoverOptions& options, Discovery& found) {
  std::vector<fetch::Request> requests;
  requests.reserve(probes.size());
  for (std::size_t i = 0; i < probes.size(); ++i) requests.push_back({.url = probes[i].url, .tag = i});
  std::vector<std::variant<DiscoveredFeed, RejectedFeed>> outcomes(probes.size());
  std::optional<Error> cancelled;
  client.fetch_all(std::move(requests), [&](fetch::Response r) {
    const auto slot = static_cast<std::size_t>(r.tag);
    const Probe& probe = probes[slot];
    if (r.error && fetch::HttpClient::is_cancelled(*r.error)) cancelled = *r.error;
    if (r.error || !r.ok()) {
      outcomes[slot] = RejectedFeed{
          probe.url, r.error ? r.error->message : fmt::format("fetch: HTTP {}", r.status), probe.guessed};
      return;
    }
    const std::string base = r.final_url.empty() ? r.url : r.final_url;
    auto parsed = feed::parse_feed(
        r.body, {.base_url = base, .content_type = r.content_type, .content_language = r.content_language});
    if (!parsed) {
      outcomes[slot] = RejectedFeed{probe.url, parsed.error().message, probe.guessed};
      return;
    }
    outcomes[slot] = make_candidate(r, *parsed, probe.comments, options);
  });
  for (auto& outcome : outcomes) {
    if (auto* rejected = std::get_if<RejectedFeed>(&outcome)) {
      found.rejected.push_back(std::move(*rejected));
      continue;
    }
    auto& candidate = std::get<DiscoveredFeed>(outcome);
    const bool duplicate = std::any_of(found.feeds.begin(), found.feeds.end(), [&](const DiscoveredFeed& c) {
      return c.final_url == candidate.final_url;
    });
    if (!duplicate) found.feeds.push_back(std::move(candidate));
  }
  return cancelled;
}

bool has_non_comment_feed(const Discovery& found) {
  return std::any_of(found.feeds.begin(), found.feeds.end(),
                     [](const DiscoveredFeed& c) { return !c.comments; });
}

// An error about the URL itself: the technical message names the module, the user one is what `blogs
// add` has always printed after "longread: ".
std::unexpected<Error> url_error(ErrorKind kind, const std::string& url, const std::string& reason) {
  return fail(kind, fmt::format("discover: {}: {}", url, reason), fmt::format("{}: {}", url, reason));
}

}  // namespace

std::string Discovery::blog_title() const {
  if (feeds.empty()) return {};
  if (!chosen().title.empty()) return chosen().title;
  if (!page_title.empty()) return page_title;
  return url_host(chosen().final_url);
}

std::string Discovery::blog_site_url() const {
  if (feeds.empty()) return {};
  if (is_http_url(chosen().link)) return chosen().link;
  return from_html ? page_url : std::string();
}

Result<Discovery> discover_feeds(fetch::HttpClient& client, const std::string& given_url,
                                 const DiscoverOptions& options) {
  std::string url = given_url;
  fetch::Response page = client.fetch({.url = url});
  if (page.error && options.scheme_guessed && url.starts_with("https:")) {
    // Typed without a scheme: https first, as browsers do, then plain http for a site that has no TLS.
    std::string plain = "http:" + url.substr(6);
    if (options.on_scheme_fallback) options.on_scheme_fallback(url, page.error->message, plain);
    url = std::move(plain);
    page = client.fetch({.url = url});
  }
  if (page.error) {
    // Cut short by HttpClient::cancel(): passed on as it is, so the caller can tell (is_cancelled).
    if (fetch::HttpClient::is_cancelled(*page.error)) return std::unexpected(*page.error);
    return url_error(page.error->kind, url, page.error->message);
  }
  if (!page.ok()) return url_error(ErrorKind::kHttpStatus, url, fmt::format("fetch: HTTP {}", page.status));

  Discovery found;
  found.url = url;
  found.page_url = page.final_url.empty() ? url : page.final_url;
  auto direct = feed::parse_feed(page.body, {.base_url = found.page_url,
                                             .content_type = page.content_type,
                                             .content_language = page.content_language});
  if (direct) {
    // The URL is a feed (told by its bytes, whatever its name or Content-Type): given explicitly, it is
    // taken even when it looks like a comment feed.
    found.feeds.push_back(make_candidate(page, *direct, false, options));
    found.feeds.back().comments = false;  // asked for by name
  } else if (html::looks_like_html(page.body, page.content_type)) {
    found.from_html = true;
    auto declared_links = html::discover_feeds(page.body, found.page_url);
    found.page_title = std::move(declared_links.page_title);
    std::vector<Probe> declared;
    for (auto& link : declared_links.feeds) declared.push_back({std::move(link.url), link.comments});
    if (auto cancelled = probe_all(client, declared, options, found)) return std::unexpected(*cancelled);
    if (!has_non_comment_feed(found)) {
      // Declared nothing (or nothing usable): the places blogs usually keep a feed.
      std::unordered_set<std::string> tried{found.page_url, url};
      for (const auto& p : declared) tried.insert(p.url);
      std::vector<Probe> guesses;
      for (auto& u : html::well_known_feed_urls(found.page_url)) {
        if (!tried.contains(u)) guesses.push_back({std::move(u), false, true});
      }
      if (auto cancelled = probe_all(client, guesses, options, found)) return std::unexpected(*cancelled);
    }
  } else {
    return url_error(ErrorKind::kNotAFeed, url,
                     fmt::format("neither an HTML page nor a feed ({})", direct.error().message));
  }

  // Posts before comments, each group in the order found (document order, then well-known order).
  std::stable_partition(found.feeds.begin(), found.feeds.end(),
                        [](const DiscoveredFeed& c) { return !c.comments; });
  if (found.feeds.empty()) {
    std::string tried;
    for (const auto& r : found.rejected) tried += (tried.empty() ? "" : ", ") + r.url;
    const std::string text = fmt::format("no feed found at {} (tried: {})", url,
                                         tried.empty() ? std::string("the page itself") : tried);
    return fail(ErrorKind::kNotAFeed, "discover: " + text, text);
  }
  return found;
}

std::string feed_format_name(std::string_view version) {
  if (version == "rss20") return "RSS 2.0";
  if (version == "rss10") return "RSS 1.0 (RDF)";
  if (version.starts_with("rss09")) return fmt::format("RSS 0.{}", version.substr(4, 2));
  if (version == "rss") return "RSS";
  if (version == "atom10") return "Atom 1.0";
  if (version == "atom03") return "Atom 0.3";
  if (version == "atom") return "Atom";
  if (version == "json1") return "JSON Feed 1.0";
  if (version == "json11") return "JSON Feed 1.1";
  if (version == "cdf") return "CDF";
  return version.empty() ? std::string("unknown format") : std::string(version);
}

}  // namespace longread::pipeline
