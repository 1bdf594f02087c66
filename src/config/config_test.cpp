#include "config/config.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <tuple>
#include <vector>

namespace longread::config {
namespace {

std::string write_temp(const std::string& name, const std::string& text) {
  const auto path = std::filesystem::temp_directory_path() / name;
  std::ofstream(path) << text;
  return path.string();
}

TEST(Config, DefaultsWithoutFileOrEnvironment) {
  auto c = load("", {});
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(c->db_path, "data/longread.db");
  EXPECT_EQ(c->crawl.concurrency, 32);
  EXPECT_EQ(c->crawl.timeout, std::chrono::seconds{30});
  EXPECT_EQ(c->crawl.max_body_bytes, 8u << 20);
}

TEST(Config, FileThenEnvironmentOverrides) {
  const auto path = write_temp("longread_config_test.toml",
                               "db = \"/tmp/x.db\"\n[crawl]\nconcurrency = 4\ntimeout = 5\n"
                               "[curate]\nlanguages = [\"en\", \"de\"]\n[site]\nlisten = \"0.0.0.0:9000\"\n");
  auto c =
      load(path, {{"LONGREAD_CRAWL_CONCURRENCY", "8"}, {"LONGREAD_SITE_BASE_URL", "https://lr.example"}});
  ASSERT_TRUE(c.has_value()) << c.error().message;
  EXPECT_EQ(c->db_path, "/tmp/x.db");
  EXPECT_EQ(c->crawl.concurrency, 8);
  EXPECT_EQ(c->crawl.timeout, std::chrono::seconds{5});
  EXPECT_EQ(c->site.listen, "0.0.0.0:9000");
  EXPECT_EQ(c->site.base_url, "https://lr.example");
  EXPECT_EQ(c->curate.languages, (std::vector<std::string>{"en", "de"}));
}

TEST(Config, MaxIntervalHours) {
  auto defaults = load("", {});
  ASSERT_TRUE(defaults);
  EXPECT_EQ(defaults->crawl.max_interval, std::chrono::hours{24});
  const auto path = write_temp("longread_config_max_interval.toml", "[crawl]\nmax_interval_hours = 6\n");
  auto from_file = load(path, {});
  ASSERT_TRUE(from_file) << from_file.error().message;
  EXPECT_EQ(from_file->crawl.max_interval, std::chrono::hours{6});
  auto from_env = load(path, {{"LONGREAD_CRAWL_MAX_INTERVAL_HOURS", "48"}});
  ASSERT_TRUE(from_env);
  EXPECT_EQ(from_env->crawl.max_interval, std::chrono::hours{48});
  // 0 would mean "poll without waiting": at least an hour, at most a year.
  EXPECT_EQ(load("", {{"LONGREAD_CRAWL_MAX_INTERVAL_HOURS", "0"}})->crawl.max_interval,
            std::chrono::hours{1});
  EXPECT_EQ(load("", {{"LONGREAD_CRAWL_MAX_INTERVAL_HOURS", "100000"}})->crawl.max_interval,
            std::chrono::hours{24 * 365});
  auto bad = load("", {{"LONGREAD_CRAWL_MAX_INTERVAL_HOURS", "-3"}});
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message,
            "config: crawl.max_interval_hours must not be negative (from LONGREAD_CRAWL_MAX_INTERVAL_HOURS)");
}

TEST(Config, SmtpRetrySeconds) {
  auto defaults = load("", {});
  ASSERT_TRUE(defaults.has_value());
  EXPECT_EQ(defaults->smtp.retry_initial, std::chrono::seconds{60});
  EXPECT_EQ(defaults->smtp.retry_max, std::chrono::seconds{3600});
  const auto path = write_temp("longread_config_smtp_retry.toml", "[smtp]\nretry_initial_seconds = 5\n");
  auto c = load(path, {{"LONGREAD_SMTP_RETRY_MAX_SECONDS", "30"}});
  ASSERT_TRUE(c.has_value()) << c.error().message;
  EXPECT_EQ(c->smtp.retry_initial, std::chrono::seconds{5});
  EXPECT_EQ(c->smtp.retry_max, std::chrono::seconds{30});
  EXPECT_EQ(load("", {{"LONGREAD_SMTP_RETRY_INITIAL_SECONDS", "0"}})->smtp.retry_initial,
            std::chrono::seconds{1});
}

TEST(Config, FeedBudgets) {
  auto defaults = load("", {});
  ASSERT_TRUE(defaults) << defaults.error().message;
  EXPECT_EQ(defaults->crawl.max_entries_per_feed, 500);
  EXPECT_EQ(defaults->crawl.max_entry_bytes, 256u << 10);
  EXPECT_EQ(defaults->crawl.max_articles_per_blog, 2000);
  EXPECT_EQ(defaults->curate.junk_retention, std::chrono::days{30});

  const auto path =
      write_temp("longread_config_budgets.toml",
                 "[crawl]\nmax_entries_per_feed = 50\nmax_entry_kb = 64\nmax_articles_per_blog = 0\n"
                 "[curate]\njunk_retention_days = 0\n");
  auto c = load(path, {{"LONGREAD_CRAWL_MAX_ENTRIES_PER_FEED", "0"}});
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_EQ(c->crawl.max_entries_per_feed, 1);  // at least one entry
  EXPECT_EQ(c->crawl.max_entry_bytes, 64u << 10);
  EXPECT_EQ(c->crawl.max_articles_per_blog, 0);               // no cap
  EXPECT_EQ(c->curate.junk_retention, std::chrono::days{0});  // keep junk bodies forever

  for (const auto& [name, value, message] : std::vector<std::tuple<std::string, std::string, std::string>>{
           {"LONGREAD_CRAWL_MAX_ENTRY_KB", "65537",
            "config: crawl.max_entry_kb must be at most 65536, got 65537"},
           {"LONGREAD_CRAWL_MAX_ENTRIES_PER_FEED", "-1",
            "config: crawl.max_entries_per_feed must not be negative"},
           {"LONGREAD_CRAWL_MAX_ARTICLES_PER_BLOG", "lots",
            "config: crawl.max_articles_per_blog must be an integer, got \"lots\""},
           {"LONGREAD_CURATE_JUNK_RETENTION_DAYS", "36501",
            "config: curate.junk_retention_days must be at most 36500, got 36501"}}) {
    auto bad = load("", {{name, value}});
    ASSERT_FALSE(bad) << name;
    EXPECT_EQ(bad.error().message, message + " (from " + name + ")");
  }
}

TEST(Config, SimilarFreshDays) {
  auto defaults = load("", {});
  ASSERT_TRUE(defaults) << defaults.error().message;
  EXPECT_EQ(defaults->crawl.similar_fresh_days, std::chrono::days{14});
  const auto path = write_temp("longread_config_similar.toml", "[crawl]\nsimilar_fresh_days = 30\n");
  EXPECT_EQ(load(path, {})->crawl.similar_fresh_days, std::chrono::days{30});
  EXPECT_EQ(load(path, {{"LONGREAD_CRAWL_SIMILAR_FRESH_DAYS", "0"}})->crawl.similar_fresh_days,
            std::chrono::days{0});  // every new article at once
  auto bad = load("", {{"LONGREAD_CRAWL_SIMILAR_FRESH_DAYS", "36501"}});
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message,
            "config: crawl.similar_fresh_days must be at most 36500, got 36501 (from "
            "LONGREAD_CRAWL_SIMILAR_FRESH_DAYS)");
  bad = load("", {{"LONGREAD_CRAWL_SIMILAR_FRESH_DAYS", "-1"}});
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message,
            "config: crawl.similar_fresh_days must not be negative (from LONGREAD_CRAWL_SIMILAR_FRESH_DAYS)");
}

