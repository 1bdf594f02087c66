// Harness: the configuration loader (config/config.h) on hostile TOML and LONGREAD_* values. An operator's
// file is trusted, but a typo must give a clear error, never a value that breaks the program later. Input:
// the TOML text, then a NUL byte, then "NAME=VALUE" lines for the environment. Checks: load() never throws
// or crashes; an error names the config ("config: ...") and is valid UTF-8; every setting it accepts is
// usable as the program uses it: at least one transfer and one per host, a non-zero body cap, and every
// duration expressible in milliseconds (libcurl's unit) and addable to today's date without overflow
// (UBSan reports the overflow).
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <string>

#include "config/config.h"
#include "core/strings.h"
#include "fuzz/fuzz_support.h"

namespace longread::fuzz {
namespace {

template <class Rep, class Period>
void check_duration(std::chrono::duration<Rep, Period> d) {
  using namespace std::chrono;
  require(d.count() >= 0);
  // About 292 years of milliseconds fit in 64 bits; a setting that does not is a setting that overflows.
  require(d <= duration_cast<duration<Rep, Period>>(hours{24 * 366 * 100}));
  const auto ms = duration_cast<milliseconds>(d);
  const auto later = system_clock::now() + ms;
  require(later >= system_clock::now() - seconds{1});
}

}  // namespace

int config_harness(const std::uint8_t* data, std::size_t size) {
  FuzzInput in(data, size);
  const std::string_view toml = in.field('\0');
  std::map<std::string, std::string> env;
  for (std::string_view rest = in.rest(); !rest.empty();) {
    const auto nl = rest.find('\n');
    const std::string_view line = rest.substr(0, nl);
    rest = nl == std::string_view::npos ? std::string_view() : rest.substr(nl + 1);
    const auto eq = line.find('=');
    if (eq == std::string_view::npos) continue;
    env[std::string(line.substr(0, eq))] = std::string(line.substr(eq + 1));
  }
  const std::string path = "/tmp/longread_config_fuzz_" + std::to_string(getpid()) + ".toml";
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(toml.data(), static_cast<std::streamsize>(toml.size()));
  }
  const auto config = config::load(toml.empty() ? std::string() : path, env);
  std::remove(path.c_str());
  if (!config) {
    require(config.error().message.starts_with("config: "));
    require(is_valid_utf8(config.error().message));
    return 0;
  }
  const auto& crawl = config->crawl;
  require(crawl.concurrency >= 1 && crawl.per_host >= 1);
  require(crawl.max_body_bytes >= 1);
  check_duration(crawl.connect_timeout);
  check_duration(crawl.timeout);
  check_duration(crawl.interval);
  check_duration(crawl.max_backoff);
  check_duration(crawl.max_interval);
  check_duration(crawl.entry_frequency_window);
  check_duration(config->smtp.retry_initial);
  check_duration(config->smtp.retry_max);
  require(crawl.entry_frequency_factor > 0 && std::isfinite(crawl.entry_frequency_factor));
  require(config->curate.min_words >= 0);
  require(config->newsletter.day >= 0 && config->newsletter.day <= 6);
  require(config->newsletter.hour >= 0 && config->newsletter.hour <= 23);
  return 0;
}

}  // namespace longread::fuzz

LONGREAD_FUZZ_ENTRY(longread::fuzz::config_harness)
