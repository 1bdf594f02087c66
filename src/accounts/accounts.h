// Readers' accounts over a storage::Store: sign-up, login, logout, sessions, CSRF tokens and signed
// links, with rate limits. Knows nothing of HTTP: callers pass the client (its web::client_key: an IPv4
// address, an IPv6 /64) and the cookie's token, and turn the results into responses. Thread-safe.
//
// The limits count one account from one client, plus a looser count per client, and never an account
// alone: a limit per account would let anyone lock its owner out by failing on purpose (docs/readers.md,
// "Rate limits"). Mails are limited per recipient instead: at most one of each kind per `mail_resend_gap`.
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "accounts/crypto.h"
#include "accounts/rate_limiter.h"
#include "core/error.h"
#include "storage/roles/limit_store.h"
#include "storage/roles/reader_store.h"
#include "storage/roles/secret_store.h"

namespace longread::accounts {

// A session just created: the token goes into the cookie (and nowhere else).
struct NewSession {
  std::string token;
  std::int64_t reader_id = 0;
  TimePoint expires_at{};
};

// An app password as its owner sees it once, when it is made.
struct NewAppPassword {
  std::int64_t id = 0;
  std::string password;
};

// What ClientLogin gives a feed app: the token it sends as "Authorization: GoogleLogin auth=<token>".
struct ApiLogin {
  std::string token;
  std::int64_t reader_id = 0;
};

struct AccountsOptions {
  PasswordCost password_cost{};
  std::chrono::seconds session_lifetime = std::chrono::days(30);
  std::chrono::seconds api_token_lifetime = std::chrono::days(30);  // a ClientLogin token
  // Login: failed attempts allowed per client (any accounts), and per account from one client, in the
  // window. A settings form's "current password" counts per account (only its logged-in owner gets there).
  int login_failures_per_client = 50;
  int login_failures_per_account_client = 5;
  std::chrono::seconds login_window = std::chrono::minutes(15);
  // Sign-up: attempts (successful or not) per client and per email from one client in the window.
  int signups_per_client = 10;
  int signups_per_account_client = 5;
  std::chrono::seconds signup_window = std::chrono::hours(1);
  // Accounts confirmed by mail (the site can send mail): a sign-up makes a pending account and answers
  // the same whether or not the address has one; the mailed link confirms it. Without mail, a sign-up
  // makes a confirmed account and logs in at once.
  bool confirm_by_mail = false;
  std::chrono::seconds confirm_link_lifetime = std::chrono::hours(48);
  std::chrono::seconds reset_link_lifetime = std::chrono::hours(2);
  // Password-reset requests per client and per email from one client in the window.
  int resets_per_client = 10;
  int resets_per_account_client = 3;
  std::chrono::seconds reset_window = std::chrono::hours(1);
  // At most one mail of each kind (confirmation, "already registered", reset) to one address in this
  // long, however many clients ask (Store::claim_mail_slot): a request within it mails nothing and is
  // answered as always. The newsletter's confirmation follows the same rule.
  std::chrono::seconds mail_resend_gap = std::chrono::hours(1);
};

// What to mail after a sign-up or a password-reset request (confirm_by_mail). The link carries email,
// expires and signature; it is signed over the account's current password hash, so it stops working
// once the password changes (a reset link works once; a newer sign-up of a pending account voids older
// confirmation links).
enum class MailKind {
  kConfirmAccount,     // a new or still pending account: the link confirms it and logs in
  kAlreadyRegistered,  // a sign-up for a confirmed account: log in, or use the link to set a new password
  kPasswordReset,      // the link sets a new password
};

// The Store's name of each kind of account mail for claim_mail_slot: "confirm", "registered", "reset"
// (the outbox's names).
std::string_view mail_slot_kind(MailKind kind);

struct AccountMail {
  MailKind kind = MailKind::kConfirmAccount;
  std::string email;         // the address as stored
  std::int64_t expires = 0;  // unix seconds
  std::string signature;
};

struct SignUpResult {
  std::optional<NewSession> session{};  // without confirm_by_mail: the new account's first session
  std::optional<AccountMail> mail{};    // with it: what to mail (every accepted sign-up mails something)
};

class Accounts {
 public:
  // Reads (or creates, on first use) the site's master key from `secrets`. Accounts, sessions and app
  // passwords are kept in `readers`; the rate limits and the account mails' throttle in `limits` (a
  // storage::Store is all three).
  [[nodiscard]] static Result<std::unique_ptr<Accounts>> open(storage::ReaderStore& readers,
                                                              storage::LimitStore& limits,
                                                              storage::SecretStore& secrets,
                                                              AccountsOptions options);