TEST(Config, SeveralCrawlersKeys) {
  auto defaults = load("", {});
  ASSERT_TRUE(defaults) << defaults.error().message;
  EXPECT_EQ(defaults->crawl.lease, std::chrono::seconds{3600});
  EXPECT_EQ(defaults->crawl.max_blogs_per_pass, 0);  // every due blog

  const auto path =
      write_temp("longread_config_crawlers.toml", "[crawl]\nlease_seconds = 900\nmax_blogs_per_pass = 500\n");
  auto c = load(path, {{"LONGREAD_CRAWL_LEASE_SECONDS", "3"}});
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_EQ(c->crawl.lease, std::chrono::seconds{10});  // at least ten seconds
  EXPECT_EQ(c->crawl.max_blogs_per_pass, 500);

  for (const auto& [name, value, message] : std::vector<std::tuple<std::string, std::string, std::string>>{
           {"LONGREAD_CRAWL_LEASE_SECONDS", "86401",
            "config: crawl.lease_seconds must be at most 86400, got 86401"},
           {"LONGREAD_CRAWL_MAX_BLOGS_PER_PASS", "-5",
            "config: crawl.max_blogs_per_pass must not be negative"}}) {
    auto bad = load("", {{name, value}});
    ASSERT_FALSE(bad) << name;
    EXPECT_EQ(bad.error().message, message + " (from " + name + ")");
  }
}

