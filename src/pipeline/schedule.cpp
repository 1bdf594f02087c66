#include "pipeline/schedule.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace longread::pipeline {

SuccessWait success_wait(const PollHints& hints, const ScheduleOptions& options) {
  using std::chrono::seconds;
  SuccessWait out;
  out.wait = options.interval;
  out.asked = options.interval;
  // The cap limits how far hints stretch the wait; an operator's interval longer than it still holds.
  const seconds cap = std::max<seconds>(options.max_interval, options.interval);
  const auto consider = [&](seconds hint, SuccessWait::Source source) {
    if (hint <= out.asked) return;
    out.asked = hint;
    out.source = source;
    out.capped = hint > cap;
    out.wait = std::min(hint, cap);
  };
  if (hints.feed_interval) consider(*hints.feed_interval, SuccessWait::Source::kFeed);
  if (hints.fresh_for) consider(*hints.fresh_for, SuccessWait::Source::kHttp);
  return out;
}

std::string format_wait(std::chrono::seconds wait) {
  const double s = static_cast<double>(wait.count());
  if (wait < std::chrono::hours{2}) return fmt::format("{} min", wait.count() / 60);
  if (wait < std::chrono::hours{48}) return fmt::format("{:g} h", std::round(s / 360.0) / 10.0);
  return fmt::format("{:g} d", std::round(s / 8640.0) / 10.0);
}

std::string wait_reason(const SuccessWait& wait) {
  switch (wait.source) {
    case SuccessWait::Source::kInterval:
      return {};
    case SuccessWait::Source::kFeed:
      return "feed: " + format_wait(wait.asked);
    case SuccessWait::Source::kHttp:
      return "http: " + format_wait(wait.asked);
  }
  return {};
}

TimePoint next_due(TimePoint now, int failures, std::optional<TimePoint> retry_at,
                   const ScheduleOptions& options, const PollHints& hints) {
  using std::chrono::seconds;
  seconds wait = success_wait(hints, options).wait;
  if (failures > 0) {
    // 1st failure: retry after one interval, then 2x, 4x, ... capped at max_backoff.
    const int doublings = std::min(failures - 1, 16);
    wait = std::min<seconds>(seconds{options.interval} * (1LL << doublings), options.max_backoff);
  }
  TimePoint due = now + wait;
  if (retry_at && *retry_at > due) due = std::min(*retry_at, now + seconds{options.max_backoff});
  return due;
}

}  // namespace longread::pipeline
