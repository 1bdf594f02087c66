#include "accounts/rate_limiter.h"

#include <spdlog/spdlog.h>

#include <algorithm>

namespace longread::accounts {

std::string RateLimiter::stored_key(std::string_view key) const {
  std::string out = name_;
  out += '|';
  out += key;
  return out;
}

std::optional<std::chrono::seconds> RateLimiter::retry_after(std::string_view key, TimePoint now) const {
  const auto times = limits_->recent_attempts(stored_key(key), now - window_, max_attempts_);
  if (!times) {
    spdlog::warn("accounts: {} limit not checked: {}", name_, times.error().message);
    return std::nullopt;
  }
  if (static_cast<int>(times->size()) < max_attempts_) return std::nullopt;
  // The oldest attempt still counted leaves the window first.
  return std::chrono::duration_cast<std::chrono::seconds>(times->back() + window_ - now);
}

void RateLimiter::record(std::string_view key, TimePoint now) const {
  if (auto ok = limits_->record_attempt(stored_key(key), now, now + window_, max_attempts_, max_rows_); !ok) {
    spdlog::warn("accounts: {} attempt not counted: {}", name_, ok.error().message);
  }
}

void RateLimiter::reset(std::string_view key) const {
  if (auto ok = limits_->clear_attempts(stored_key(key)); !ok) {
    spdlog::warn("accounts: {} count not reset: {}", name_, ok.error().message);
  }
}

void RateLimiter::reset_prefix(std::string_view prefix) const {
  if (auto ok = limits_->clear_attempts_with_prefix(stored_key(prefix)); !ok) {
    spdlog::warn("accounts: {} counts not reset: {}", name_, ok.error().message);
  }
}

std::string try_again_message(std::chrono::seconds wait) {
  const auto minutes = std::max<std::int64_t>(1, (wait.count() + 59) / 60);
  return "Too many attempts. Try again in " + std::to_string(minutes) +
         (minutes == 1 ? " minute." : " minutes.");
}

}  // namespace longread::accounts
