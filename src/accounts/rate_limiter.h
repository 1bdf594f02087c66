// Attempt counting for login and sign-up: at most `max_attempts` per key in a sliding `window`. In
// memory (per process), which is what a single `serve` needs; keys are "ip:1.2.3.4", "account:a@b.c".
#pragma once

#include <chrono>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "core/time.h"

namespace longread::accounts {

class RateLimiter {
 public:
  RateLimiter(int max_attempts, std::chrono::seconds window) : max_attempts_(max_attempts), window_(window) {}

  // How long until `key` may try again, or nullopt when it may now.
  [[nodiscard]] std::optional<std::chrono::seconds> retry_after(const std::string& key, TimePoint now);
  // Counts one attempt of `key` at `now`.
  void record(const std::string& key, TimePoint now);
  // Forgets `key` (after a successful login).
  void reset(const std::string& key);

 private:
  void prune(TimePoint now);  // drops keys whose attempts have all left the window

  int max_attempts_;
  std::chrono::seconds window_;
  std::mutex mutex_;
  std::unordered_map<std::string, std::deque<TimePoint>> attempts_;
};

// "Too many attempts. Try again in 12 minutes." (rounded up, at least 1 minute).
std::string try_again_message(std::chrono::seconds wait);

}  // namespace longread::accounts