TEST(Config, ModerationAndLifecycleKeysHaveDefaultsAndRanges) {
  auto defaults = load("", {});
  ASSERT_TRUE(defaults) << defaults.error().message;
  EXPECT_EQ(defaults->moderation.flags_to_hide, 3);
  EXPECT_EQ(defaults->moderation.flags_per_day, 20);
  EXPECT_EQ(defaults->lifecycle.dead_failures, 10);
  EXPECT_EQ(defaults->lifecycle.dead_days, std::chrono::days{14});
  EXPECT_EQ(defaults->lifecycle.inactive_months, 12);
  EXPECT_FALSE(defaults->lifecycle.auto_retire_dead);
  EXPECT_FALSE(defaults->lifecycle.auto_retire_inactive);

  const auto path = write_temp("longread_config_moderation.toml",
                               "[moderation]\nflags_to_hide = 1\nflags_per_day = 10000\n"
                               "[lifecycle]\ndead_failures = 5\ndead_days = 30\ninactive_months = 24\n"
                               "auto_retire_dead = true\n");
  auto c = load(path, {{"LONGREAD_LIFECYCLE_AUTO_RETIRE_INACTIVE", "true"}});
  ASSERT_TRUE(c) << c.error().message;
  EXPECT_EQ(c->moderation.flags_to_hide, 1);
  EXPECT_EQ(c->moderation.flags_per_day, 10000);
  EXPECT_EQ(c->lifecycle.dead_failures, 5);
  EXPECT_EQ(c->lifecycle.dead_days, std::chrono::days{30});
  EXPECT_EQ(c->lifecycle.inactive_months, 24);
  EXPECT_TRUE(c->lifecycle.auto_retire_dead);
  EXPECT_TRUE(c->lifecycle.auto_retire_inactive);

  for (const auto& [name, value, message] : std::vector<std::tuple<std::string, std::string, std::string>>{
           {"LONGREAD_MODERATION_FLAGS_TO_HIDE", "0",
            "config: moderation.flags_to_hide must be at least 1, got 0"},
           {"LONGREAD_MODERATION_FLAGS_TO_HIDE", "1001",
            "config: moderation.flags_to_hide must be at most 1000, got 1001"},
           {"LONGREAD_MODERATION_FLAGS_PER_DAY", "0",
            "config: moderation.flags_per_day must be at least 1, got 0"},
           {"LONGREAD_LIFECYCLE_DEAD_DAYS", "0", "config: lifecycle.dead_days must be at least 1, got 0"},
           {"LONGREAD_LIFECYCLE_INACTIVE_MONTHS", "1201",
            "config: lifecycle.inactive_months must be at most 1200, got 1201"}}) {
    auto bad = load("", {{name, value}});
    ASSERT_FALSE(bad) << name;
    EXPECT_EQ(bad.error().message, message + " (from " + name + ")");
  }
}

