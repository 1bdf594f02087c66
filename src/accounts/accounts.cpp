#include "accounts/accounts.h"

#include <fmt/format.h>

#include "accounts/validate.h"

namespace longread::accounts {
namespace {

constexpr const char* kMasterKeyName = "master-key";
constexpr std::uint64_t kCsrfPurpose = 1;
constexpr std::uint64_t kLinkPurpose = 2;
constexpr const char* kBadCredentials = "Email or password is incorrect.";

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Links of account mails: an "already registered" mail carries a reset link.
const char* link_purpose(MailKind kind) {
  return kind == MailKind::kConfirmAccount ? "account-confirm" : "password-reset";
}

constexpr const char* kBadLink = "This link is not valid or has expired.";

std::unexpected<Error> limited(std::string_view what, std::chrono::seconds wait) {
  return fail(ErrorKind::kRateLimited, fmt::format("accounts: {} rate limited for {} s", what, wait.count()),
              try_again_message(wait));
}

// What an account link's signature covers: purpose, address, expiry and the current password hash (so
// the link dies when the password changes).
std::string link_message(MailKind kind, const storage::ReaderAccount& account, std::int64_t expires) {
  return fmt::format("{}\n{}\n{}\n{}", link_purpose(kind), lower(account.email), expires,
                     account.password_hash);
}

// The account of `email`, or kNotFound with `missing` as the message to show.
Result<storage::ReaderAccount> existing(storage::Store& store, std::string_view email,
                                        std::string_view missing) {
  auto account = store.reader_by_email(email);
  if (!account) return std::unexpected(account.error());
  if (!*account)
    return fail(ErrorKind::kNotFound, "accounts: no reader " + std::string(email), std::string(missing));
  return std::move(**account);
}

}  // namespace

Result<std::unique_ptr<Accounts>> Accounts::open(storage::Store& store, AccountsOptions options) {
  if (!crypto_ready()) return fail(ErrorKind::kInternal, "accounts: libsodium cannot initialise");
  auto hex = store.secret(kMasterKeyName, new_master_key_hex());
  if (!hex) return std::unexpected(hex.error());
  auto master = key_from_hex(*hex);
  if (!master) return std::unexpected(master.error());
  return std::make_unique<Accounts>(store, std::move(options), *master);
}

Accounts::Accounts(storage::Store& store, AccountsOptions options, const Key& master)
    : store_(store),
      options_(std::move(options)),
      csrf_key_(derive_key(master, kCsrfPurpose)),
      link_key_(derive_key(master, kLinkPurpose)),
      dummy_hash_(hash_password(random_token(), options_.password_cost).value_or("")),
      login_ip_(options_.login_failures_per_ip, options_.login_window),
      login_account_(options_.login_failures_per_account, options_.login_window),
      signup_ip_(options_.signups_per_ip, options_.signup_window),
      signup_account_(options_.signups_per_account, options_.signup_window),
      reset_ip_(options_.resets_per_ip, options_.reset_window),
      reset_account_(options_.resets_per_account, options_.reset_window) {}

Result<SignUpResult> Accounts::sign_up(std::string_view email_input, std::string_view password,
                                       std::string_view client_ip, TimePoint now) {
  auto email = normalize_email(email_input);
  if (!email) return std::unexpected(email.error());
  if (auto ok = check_password(password); !ok) return std::unexpected(ok.error());
  const std::string ip_key = "ip:" + std::string(client_ip);
  const std::string account_key = "account:" + lower(*email);
  if (auto wait = signup_ip_.retry_after(ip_key, now)) return limited("sign-up per IP", *wait);
  if (auto wait = signup_account_.retry_after(account_key, now)) return limited("sign-up per account", *wait);
  signup_ip_.record(ip_key, now);
  signup_account_.record(account_key, now);

  auto hash = hash_password(password, options_.password_cost);
  if (!hash) return std::unexpected(hash.error());
  const std::optional<TimePoint> confirmed_at =
      options_.confirm_by_mail ? std::nullopt : std::optional<TimePoint>(now);
  auto id = store_.create_reader(*email, *hash, now, confirmed_at);
  if (!id && id.error().kind != ErrorKind::kConflict) return std::unexpected(id.error());
  if (options_.confirm_by_mail) {
    // Read back even after a fresh insert: every path costs the same queries (and the same Argon2 hash).
    auto account = store_.reader_by_email(*email);
    if (!account) return std::unexpected(account.error());
    if (!*account) return fail(ErrorKind::kInternal, "accounts: reader vanished during sign-up");
    if ((*account)->confirmed_at) {
      return SignUpResult{.mail = account_mail(MailKind::kAlreadyRegistered, **account, now)};
    }
    if (!id) {
      // Pending, signed up for again: the latest password wins and only the newest link confirms, so a
      // stranger who signed up first with this address cannot end up holding the account.
      if (auto set = store_.set_reader_password((*account)->id, *hash, std::nullopt); !set)
        return std::unexpected(set.error());
      (*account)->password_hash = *hash;
    }
    return SignUpResult{.mail = account_mail(MailKind::kConfirmAccount, **account, now)};
  }
  if (id) {
    auto session = start_session(*id, now);
    if (!session) return std::unexpected(session.error());
    return SignUpResult{.session = std::move(*session)};
  }
  // The address has an account. Signing up again with its password logs in, like a new account would;
  // with another password the answer is the one a failed login gets, not "already registered".
  auto existing = store_.reader_by_email(*email);
  if (!existing) return std::unexpected(existing.error());
  if (*existing && verify_password((*existing)->password_hash, password)) {
    auto session = start_session((*existing)->id, now);
    if (!session) return std::unexpected(session.error());
    return SignUpResult{.session = std::move(*session)};
  }
  return fail(ErrorKind::kInvalidInput, "accounts: sign-up for an existing account with another password",
              "That email and password cannot be used to sign up. If you have an account, log in.");
}

AccountMail Accounts::account_mail(MailKind kind, const storage::ReaderAccount& account,
                                   TimePoint now) const {
  const auto lifetime =
      kind == MailKind::kConfirmAccount ? options_.confirm_link_lifetime : options_.reset_link_lifetime;
  const std::int64_t expires = to_unix(now + lifetime);
  return AccountMail{.kind = kind,
                     .email = account.email,
                     .expires = expires,
                     .signature = mac(link_key_, link_message(kind, account, expires))};
}

bool Accounts::account_link_valid(MailKind kind, const storage::ReaderAccount& account, std::int64_t expires,
                                  std::string_view signature, TimePoint now) const {
  if (expires <= 0 || to_unix(now) >= expires || signature.empty()) return false;
  return mac_valid(link_key_, link_message(kind, account, expires), signature);
}

Result<std::optional<storage::ReaderAccount>> Accounts::linked_account(MailKind kind, std::string_view email,
                                                                       std::int64_t expires,
                                                                       std::string_view signature,
                                                                       TimePoint now) {
  if (email.empty() || email.size() > kMaxEmailLength) return std::optional<storage::ReaderAccount>{};
  auto account = store_.reader_by_email(email);
  if (!account) return std::unexpected(account.error());
  if (!*account || !account_link_valid(kind, **account, expires, signature, now))
    return std::optional<storage::ReaderAccount>{};
  return account;
}

Result<NewSession> Accounts::confirm(std::string_view email, std::int64_t expires, std::string_view signature,
                                     TimePoint now) {
  auto account = linked_account(MailKind::kConfirmAccount, email, expires, signature, now);
  if (!account) return std::unexpected(account.error());
  if (!*account) return fail(ErrorKind::kForbidden, "accounts: bad confirmation link", kBadLink);
  if (auto ok = store_.confirm_reader((*account)->id, now); !ok) return std::unexpected(ok.error());
  return start_session((*account)->id, now);
}

Result<std::optional<AccountMail>> Accounts::request_password_reset(std::string_view email_input,
                                                                    std::string_view client_ip,
                                                                    TimePoint now) {
  auto email = normalize_email(email_input);
  if (!email) return std::unexpected(email.error());
  const std::string ip_key = "ip:" + std::string(client_ip);
  const std::string account_key = "account:" + lower(*email);
  if (auto wait = reset_ip_.retry_after(ip_key, now)) return limited("password reset per IP", *wait);
  if (auto wait = reset_account_.retry_after(account_key, now))
    return limited("password reset per account", *wait);
  reset_ip_.record(ip_key, now);
  reset_account_.record(account_key, now);
  auto account = store_.reader_by_email(*email);
  if (!account) return std::unexpected(account.error());
  if (!*account) return std::optional<AccountMail>{};
  return std::optional<AccountMail>{account_mail(MailKind::kPasswordReset, **account, now)};
}

Result<bool> Accounts::reset_link_valid(std::string_view email, std::int64_t expires,
                                        std::string_view signature, TimePoint now) {
  auto account = linked_account(MailKind::kPasswordReset, email, expires, signature, now);
  if (!account) return std::unexpected(account.error());
  return account->has_value();
}

Result<NewSession> Accounts::reset_password(std::string_view email, std::int64_t expires,
                                            std::string_view signature, std::string_view new_password,
                                            TimePoint now) {
  if (auto ok = check_password(new_password); !ok) return std::unexpected(ok.error());
  auto account = linked_account(MailKind::kPasswordReset, email, expires, signature, now);
  if (!account) return std::unexpected(account.error());
  if (!*account) return fail(ErrorKind::kForbidden, "accounts: bad password reset link", kBadLink);
  auto hash = hash_password(new_password, options_.password_cost);
  if (!hash) return std::unexpected(hash.error());
  if (auto set = store_.set_reader_password((*account)->id, *hash, now); !set)
    return std::unexpected(set.error());
  if (auto ended = store_.delete_reader_sessions((*account)->id); !ended)
    return std::unexpected(ended.error());
  login_account_.reset("account:" + lower((*account)->email));
  return start_session((*account)->id, now);
}

Result<NewSession> Accounts::log_in(std::string_view email_input, std::string_view password,
                                    std::string_view client_ip, TimePoint now) {
  auto email = normalize_email(email_input);
  if (!email) return std::unexpected(email.error());
  if (password.empty() || password.size() > kMaxPasswordLength) {
    return fail(ErrorKind::kInvalidInput, "accounts: empty or oversized password", kBadCredentials);
  }
  const std::string ip_key = "ip:" + std::string(client_ip);
  const std::string account_key = "account:" + lower(*email);
  if (auto wait = login_ip_.retry_after(ip_key, now)) return limited("login per IP", *wait);
  if (auto wait = login_account_.retry_after(account_key, now)) return limited("login per account", *wait);

  auto account = store_.reader_by_email(*email);
  if (!account) return std::unexpected(account.error());
  const bool ok = *account ? verify_password((*account)->password_hash, password)
                           : (static_cast<void>(verify_password(dummy_hash_, password)), false);
  if (!ok) {
    login_ip_.record(ip_key, now);
    login_account_.record(account_key, now);
    return fail(ErrorKind::kInvalidInput, "accounts: login failed", kBadCredentials);
  }
  login_account_.reset(account_key);
  if (!(*account)->confirmed_at) {
    return fail(ErrorKind::kForbidden, "accounts: login to a pending account",
                "Please confirm your address first: open the link we mailed to you. To get a new link, sign "
                "up again.");
  }
  return start_session((*account)->id, now);
}

Result<storage::ReaderAccount> Accounts::check_current_password(std::string_view email,
                                                                std::string_view password, TimePoint now) {
  const std::string account_key = "account:" + lower(email);
  if (auto wait = login_account_.retry_after(account_key, now)) return limited("password check", *wait);
  auto account = existing(store_, email, "This account no longer exists.");
  if (!account) return std::unexpected(account.error());
  if (password.size() > kMaxPasswordLength || !verify_password(account->password_hash, password)) {
    login_account_.record(account_key, now);
    return fail(ErrorKind::kInvalidInput, "accounts: wrong current password",
                "The current password is incorrect.");
  }
  return account;
}

Result<NewSession> Accounts::change_password(std::string_view email, std::string_view current_password,
                                             std::string_view new_password, TimePoint now) {
  if (auto ok = check_password(new_password); !ok) return std::unexpected(ok.error());
  auto account = check_current_password(email, current_password, now);
  if (!account) return std::unexpected(account.error());
  auto hash = hash_password(new_password, options_.password_cost);
  if (!hash) return std::unexpected(hash.error());
  if (auto set = store_.set_reader_password(account->id, *hash, now); !set)
    return std::unexpected(set.error());
  return end_other_sessions(account->id, now);
}

Result<NewSession> Accounts::end_other_sessions(std::int64_t reader_id, TimePoint now) {
  if (auto ended = store_.delete_reader_sessions(reader_id); !ended) return std::unexpected(ended.error());
  return start_session(reader_id, now);
}

Result<void> Accounts::delete_account(std::string_view email, std::string_view password, TimePoint now) {
  auto account = check_current_password(email, password, now);
  if (!account) return std::unexpected(account.error());
  return store_.delete_reader(account->id);
}

Result<void> Accounts::set_password_for(std::string_view email, std::string_view new_password,
                                        TimePoint now) {
  if (auto ok = check_password(new_password); !ok) return std::unexpected(ok.error());
  auto account = existing(store_, email, "No account has that address.");
  if (!account) return std::unexpected(account.error());
  auto hash = hash_password(new_password, options_.password_cost);
  if (!hash) return std::unexpected(hash.error());
  if (auto set = store_.set_reader_password(account->id, *hash, now); !set)
    return std::unexpected(set.error());
  if (auto ended = store_.delete_reader_sessions(account->id); !ended) return std::unexpected(ended.error());
  login_account_.reset("account:" + lower(account->email));
  return {};
}

Result<void> Accounts::delete_account_of(std::string_view email) {
  auto account = existing(store_, email, "No account has that address.");
  if (!account) return std::unexpected(account.error());
  return store_.delete_reader(account->id);
}

Result<NewSession> Accounts::start_session(std::int64_t reader_id, TimePoint now) {
  NewSession session{
      .token = random_token(), .reader_id = reader_id, .expires_at = now + options_.session_lifetime};
  auto ok = store_.create_session({.token_hash = token_hash(session.token),
                                   .reader_id = reader_id,
                                   .created_at = now,
                                   .expires_at = session.expires_at});
  if (!ok) return std::unexpected(ok.error());
  return session;
}

Result<void> Accounts::log_out(std::string_view token) {
  if (token.empty()) return {};
  return store_.delete_session(token_hash(token));
}

Result<std::optional<storage::SessionReader>> Accounts::reader(std::string_view token, TimePoint now) {
  // Tokens are 43 base64url characters; anything else cannot be one, so the database is not asked.
  if (token.empty() || token.size() > 128) return std::optional<storage::SessionReader>{};
  return store_.session_reader(token_hash(token), now);
}

std::string Accounts::csrf_token(std::string_view binding) const {
  return mac(csrf_key_, fmt::format("csrf\n{}", binding));
}

bool Accounts::csrf_valid(std::string_view binding, std::string_view token) const {
  return !binding.empty() && !token.empty() && mac_valid(csrf_key_, fmt::format("csrf\n{}", binding), token);
}

std::string Accounts::link_signature(std::string_view purpose, std::string_view email,
                                     std::int64_t expires_unix) const {
  return mac(link_key_, fmt::format("{}\n{}\n{}", purpose, lower(email), expires_unix));
}

bool Accounts::link_valid(std::string_view purpose, std::string_view email, std::int64_t expires_unix,
                          std::string_view signature, TimePoint now) const {
  if (expires_unix != 0 && to_unix(now) >= expires_unix) return false;
  return mac_valid(link_key_, fmt::format("{}\n{}\n{}", purpose, lower(email), expires_unix), signature);
}

}  // namespace longread::accounts
