// parse_feed_date: owned by the feed stage's work (issue 2); a minimal version on curl_getdate
// until the tolerant parser lands.
#include <curl/curl.h>

#include <string>

#include "core/time.h"

namespace longread {

std::optional<TimePoint> parse_feed_date(std::string_view text) {
  const std::string s(text);
  const time_t t = curl_getdate(s.c_str(), nullptr);
  if (t == -1) return std::nullopt;
  return from_unix(static_cast<std::int64_t>(t));
}

}  // namespace longread
