#include "accounts/rate_limiter.h"

#include <vector>

namespace longread::accounts {

std::optional<std::chrono::seconds> RateLimiter::retry_after(const std::string& key, TimePoint now) {
  std::lock_guard lock(mutex_);
  const auto it = attempts_.find(key);
  if (it == attempts_.end()) return std::nullopt;
  auto& times = it->second.times;
  while (!times.empty() && times.front() + window_ <= now) times.pop_front();
  if (static_cast<int>(times.size()) < max_attempts_) return std::nullopt;
  // The oldest attempt still counted leaves the window first.
  return std::chrono::duration_cast<std::chrono::seconds>(times.front() + window_ - now);
}

void RateLimiter::record(const std::string& key, TimePoint now) {
  std::lock_guard lock(mutex_);
  auto it = attempts_.find(key);
  if (it == attempts_.end()) {
    if (attempts_.size() >= max_keys_) make_room(now);
    recency_.push_front(key);
    it = attempts_.emplace(key, Entry{{}, recency_.begin()}).first;
  } else {
    recency_.splice(recency_.begin(), recency_, it->second.recency);
  }
  auto& times = it->second.times;
  times.push_back(now);
  while (static_cast<int>(times.size()) > max_attempts_) times.pop_front();
}

void RateLimiter::reset(const std::string& key) {
  std::lock_guard lock(mutex_);
  if (const auto it = attempts_.find(key); it != attempts_.end()) erase(it);
}

void RateLimiter::reset_prefix(std::string_view prefix) {
  std::lock_guard lock(mutex_);
  for (auto it = attempts_.begin(); it != attempts_.end();) {
    const auto next = std::next(it);
    if (std::string_view(it->first).starts_with(prefix)) erase(it);
    it = next;
  }
}

std::size_t RateLimiter::size() {
  std::lock_guard lock(mutex_);
  return attempts_.size();
}

void RateLimiter::erase(std::unordered_map<std::string, Entry>::iterator it) {
  recency_.erase(it->second.recency);
  attempts_.erase(it);
}

void RateLimiter::make_room(TimePoint now) {
  // Stale keys first, oldest first: the least recently attempted are at the back.
  while (!recency_.empty()) {
    const auto it = attempts_.find(recency_.back());
    const auto& times = it->second.times;
    if (!times.empty() && times.back() + window_ > now) break;
    erase(it);
  }
  while (attempts_.size() >= max_keys_ && !recency_.empty()) erase(attempts_.find(recency_.back()));
}

std::string try_again_message(std::chrono::seconds wait) {
  const auto minutes = std::max<std::int64_t>(1, (wait.count() + 59) / 60);
  return "Too many attempts. Try again in " + std::to_string(minutes) +
         (minutes == 1 ? " minute." : " minutes.");
}

}  // namespace longread::accounts
