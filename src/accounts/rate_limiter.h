// Attempt counting for login, sign-up, password reset and the newsletter: at most `max_attempts` per key
// in a sliding `window`. In memory (per process), which is what a single `serve` needs. Keys name who is
// counted: "client:192.0.2.1" (a client as web::client_key counts it, an IPv6 one by its /64), or
// "account:a@b.c|client:192.0.2.1" (one account from one client).
//
// Bounded: at most `max_keys` keys are held. When a new key would pass that, keys whose attempts have all
// left the window go first, then the key attempted least recently, so a flood of distinct keys costs a
// fixed amount of memory; what it can win is that the oldest counts are forgotten early.
#pragma once

#include <chrono>
#include <cstddef>
#include <deque>
#include <list>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "core/time.h"

namespace longread::accounts {

class RateLimiter {
 public:
  static constexpr std::size_t kDefaultMaxKeys = 100000;

  RateLimiter(int max_attempts, std::chrono::seconds window, std::size_t max_keys = kDefaultMaxKeys)
      : max_attempts_(max_attempts), window_(window), max_keys_(max_keys < 1 ? 1 : max_keys) {}

  // How long until `key` may try again, or nullopt when it may now.
  [[nodiscard]] std::optional<std::chrono::seconds> retry_after(const std::string& key, TimePoint now);
  // Counts one attempt of `key` at `now`.
  void record(const std::string& key, TimePoint now);
  // Forgets `key` (after a successful login).
  void reset(const std::string& key);
  // Forgets every key that starts with `prefix` (an account's counts from every client, after its
  // password was reset).
  void reset_prefix(std::string_view prefix);
  // Keys held now.
  [[nodiscard]] std::size_t size();

 private:
  struct Entry {
    std::deque<TimePoint> times;
    std::list<std::string>::iterator recency;  // into recency_ (front: attempted most recently)
  };
  void erase(std::unordered_map<std::string, Entry>::iterator it);
  void make_room(TimePoint now);  // at most max_keys_ - 1 keys afterwards

  int max_attempts_;
  std::chrono::seconds window_;
  std::size_t max_keys_;
  std::mutex mutex_;
  std::unordered_map<std::string, Entry> attempts_;
  std::list<std::string> recency_;
};

// "Too many attempts. Try again in 12 minutes." (rounded up, at least 1 minute).
std::string try_again_message(std::chrono::seconds wait);

}  // namespace longread::accounts
