// The limits role of the Store: how often something may happen, counted in the database so that every
// process of a site enforces one limit and a restart resets nothing: rate-limited attempts (log-in, sign-up,
// reset, imports) and the mail throttle (docs/readers.md).
#pragma once

#include <chrono>
#include <cstdint>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "core/time.h"
#include "storage/types.h"

namespace longread::storage {

// Rate limits and the mail throttle.
// Every method is safe to call from several threads; implementations serialise as needed.
class LimitStore {
 public:
  virtual ~LimitStore() = default;

  // --- rate limits (migration 0029): attempts counted in the database, so every web process of a site
  // enforces one limit (accounts/rate_limiter.h names the keys).
  // The times of `key`'s attempts after `since`, newest first, at most `limit`.
  virtual Result<std::vector<TimePoint>> recent_attempts(std::string_view key, TimePoint since,
                                                         int limit) = 0;
  // Counts one attempt of `key` at `at` (leaving its window at `expires_at`), in one transaction that also
  // keeps the table bounded: the key keeps only its newest `keep_per_key` attempts, up to 64 rows that
  // have expired by `at` go, and past `max_rows` rows in all the oldest recorded go first.
  virtual Result<void> record_attempt(std::string_view key, TimePoint at, TimePoint expires_at,
                                      int keep_per_key, std::int64_t max_rows) = 0;
  // Forgets `key`'s attempts (after a successful log-in).
  virtual Result<void> clear_attempts(std::string_view key) = 0;
  // Forgets the attempts of every key that starts with `prefix` (an account's, from every client).
  virtual Result<void> clear_attempts_with_prefix(std::string_view prefix) = 0;

  // --- the mail throttle (migration 0016): one account or newsletter-confirmation mail of each kind per
  // address per gap.
  // Whether a mail of `kind` ("confirm", "registered", "reset", "newsletter") may go to `recipient` (as the
  // caller normalises it: lower case) at `now`: true, and `now` recorded in one statement, when none was
  // recorded within `gap` before; false otherwise, recording nothing (migration 0016 mail_throttle). Rows
  // older than `gap` are deleted on the way, so the table holds at most the last `gap`'s recipients.
  virtual Result<bool> claim_mail_slot(std::string_view recipient, std::string_view kind, TimePoint now,
                                       std::chrono::seconds gap) = 0;
};

}  // namespace longread::storage
