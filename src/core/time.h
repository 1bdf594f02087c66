// Time points, RFC 3339 formatting, and parsing of the date forms feeds use (RFC 822 and its broken
// variants, RFC 3339 / ISO 8601).
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace longread {

using TimePoint = std::chrono::sys_seconds;

// Seconds since the Unix epoch, the form the database stores.
inline std::int64_t to_unix(TimePoint t) noexcept {
  return t.time_since_epoch().count();
}
inline TimePoint from_unix(std::int64_t s) noexcept {
  return TimePoint{std::chrono::seconds{s}};
}
inline TimePoint now_seconds() {
  return std::chrono::time_point_cast<std::chrono::seconds>(std::chrono::system_clock::now());
}

// "2024-05-23T10:00:00Z"
std::string format_rfc3339(TimePoint t);
// "Thu, 23 May 2024 10:00:00 GMT" (RFC 9110 IMF-fixdate), for HTTP headers and mail Date:.
std::string format_http_date(TimePoint t);

// ISO 8601 weeks (Monday to Sunday, UTC; week 1 holds the year's first Thursday), which name the weekly
// newsletter's issues and the pages of the weekly top-five feed.
// "2024-W21": the week `t` falls in.
std::string iso_week_key(TimePoint t);
// Monday 00:00 UTC of the week `t` falls in.
TimePoint iso_week_start(TimePoint t);
// The Monday 00:00 UTC that a key such as "2024-W21" names; nullopt for anything else (week 53 only in
// the years that have one, years 1970 to 9999).
std::optional<TimePoint> parse_iso_week(std::string_view key);

// Parses any date form found in feeds: RFC 822/1123 (with or without weekday, named or numeric zones,
// two-digit years, missing seconds), RFC 3339 / ISO 8601 (with or without time, zone, fractions),
// and a few common broken variants. Returns nullopt when nothing sensible can be read.
std::optional<TimePoint> parse_feed_date(std::string_view text);

// A feed date is "impossible" when it is before 1995 (e.g. Hugo's year-0001 zero date for drafts)
// or more than a day after `now`; such articles are stored as undated.
bool is_plausible_feed_date(TimePoint t, TimePoint now);

}  // namespace longread