TEST(Config, ConnectionCapsAndTrustedProxies) {
  auto defaults = load("", {});
  ASSERT_TRUE(defaults.has_value());
  EXPECT_EQ(defaults->site.max_connections, 0u);  // serve fits it under the open-file limit
  EXPECT_EQ(defaults->site.max_connections_per_client, 128u);
  EXPECT_TRUE(defaults->site.trusted_proxies.empty());
  const auto path = write_temp("longread_config_edge.toml",
                               "[site]\nmax_connections = 500\nmax_connections_per_client = 0\n"
                               "trusted_proxies = [\"127.0.0.1\", \"10.0.0.0/8\"]\n");
  auto c = load(path, {});
  ASSERT_TRUE(c.has_value()) << c.error().message;
  EXPECT_EQ(c->site.max_connections, 500u);
  EXPECT_EQ(c->site.max_connections_per_client, 0u);
  EXPECT_EQ(c->site.trusted_proxies, (std::vector<std::string>{"127.0.0.1", "10.0.0.0/8"}));
  auto env = load(path, {{"LONGREAD_SITE_TRUSTED_PROXIES", " ::1 , fd00::/8 "}});
  ASSERT_TRUE(env.has_value());
  EXPECT_EQ(env->site.trusted_proxies, (std::vector<std::string>{"::1", "fd00::/8"}));
  EXPECT_FALSE(load("", {{"LONGREAD_SITE_MAX_CONNECTIONS", "-1"}}));
  EXPECT_FALSE(load("", {{"LONGREAD_SITE_MAX_CONNECTIONS_PER_CLIENT", "many"}}));
}

TEST(Config, SuggestionsPerDay) {
  auto defaults = load("", {});
  ASSERT_TRUE(defaults.has_value());
  EXPECT_EQ(defaults->site.suggestions_per_day, 3);
  const auto path = write_temp("longread_config_suggest.toml", "[site]\nsuggestions_per_day = 10\n");
  auto c = load(path, {});
  ASSERT_TRUE(c.has_value()) << c.error().message;
  EXPECT_EQ(c->site.suggestions_per_day, 10);
  auto env = load(path, {{"LONGREAD_SITE_SUGGESTIONS_PER_DAY", "0"}});
  ASSERT_TRUE(env.has_value());
  EXPECT_EQ(env->site.suggestions_per_day, 0);
  EXPECT_FALSE(load("", {{"LONGREAD_SITE_SUGGESTIONS_PER_DAY", "-1"}}));
  EXPECT_FALSE(load("", {{"LONGREAD_SITE_SUGGESTIONS_PER_DAY", "1001"}}));
}

TEST(Config, RenderThreads) {
  auto defaults = load("", {});
  ASSERT_TRUE(defaults.has_value());
  EXPECT_EQ(defaults->site.render_threads, 8);
  const auto path = write_temp("longread_config_render.toml", "[site]\nrender_threads = 16\n");
  auto c = load(path, {});
  ASSERT_TRUE(c.has_value()) << c.error().message;
  EXPECT_EQ(c->site.render_threads, 16);
  auto env = load(path, {{"LONGREAD_SITE_RENDER_THREADS", "2"}});
  ASSERT_TRUE(env.has_value());
  EXPECT_EQ(env->site.render_threads, 2);
  // None would leave nobody to render a page: 0 counts as 1, like the other counts.
  auto zero = load("", {{"LONGREAD_SITE_RENDER_THREADS", "0"}});
  ASSERT_TRUE(zero.has_value());
  EXPECT_EQ(zero->site.render_threads, 1);
  auto over = load("", {{"LONGREAD_SITE_RENDER_THREADS", "65"}});
  ASSERT_FALSE(over.has_value());
  EXPECT_NE(over.error().message.find("site.render_threads must be at most 64"), std::string::npos)
      << over.error().message;
}

TEST(Config, BadValuesGiveClearErrors) {
  auto bad_env = load("", {{"LONGREAD_CRAWL_TIMEOUT", "soon"}});
  ASSERT_FALSE(bad_env.has_value());
  EXPECT_EQ(bad_env.error().message,
            "config: crawl.timeout must be an integer, got \"soon\" (from LONGREAD_CRAWL_TIMEOUT)");
  const auto path = write_temp("longread_config_bad.toml", "[crawl\nconcurrency = 4\n");
  auto bad_file = load(path, {});
  ASSERT_FALSE(bad_file.has_value());
  EXPECT_NE(bad_file.error().message.find("config: " + path + ":1:"), std::string::npos)
      << bad_file.error().message;
}

