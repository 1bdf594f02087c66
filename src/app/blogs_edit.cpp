// `longread blogs edit ID` and `blogs pause / resume ID`: an operator's changes to one followed blog, as
// Miniflux's feed settings and FreshRSS's "mute" give. Each is one Store::edit_blog call (one
// transaction); nothing else about the blog (crawl state, validators, articles, votes) changes.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <string>
#include <vector>

#include "app/blog_table.h"
#include "app/category_option.h"
#include "app/commands.h"
#include "app/rejudge_cmd.h"
#include "app/store_setup.h"
#include "core/strings.h"
#include "core/url.h"
#include "storage/store.h"

namespace longread::app {
namespace {

// The blog, or nullopt after printing "no blog with id N" (exit 1) or the store's error.
std::optional<model::Blog> existing_blog(storage::BlogStore& store, std::int64_t blog_id) {
  auto blog = store.blog(blog_id);
  if (!blog) {
    report_failure(blog.error());
    return std::nullopt;
  }
  if (!*blog) fmt::print(stderr, "longread: no blog with id {} (see `longread blogs`)\n", blog_id);
  return *blog;
}

// Another blog already stored under `feed_url` as given or normalized (the forms `blogs add` checks).
Result<std::optional<model::Blog>> other_blog_with_feed(storage::BlogStore& store, std::int64_t blog_id,
                                                        const std::string& feed_url) {
  std::vector<std::string> keys{feed_url};
  if (auto normal = normalize_url(feed_url); normal && *normal != feed_url)
    keys.push_back(std::move(*normal));
  for (const auto& key : keys) {
    auto blog = store.blog_by_feed_url(key);
    if (!blog) return std::unexpected(blog.error());
    if (*blog && (*blog)->id != blog_id) return blog;
  }
  return std::optional<model::Blog>{};
}

int print_result(const model::Blog& blog) {
  print_blog_table(std::span<const model::Blog>(&blog, 1));
  if (!blog.allowed_hosts.empty())
    fmt::print("full-text pages also allowed from: {}\n", fmt::join(blog.allowed_hosts, ", "));
  return 0;
}

// A host as the operator types it ("CDN.Example.net.", "127.0.0.2", "[::1]" or "::1"), in the form the
// fetch stage compares (core/url.h canonical_host); nullopt when it is not a host name or address.
std::optional<std::string> host_from_input(std::string_view input) {
  std::string text(trim(input));
  if (text.empty()) return std::nullopt;
  const bool bare_ipv6 = text.find(':') != std::string::npos && text.front() != '[';
  const std::string probe = "http://" + (bare_ipv6 ? "[" + text + "]" : text) + "/";
  const std::string host = url_host(probe);
  if (host.empty() || canonical_host(host) != canonical_host(text)) return std::nullopt;  // a path, a port
  return canonical_host(host);
}

// The blog's allowed hosts after this edit, in the order given; nullopt when a host is not one.
std::optional<std::vector<std::string>> edited_hosts(const model::Blog& blog,
                                                     const BlogEditOptions& options) {
  std::vector<std::string> hosts = blog.allowed_hosts;
  for (const auto& input : options.allow_hosts) {
    auto host = host_from_input(input);
    if (!host) {
      fmt::print(stderr, "longread: blogs edit: not a host name or address: {}\n", input);
      return std::nullopt;
    }
    if (std::ranges::find(hosts, *host) == hosts.end()) hosts.push_back(std::move(*host));
  }
  for (const auto& input : options.disallow_hosts) {
    auto host = host_from_input(input);
    if (!host) {
      fmt::print(stderr, "longread: blogs edit: not a host name or address: {}\n", input);
      return std::nullopt;
    }
    std::erase(hosts, *host);
  }
  return hosts;
}

}  // namespace

int cmd_blog_edit(const config::Config& config, const BlogEditOptions& options) {
  const bool hosts_given = !options.allow_hosts.empty() || !options.disallow_hosts.empty();
  if (!options.title && !options.category && !options.short_form && !options.feed_url && !hosts_given) {
    fmt::print(stderr,
               "longread: blogs edit: nothing to change (give --title, --category, --short-form, "
               "--feed-url, --allow-host or --disallow-host)\n");
    return 1;
  }
  // Written as people paste it, as for `blogs add`: blanks dropped, feed:// unwrapped, no scheme taken as
  // https (nothing is fetched here to fall back to http; give http:// for a site without TLS).
  std::optional<std::string> feed_url;
  if (options.feed_url) {
    auto typed = http_url_from_input(*options.feed_url);
    if (!typed) {
      fmt::print(stderr, "longread: blogs edit: not an http(s) URL: {}\n", *options.feed_url);
      return 1;
    }
    feed_url = std::move(typed->url);
  }
  auto store = open_store(config);
  if (!store) return 1;
  const auto before = existing_blog(*store, options.blog_id);
  if (!before) return 1;
  if (options.category && !check_category_option(*store, "blogs edit", *options.category)) return 1;
  if (feed_url) {
    auto other = other_blog_with_feed(*store, options.blog_id, *feed_url);
    if (!other) return report_failure(other.error());
    if (*other) {
      fmt::print(stderr,
                 "longread: blogs edit: feed URL {} is already followed as blog {} \"{}\"; nothing changed "
                 "(remove one of them first: `longread blogs remove ID`)\n",
                 *feed_url, (*other)->id, (*other)->title);
      return 1;
    }
  }

  std::optional<std::vector<std::string>> allowed_hosts;
  if (hosts_given) {
    allowed_hosts = edited_hosts(*before, options);
    if (!allowed_hosts) return 1;
  }

  auto after = store->edit_blog(options.blog_id, {.title = options.title,
                                                  .category = options.category,
                                                  .short_form = options.short_form,
                                                  .feed_url = feed_url,
                                                  .allowed_hosts = allowed_hosts});
  if (!after) return report_failure(after.error());  // kConflict: another process took the URL meanwhile

  std::vector<std::string> changes;
  if (before->title != after->title)
    changes.push_back(fmt::format("title \"{}\" -> \"{}\"", before->title, after->title));
  if (before->category != after->category)
    changes.push_back(
        fmt::format("category {} -> {} (its articles filed under the blog's category follow it)",
                    before->category, after->category));
  if (before->short_form != after->short_form)
    changes.push_back(fmt::format("short-form {} -> {} (its stored articles are judged again)",
                                  before->short_form, after->short_form));
  if (before->feed_url != after->feed_url)
    changes.push_back(
        fmt::format("feed URL {} -> {} (polled at its next due time)", before->feed_url, after->feed_url));
  if (before->allowed_hosts != after->allowed_hosts) {
    const auto listed = [](const std::vector<std::string>& hosts) {
      return hosts.empty() ? std::string("(none)") : fmt::format("{}", fmt::join(hosts, ", "));
    };
    changes.push_back(fmt::format("allowed hosts {} -> {} (full-text pages from the next crawl on)",
                                  listed(before->allowed_hosts), listed(after->allowed_hosts)));
  }
  if (changes.empty()) changes.emplace_back("nothing was different");
  fmt::print("edited blog {}: {}\n", after->id, fmt::join(changes, "; "));
  if (before->short_form != after->short_form) {
    // The length rule now applies (or no longer does) to what is already stored, not only to new posts.
    auto summary = pipeline::rejudge(*store, *store, junk_options(config), after->id, false);
    if (!summary) return report_failure(summary.error());
    print_rejudged(*summary, false, 20);
    auto refreshed = existing_blog(*store, after->id);  // its article count changed
    if (refreshed) after = std::move(*refreshed);
  }
  return print_result(*after);
}

int cmd_blog_pause(const config::Config& config, std::int64_t blog_id, bool paused) {
  auto store = open_store(config);
  if (!store) return 1;
  const auto before = existing_blog(*store, blog_id);
  if (!before) return 1;
  if (before->paused == paused && (paused || !before->quarantined)) {
    fmt::print("blog {} is {} paused; nothing changed\n", blog_id, paused ? "already" : "not");
    return print_result(*before);
  }
  auto after = store->edit_blog(blog_id, {.paused = paused});
  if (!after) return report_failure(after.error());
  if (paused) {
    fmt::print(
        "paused blog {} \"{}\": no crawl polls it until `longread blogs resume {}`; its {} {} stay on "
        "the site\n",
        blog_id, after->title, blog_id, after->article_count,
        after->article_count == 1 ? "article" : "articles");
  } else if (before->quarantined) {
    fmt::print(
        "resumed blog {} \"{}\": out of quarantine (it had crashed the crawler {} times), due at the next "
        "crawl\n",
        blog_id, after->title, before->crashes);
  } else {
    fmt::print("resumed blog {} \"{}\": due at the next crawl\n", blog_id, after->title);
  }
  return print_result(*after);
}

}  // namespace longread::app
