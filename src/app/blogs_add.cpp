// `longread blogs add URL`: follow one blog from its home page or its feed URL. Finding the feed is
// pipeline::discover_feeds (pipeline/discover.h), shared with the site's blog suggestions; this command
// adds the "already following" check, the dry-run report and the store.
#include <fmt/format.h>

#include <string>
#include <utility>
#include <vector>

#include "app/category_option.h"
#include "app/commands.h"
#include "app/store_setup.h"
#include "core/strings.h"
#include "core/url.h"
#include "fetch/http_client.h"
#include "pipeline/discover.h"
#include "pipeline/suggestions.h"
#include "storage/store.h"

namespace longread::app {
namespace {

using pipeline::Discovery;

// The blog already stored under any name this candidate goes by (as found, after redirects, normalized).
using pipeline::followed_blog;

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
  auto discovered = pipeline::discover_feeds(
      client, url,
      {.scheme_guessed = typed->scheme_guessed,
       .on_scheme_fallback =
           [](std::string_view https_url, std::string_view error, std::string_view http_url) {
             fmt::print(stderr, "longread: {}: {}; trying {}\n", https_url, error, http_url);
           },
       .recent_posts = 0});
  if (!discovered) {
    fmt::print(stderr, "longread: {}\n", discovered.error().display());
    return 1;
  }
  Discovery& found = *discovered;
  url = found.url;

  // The same blog may be followed under another of its feeds (the page lists RSS first, the list had Atom).
  // The chosen feed is always checked (even a comment feed): adding it again would overwrite its blog.
  std::optional<model::Blog> already;
  for (const auto& c : found.feeds) {
    if (c.comments && &c != &found.chosen()) continue;
    auto blog = followed_blog(*store, {c.url, c.final_url, c.feed_url});
    if (!blog) return report_failure(blog.error());
    if (*blog) {
      already = std::move(*blog);
      break;
    }
  }
  if (!already && *followed) already = std::move(*followed);

  const pipeline::DiscoveredFeed& chosen = found.chosen();
  std::string title = std::string(trim(options.title));
  if (title.empty()) title = found.blog_title();
  const std::string site_url = found.blog_site_url();
  const std::string category = options.category.empty() ? "uncategorized" : options.category;

  if (options.dry_run) {
    fmt::print("{} {} at {}:\n", found.feeds.size(), found.feeds.size() == 1 ? "feed" : "feeds", url);
    for (std::size_t i = 0; i < found.feeds.size(); ++i) {
      const pipeline::DiscoveredFeed& c = found.feeds[i];
      fmt::print("  {}. {}  {}  \"{}\"  {} {}{}{}\n", i + 1, c.feed_url,
                 pipeline::feed_format_name(c.version), c.title, c.entries,
                 c.entries == 1 ? "entry" : "entries", c.comments ? "  (comments)" : "",
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
