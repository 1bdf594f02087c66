// When a blog is next due. After a success: one interval (or, with the entry_frequency scheduler, the blog's
// average gap between recent posts, clamped to [interval, max_interval]), or longer when the feed or its
// server says polling sooner brings nothing (RSS <ttl> / sy:updatePeriod, Cache-Control max-age / Expires),
// capped. After a failure: exponential back-off (capped), and never before a server's Retry-After (RFC 9110
// section 10.2.3).
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/time.h"

namespace longread::pipeline {

// How the wait after a success starts before any hint: `kFixed`, one interval; `kEntryFrequency`, from how
// often the blog has posted lately (as Miniflux's POLLING_SCHEDULER=entry_frequency).
enum class Scheduler { kFixed, kEntryFrequency };

struct ScheduleOptions {
  std::chrono::minutes interval{60};
  std::chrono::hours max_backoff{24};
  // Longest wait after a success, however long the hints ask for. Never shortens `interval`.
  std::chrono::hours max_interval{24};
  Scheduler scheduler = Scheduler::kFixed;
  // kEntryFrequency: posts dated within this window before now are counted, and the wait is the window over
  // their count divided by `frequency_factor` (2 polls twice as often as the blog posts on average).
  std::chrono::hours frequency_window{24 * 28};
  double frequency_factor = 1.0;
};

// What a successful poll (200 or 304) learned about how often polling is useful. Each is a minimum wait.
struct PollHints {
  std::optional<std::chrono::seconds> fresh_for{};      // the server's: fetch::Response::fresh_for
  std::optional<std::chrono::minutes> feed_interval{};  // the feed's: feed::Feed::update_interval (stored)
  // kEntryFrequency only: the blog's articles dated within ScheduleOptions::frequency_window before now,
  // those found by this poll included. Unset (the fixed scheduler, or the count failed): the interval stands.
  std::optional<std::int64_t> recent_posts{};
};

// The wait after a success and what decided it.
struct SuccessWait {
  enum class Source { kInterval, kFrequency, kFeed, kHttp };
  std::chrono::seconds wait{0};
  Source source = Source::kInterval;
  // The deciding hint as given (more than `wait` when capped); for kFrequency, the frequency's wait itself.
  std::chrono::seconds asked{0};
  bool capped = false;            // kFrequency: the blog posts less often than max_interval (or not at all)
  std::int64_t recent_posts = 0;  // kFrequency: PollHints::recent_posts
  std::chrono::hours window{0};   // kFrequency: ScheduleOptions::frequency_window
};

// The entry_frequency base wait for `recent_posts` posts in options.frequency_window: window / posts /
// frequency_factor clamped to [interval, max(max_interval, interval)]; max_interval when there are none.
[[nodiscard]] std::chrono::seconds frequency_wait(std::int64_t recent_posts, const ScheduleOptions& options);

// max(base, hints), the hints capped at max_interval; base is the interval, or frequency_wait with
// kEntryFrequency and a known post count. A tie goes to the base, then the feed.
[[nodiscard]] SuccessWait success_wait(const PollHints& hints, const ScheduleOptions& options);

// "" when the interval decided; else "feed: 3 h" / "http: 2 h" (the hint as asked, before any cap), or
// "frequency: 12 h" / "frequency: 24 h, 1 post in 4 weeks" / "frequency: 24 h, no posts in 4 weeks" (the
// count shown when the cap decided): the short reason appended to a blog's status so that `longread blogs`
// shows why it is polled less often.
[[nodiscard]] std::string wait_reason(const SuccessWait& wait);

// "45 min", "3 h", "2.5 h", "10 d".
[[nodiscard]] std::string format_wait(std::chrono::seconds wait);

// `failures` is the count of consecutive failures including this attempt (0 after a success, when `hints`
// apply; they are ignored after a failure).
TimePoint next_due(TimePoint now, int failures, std::optional<TimePoint> retry_at,
                   const ScheduleOptions& options, const PollHints& hints = {});

}  // namespace longread::pipeline
