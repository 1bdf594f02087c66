#include "app/store_setup.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "accounts/crypto.h"
#include "app/default_blogs.h"
#include "core/url.h"
#include "feed/opml.h"
#include "pipeline/lifecycle.h"

namespace longread::app {
namespace {
std::optional<std::string> read_whole_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// A list's `longread:allowHosts` in the form the fetch stage compares (lower case, no trailing dot).
std::optional<std::vector<std::string>> canonical_hosts(
    const std::optional<std::vector<std::string>>& hosts) {
  if (!hosts) return std::nullopt;
  std::vector<std::string> out;
  for (const auto& host : *hosts) {
    if (std::string h = canonical_host(host); !h.empty()) out.push_back(std::move(h));
  }
  return out;
}
}  // namespace

int report_failure(const Error& error) {
  fmt::print(stderr, "longread: {}\n", error.message);
  return 1;
}

std::unique_ptr<storage::Store> open_store(const config::Config& config) {
  if (!storage::is_database_url(config.db_path)) {
    const auto parent = std::filesystem::path(config.db_path).parent_path();
    if (!parent.empty()) {
      std::error_code ec;
      std::filesystem::create_directories(parent, ec);
    }
  }
  auto store = storage::open_store(config.db_path);
  if (!store) {
    fmt::print(stderr, "longread: {}\n", store.error().message);
    return nullptr;
  }
  return std::move(*store);
}

fetch::ClientOptions client_options(const config::Config& config) {
  fetch::ClientOptions o;
  o.max_concurrent = config.crawl.concurrency;
  o.max_per_host = config.crawl.per_host;
  o.connect_timeout = config.crawl.connect_timeout;
  o.total_timeout = config.crawl.timeout;
  o.max_body_bytes = config.crawl.max_body_bytes;
  o.user_agent = config.crawl.user_agent;
  o.address_policy.allow_private = config.fetch.allow_private;
  o.connect_to = config.fetch.connect_to;
  for (const auto& text : config.fetch.allow_networks) {
    // config::load checked each block; one that still does not parse is left out (allowing less).
    if (auto network = IpNetwork::parse(text)) o.address_policy.allow_networks.push_back(*network);
  }
  return o;
}

storage::LifecycleRules lifecycle_rules(const config::Config& config) {
  return {.dead_failures = config.lifecycle.dead_failures,
          .dead_days = config.lifecycle.dead_days,
          .inactive_months = config.lifecycle.inactive_months,
          .auto_retire_dead = config.lifecycle.auto_retire_dead,
          .auto_retire_inactive = config.lifecycle.auto_retire_inactive};
}

void retire_after_crawl(const config::Config& config, storage::Store& store) {
  auto retired = pipeline::retire_lifecycle_blogs(store, store, lifecycle_rules(config), now_seconds());
  if (!retired) {
    spdlog::error("lifecycle: automatic retirement failed: {}", retired.error().message);
  } else if (!retired->empty()) {
    spdlog::info("lifecycle: retired {} blog(s)", retired->size());
  }
}

pipeline::CrawlOptions crawl_options(const config::Config& config, bool all) {
  pipeline::CrawlOptions o;
  o.schedule.interval = config.crawl.interval;
  o.schedule.max_backoff = config.crawl.max_backoff;
  o.schedule.max_interval = config.crawl.max_interval;
  o.schedule.scheduler = config.crawl.scheduler == config::PollingScheduler::kEntryFrequency
                             ? pipeline::Scheduler::kEntryFrequency
                             : pipeline::Scheduler::kFixed;
  o.schedule.frequency_factor = config.crawl.entry_frequency_factor;
  o.schedule.frequency_window = config.crawl.entry_frequency_window;
  o.all = all;
  o.fetch_full_text = config.crawl.fetch_full_text;
  o.max_entries_per_feed = static_cast<std::size_t>(config.crawl.max_entries_per_feed);
  o.max_entry_bytes = config.crawl.max_entry_bytes;
  o.max_articles_per_blog = config.crawl.max_articles_per_blog;
  o.lease = config.crawl.lease;
  o.max_blogs_per_pass = config.crawl.max_blogs_per_pass;
  o.similar_fresh_days = config.crawl.similar_fresh_days;
  o.junk_retention = config.curate.junk_retention;
  o.ranking = {.depth_weight_days = config.ranking.depth_weight_days,
               .reference_words = config.ranking.reference_words,
               .quiet_weight_days = config.ranking.quiet_weight_days,
               .reference_posts_per_month = config.ranking.reference_posts_per_month};
  return o;
}

Result<int> import_opml_text(storage::BlogStore& store, std::string_view text) {
  auto blogs = feed::parse_opml(text);
  if (!blogs) return std::unexpected(blogs.error());
  for (const auto& b : *blogs) {
    auto id = store.upsert_blog({.feed_url = b.feed_url,
                                 .site_url = b.site_url,
                                 .title = b.title,
                                 .category = b.category,
                                 .short_form = b.short_form,
                                 .paused = b.paused,
                                 .allowed_hosts = canonical_hosts(b.allowed_hosts)});
    if (!id) return std::unexpected(id.error());
    // A blog retired where the list came from stays retired, with its reason (false: it already was).
    if (b.retired) {
      if (auto retired = store.retire_blog(*id, *b.retired, now_seconds()); !retired)
        return std::unexpected(retired.error());
    }
  }
  return static_cast<int>(blogs->size());
}

bool ensure_blogs(const config::Config& config, storage::Store& store) {
  auto count = store.blog_count();
  if (!count) {
    fmt::print(stderr, "longread: {}\n", count.error().message);
    return false;
  }
  // The default list goes into a database once, on its first run. A named value remembers that it did
  // (get-or-create with a fresh value: getting our own value back means this is the first time), so a
  // database whose blogs the operator removed (`blogs remove`) stays as the operator left it.
  const std::string fresh = "first run " + accounts::random_token(16);
  auto first_run = [&]() -> Result<bool> {
    auto marker = store.secret("default-blog-list", fresh);
    if (!marker) return std::unexpected(marker.error());
    return *marker == fresh;
  };
  if (*count > 0) {
    if (auto marked = first_run(); !marked) spdlog::warn("app: {}", marked.error().message);
    return true;
  }
  std::string text;
  if (!config.default_blog_list.empty()) {
    auto file = read_whole_file(config.default_blog_list);
    if (!file) {
      fmt::print(stderr, "longread: cannot read default blog list {}\n", config.default_blog_list);
      return false;
    }
    text = std::move(*file);
  } else {
    text = std::string(default_blog_list_opml());
  }
  auto first = first_run();
  if (!first) {
    fmt::print(stderr, "longread: {}\n", first.error().message);
    return false;
  }
  if (!*first) {
    spdlog::warn(
        "app: no blogs to crawl (the default list was imported once and its blogs removed); add "
        "some with `longread import FILE.opml`");
    return true;
  }
  auto imported = import_opml_text(store, text);
  if (!imported) {
    fmt::print(stderr, "longread: default blog list: {}\n", imported.error().message);
    return false;
  }
  spdlog::info("app: first run: imported {} blogs from the default list", *imported);
  return true;
}

}  // namespace longread::app