  // Errors carry messages fit to show: invalid email or password (kInvalidInput), rate limited
  // (kRateLimited, "try again in N minutes").
  //
  // With confirm_by_mail, every valid sign-up answers alike and returns a mail to send: a new address
  // gets a pending account and a confirmation link; a pending one gets the new password and a new link;
  // a confirmed one is left as it is and its owner is told ("already registered", with a reset link).
  // The password is hashed on every path, so they also cost the same. Within mail_resend_gap of the
  // last mail of that kind to the address, no mail is returned (a pending account still takes the new
  // password, so a link mailed before stops working; "Forgot your password?" mails a link that confirms).
  // Without it: a new confirmed account and its first session; for an address that has an account, its
  // password logs in, and another password gets kInvalidInput (this mode cannot hide that the address is
  // taken; README, "Known limitations").
  [[nodiscard]] Result<SignUpResult> sign_up(std::string_view email, std::string_view password,
                                             std::string_view client, TimePoint now);
  // Confirms the account of a link from a kConfirmAccount mail and logs in. kForbidden ("not valid or
  // has expired") for a bad, expired or superseded link.
  [[nodiscard]] Result<NewSession> confirm(std::string_view email, std::int64_t expires,
                                           std::string_view signature, TimePoint now);
  // A session for a correct email and password; "Email or password is incorrect." otherwise, the same
  // whether or not the address has an account (and about as slow: a dummy hash is verified). A pending
  // account with its correct password gets kForbidden: confirm the address first.
  [[nodiscard]] Result<NewSession> log_in(std::string_view email, std::string_view password,
                                          std::string_view client, TimePoint now);
  // "Forgot your password", in two steps so the request's answer cannot depend on the address: the
  // first, on the request's thread, checks the form and the rate limits (the same work for any address)
  // and returns the normalised address; the second, off it, returns the mail to send when the address
  // has an account and had no reset mail within mail_resend_gap, else nullopt.
  [[nodiscard]] Result<std::string> accept_password_reset(std::string_view email, std::string_view client,
                                                          TimePoint now);
  [[nodiscard]] Result<std::optional<AccountMail>> password_reset_mail(std::string_view email, TimePoint now);
  // Both steps at once.
  [[nodiscard]] Result<std::optional<AccountMail>> request_password_reset(std::string_view email,
                                                                          std::string_view client,
                                                                          TimePoint now);
  // Whether a reset link (kPasswordReset or kAlreadyRegistered mail) is still good: the form is shown
  // only then.
  [[nodiscard]] Result<bool> reset_link_valid(std::string_view email, std::int64_t expires,
                                              std::string_view signature, TimePoint now);
  // Sets a new password with a reset link: the link stops working, every other session of the account
  // ends, a pending account is confirmed (the mail reached it), and a new session is returned.
  // kInvalidInput for a password too short or long, kForbidden for a bad, expired or used link.
  [[nodiscard]] Result<NewSession> reset_password(std::string_view email, std::int64_t expires,
                                                  std::string_view signature, std::string_view new_password,
                                                  TimePoint now);
  // Settings of a logged-in reader (`email` from the session). The current password is checked first: a
  // wrong one is kInvalidInput "The current password is incorrect." and counts as a failed login of the
  // account (so the same rate limit applies).
  // A new password ends every session of the account and returns a new one for this browser.
  [[nodiscard]] Result<NewSession> change_password(std::string_view email, std::string_view current_password,
                                                   std::string_view new_password, TimePoint now);
  // Ends every session of the account and returns a new one for this browser ("log out everywhere else").
  [[nodiscard]] Result<NewSession> end_other_sessions(std::int64_t reader_id, TimePoint now);
  // Deletes the account, its sessions, votes and reading list (Store::delete_reader).
  [[nodiscard]] Result<void> delete_account(std::string_view email, std::string_view password, TimePoint now);
  // For the site's operator (`longread readers ...`), without the reader's password: a new password (the
  // account is confirmed and every session ends), or the account deleted. kNotFound for an unknown address.
  [[nodiscard]] Result<void> set_password_for(std::string_view email, std::string_view new_password,
                                              TimePoint now);
  [[nodiscard]] Result<void> delete_account_of(std::string_view email);
  // Ends the session server-side (no error for an unknown token).
  [[nodiscard]] Result<void> log_out(std::string_view token);
  // The reader of a live session token, else nullopt (unknown, expired or logged out).
  [[nodiscard]] Result<std::optional<storage::SessionReader>> reader(std::string_view token, TimePoint now);