TEST(Config, SchedulerIsFixedUnlessChosen) {
  auto defaults = load("", {});
  ASSERT_TRUE(defaults);
  EXPECT_EQ(defaults->crawl.scheduler, PollingScheduler::kFixed);
  EXPECT_EQ(defaults->crawl.entry_frequency_factor, 1.0);
  const auto path = write_temp("longread_config_scheduler.toml",
                               "[crawl]\nscheduler = \"entry_frequency\"\nentry_frequency_factor = 1.5\n");
  auto from_file = load(path, {});
  ASSERT_TRUE(from_file) << from_file.error().message;
  EXPECT_EQ(from_file->crawl.scheduler, PollingScheduler::kEntryFrequency);
  EXPECT_EQ(from_file->crawl.entry_frequency_factor, 1.5);
  // A whole number in TOML is a factor too; the environment overrides the file.
  const auto whole =
      write_temp("longread_config_scheduler_whole.toml", "[crawl]\nentry_frequency_factor = 2\n");
  EXPECT_EQ(load(whole, {})->crawl.entry_frequency_factor, 2.0);
  auto from_env =
      load(path, {{"LONGREAD_CRAWL_SCHEDULER", "fixed"}, {"LONGREAD_CRAWL_ENTRY_FREQUENCY_FACTOR", "0.25"}});
  ASSERT_TRUE(from_env) << from_env.error().message;
  EXPECT_EQ(from_env->crawl.scheduler, PollingScheduler::kFixed);
  EXPECT_EQ(from_env->crawl.entry_frequency_factor, 0.25);
  EXPECT_EQ(load("", {{"LONGREAD_CRAWL_SCHEDULER", "entry_frequency"}})->crawl.scheduler,
            PollingScheduler::kEntryFrequency);
  // The window in which posts are counted: 4 weeks unless set, at least a day, at most a year.
  EXPECT_EQ(defaults->crawl.entry_frequency_window, std::chrono::days{28});
  EXPECT_EQ(load("", {{"LONGREAD_CRAWL_ENTRY_FREQUENCY_WINDOW_DAYS", "14"}})->crawl.entry_frequency_window,
            std::chrono::days{14});
  EXPECT_EQ(load("", {{"LONGREAD_CRAWL_ENTRY_FREQUENCY_WINDOW_DAYS", "0"}})->crawl.entry_frequency_window,
            std::chrono::days{1});
  EXPECT_FALSE(load("", {{"LONGREAD_CRAWL_ENTRY_FREQUENCY_WINDOW_DAYS", "366"}}));
}

TEST(Config, UnknownSchedulerOrBadFactorIsAClearError) {
  auto bad = load("", {{"LONGREAD_CRAWL_SCHEDULER", "adaptive"}});
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message,
            "config: crawl.scheduler must be fixed or entry_frequency, got \"adaptive\" (from "
            "LONGREAD_CRAWL_SCHEDULER)");
  const auto path = write_temp("longread_config_bad_scheduler.toml", "[crawl]\nscheduler = \"Fixed\"\n");
  auto bad_file = load(path, {});
  ASSERT_FALSE(bad_file);
  EXPECT_EQ(bad_file.error().message,
            "config: crawl.scheduler must be fixed or entry_frequency, got \"Fixed\" (in " + path + ")");
  for (const char* factor : {"0", "-1", "nan", "inf", "fast", "2x", ""}) {
    auto r = load("", {{"LONGREAD_CRAWL_ENTRY_FREQUENCY_FACTOR", factor}});
    ASSERT_FALSE(r) << factor;
    EXPECT_EQ(r.error().message,
              fmt::format("config: crawl.entry_frequency_factor must be a number above 0, got "
                          "\"{}\" (from LONGREAD_CRAWL_ENTRY_FREQUENCY_FACTOR)",
                          factor));
  }
}

