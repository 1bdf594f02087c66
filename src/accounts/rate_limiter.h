// Attempt counting for login, sign-up, password reset, the newsletter and reading-list imports: at most
// `max_attempts` per key in a sliding `window`. Counted in the database (LimitStore::record_attempt), so
// every web process of a site enforces one limit and a restart gives nobody a fresh allowance. Keys name who
// is counted: "client:192.0.2.1" (a client as web::client_key counts it, an IPv6 one by its /64), or
// "account:a@b.c|client:192.0.2.1" (one account from one client); the limiter puts its own name in front,
// so two limits never share a count.
//
// Bounded: a key keeps at most `max_attempts` rows, expired rows are dropped as attempts are recorded, and
// past `max_rows` rows in all the oldest recorded go first, so a flood of distinct keys costs a fixed
// amount of disk; what it can win is that the oldest counts are forgotten early.
//
// A limit is checked and then counted in two steps: N processes answering the same client at the same
// instant can each let one attempt past the limit. When the database cannot be read or written the
// attempt is let through and the failure logged: the request it guards needs the database too.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "core/time.h"
#include "storage/roles/limit_store.h"

namespace longread::accounts {

class RateLimiter {
 public:
  static constexpr std::int64_t kDefaultMaxRows = 1'000'000;

  RateLimiter(storage::LimitStore& limits, std::string name, int max_attempts, std::chrono::seconds window,
              std::int64_t max_rows = kDefaultMaxRows)
      : limits_(&limits),
        name_(std::move(name)),
        max_attempts_(max_attempts < 1 ? 1 : max_attempts),
        window_(window),
        max_rows_(max_rows < 1 ? 1 : max_rows) {}

  // How long until `key` may try again, or nullopt when it may now.
  [[nodiscard]] std::optional<std::chrono::seconds> retry_after(std::string_view key, TimePoint now) const;
  // Counts one attempt of `key` at `now`.
  void record(std::string_view key, TimePoint now) const;
  // Forgets `key` (after a successful login).
  void reset(std::string_view key) const;
  // Forgets every key that starts with `prefix` (an account's counts from every client, after its
  // password was reset).
  void reset_prefix(std::string_view prefix) const;

 private:
  [[nodiscard]] std::string stored_key(std::string_view key) const;

  storage::LimitStore* limits_;
  std::string name_;
  int max_attempts_;
  std::chrono::seconds window_;
  std::int64_t max_rows_;
};

// "Too many attempts. Try again in 12 minutes." (rounded up, at least 1 minute).
std::string try_again_message(std::chrono::seconds wait);

}  // namespace longread::accounts
