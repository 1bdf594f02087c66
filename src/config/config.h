// Configuration: defaults, then a TOML file, then LONGREAD_* environment variables, then command-line
// flags (applied by the caller). Passed explicitly to whoever needs it; never a global.
#pragma once

#include <chrono>
#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "core/error.h"

namespace longread::config {

// How the wait after a successful poll starts (crawl.scheduler): kFixed, one interval; kEntryFrequency, the
// blog's average gap between posts over the last 4 weeks (docs/fetch.md). Hints and the cap apply to both.
enum class PollingScheduler { kFixed, kEntryFrequency };

struct CrawlConfig {
  int concurrency = 32;
  int per_host = 2;
  std::chrono::seconds connect_timeout{10};
  std::chrono::seconds timeout{30};
  std::size_t max_body_bytes = 8 * 1024 * 1024;
  std::chrono::minutes interval{60};
  std::chrono::hours max_backoff{24};
  // Longest wait after a success however long a feed's ttl / sy:updatePeriod or the server's Cache-Control /
  // Expires ask for (crawl.max_interval_hours); never shortens `interval`.
  std::chrono::hours max_interval{24};
  PollingScheduler scheduler = PollingScheduler::kFixed;  // crawl.scheduler: "fixed" | "entry_frequency"
  // entry_frequency: the average gap is divided by this (crawl.entry_frequency_factor; 2 polls twice as
  // often).
  double entry_frequency_factor = 1.0;
  // entry_frequency: how far back posts are counted (crawl.entry_frequency_window_days, 1..365).
  std::chrono::days entry_frequency_window{28};
  std::string user_agent = "longread/0.1 (+https://github.com/longread/longread)";
  bool fetch_full_text = true;  // fetch the page of summary-only entries once
  // Budgets against hostile or runaway feeds (docs/feed.md, "Budgets"): the newest entries taken per crawl
  // (crawl.max_entries_per_feed, 1..100000), HTML kept per entry (crawl.max_entry_kb, 1..65536; cut beyond),
  // rows kept per blog (crawl.max_articles_per_blog, 0 = no cap, ..10000000).
  int max_entries_per_feed = 500;
  std::size_t max_entry_bytes = 256 * 1024;
  long long max_articles_per_blog = 2000;
  // Several crawler processes over one database (docs/operating.md, "Several crawlers"): how long a pass
  // holds the blogs it claimed (crawl.lease_seconds, 10..86400), and how many it claims at most
  // (crawl.max_blogs_per_pass, 0 = every due blog, ..10000000).
  std::chrono::seconds lease{3600};
  int max_blogs_per_pass = 0;
  // Similar articles (docs/similar.md, "The back catalogue"): a new article dated within this many days
  // gets them as it is saved; an older one is queued for the catch-up between passes
  // (crawl.similar_fresh_days, 0 = every new article at once, ..36500).
  std::chrono::days similar_fresh_days{14};
};

// The outbound request policy (docs/fetch.md, "Outbound request policy"): which non-public addresses
// longread may connect to. By default none: loopback, private, link-local and the other special-purpose
// ranges are refused on every hop.
struct FetchConfig {
  bool allow_private = false;               // fetch.allow_private: every address allowed
  std::vector<std::string> allow_networks;  // fetch.allow_networks: CIDR blocks allowed ("10.1.0.0/16")
  // fetch.connect_to: "HOST:PORT:CONNECT-TO-HOST:CONNECT-TO-PORT" entries, as curl's --connect-to (a
  // staging copy, a benchmark's fixture server); the address connected to still passes the policy above.
  std::vector<std::string> connect_to;
};

struct CurateConfig {
  std::vector<std::string> languages{"en"};
  int min_words = 150;
  double category_threshold = 0.8;
  std::string model_path;  // trained category classifier (JSON); empty: classifier.json beside the database
  // Days a hidden (junk) article keeps its bodies; its row (guid, verdict) stays so the entry never comes
  // back (curate.junk_retention_days, 0 = forever, ..36500).
  std::chrono::days junk_retention{30};
};

// The hot order of the front and category pages (docs/ranking.md): a cap per blog and page, and the prior
// that favours depth and quiet blogs, in days of newness.
struct RankingConfig {
  int per_blog_cap = 2;                    // ranking.per_blog_cap: articles of one blog per page; 0: no cap
  double depth_weight_days = 1.0;          // ranking.depth_weight_days
  int reference_words = 1000;              // ranking.reference_words: the length that scores 0
  double quiet_weight_days = 1.0;          // ranking.quiet_weight_days
  double reference_posts_per_month = 4.0;  // ranking.reference_posts_per_month: the rate that scores 0
};

struct SiteConfig {
  std::string listen = "127.0.0.1:8080";
  std::string base_url = "http://127.0.0.1:8080";
  std::string name = "longread";
  bool crawl_in_background = true;
  // Connections open at once (site.max_connections; 0 = as many as the open-file limit leaves room for,
  // at most 4096) and per client (site.max_connections_per_client; an IPv6 client by its /64; 0 = no cap).
  std::size_t max_connections = 0;
  std::size_t max_connections_per_client = 128;
  // Reverse proxies whose Forwarded / X-Forwarded-For name the client (site.trusted_proxies: addresses or
  // CIDR blocks; a TOML array, or comma-separated in the environment). Checked when serve starts.
  std::vector<std::string> trusted_proxies;
  // Blog suggestions one reader may make in any 24 hours (site.suggestions_per_day, ..1000); 0 closes the
  // suggestion form to readers (operators still add blogs from the admin area).
  int suggestions_per_day = 3;
  // Threads that render pages (site.render_threads, 1..64): a page waiting on the database holds up only
  // its own visitor. Cached pages are answered by the HTTP threads whatever this is.
  int render_threads = 8;
};

// Prometheus metrics (/metrics, docs/operating.md "Metrics"): on a listen address of their own
// (metrics.listen, e.g. "127.0.0.1:9101", reachable only by the scraper), and/or on the site behind a bearer
// token (metrics.token). Both empty: no /metrics.
struct MetricsConfig {
  std::string listen;
  std::string token;
};

// SMTP delivery for the newsletter: smtp://host:port or smtps://host:port (implicit TLS);
// starttls requires STARTTLS on smtp://; username empty: no AUTH.
struct SmtpConfig {
  std::string url;  // empty: the newsletter is not set up
  bool starttls = false;
  std::string username;
  std::string password;
  std::string from = "longread <newsletter@localhost>";
  // Account mails that fail for a while (4xx, server down) are retried after retry_initial, the wait
  // doubling up to retry_max (smtp.retry_initial_seconds, smtp.retry_max_seconds; docs/mail.md).
  std::chrono::seconds retry_initial{60};
  std::chrono::seconds retry_max{3600};
};

// The weekly newsletter: `serve` sends it on `day` (0 = Sunday ... 6 = Saturday) at `hour` (UTC).
struct NewsletterConfig {
  bool enabled = true;
  int day = 1;
  int hour = 8;
  std::string unsubscribe_mailto;  // List-Unsubscribe mailto address; empty: smtp.from
};

// Readers' flags (docs/operating.md, "Reader flags"): at `flags_to_hide` distinct readers' flags an article
// is hidden until an operator decides (moderation.flags_to_hide, 1..1000); a reader flags at most
// `flags_per_day` articles in 24 hours (moderation.flags_per_day, 1..10000).
struct ModerationConfig {
  int flags_to_hide = 3;
  int flags_per_day = 20;
};

// Blog lifecycle (docs/operating.md, "Blog lifecycle"): a blog is dead after `dead_failures` failed polls in
// a row with no success for `dead_days` days, inactive after `inactive_months` months without a post. Each
// may be retired automatically (off by default).
struct LifecycleConfig {
  int dead_failures = 10;             // lifecycle.dead_failures, 1..100000
  std::chrono::days dead_days{14};    // lifecycle.dead_days, 1..3650
  int inactive_months = 12;           // lifecycle.inactive_months, 1..1200
  bool auto_retire_dead = false;      // lifecycle.auto_retire_dead
  bool auto_retire_inactive = false;  // lifecycle.auto_retire_inactive
};

struct Config {
  std::string db_path = "data/longread.db";
  std::string default_blog_list;  // OPML imported on first run; empty: the one shipped in the repo
  std::string log_level = "info";
  CrawlConfig crawl;
  FetchConfig fetch;
  CurateConfig curate;
  SiteConfig site;
  MetricsConfig metrics;
  RankingConfig ranking;
  SmtpConfig smtp;
  NewsletterConfig newsletter;
  ModerationConfig moderation;
  LifecycleConfig lifecycle;
};

// Loads `path` (TOML; empty path: defaults only) and then applies `env` (LONGREAD_DB, LONGREAD_LISTEN,
// LONGREAD_BASE_URL, LONGREAD_LOG_LEVEL, LONGREAD_CRAWL_CONCURRENCY, LONGREAD_CRAWL_TIMEOUT, ...; see
// the README for the full list). Errors name the file, key and expected type.
[[nodiscard]] Result<Config> load(const std::string& path, const std::map<std::string, std::string>& env);

// The LONGREAD_* variables of this process's environment.
std::map<std::string, std::string> longread_environment();

}  // namespace longread::config