// Each number has a ceiling (a typo, or a value in the wrong unit); past it, start-up stops naming the key.
// These were the values fuzz/config_fuzz.cpp found overflowing later (fuzz/regressions/config/).
TEST(Config, NumbersPastTheirCeilingAreErrors) {
  const std::pair<const char*, long long> ceilings[] = {{"crawl.concurrency", 1000},
                                                        {"crawl.per_host", 100},
                                                        {"crawl.connect_timeout", 3600},
                                                        {"crawl.timeout", 86400},
                                                        {"crawl.max_body_mb", 4096},
                                                        {"crawl.interval_minutes", 525600},
                                                        {"crawl.max_backoff_hours", 8760},
                                                        {"curate.min_words", 100000},
                                                        {"smtp.retry_initial_seconds", 604800},
                                                        {"smtp.retry_max_seconds", 604800},
                                                        {"newsletter.day", 6},
                                                        {"crawl.entry_frequency_window_days", 365},
                                                        {"newsletter.hour", 23}};
  for (const auto& [key, max] : ceilings) {
    std::string env = "LONGREAD_";
    for (const char c : std::string(key)) env += c == '.' ? '_' : static_cast<char>(std::toupper(c));
    EXPECT_TRUE(load("", {{env, std::to_string(max)}})) << key;
    for (const long long over : {max + 1, 4294967296LL, 9223372036854775807LL}) {
      auto r = load("", {{env, std::to_string(over)}});
      ASSERT_FALSE(r) << key << " " << over;
      EXPECT_EQ(r.error().message,
                fmt::format("config: {} must be at most {}, got {} (from {})", key, max, over, env));
    }
  }
  // The ceiling of the longest polling wait is a clamp, as before: a year.
  EXPECT_EQ(load("", {{"LONGREAD_CRAWL_MAX_INTERVAL_HOURS", "9223372036854775807"}})->crawl.max_interval,
            std::chrono::hours{24 * 365});
  // A body cap of 0 MB would refuse every feed: at least 1 MiB, like the other "at least 1" settings.
  EXPECT_EQ(load("", {{"LONGREAD_CRAWL_MAX_BODY_MB", "0"}})->crawl.max_body_bytes, 1u << 20);
}

TEST(Config, UnknownKeysInTheFileAreErrors) {
  const auto typo = write_temp("longread_config_typo.toml", "[crawl]\nintreval_minutes = 30\n");
  auto r = load(typo, {});
  ASSERT_FALSE(r);
  EXPECT_EQ(
      r.error().message,
      "config: " + typo + ": unknown key crawl.intreval_minutes (did you mean crawl.interval_minutes?)");
  const auto stray = write_temp("longread_config_stray.toml", "db = \"x.db\"\n[web]\nthreads = 4\n");
  r = load(stray, {});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "config: " + stray + ": unknown key web.threads");
  // A known key at the wrong level is unknown where it stands.
  const auto flat = write_temp("longread_config_flat.toml", "timeout = 5\n");
  r = load(flat, {});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message, "config: " + flat + ": unknown key timeout");
  // Every documented key is known (the README's example file loads).
  const auto example =
      write_temp("longread_config_example.toml",
                 "db = \"/var/lib/longread/longread.db\"\n[site]\nlisten = \"0.0.0.0:8080\"\n"
                 "base_url = \"https://longread.example\"\n[crawl]\nconcurrency = 16\n"
                 "[curate]\nlanguages = [\"en\", \"de\"]\n");
  EXPECT_TRUE(load(example, {})) << load(example, {}).error().message;
}

// Error messages quote what they were given; bytes that are not UTF-8 come out as U+FFFD, never raw.
TEST(Config, ErrorsAreUtf8) {
  auto r = load("", {{"LONGREAD_CRAWL_TIMEOUT", "\xff\xfe"}});
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message,
            "config: crawl.timeout must be an integer, got \"\xef\xbf\xbd\xef\xbf\xbd\" (from "
            "LONGREAD_CRAWL_TIMEOUT)");
}

