// When a blog is next due: hourly by default, exponential back-off on failure (capped), and never
// before a server's Retry-After (RFC 9110 section 10.2.3).
#pragma once

#include <chrono>
#include <optional>

#include "core/time.h"

namespace longread::pipeline {

struct ScheduleOptions {
  std::chrono::minutes interval{60};
  std::chrono::hours max_backoff{24};
};

// `failures` is the count of consecutive failures including this attempt (0 after a success).
TimePoint next_due(TimePoint now, int failures, std::optional<TimePoint> retry_at,
                   const ScheduleOptions& options);

}  // namespace longread::pipeline
