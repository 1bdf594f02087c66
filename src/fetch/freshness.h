// How long a response stays fresh (RFC 9111 section 4.2): the server's own word on when asking again can
// bring anything new. The crawl schedule takes it as a minimum time until the next poll of a feed.
#pragma once

#include <chrono>
#include <optional>
#include <string_view>

#include "core/time.h"

namespace longread::fetch {

// The response header fields that decide freshness, as received (empty when absent). `cache_control` is
// every Cache-Control field line of the response joined with ", " (RFC 9110 section 5.3).
struct CacheHeaders {
  std::string_view cache_control{};
  std::string_view expires{};
  std::string_view date{};
  std::string_view age{};
};

// The remaining freshness lifetime of a response received at `received`: Cache-Control max-age
// (RFC 9111 5.2.2.1; s-maxage is for shared caches and ignored), else Expires minus Date (5.3; Date absent or
// invalid: `received`), less Age (4.2.3). nullopt when that is zero or less, or the response says not to
// reuse it without asking again: no-store (5.2.2.5), no-cache without field names (5.2.2.4), max-age=0,
// an invalid Expires ("0", garbage: 5.3 reads it as already expired), or no header at all.
[[nodiscard]] std::optional<std::chrono::seconds> fresh_for(const CacheHeaders& headers, TimePoint received);

}  // namespace longread::fetch