TEST(Config, OutboundPolicyRefusesPrivateAddressesUnlessAllowed) {
  auto defaults = load("", {});
  ASSERT_TRUE(defaults);
  EXPECT_FALSE(defaults->fetch.allow_private);
  EXPECT_TRUE(defaults->fetch.allow_networks.empty());

  const auto path = write_temp("longread_config_fetch.toml",
                               "[fetch]\nallow_private = true\nallow_networks = [\"127.0.0.1/32\", "
                               "\"10.1.0.0/16\", \"fd00::/8\"]\n");
  auto from_file = load(path, {});
  ASSERT_TRUE(from_file) << from_file.error().message;
  EXPECT_TRUE(from_file->fetch.allow_private);
  EXPECT_EQ(from_file->fetch.allow_networks,
            (std::vector<std::string>{"127.0.0.1/32", "10.1.0.0/16", "fd00::/8"}));

  auto from_env = load(path, {{"LONGREAD_FETCH_ALLOW_PRIVATE", "false"},
                              {"LONGREAD_FETCH_ALLOW_NETWORKS", "192.168.1.0/24, 127.0.0.1"}});
  ASSERT_TRUE(from_env) << from_env.error().message;
  EXPECT_FALSE(from_env->fetch.allow_private);
  EXPECT_EQ(from_env->fetch.allow_networks, (std::vector<std::string>{"192.168.1.0/24", "127.0.0.1"}));
}

TEST(Config, AllowNetworksThatAreNotCidrBlocksAreErrorsNamingKeyAndSource) {
  for (const char* bad : {"localhost", "10.0.0.0/33", "10.0.0.0/", "0x7f000001", "::/129", "10.0.0/8"}) {
    auto c = load("", {{"LONGREAD_FETCH_ALLOW_NETWORKS", bad}});
    ASSERT_FALSE(c) << bad;
    EXPECT_EQ(c.error().message,
              fmt::format("config: fetch.allow_networks must be CIDR blocks such as \"10.1.0.0/16\" or "
                          "\"127.0.0.1/32\", got \"{}\" (from LONGREAD_FETCH_ALLOW_NETWORKS)",
                          bad));
  }
  const auto path = write_temp("longread_config_fetch_bad.toml", "[fetch]\nallow_privat = true\n");
  auto typo = load(path, {});
  ASSERT_FALSE(typo);
  EXPECT_NE(typo.error().message.find("unknown key fetch.allow_privat (did you mean fetch.allow_private?)"),
            std::string::npos)
      << typo.error().message;
  auto not_bool = load("", {{"LONGREAD_FETCH_ALLOW_PRIVATE", "maybe"}});
  ASSERT_FALSE(not_bool);
  EXPECT_EQ(not_bool.error().message,
            "config: fetch.allow_private must be true or false, got \"maybe\" (from "
            "LONGREAD_FETCH_ALLOW_PRIVATE)");
}

TEST(Config, ConnectToTakesCurlsFourFieldsAndRefusesAnythingElse) {
  auto defaults = load("", {});
  ASSERT_TRUE(defaults);
  EXPECT_TRUE(defaults->fetch.connect_to.empty());
  const auto path = write_temp("longread_config_connect_to.toml",
                               "[fetch]\nconnect_to = [\"::127.0.0.1:8080\", "
                               "\"blog.example:443:[::1]:8443\"]\n");
  auto from_file = load(path, {});
  ASSERT_TRUE(from_file) << from_file.error().message;
  EXPECT_EQ(from_file->fetch.connect_to,
            (std::vector<std::string>{"::127.0.0.1:8080", "blog.example:443:[::1]:8443"}));
  for (const char* bad :
       {"127.0.0.1:8080", "::127.0.0.1:0", "::127.0.0.1:99999", "a:b:c:d", "::http://x/:80", ":::::"}) {
    auto c = load("", {{"LONGREAD_FETCH_CONNECT_TO", bad}});
    ASSERT_FALSE(c) << bad;
    EXPECT_EQ(
        c.error().message,
        fmt::format("config: fetch.connect_to must be HOST:PORT:CONNECT-TO-HOST:CONNECT-TO-PORT entries "
                    "such as \"::127.0.0.1:8080\", got \"{}\" (from LONGREAD_FETCH_CONNECT_TO)",
                    bad));
  }
}

}  // namespace
}  // namespace longread::config
