// Harness: parse_feed_date (core/time.h) on hostile date text from feeds and HTTP headers. Checks: no UB in
// the calendar arithmetic (UBSan), and every date it reads survives formatting: the RFC 3339 and the HTTP
// date of the result parse back to the same second (for results whose year formats as 1..9999, the range
// the parser accepts).
#include <chrono>
#include <string>

#include "core/time.h"
#include "fuzz/fuzz_support.h"

namespace longread::fuzz {

int date_harness(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto t = parse_feed_date(text);
  if (!t) return 0;
  using namespace std::chrono;
  constexpr auto kFirst = sys_days{year{1} / January / 1};
  constexpr auto kLast = sys_days{year{9999} / December / 31};
  if (*t < kFirst || *t >= kLast) return 0;  // a zone offset moved it outside the parser's years
  require(parse_feed_date(format_rfc3339(*t)) == t);
  require(parse_feed_date(format_http_date(*t)) == t);
  (void)is_plausible_feed_date(*t, from_unix(1'700'000'000));
  return 0;
}

}  // namespace longread::fuzz

LONGREAD_FUZZ_ENTRY(longread::fuzz::date_harness)
