#include "core/time.h"

#include <fmt/chrono.h>
#include <fmt/format.h>

#include <charconv>

namespace longread {

namespace {
// Broken-down UTC time. fmt 9's formatter for a sys_seconds converts it to system_clock's nanoseconds first,
// which overflows (undefined behaviour) outside 1677..2262, and feeds carry dates like Hugo's year 1; going
// through time_t keeps every year the date parser accepts (1..9999) exact.
std::tm utc(TimePoint t) {
  return fmt::gmtime(static_cast<std::time_t>(to_unix(t)));
}
}  // namespace

std::string format_rfc3339(TimePoint t) {
  return fmt::format("{:%Y-%m-%dT%H:%M:%SZ}", utc(t));
}

std::string format_http_date(TimePoint t) {
  return fmt::format("{:%a, %d %b %Y %H:%M:%S GMT}", utc(t));
}

namespace {
// The Thursday of `day`'s ISO week decides the week's year (ISO 8601 week dates).
std::chrono::sys_days iso_thursday(std::chrono::sys_days day) {
  using namespace std::chrono;
  return day + days(4 - static_cast<int>(weekday{day}.iso_encoding()));
}

std::chrono::sys_days week_one_monday(std::chrono::year y) {
  using namespace std::chrono;
  // Week 1 holds 4 January.
  const sys_days jan4{y / January / 4};
  return jan4 - days(static_cast<int>(weekday{jan4}.iso_encoding()) - 1);
}
}  // namespace

std::string iso_week_key(TimePoint t) {
  using namespace std::chrono;
  const sys_days thursday = iso_thursday(floor<days>(t));
  const year y = year_month_day{thursday}.year();
  const int week = static_cast<int>((thursday - week_one_monday(y)).count() / 7) + 1;
  return fmt::format("{}-W{:02}", static_cast<int>(y), week);
}

TimePoint iso_week_start(TimePoint t) {
  using namespace std::chrono;
  const sys_days day = floor<days>(t);
  return TimePoint{day - days(static_cast<int>(weekday{day}.iso_encoding()) - 1)};
}

std::optional<TimePoint> parse_iso_week(std::string_view key) {
  using namespace std::chrono;
  if (key.size() != 8 || key[4] != '-' || key[5] != 'W') return std::nullopt;
  int y = 0;
  int w = 0;
  const char* end = key.data() + 4;
  if (auto r = std::from_chars(key.data(), end, y); r.ec != std::errc{} || r.ptr != end) return std::nullopt;
  if (auto r = std::from_chars(key.data() + 6, key.data() + 8, w);
      r.ec != std::errc{} || r.ptr != key.data() + 8)
    return std::nullopt;
  if (y < 1970 || y > 9999 || w < 1 || w > 53) return std::nullopt;
  const sys_days monday = week_one_monday(year{y}) + days(7 * (w - 1));
  // Week 53 exists only when its Thursday still falls in year y.
  if (year_month_day{monday + days(3)}.year() != year{y}) return std::nullopt;
  return TimePoint{monday};
}

bool is_plausible_feed_date(TimePoint t, TimePoint now) {
  using namespace std::chrono;
  constexpr auto kEarliest = sys_days{year{1995} / January / 1};
  return t >= kEarliest && t <= now + hours{24};
}

}  // namespace longread
