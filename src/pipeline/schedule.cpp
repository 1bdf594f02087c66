#include "pipeline/schedule.h"

#include <algorithm>

namespace longread::pipeline {

TimePoint next_due(TimePoint now, int failures, std::optional<TimePoint> retry_at,
                   const ScheduleOptions& options) {
  using std::chrono::seconds;
  seconds wait = options.interval;
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
