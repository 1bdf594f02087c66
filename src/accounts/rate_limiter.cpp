#include "accounts/rate_limiter.h"

#include <vector>

namespace longread::accounts {

std::optional<std::chrono::seconds> RateLimiter::retry_after(const std::string& key, TimePoint now) {
  std::lock_guard lock(mutex_);
  const auto it = attempts_.find(key);
  if (it == attempts_.end()) return std::nullopt;
  auto& times = it->second;
  while (!times.empty() && times.front() + window_ <= now) times.pop_front();
  if (static_cast<int>(times.size()) < max_attempts_) return std::nullopt;
  // The oldest attempt still counted leaves the window first.
  return std::chrono::duration_cast<std::chrono::seconds>(times.front() + window_ - now);
}

void RateLimiter::record(const std::string& key, TimePoint now) {
  std::lock_guard lock(mutex_);
  if (attempts_.size() > 10000) prune(now);
  auto& times = attempts_[key];
  times.push_back(now);
  while (static_cast<int>(times.size()) > max_attempts_) times.pop_front();
}

void RateLimiter::reset(const std::string& key) {
  std::lock_guard lock(mutex_);
  attempts_.erase(key);
}

void RateLimiter::prune(TimePoint now) {
  std::vector<std::string> stale;
  for (const auto& [key, times] : attempts_) {
    if (times.empty() || times.back() + window_ <= now) stale.push_back(key);
  }
  for (const auto& key : stale) attempts_.erase(key);
}

std::string try_again_message(std::chrono::seconds wait) {
  const auto minutes = std::max<std::int64_t>(1, (wait.count() + 59) / 60);
  return "Too many attempts. Try again in " + std::to_string(minutes) +
         (minutes == 1 ? " minute." : " minutes.");
}

}  // namespace longread::accounts
