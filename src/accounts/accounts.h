// Readers' accounts over a storage::Store: sign-up, login, logout, sessions, CSRF tokens and signed
// links, with per-IP and per-account rate limits. Knows nothing of HTTP: callers pass the client's IP and
// the cookie's token, and turn the results into responses. Thread-safe.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "accounts/crypto.h"
#include "accounts/rate_limiter.h"
#include "core/error.h"
#include "storage/store.h"

namespace longread::accounts {

struct AccountsOptions {
  PasswordCost password_cost{};
  std::chrono::seconds session_lifetime = std::chrono::days(30);
  // Login: failed attempts allowed per IP and per account in the window.
  int login_failures_per_ip = 20;
  int login_failures_per_account = 5;
  std::chrono::seconds login_window = std::chrono::minutes(15);
  // Sign-up: attempts (successful or not) per IP and per email in the window.
  int signups_per_ip = 10;
  int signups_per_account = 5;
  std::chrono::seconds signup_window = std::chrono::hours(1);
};

// A session just created: the token goes into the cookie (and nowhere else).
struct NewSession {
  std::string token;
  std::int64_t reader_id = 0;
  TimePoint expires_at{};
};

class Accounts {
 public:
  // Reads (or creates, on first use) the site's master key from the store.
  [[nodiscard]] static Result<std::unique_ptr<Accounts>> open(storage::Store& store, AccountsOptions options);

  // A new account and its first session. Errors carry messages fit to show: invalid email or password
  // (kInvalidInput), rate limited (kRateLimited, "try again in N minutes"), or, for an address that has
  // an account with another password, kInvalidInput with the same message a failed login gets.
  [[nodiscard]] Result<NewSession> sign_up(std::string_view email, std::string_view password,
                                           std::string_view client_ip, TimePoint now);
  // A session for a correct email and password; "Email or password is incorrect." otherwise, the same
  // whether or not the address has an account (and about as slow: a dummy hash is verified).
  [[nodiscard]] Result<NewSession> log_in(std::string_view email, std::string_view password,
                                          std::string_view client_ip, TimePoint now);
  // Ends the session server-side (no error for an unknown token).
  [[nodiscard]] Result<void> log_out(std::string_view token);
  // The reader of a live session token, else nullopt (unknown, expired or logged out).
  [[nodiscard]] Result<std::optional<storage::SessionReader>> reader(std::string_view token, TimePoint now);

  // CSRF tokens (synchronizer tokens bound to the session, or, before login, to a random cookie):
  // MAC("csrf" + binding). Stateless and constant-time to check.
  [[nodiscard]] std::string csrf_token(std::string_view binding) const;
  [[nodiscard]] bool csrf_valid(std::string_view binding, std::string_view token) const;

  // Signed links (newsletter confirmation and unsubscribe): MAC(purpose, email, expiry); an expiry of 0
  // never expires.
  [[nodiscard]] std::string link_signature(std::string_view purpose, std::string_view email,
                                           std::int64_t expires_unix) const;
  [[nodiscard]] bool link_valid(std::string_view purpose, std::string_view email, std::int64_t expires_unix,
                                std::string_view signature, TimePoint now) const;

  Accounts(storage::Store& store, AccountsOptions options, const Key& master);

 private:
  Result<NewSession> start_session(std::int64_t reader_id, TimePoint now);

  storage::Store& store_;
  AccountsOptions options_;
  Key csrf_key_;
  Key link_key_;
  std::string dummy_hash_;  // verified for unknown emails so both paths cost the same
  RateLimiter login_ip_;
  RateLimiter login_account_;
  RateLimiter signup_ip_;
  RateLimiter signup_account_;
};

}  // namespace longread::accounts
