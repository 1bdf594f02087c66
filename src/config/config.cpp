#include "config/config.h"

#include "core/strings.h"

#include <fmt/format.h>

#include <arpa/inet.h>
#include <toml++/toml.h>
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <limits>

extern char** environ;  // POSIX

namespace longread::config {
namespace {

Result<long long> parse_int(std::string_view key, std::string_view text) {
  long long v = 0;
  const auto* end = text.data() + text.size();
  auto [p, ec] = std::from_chars(text.data(), end, v);
  if (ec != std::errc{} || p != end)
    return fail(ErrorKind::kInvalidInput,
                fmt::format("config: {} must be an integer, got \"{}\"", key, text));
  return v;
}

Result<bool> parse_bool(std::string_view key, std::string_view text) {
  if (text == "1" || text == "true" || text == "yes" || text == "on") return true;
  if (text == "0" || text == "false" || text == "no" || text == "off") return false;
  return fail(ErrorKind::kInvalidInput,
              fmt::format("config: {} must be true or false, got \"{}\"", key, text));
}

// A finite number above zero (from_chars: "1.5", "2", "1e-1"; not "inf", "nan", "0", "-1").
Result<double> parse_non_negative_number(std::string_view key, std::string_view text) {
  double v = 0;
  const auto* end = text.data() + text.size();
  auto [p, ec] = std::from_chars(text.data(), end, v);
  if (ec != std::errc{} || p != end || !std::isfinite(v) || v < 0 || v > 1000)
    return fail(ErrorKind::kInvalidInput,
                fmt::format("config: {} must be a number from 0 to 1000, got \"{}\"", key, text));
  return v;
}

Result<double> parse_positive_number(std::string_view key, std::string_view text) {
  double v = 0;
  const auto* end = text.data() + text.size();
  auto [p, ec] = std::from_chars(text.data(), end, v);
  if (ec != std::errc{} || p != end || !std::isfinite(v) || v <= 0)
    return fail(ErrorKind::kInvalidInput,
                fmt::format("config: {} must be a number above 0, got \"{}\"", key, text));
  return v;
}

// "a, b c" -> {"a", "b", "c"}: a list given as one string (TOML arrays arrive joined with ',').
std::vector<std::string> split_list(std::string_view v) {
  std::vector<std::string> out;
  std::string cur;
  for (const char ch : v) {
    if (ch == ',' || ch == ' ' || ch == '\t') {
      if (!cur.empty()) out.push_back(cur);
      cur.clear();
    } else {
      cur.push_back(ch);
    }
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

// "10.1.0.0/16", "127.0.0.1" (one address), "fd00::/8": an address inet_pton reads and an optional prefix
// length within its family's bits. The fetch stage parses it again into its own type (config does not
// depend on fetch).
// "HOST:PORT:CONNECT-TO-HOST:CONNECT-TO-PORT" as curl's --connect-to reads it: four fields, any of them
// empty, an IPv6 address in brackets, each port empty or 1..65535.
bool is_connect_to(std::string_view text) {
  std::vector<std::string_view> fields;
  std::size_t start = 0;
  bool bracket = false;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    if (i < text.size() && text[i] == '[') bracket = true;
    if (i < text.size() && text[i] == ']') bracket = false;
    if (i == text.size() || (text[i] == ':' && !bracket)) {
      fields.push_back(text.substr(start, i - start));
      start = i + 1;
    }
  }
  if (fields.size() != 4) return false;
  for (const std::string_view port : {fields[1], fields[3]}) {
    if (port.empty()) continue;
    int n = 0;
    const auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), n);
    if (ec != std::errc{} || end != port.data() + port.size() || n < 1 || n > 65535) return false;
  }
  for (const std::string_view host : {fields[0], fields[2]}) {
    if (host.find_first_of(" \t/@?#") != std::string_view::npos) return false;
  }
  return true;
}

bool is_cidr(std::string_view text) {
  const auto slash = text.find('/');
  const std::string address(text.substr(0, slash));
  unsigned char bytes[16];
  int bits = 0;
  if (inet_pton(AF_INET, address.c_str(), bytes) == 1) {
    bits = 32;
  } else if (inet_pton(AF_INET6, address.c_str(), bytes) == 1) {
    bits = 128;
  } else {
    return false;
  }
  if (slash == std::string_view::npos) return true;
  const std::string_view digits = text.substr(slash + 1);
  int prefix = -1;
  const auto* end = digits.data() + digits.size();
  auto [p, ec] = std::from_chars(digits.data(), end, prefix);
  return !digits.empty() && ec == std::errc{} && p == end && prefix >= 0 && prefix <= bits;
}

// One setting, addressable both as a TOML key path ("crawl.timeout") and an environment variable
// (LONGREAD_CRAWL_TIMEOUT).
struct Setting {
  const char* key;
  std::function<Result<void>(Config&, std::string_view)> set;  // from text
};

// Every number has a ceiling: a value past it is a typo (an extra digit, a value in the wrong unit), and
// letting it through would overflow later (a timeout of 2^63 seconds in libcurl's milliseconds, a body cap
// shifted to 0, a concurrency that wraps to 0 as an int). Found by fuzz/config_fuzz.cpp.
Result<void> set_int(std::string_view key, std::string_view text, long long max, auto&& assign,
                     long long min = 0) {
  auto v = parse_int(key, text);
  if (!v) return std::unexpected(v.error());
  if (*v < 0) return fail(ErrorKind::kInvalidInput, fmt::format("config: {} must not be negative", key));
  if (*v < min)
    return fail(ErrorKind::kInvalidInput,
                fmt::format("config: {} must be at least {}, got {}", key, min, *v));
  if (*v > max)
    return fail(ErrorKind::kInvalidInput, fmt::format("config: {} must be at most {}, got {}", key, max, *v));
  assign(*v);
  return {};
}

std::vector<Setting> settings() {
  constexpr long long kHour = 3600;
  constexpr long long kDay = 24 * kHour;
  constexpr long long kWeek = 7 * kDay;
  constexpr long long kYear = 365 * kDay;
  constexpr long long kNoLimit = std::numeric_limits<long long>::max();  // clamped by its setter
  std::vector<Setting> s;
  auto str = [&s](const char* key, auto member) {
    s.push_back({key, [member](Config& c, std::string_view v) -> Result<void> {
                   member(c) = std::string(v);
                   return {};
                 }});
  };
  auto num = [&s](const char* key, long long max, auto assign) {
    s.push_back({key, [key, max, assign](Config& c, std::string_view v) -> Result<void> {
                   return set_int(key, v, max, [&](long long n) { assign(c, n); });
                 }});
  };
  str("db", [](Config& c) -> std::string& { return c.db_path; });
  str("default_blog_list", [](Config& c) -> std::string& { return c.default_blog_list; });
  str("log_level", [](Config& c) -> std::string& { return c.log_level; });
  str("curate.model_path", [](Config& c) -> std::string& { return c.curate.model_path; });
  str("site.listen", [](Config& c) -> std::string& { return c.site.listen; });
  str("site.base_url", [](Config& c) -> std::string& { return c.site.base_url; });
  str("site.name", [](Config& c) -> std::string& { return c.site.name; });
  str("crawl.user_agent", [](Config& c) -> std::string& { return c.crawl.user_agent; });
  num("crawl.concurrency", 1000,
      [](Config& c, long long n) { c.crawl.concurrency = static_cast<int>(std::max(1LL, n)); });
  num("crawl.per_host", 100,
      [](Config& c, long long n) { c.crawl.per_host = static_cast<int>(std::max(1LL, n)); });
  num("crawl.connect_timeout", kHour,
      [](Config& c, long long n) { c.crawl.connect_timeout = std::chrono::seconds{n}; });
  num("crawl.timeout", kDay, [](Config& c, long long n) { c.crawl.timeout = std::chrono::seconds{n}; });
  num("crawl.max_body_mb", 4096, [](Config& c, long long n) {
    c.crawl.max_body_bytes = static_cast<std::size_t>(std::max(1LL, n)) << 20;
  });
  num("crawl.interval_minutes", kYear / 60,
      [](Config& c, long long n) { c.crawl.interval = std::chrono::minutes{std::max(1LL, n)}; });
  num("crawl.max_backoff_hours", kYear / 3600,
      [](Config& c, long long n) { c.crawl.max_backoff = std::chrono::hours{std::max(1LL, n)}; });
  num("crawl.max_interval_hours", kNoLimit, [](Config& c, long long n) {
    c.crawl.max_interval = std::chrono::hours{std::clamp(n, 1LL, 24LL * 365)};
  });
  s.push_back(
      {"crawl.scheduler", [](Config& c, std::string_view v) -> Result<void> {
         if (v == "fixed") {
           c.crawl.scheduler = PollingScheduler::kFixed;
         } else if (v == "entry_frequency") {
           c.crawl.scheduler = PollingScheduler::kEntryFrequency;
         } else {
           return fail(
               ErrorKind::kInvalidInput,
               fmt::format("config: crawl.scheduler must be fixed or entry_frequency, got \"{}\"", v));
         }
         return {};
       }});
  s.push_back({"crawl.entry_frequency_factor", [](Config& c, std::string_view v) -> Result<void> {
                 auto factor = parse_positive_number("crawl.entry_frequency_factor", v);
                 if (!factor) return std::unexpected(factor.error());
                 c.crawl.entry_frequency_factor = *factor;
                 return {};
               }});
  num("crawl.entry_frequency_window_days", 365,
      [](Config& c, long long n) { c.crawl.entry_frequency_window = std::chrono::days{std::max(1LL, n)}; });
  num("crawl.max_entries_per_feed", 100000,
      [](Config& c, long long n) { c.crawl.max_entries_per_feed = static_cast<int>(std::max(1LL, n)); });
  num("crawl.max_entry_kb", 65536, [](Config& c, long long n) {
    c.crawl.max_entry_bytes = static_cast<std::size_t>(std::max(1LL, n)) << 10;
  });
  num("crawl.max_articles_per_blog", 10'000'000,
      [](Config& c, long long n) { c.crawl.max_articles_per_blog = n; });
  num("crawl.lease_seconds", 86400,
      [](Config& c, long long n) { c.crawl.lease = std::chrono::seconds{std::max(10LL, n)}; });
  num("crawl.max_blogs_per_pass", 10'000'000,
      [](Config& c, long long n) { c.crawl.max_blogs_per_pass = static_cast<int>(n); });
  num("crawl.similar_fresh_days", 36500,
      [](Config& c, long long n) { c.crawl.similar_fresh_days = std::chrono::days{n}; });
  num("curate.junk_retention_days", 36500,
      [](Config& c, long long n) { c.curate.junk_retention = std::chrono::days{n}; });
  num("ranking.per_blog_cap", 1000,
      [](Config& c, long long n) { c.ranking.per_blog_cap = static_cast<int>(n); });
  num("ranking.reference_words", 1000000,
      [](Config& c, long long n) { c.ranking.reference_words = static_cast<int>(std::max(1LL, n)); });
  auto weight = [&s](const char* key, double RankingConfig::*member) {
    s.push_back({key, [key, member](Config& c, std::string_view v) -> Result<void> {
                   auto n = parse_non_negative_number(key, v);
                   if (!n) return std::unexpected(n.error());
                   c.ranking.*member = *n;
                   return {};
                 }});
  };
  weight("ranking.depth_weight_days", &RankingConfig::depth_weight_days);
  weight("ranking.quiet_weight_days", &RankingConfig::quiet_weight_days);
  s.push_back({"ranking.reference_posts_per_month", [](Config& c, std::string_view v) -> Result<void> {
                 auto n = parse_positive_number("ranking.reference_posts_per_month", v);
                 if (!n) return std::unexpected(n.error());
                 c.ranking.reference_posts_per_month = *n;
                 return {};
               }});
  num("curate.min_words", 100000, [](Config& c, long long n) { c.curate.min_words = static_cast<int>(n); });
  s.push_back({"crawl.fetch_full_text", [](Config& c, std::string_view v) -> Result<void> {
                 auto b = parse_bool("crawl.fetch_full_text", v);
                 if (!b) return std::unexpected(b.error());
                 c.crawl.fetch_full_text = *b;
                 return {};
               }});
  num("site.max_connections", 1000000,
      [](Config& c, long long n) { c.site.max_connections = static_cast<std::size_t>(n); });
  num("site.max_connections_per_client", 1000000,
      [](Config& c, long long n) { c.site.max_connections_per_client = static_cast<std::size_t>(n); });
  num("site.suggestions_per_day", 1000,
      [](Config& c, long long n) { c.site.suggestions_per_day = static_cast<int>(n); });
  num("site.render_threads", 64,
      [](Config& c, long long n) { c.site.render_threads = static_cast<int>(std::max(1LL, n)); });
  s.push_back({"site.trusted_proxies", [](Config& c, std::string_view v) -> Result<void> {
                 c.site.trusted_proxies.clear();
                 for (const auto part : split(v, ',')) {
                   const auto entry = trim(part);
                   if (!entry.empty()) c.site.trusted_proxies.emplace_back(entry);
                 }
                 return {};
               }});
  s.push_back({"site.crawl_in_background", [](Config& c, std::string_view v) -> Result<void> {
                 auto b = parse_bool("site.crawl_in_background", v);
                 if (!b) return std::unexpected(b.error());
                 c.site.crawl_in_background = *b;
                 return {};
               }});
  str("metrics.listen", [](Config& c) -> std::string& { return c.metrics.listen; });
  str("metrics.token", [](Config& c) -> std::string& { return c.metrics.token; });
  str("smtp.url", [](Config& c) -> std::string& { return c.smtp.url; });
  str("smtp.username", [](Config& c) -> std::string& { return c.smtp.username; });
  str("smtp.password", [](Config& c) -> std::string& { return c.smtp.password; });
  str("smtp.from", [](Config& c) -> std::string& { return c.smtp.from; });
  num("smtp.retry_initial_seconds", kWeek,
      [](Config& c, long long n) { c.smtp.retry_initial = std::chrono::seconds{std::max(1LL, n)}; });
  num("smtp.retry_max_seconds", kWeek,
      [](Config& c, long long n) { c.smtp.retry_max = std::chrono::seconds{std::max(1LL, n)}; });
  str("newsletter.unsubscribe_mailto",
      [](Config& c) -> std::string& { return c.newsletter.unsubscribe_mailto; });
  num("newsletter.day", 6, [](Config& c, long long n) { c.newsletter.day = static_cast<int>(n); });
  num("newsletter.hour", 23, [](Config& c, long long n) { c.newsletter.hour = static_cast<int>(n); });
  s.push_back({"smtp.starttls", [](Config& c, std::string_view v) -> Result<void> {
                 auto b = parse_bool("smtp.starttls", v);
                 if (!b) return std::unexpected(b.error());
                 c.smtp.starttls = *b;
                 return {};
               }});
  s.push_back({"newsletter.enabled", [](Config& c, std::string_view v) -> Result<void> {
                 auto b = parse_bool("newsletter.enabled", v);
                 if (!b) return std::unexpected(b.error());
                 c.newsletter.enabled = *b;
                 return {};
               }});
  s.push_back({"fetch.allow_private", [](Config& c, std::string_view v) -> Result<void> {
                 auto b = parse_bool("fetch.allow_private", v);
                 if (!b) return std::unexpected(b.error());
                 c.fetch.allow_private = *b;
                 return {};
               }});
  // A list of CIDR blocks: TOML's array of strings, or in the environment comma- or blank-separated. Each
  // is checked here, so a typo stops start-up instead of silently allowing nothing.
  s.push_back({"fetch.allow_networks", [](Config& c, std::string_view v) -> Result<void> {
                 c.fetch.allow_networks.clear();
                 for (const auto& item : split_list(v)) {
                   if (!is_cidr(item))
                     return fail(ErrorKind::kInvalidInput,
                                 fmt::format("config: fetch.allow_networks must be CIDR blocks such as "
                                             "\"10.1.0.0/16\" or \"127.0.0.1/32\", got \"{}\"",
                                             item));
                   c.fetch.allow_networks.push_back(item);
                 }
                 return {};
               }});
  s.push_back({"fetch.connect_to", [](Config& c, std::string_view v) -> Result<void> {
                 c.fetch.connect_to.clear();
                 for (const auto& item : split_list(v)) {
                   if (!is_connect_to(item))
                     return fail(
                         ErrorKind::kInvalidInput,
                         fmt::format("config: fetch.connect_to must be HOST:PORT:CONNECT-TO-HOST:"
                                     "CONNECT-TO-PORT entries such as \"::127.0.0.1:8080\", got \"{}\"",
                                     item));
                   c.fetch.connect_to.push_back(item);
                 }
                 return {};
               }});
  // Ranges with a floor: 0 flags to hide an article, or 0 days of failures, would make the rule meaningless
  // rather than merely strict, so they are refused instead of raised.
  auto ranged = [&s](const char* key, long long min, long long max, auto assign) {
    s.push_back({key, [key, min, max, assign](Config& c, std::string_view v) -> Result<void> {
                   return set_int(
                       key, v, max, [&](long long n) { assign(c, n); }, min);
                 }});
  };
  ranged("moderation.flags_to_hide", 1, 1000,
         [](Config& c, long long n) { c.moderation.flags_to_hide = static_cast<int>(n); });
  ranged("moderation.flags_per_day", 1, 10000,
         [](Config& c, long long n) { c.moderation.flags_per_day = static_cast<int>(n); });
  ranged("lifecycle.dead_failures", 1, 100000,
         [](Config& c, long long n) { c.lifecycle.dead_failures = static_cast<int>(n); });
  ranged("lifecycle.dead_days", 1, 3650,
         [](Config& c, long long n) { c.lifecycle.dead_days = std::chrono::days{n}; });
  ranged("lifecycle.inactive_months", 1, 1200,
         [](Config& c, long long n) { c.lifecycle.inactive_months = static_cast<int>(n); });
  for (const auto& [key, member] :
       {std::pair{"lifecycle.auto_retire_dead", &LifecycleConfig::auto_retire_dead},
        std::pair{"lifecycle.auto_retire_inactive", &LifecycleConfig::auto_retire_inactive}}) {
    s.push_back({key, [key, member](Config& c, std::string_view v) -> Result<void> {
                   auto b = parse_bool(key, v);
                   if (!b) return std::unexpected(b.error());
                   c.lifecycle.*member = *b;
                   return {};
                 }});
  }
  s.push_back({"curate.languages", [](Config& c, std::string_view v) -> Result<void> {
                 c.curate.languages.clear();
                 std::string cur;
                 for (const char ch : v) {
                   if (ch == ',' || ch == ' ') {
                     if (!cur.empty()) c.curate.languages.push_back(cur);
                     cur.clear();
                   } else {
                     cur.push_back(ch);
                   }
                 }
                 if (!cur.empty()) c.curate.languages.push_back(cur);
                 return {};
               }});
  return s;
}

std::string env_name(std::string_view key) {
  std::string name = "LONGREAD_";
  for (const char ch : key)
    name.push_back(ch == '.' ? '_' : static_cast<char>(std::toupper(static_cast<unsigned char>(ch))));
  return name;
}

// Renders a TOML value as the text form the setters accept.
std::optional<std::string> toml_text(const toml::node& node) {
  if (auto v = node.value<std::string>()) return *v;
  if (auto v = node.value<int64_t>()) return std::to_string(*v);
  if (auto v = node.value<bool>()) return *v ? "true" : "false";
  if (auto v = node.value<double>()) return fmt::format("{}", *v);  // shortest form that reads back
  if (const auto* arr = node.as_array()) {
    std::string joined;
    for (const auto& item : *arr) {
      if (auto v = item.value<std::string>()) {
        if (!joined.empty()) joined += ',';
        joined += *v;
      }
    }
    return joined;
  }
  return std::nullopt;
}

// Every key path of the file that names a value ("crawl.timeout"), tables walked, arrays kept whole.
void leaf_keys(const toml::table& table, const std::string& prefix, std::vector<std::string>& out) {
  for (const auto& [key, node] : table) {
    std::string path = prefix.empty() ? std::string(key.str()) : prefix + "." + std::string(key.str());
    if (const auto* sub = node.as_table()) {
      leaf_keys(*sub, path, out);
    } else {
      out.push_back(std::move(path));
    }
  }
}

// Levenshtein distance, for "did you mean": the file's keys are a handful, so quadratic is nothing.
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

// A key longread does not read is a typo or a key of another version: silently ignoring it would leave the
// operator believing a setting took effect.
Result<void> check_known_keys(const toml::table& table, const std::string& path,
                              const std::vector<Setting>& all) {
  std::vector<std::string> keys;
  leaf_keys(table, "", keys);
  for (const auto& key : keys) {
    const auto known = std::find_if(all.begin(), all.end(), [&](const Setting& s) { return key == s.key; });
    if (known != all.end()) continue;
    std::string hint;
    std::size_t best = 4;  // suggest only a near miss
    for (const auto& setting : all) {
      const auto d = edit_distance(key, setting.key);
      if (d < best) {
        best = d;
        hint = fmt::format(" (did you mean {}?)", setting.key);
      }
    }
    return fail(ErrorKind::kInvalidInput,
                sanitize_utf8(fmt::format("config: {}: unknown key {}{}", path, key, hint)));
  }
  return {};
}

}  // namespace

