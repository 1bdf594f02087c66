// `longread blogs add URL`: follow one blog from its home page or its feed URL. The URL is fetched; a body
// that parses as a feed is the feed. An HTML page is searched for the feeds it declares (html::
// discover_feeds), and when it declares none, the paths where blogs usually keep one are tried
// (html::well_known_feed_urls), as Miniflux's subscription finder does. Every candidate is fetched and
// parsed before it counts: a declaration is a hint, a parse is proof. Comment feeds are passed over while
// any other feed is found.
#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <unordered_set>
#include <utility>
#include <variant>
#include <vector>

#include "app/category_option.h"
#include "app/commands.h"
#include "app/store_setup.h"
#include "core/strings.h"
#include "core/url.h"
#include "feed/feed.h"
#include "fetch/http_client.h"
#include "html/discover.h"
#include "storage/store.h"

namespace longread::app {
namespace {

// A URL that was fetched and parsed as a feed.
struct Candidate {
  std::string url;        // as found: the URL given, a link's href or a well-known path
  std::string final_url;  // after redirects
  std::string feed_url;   // what the blog is stored under: the target of a permanent redirect, else url
  // What is kept of the parsed feed (not its entries: a page may declare 32 feeds of 8 MiB each).
  std::string title, link, version;
  std::size_t entries = 0;
  bool comments = false;
};

// A URL to try, with what the page said about it.
struct Probe {
  std::string url;
  bool comments = false;  // the page's link looked like a comment feed
  bool guessed = false;   // a well-known path
};

// A URL that was tried and is not a feed, and why.
struct Rejected {
  std::string url;
  std::string reason;
  bool guessed = false;  // a well-known path, not something the page declared
};

struct Found {
  std::vector<Candidate> feeds;
  std::vector<Rejected> rejected;
};

Candidate make_candidate(const fetch::Response& response, const feed::Feed& feed, bool comments_hint) {
  Candidate c;
  c.url = response.url;
  c.final_url = response.final_url.empty() ? response.url : response.final_url;
  // The crawler moves a blog on a permanent redirect (301/308) only; a temporary one keeps the URL given.
  c.feed_url = response.permanent_redirect.value_or(response.url);
  c.comments = comments_hint || html::looks_like_comment_feed(c.final_url, feed.title);
  c.title = feed.title;
  c.link = feed.link;
  c.version = feed.version;
  c.entries = feed.entries.size();
  return c;
}

// Fetches every probe at once (the client keeps to its per-host limit) and keeps those that parse as feeds,
// in the probes' order. Each body is parsed as it arrives and dropped. Two probes that end at the same URL
// (/feed and its redirect to /feed/) count once.
void probe_all(fetch::HttpClient& client, const std::vector<Probe>& probes, Found& found) {
  std::vector<fetch::Request> requests;
  requests.reserve(probes.size());
  for (std::size_t i = 0; i < probes.size(); ++i) requests.push_back({.url = probes[i].url, .tag = i});
  std::vector<std::variant<Candidate, Rejected>> outcomes(probes.size());
  client.fetch_all(std::move(requests), [&](fetch::Response r) {
    const auto slot = static_cast<std::size_t>(r.tag);
    const Probe& probe = probes[slot];
    if (r.error || !r.ok()) {
      outcomes[slot] = Rejected{
          probe.url, r.error ? r.error->message : fmt::format("fetch: HTTP {}", r.status), probe.guessed};
      return;
    }
    const std::string base = r.final_url.empty() ? r.url : r.final_url;
    auto parsed = feed::parse_feed(
        r.body, {.base_url = base, .content_type = r.content_type, .content_language = r.content_language});
    if (!parsed) {
      outcomes[slot] = Rejected{probe.url, parsed.error().message, probe.guessed};
      return;
    }
    outcomes[slot] = make_candidate(r, *parsed, probe.comments);
  });
  for (auto& outcome : outcomes) {
    if (auto* rejected = std::get_if<Rejected>(&outcome)) {
      found.rejected.push_back(std::move(*rejected));
      continue;
    }
    auto& candidate = std::get<Candidate>(outcome);
    const bool duplicate = std::any_of(found.feeds.begin(), found.feeds.end(), [&](const Candidate& c) {
      return c.final_url == candidate.final_url;
    });
    if (!duplicate) found.feeds.push_back(std::move(candidate));
  }
}

bool has_non_comment_feed(const Found& found) {
  return std::any_of(found.feeds.begin(), found.feeds.end(), [](const Candidate& c) { return !c.comments; });
}

// feedparser's version names, as people say them.
std::string format_name(std::string_view version) {
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

// The blog already stored under any name this candidate goes by (as found, after redirects, normalized).
Result<std::optional<model::Blog>> followed_blog(storage::Store& store,
                                                 const std::vector<std::string>& names) {
  std::vector<std::string> keys;
  for (const auto& name : names) {
    if (name.empty()) continue;
    keys.push_back(name);
    if (auto normal = normalize_url(name)) keys.push_back(std::move(*normal));
  }
  for (const auto& key : keys) {
    auto blog = store.blog_by_feed_url(key);
    if (!blog || *blog) return blog;
  }
  return std::optional<model::Blog>{};
}

void print_already_following(const model::Blog& blog) {
  fmt::print("already following blog {} \"{}\" ({}): {}\n", blog.id, blog.title, blog.category,
             blog.feed_url);
}

}  // namespace

int cmd_blog_add(const config::Config& config, const BlogAddOptions& options) {
  auto typed = http_url_from_input(options.url);
  if (!typed) {
    fmt::print(stderr, "longread: blogs add: not an http(s) URL: {}\n", options.url);
    return 1;
  }
  std::string url = std::move(typed->url);
  auto store = open_store(config);
  if (!store) return 1;
  if (!options.category.empty() && !check_category_option(*store, "blogs add", options.category)) return 1;

  // Already followed under exactly this URL: nothing to fetch.
  auto followed = followed_blog(*store, {url});
  if (!followed) return report_failure(followed.error());
  if (*followed && !options.dry_run) {
    print_already_following(**followed);
    return 0;
  }

  fetch::HttpClient client(client_options(config));
  fetch::Response page = client.fetch({.url = url});
  if (page.error && typed->scheme_guessed && url.starts_with("https:")) {
    // Typed without a scheme: https first, as browsers do, then plain http for a site that has no TLS.
    std::string plain = "http:" + url.substr(6);
    fmt::print(stderr, "longread: {}: {}; trying {}\n", url, page.error->message, plain);
    url = std::move(plain);
    page = client.fetch({.url = url});
  }
  if (page.error) {
    fmt::print(stderr, "longread: {}: {}\n", url, page.error->message);
    return 1;
  }
  if (!page.ok()) {
    fmt::print(stderr, "longread: {}: fetch: HTTP {}\n", url, page.status);
    return 1;
  }
  const std::string page_url = page.final_url.empty() ? url : page.final_url;

  Found found;
  std::string page_title;
  bool from_html = false;
  auto direct = feed::parse_feed(
      page.body,
      {.base_url = page_url, .content_type = page.content_type, .content_language = page.content_language});
  if (direct) {
    // The URL is a feed (told by its bytes, whatever its name or Content-Type): given explicitly, it is
    // taken even when it looks like a comment feed.
    found.feeds.push_back(make_candidate(page, *direct, false));
    found.feeds.back().comments = false;  // asked for by name
  } else if (html::looks_like_html(page.body, page.content_type)) {
    from_html = true;
    auto discovery = html::discover_feeds(page.body, page_url);
    page_title = std::move(discovery.page_title);
    std::vector<Probe> declared;
    for (auto& link : discovery.feeds) declared.push_back({std::move(link.url), link.comments});
    probe_all(client, declared, found);
    if (!has_non_comment_feed(found)) {
      // Declared nothing (or nothing usable): the places blogs usually keep a feed.
      std::unordered_set<std::string> tried{page_url, url};
      for (const auto& p : declared) tried.insert(p.url);
      std::vector<Probe> guesses;
      for (auto& u : html::well_known_feed_urls(page_url)) {
        if (!tried.contains(u)) guesses.push_back({std::move(u), false, true});
      }
      probe_all(client, guesses, found);
    }
  } else {
    fmt::print(stderr, "longread: {}: neither an HTML page nor a feed ({})\n", url, direct.error().message);
    return 1;
  }

  // Posts before comments, each group in the order found (document order, then well-known order).
  std::stable_partition(found.feeds.begin(), found.feeds.end(),
                        [](const Candidate& c) { return !c.comments; });
  if (found.feeds.empty()) {
    std::string tried;
    for (const auto& r : found.rejected) tried += (tried.empty() ? "" : ", ") + r.url;
    fmt::print(stderr, "longread: no feed found at {} (tried: {})\n", url,
               tried.empty() ? std::string("the page itself") : tried);
    return 1;
  }

  // The same blog may be followed under another of its feeds (the page lists RSS first, the list had Atom).
  // The chosen feed is always checked (even a comment feed): adding it again would overwrite its blog.
  std::optional<model::Blog> already;
  for (const auto& c : found.feeds) {
    if (c.comments && &c != &found.feeds.front()) continue;
    auto blog = followed_blog(*store, {c.url, c.final_url, c.feed_url});
    if (!blog) return report_failure(blog.error());
    if (*blog) {
      already = std::move(*blog);
      break;
    }
  }
  if (!already && *followed) already = std::move(*followed);

  const Candidate& chosen = found.feeds.front();
  std::string title = std::string(trim(options.title));
  if (title.empty()) title = chosen.title;
  if (title.empty()) title = page_title;
  if (title.empty()) title = url_host(chosen.final_url);
  std::string site_url = is_http_url(chosen.link) ? chosen.link : std::string();
  if (site_url.empty() && from_html) site_url = page_url;
  const std::string category = options.category.empty() ? "uncategorized" : options.category;

  if (options.dry_run) {
    fmt::print("{} {} at {}:\n", found.feeds.size(), found.feeds.size() == 1 ? "feed" : "feeds", url);
    for (std::size_t i = 0; i < found.feeds.size(); ++i) {
      const Candidate& c = found.feeds[i];
      fmt::print("  {}. {}  {}  \"{}\"  {} {}{}{}\n", i + 1, c.feed_url, format_name(c.version), c.title,
                 c.entries, c.entries == 1 ? "entry" : "entries", c.comments ? "  (comments)" : "",
                 i == 0 ? "  <- chosen" : "");
    }
    // What the page declared is worth a line each; the guesses that missed, one line for all.
    std::size_t missed_guesses = 0;
    for (const auto& r : found.rejected) {
      if (r.guessed) {
        ++missed_guesses;
      } else {
        fmt::print("  not a feed: {}  ({})\n", r.url, r.reason);
      }
    }
    if (missed_guesses > 0) {
      fmt::print("  no feed at {} of the well-known paths tried\n", missed_guesses);
    }
    if (already) {
      print_already_following(*already);
    } else {
      fmt::print("would add \"{}\" ({}): {}  (dry run: nothing stored)\n", title, category, chosen.feed_url);
    }
    return 0;
  }
  if (already) {
    print_already_following(*already);
    return 0;
  }

  // A new blog has no next_due_at: the next crawl (or serve's background crawl) reads it at once.
  auto id = store->upsert_blog({.feed_url = chosen.feed_url,
                                .site_url = site_url,
                                .title = title,
                                .category = options.category,  // empty: the store's default, as for OPML
                                .short_form = options.short_form});
  if (!id) return report_failure(id.error());
  auto stored = store->blog(*id);
  if (!stored) return report_failure(stored.error());
  if (!*stored)
    return report_failure(Error(ErrorKind::kInternal, fmt::format("store: blog {} vanished", *id)));
  const model::Blog& blog = **stored;
  fmt::print("added blog {} \"{}\" ({}): {}\n", blog.id, blog.title, blog.category, blog.feed_url);
  return 0;
}

}  // namespace longread::app
