// Blog lifecycle: which followed blogs are dead, inactive or moved, judged from what the store keeps
// (BlogHealth, BlogLifecycle) by the operator's rules (lifecycle.* in the configuration). Pure functions:
// the admin area lists by them, and pipeline::retire_lifecycle_blogs retires by them.
#pragma once

#include <chrono>

#include "core/time.h"
#include "storage/store.h"

namespace longread::storage {

// lifecycle.*: dead after `dead_failures` failed polls in a row with no success for `dead_days`; inactive
// after `inactive_months` months without a post; either retired automatically when its switch is on.
struct LifecycleRules {
  int dead_failures = 10;
  std::chrono::days dead_days{14};
  int inactive_months = 12;
  bool auto_retire_dead = false;
  bool auto_retire_inactive = false;
};

// One month of lifecycle.inactive_months: the mean Gregorian month (365.2425 / 12 days).
inline constexpr std::chrono::seconds kLifecycleMonth{2'629'746};

struct LifecycleVerdict {
  // dead_failures failed polls in a row, and the last success (or, never read, when it was followed) at
  // least dead_days ago.
  bool dead = false;
  // The newest article (or, without one, when it was followed) at least inactive_months ago.
  bool inactive = false;
  bool moved = false;  // a permanent redirect moved its feed URL (not yet accepted)
  // ... onto another site (registrable domain, by the Public Suffix List): a lapsed domain bought by
  // someone else, or a feed handed to a stranger, looks exactly like this.
  bool moved_off_site = false;
  bool retired = false;
};

[[nodiscard]] LifecycleVerdict classify_blog(const BlogHealth& health, const BlogLifecycle& lifecycle,
                                             const LifecycleRules& rules, TimePoint now);

}  // namespace longread::storage
