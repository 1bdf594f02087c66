#include "core/time.h"

#include <fmt/chrono.h>
#include <fmt/format.h>

namespace longread {

std::string format_rfc3339(TimePoint t) {
  return fmt::format("{:%Y-%m-%dT%H:%M:%SZ}", t);
}

std::string format_http_date(TimePoint t) {
  return fmt::format("{:%a, %d %b %Y %H:%M:%S GMT}", t);
}

bool is_plausible_feed_date(TimePoint t, TimePoint now) {
  using namespace std::chrono;
  constexpr auto kEarliest = sys_days{year{1995} / January / 1};
  return t >= kEarliest && t <= now + hours{24};
}

}  // namespace longread
