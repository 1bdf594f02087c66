// When a blog is next due. After a success: one interval, or longer when the feed or its server says polling
// sooner brings nothing (RSS <ttl> / sy:updatePeriod, Cache-Control max-age / Expires), capped. After a
// failure: exponential back-off (capped), and never before a server's Retry-After (RFC 9110 section 10.2.3).
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include "core/time.h"

namespace longread::pipeline {

struct ScheduleOptions {
  std::chrono::minutes interval{60};
  std::chrono::hours max_backoff{24};
  // Longest wait after a success, however long the hints ask for. Never shortens `interval`.
  std::chrono::hours max_interval{24};
};

// What a successful poll (200 or 304) learned about how often polling is useful. Each is a minimum wait.
struct PollHints {
  std::optional<std::chrono::seconds> fresh_for{};      // the server's: fetch::Response::fresh_for
  std::optional<std::chrono::minutes> feed_interval{};  // the feed's: feed::Feed::update_interval (stored)
};

// The wait after a success and what decided it.
struct SuccessWait {
  enum class Source { kInterval, kFeed, kHttp };
  std::chrono::seconds wait{0};
  Source source = Source::kInterval;
  std::chrono::seconds asked{0};  // the deciding hint as given (more than `wait` when capped)
  bool capped = false;
};

// max(interval, hints), the hints capped at max_interval; a tie goes to the interval, then the feed.
[[nodiscard]] SuccessWait success_wait(const PollHints& hints, const ScheduleOptions& options);

// "" when the interval decided; else "feed: 3 h" / "http: 2 h" (the hint as asked, before any cap): the short
// reason appended to a blog's status so that `longread blogs` shows why it is polled less often.
[[nodiscard]] std::string wait_reason(const SuccessWait& wait);

// "45 min", "3 h", "2.5 h", "10 d".
[[nodiscard]] std::string format_wait(std::chrono::seconds wait);

// `failures` is the count of consecutive failures including this attempt (0 after a success, when `hints`
// apply; they are ignored after a failure).
TimePoint next_due(TimePoint now, int failures, std::optional<TimePoint> retry_at,
                   const ScheduleOptions& options, const PollHints& hints = {});

}  // namespace longread::pipeline
