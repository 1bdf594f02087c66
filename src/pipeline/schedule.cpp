#include "pipeline/schedule.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace longread::pipeline {

namespace {

// The cap limits how far hints and the entry frequency stretch the wait; an operator's interval longer than
// it still holds.
std::chrono::seconds longest_wait(const ScheduleOptions& options) {
  return std::max<std::chrono::seconds>(options.max_interval, options.interval);
}

// "4 weeks", "10 days", "36 h": the frequency window as the status names it.
std::string format_window(std::chrono::hours window) {
  const auto h = window.count();
  const auto plural = [](long long n, const char* unit) {
    return fmt::format("{} {}{}", n, unit, n == 1 ? "" : "s");
  };
  if (h > 0 && h % (24 * 7) == 0) return plural(h / (24 * 7), "week");
  if (h > 0 && h % 24 == 0) return plural(h / 24, "day");
  return fmt::format("{} h", h);
}

}  // namespace

std::chrono::seconds frequency_wait(std::int64_t recent_posts, const ScheduleOptions& options) {
  using std::chrono::seconds;
  const seconds floor = options.interval;
  const seconds cap = longest_wait(options);
  if (recent_posts <= 0) return cap;  // nothing lately: as seldom as allowed
  // A factor that is not a positive number cannot come from the config (it refuses one); treat it as 1.
  const double factor = std::isfinite(options.frequency_factor) && options.frequency_factor > 0
                            ? options.frequency_factor
                            : 1.0;
  const double gap = std::chrono::duration<double>(options.frequency_window).count() /
                     (static_cast<double>(recent_posts) * factor);
  // Clamped as a double: a tiny factor gives a gap too large for any integer count of seconds.
  const double clamped =
      std::clamp(gap, static_cast<double>(floor.count()), static_cast<double>(cap.count()));
  return seconds{std::llround(clamped)};
}

SuccessWait success_wait(const PollHints& hints, const ScheduleOptions& options) {
  using std::chrono::seconds;
  SuccessWait out;
  out.wait = options.interval;
  out.asked = options.interval;
  const seconds cap = longest_wait(options);
  if (options.scheduler == Scheduler::kEntryFrequency && hints.recent_posts) {
    const seconds base = frequency_wait(*hints.recent_posts, options);
    if (base > out.wait) {  // a blog that posts at least once per interval keeps the plain interval
      out.wait = base;
      out.asked = base;
      out.source = SuccessWait::Source::kFrequency;
      out.capped = base >= cap;
      out.recent_posts = *hints.recent_posts;
      out.window = options.frequency_window;
    }
  }
  const auto consider = [&](seconds hint, SuccessWait::Source source) {
    if (hint <= out.asked) return;
    out.asked = hint;
    out.source = source;
    out.capped = hint > cap;
    out.wait = std::min(hint, cap);
    out.recent_posts = 0;
    out.window = {};
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
    case SuccessWait::Source::kFrequency: {
      std::string text = "frequency: " + format_wait(wait.wait);
      if (!wait.capped) return text;
      if (wait.recent_posts <= 0) return text + ", no posts in " + format_window(wait.window);
      return text + fmt::format(", {} post{} in {}", wait.recent_posts, wait.recent_posts == 1 ? "" : "s",
                                format_window(wait.window));
    }
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
