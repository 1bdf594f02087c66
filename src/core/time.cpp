#include "core/time.h"

#include <fmt/chrono.h>
#include <fmt/format.h>

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

bool is_plausible_feed_date(TimePoint t, TimePoint now) {
  using namespace std::chrono;
  constexpr auto kEarliest = sys_days{year{1995} / January / 1};
  return t >= kEarliest && t <= now + hours{24};
}

}  // namespace longread