  // Feed apps (the Google Reader API, app_passwords.cpp). An app password is made for a logged-in reader
  // (`name`: 1 to 60 characters, to tell apps apart; kConflict past storage::kMaxAppPasswords), hashed
  // like the account password, and shown once.
  [[nodiscard]] Result<NewAppPassword> create_app_password(std::int64_t reader_id, std::string_view name,
                                                           TimePoint now);
  // ClientLogin: an address and one of its app passwords (never the account password) give a token.
  // Counted by the same limits as log_in; "Email or password is incorrect." (kInvalidInput) for anything
  // wrong, as slow for an unknown address; a pending account gets kForbidden.
  [[nodiscard]] Result<ApiLogin> api_log_in(std::string_view email, std::string_view app_password,
                                            std::string_view client, TimePoint now);
  // The reader of a live ClientLogin token, else nullopt.
  [[nodiscard]] Result<std::optional<std::int64_t>> api_reader(std::string_view token, TimePoint now);
  // The edit token ("T") an app fetches from /reader/api/0/token and sends with every change: a MAC of
  // its ClientLogin token, so it needs no storage and dies with the token.
  [[nodiscard]] std::string api_edit_token(std::string_view token) const;
  [[nodiscard]] bool api_edit_token_valid(std::string_view token, std::string_view edit_token) const;

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

  Accounts(storage::ReaderStore& readers, storage::LimitStore& limits, AccountsOptions options,
           const Key& master);
  [[nodiscard]] const AccountsOptions& options() const { return options_; }

 private:
  Result<NewSession> start_session(std::int64_t reader_id, TimePoint now);
  // The account of a logged-in reader when `password` is its password (see change_password).
  Result<storage::ReaderAccount> check_current_password(std::string_view email, std::string_view password,
                                                        TimePoint now);
  [[nodiscard]] AccountMail account_mail(MailKind kind, const storage::ReaderAccount& account,
                                         TimePoint now) const;
  [[nodiscard]] bool account_link_valid(MailKind kind, const storage::ReaderAccount& account,
                                        std::int64_t expires, std::string_view signature,
                                        TimePoint now) const;
  // The account of a link, if the link is good for it.
  Result<std::optional<storage::ReaderAccount>> linked_account(MailKind kind, std::string_view email,
                                                               std::int64_t expires,
                                                               std::string_view signature, TimePoint now);

  storage::ReaderStore& readers_;
  storage::LimitStore& limits_;
  AccountsOptions options_;
  Key csrf_key_;
  Key link_key_;
  std::string dummy_hash_;  // verified for unknown emails so both paths cost the same
  RateLimiter login_client_;
  RateLimiter login_pair_;  // (account, client)
  RateLimiter password_check_;
  RateLimiter signup_client_;
  RateLimiter signup_pair_;
  RateLimiter reset_client_;
  RateLimiter reset_pair_;
};

}  // namespace longread::accounts
