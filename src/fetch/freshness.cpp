#include "fetch/freshness.h"

#include <algorithm>
#include <string>
#include <vector>

#include "core/strings.h"

namespace longread::fetch {
namespace {

// RFC 9111 1.2.2: a delta-seconds too large to represent is taken as 2^31 seconds (some 68 years).
constexpr std::int64_t kMaxDeltaSeconds = 2147483648LL;

// delta-seconds = 1*DIGIT (RFC 9111 1.2.2); nullopt for anything else.
std::optional<std::int64_t> delta_seconds(std::string_view text) {
  text = trim(text);
  if (text.empty()) return std::nullopt;
  std::int64_t value = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    value = std::min(kMaxDeltaSeconds, value * 10 + (c - '0'));
  }
  return value;
}

struct Directive {
  std::string name;  // lower case
  std::optional<std::string> argument;
};

// cache-directive = token [ "=" ( token / quoted-string ) ], comma separated (RFC 9111 5.2); a comma inside
// a quoted string (no-cache="a, b") does not end the directive.
std::vector<Directive> directives(std::string_view field) {
  std::vector<Directive> out;
  std::size_t i = 0;
  while (i < field.size()) {
    const std::size_t name_end = std::min(field.find_first_of(",=", i), field.size());
    Directive d{to_lower_ascii(trim(field.substr(i, name_end - i))), std::nullopt};
    i = name_end;
    if (i < field.size() && field[i] == '=') {
      ++i;
      while (i < field.size() && (field[i] == ' ' || field[i] == '\t')) ++i;
      std::string argument;
      if (i < field.size() && field[i] == '"') {
        for (++i; i < field.size() && field[i] != '"'; ++i) {
          if (field[i] == '\\' && i + 1 < field.size()) ++i;  // quoted-pair
          argument.push_back(field[i]);
        }
        i = std::min(field.find(',', i), field.size());
      } else {
        const std::size_t end = std::min(field.find(',', i), field.size());
        argument = trim(field.substr(i, end - i));
        i = end;
      }
      d.argument = std::move(argument);
    }
    if (i < field.size()) ++i;  // the comma
    if (!d.name.empty()) out.push_back(std::move(d));
  }
  return out;
}

// An HTTP-date (RFC 9110 5.6.7) in any of its three forms names a month and has a time of day; the feed
// date parser is more lenient than that ("2030" would pass), so bare numbers are refused here first.
std::optional<TimePoint> http_date(std::string_view text) {
  text = trim(text);
  const bool has_letter = std::any_of(
      text.begin(), text.end(), [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); });
  if (!has_letter || text.find(':') == std::string_view::npos) return std::nullopt;
  return parse_feed_date(text);
}

}  // namespace

std::optional<std::chrono::seconds> fresh_for(const CacheHeaders& headers, TimePoint received) {
  using std::chrono::seconds;
  std::optional<std::int64_t> max_age;
  for (const auto& d : directives(headers.cache_control)) {
    if (d.name == "no-store") return std::nullopt;
    // The qualified form (no-cache="Set-Cookie") only concerns the fields it names (5.2.2.4).
    if (d.name == "no-cache" && (!d.argument || trim(*d.argument).empty())) return std::nullopt;
    // 4.2.1: of several max-age directives the first is used; an invalid one is as if absent.
    if (d.name == "max-age" && !max_age && d.argument) max_age = delta_seconds(*d.argument);
  }
  seconds lifetime{0};
  if (max_age) {
    // 5.3: with max-age present, Expires is ignored.
    lifetime = seconds{*max_age};
  } else if (!trim(headers.expires).empty()) {
    const auto expires = http_date(headers.expires);
    if (!expires) return std::nullopt;
    // RFC 9110 6.6.1: a response without a usable Date is dated when it was received.
    const TimePoint date = http_date(headers.date).value_or(received);
    lifetime = *expires - date;
  } else {
    return std::nullopt;
  }
  if (const auto age = delta_seconds(headers.age)) lifetime -= seconds{*age};
  if (lifetime <= seconds{0}) return std::nullopt;
  return lifetime;
}

}  // namespace longread::fetch