Result<Config> load(const std::string& path, const std::map<std::string, std::string>& env) {
  Config config;
  const auto all = settings();
  if (!path.empty()) {
    toml::table table;
    try {
      table = toml::parse_file(path);
    } catch (const toml::parse_error& e) {
      return fail(
          ErrorKind::kInvalidInput,
          sanitize_utf8(fmt::format("config: {}:{}: {}", path, e.source().begin.line, e.description())));
    }
    if (auto known = check_known_keys(table, path, all); !known) return std::unexpected(known.error());
    for (const auto& setting : all) {
      const auto node = table.at_path(setting.key);
      if (!node) continue;
      auto text = toml_text(*node.node());
      if (!text)
        return fail(ErrorKind::kInvalidInput,
                    sanitize_utf8(fmt::format("config: {}: {} has an unsupported type", path, setting.key)));
      if (auto r = setting.set(config, *text); !r)
        return fail(ErrorKind::kInvalidInput,
                    sanitize_utf8(fmt::format("{} (in {})", r.error().message, path)));
    }
  }
  for (const auto& setting : all) {
    const auto it = env.find(env_name(setting.key));
    if (it == env.end()) continue;
    if (auto r = setting.set(config, it->second); !r)
      return fail(ErrorKind::kInvalidInput,
                  sanitize_utf8(fmt::format("{} (from {})", r.error().message, it->first)));
  }
  return config;
}

std::map<std::string, std::string> longread_environment() {
  std::map<std::string, std::string> env;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    std::string_view entry(*e);
    if (!entry.starts_with("LONGREAD_")) continue;
    const auto eq = entry.find('=');
    if (eq == std::string_view::npos) continue;
    env.emplace(std::string(entry.substr(0, eq)), std::string(entry.substr(eq + 1)));
  }
  return env;
}

}  // namespace longread::config
