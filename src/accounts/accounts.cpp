#include "accounts/accounts.h"

#include <fmt/format.h>

#include "accounts/validate.h"
#include "core/strings.h"

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
Result<storage::ReaderAccount> existing(storage::ReaderStore& readers, std::string_view email,
                                        std::string_view missing) {
  auto account = readers.reader_by_email(email);
  if (!account) return std::unexpected(account.error());
  if (!*account)
    return fail(ErrorKind::kNotFound, "accounts: no reader " + std::string(email), std::string(missing));
  return std::move(**account);
}

std::string client_key(std::string_view client) {
  return "client:" + std::string(client);
}
std::string account_prefix(std::string_view email) {
  return "account:" + lower(email) + "|";
}
std::string pair_key(std::string_view email, std::string_view client) {
  return account_prefix(email) + client_key(client);
}

}  // namespace

std::string_view mail_slot_kind(MailKind kind) {
  switch (kind) {
    case MailKind::kConfirmAccount:
      return "confirm";
    case MailKind::kAlreadyRegistered:
      return "registered";
    case MailKind::kPasswordReset:
      return "reset";
  }
  return "account";
}

Result<std::unique_ptr<Accounts>> Accounts::open(storage::ReaderStore& readers, storage::LimitStore& limits,
                                                 storage::SecretStore& secrets, AccountsOptions options) {
  if (!crypto_ready()) return fail(ErrorKind::kInternal, "accounts: libsodium cannot initialise");
  auto hex = secrets.secret(kMasterKeyName, new_master_key_hex());
  if (!hex) return std::unexpected(hex.error());
  auto master = key_from_hex(*hex);
  if (!master) return std::unexpected(master.error());
  return std::make_unique<Accounts>(readers, limits, std::move(options), *master);
}

Accounts::Accounts(storage::ReaderStore& readers, storage::LimitStore& limits, AccountsOptions options,
                   const Key& master)
    : readers_(readers),
      limits_(limits),
      options_(std::move(options)),
      csrf_key_(derive_key(master, kCsrfPurpose)),
      link_key_(derive_key(master, kLinkPurpose)),
      dummy_hash_(hash_password(random_token(), options_.password_cost).value_or("")),
      login_client_(limits, "login_client", options_.login_failures_per_client, options_.login_window),
      login_pair_(limits, "login_pair", options_.login_failures_per_account_client, options_.login_window),
      password_check_(limits, "password_check", options_.login_failures_per_account_client,
                      options_.login_window),
      signup_client_(limits, "signup_client", options_.signups_per_client, options_.signup_window),
      signup_pair_(limits, "signup_pair", options_.signups_per_account_client, options_.signup_window),
      reset_client_(limits, "reset_client", options_.resets_per_client, options_.reset_window),
      reset_pair_(limits, "reset_pair", options_.resets_per_account_client, options_.reset_window) {}

Result<SignUpResult> Accounts::sign_up(std::string_view email_input, std::string_view password,
                                       std::string_view client, TimePoint now) {
  auto email = normalize_email(email_input);
  if (!email) return std::unexpected(email.error());
  if (auto ok = check_password(password); !ok) return std::unexpected(ok.error());
  const std::string by_client = client_key(client);
  const std::string by_pair = pair_key(*email, client);
  if (auto wait = signup_client_.retry_after(by_client, now)) return limited("sign-up per client", *wait);
  if (auto wait = signup_pair_.retry_after(by_pair, now)) return limited("sign-up per account", *wait);
  signup_client_.record(by_client, now);
  signup_pair_.record(by_pair, now);

  auto hash = hash_password(password, options_.password_cost);
  if (!hash) return std::unexpected(hash.error());
  const std::optional<TimePoint> confirmed_at =
      options_.confirm_by_mail ? std::nullopt : std::optional<TimePoint>(now);
  auto id = readers_.create_reader(*email, *hash, now, confirmed_at);
  if (!id && id.error().kind != ErrorKind::kConflict) return std::unexpected(id.error());
  if (options_.confirm_by_mail) {
    // Read back even after a fresh insert: every path costs the same queries (and the same Argon2 hash).
    auto account = readers_.reader_by_email(*email);
    if (!account) return std::unexpected(account.error());
    if (!*account) return fail(ErrorKind::kInternal, "accounts: reader vanished during sign-up");
    const MailKind kind = (*account)->confirmed_at ? MailKind::kAlreadyRegistered : MailKind::kConfirmAccount;
    if (kind == MailKind::kConfirmAccount && !id) {
      // Pending, signed up for again: the latest password wins and only the newest link confirms, so a
      // stranger who signed up first with this address cannot end up holding the account. That holds
      // even when no new mail may go yet: the link mailed earlier stops working all the same.
      if (auto set = readers_.set_reader_password((*account)->id, *hash, std::nullopt); !set)
        return std::unexpected(set.error());
      (*account)->password_hash = *hash;
    }
    auto slot = limits_.claim_mail_slot(lower(*email), mail_slot_kind(kind), now, options_.mail_resend_gap);
    if (!slot) return std::unexpected(slot.error());
    if (!*slot) return SignUpResult{};
    return SignUpResult{.mail = account_mail(kind, **account, now)};
  }
  if (id) {
    auto session = start_session(*id, now);
    if (!session) return std::unexpected(session.error());
    return SignUpResult{.session = std::move(*session)};
  }
  // The address has an account. Signing up again with its password logs in, like a new account would;
  // with another password the answer is the one a failed login gets, not "already registered".
  auto existing = readers_.reader_by_email(*email);
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
  auto account = readers_.reader_by_email(email);
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
  if (auto ok = readers_.confirm_reader((*account)->id, now); !ok) return std::unexpected(ok.error());
  return start_session((*account)->id, now);
}

Result<std::string> Accounts::accept_password_reset(std::string_view email_input, std::string_view client,
                                                    TimePoint now) {
  auto email = normalize_email(email_input);
  if (!email) return std::unexpected(email.error());
  const std::string by_client = client_key(client);
  const std::string by_pair = pair_key(*email, client);
  if (auto wait = reset_client_.retry_after(by_client, now))
    return limited("password reset per client", *wait);
  if (auto wait = reset_pair_.retry_after(by_pair, now)) return limited("password reset per account", *wait);
  reset_client_.record(by_client, now);
  reset_pair_.record(by_pair, now);
  return email;
}

Result<std::optional<AccountMail>> Accounts::password_reset_mail(std::string_view email, TimePoint now) {
  auto account = readers_.reader_by_email(email);
  if (!account) return std::unexpected(account.error());
  if (!*account) return std::optional<AccountMail>{};
  auto slot = limits_.claim_mail_slot(lower(email), mail_slot_kind(MailKind::kPasswordReset), now,
                                      options_.mail_resend_gap);
  if (!slot) return std::unexpected(slot.error());
  if (!*slot) return std::optional<AccountMail>{};
  return std::optional<AccountMail>{account_mail(MailKind::kPasswordReset, **account, now)};
}

Result<std::optional<AccountMail>> Accounts::request_password_reset(std::string_view email_input,
                                                                    std::string_view client, TimePoint now) {
  auto email = accept_password_reset(email_input, client, now);
  if (!email) return std::unexpected(email.error());
  return password_reset_mail(*email, now);
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
  if (auto set = readers_.set_reader_password((*account)->id, *hash, now); !set)
    return std::unexpected(set.error());
  if (auto ended = readers_.delete_reader_sessions((*account)->id); !ended)
    return std::unexpected(ended.error());
  login_pair_.reset_prefix(account_prefix((*account)->email));
  password_check_.reset(lower((*account)->email));
  return start_session((*account)->id, now);
}

Result<NewSession> Accounts::log_in(std::string_view email_input, std::string_view password,
                                    std::string_view client, TimePoint now) {
  auto email = normalize_email(email_input);
  if (!email) return std::unexpected(email.error());
  if (password.empty() || password.size() > kMaxPasswordLength) {
    return fail(ErrorKind::kInvalidInput, "accounts: empty or oversized password", kBadCredentials);
  }
  const std::string by_client = client_key(client);
  const std::string by_pair = pair_key(*email, client);
  if (auto wait = login_client_.retry_after(by_client, now)) return limited("login per client", *wait);
  if (auto wait = login_pair_.retry_after(by_pair, now)) return limited("login per account", *wait);

  auto account = readers_.reader_by_email(*email);
  if (!account) return std::unexpected(account.error());
  const bool ok = *account ? verify_password((*account)->password_hash, password)
                           : (static_cast<void>(verify_password(dummy_hash_, password)), false);
  if (!ok) {
    login_client_.record(by_client, now);
    login_pair_.record(by_pair, now);
    return fail(ErrorKind::kInvalidInput, "accounts: login failed", kBadCredentials);
  }
  login_pair_.reset(by_pair);
  if (!(*account)->confirmed_at) {
    return fail(ErrorKind::kForbidden, "accounts: login to a pending account",
                "Please confirm your address first: open the link we mailed to you. To get a new link, sign "
                "up again.");
  }
  return start_session((*account)->id, now);
}

Result<storage::ReaderAccount> Accounts::check_current_password(std::string_view email,
                                                                std::string_view password, TimePoint now) {
  const std::string account_key = lower(email);
  if (auto wait = password_check_.retry_after(account_key, now)) return limited("password check", *wait);
  auto account = existing(readers_, email, "This account no longer exists.");
  if (!account) return std::unexpected(account.error());
  if (password.size() > kMaxPasswordLength || !verify_password(account->password_hash, password)) {
    password_check_.record(account_key, now);
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
  if (auto set = readers_.set_reader_password(account->id, *hash, now); !set)
    return std::unexpected(set.error());
  return end_other_sessions(account->id, now);
}

Result<NewSession> Accounts::end_other_sessions(std::int64_t reader_id, TimePoint now) {
  if (auto ended = readers_.delete_reader_sessions(reader_id); !ended) return std::unexpected(ended.error());
  return start_session(reader_id, now);
}

Result<void> Accounts::delete_account(std::string_view email, std::string_view password, TimePoint now) {
  auto account = check_current_password(email, password, now);
  if (!account) return std::unexpected(account.error());
  return readers_.delete_reader(account->id);
}

Result<void> Accounts::set_password_for(std::string_view email, std::string_view new_password,
                                        TimePoint now) {
  if (auto ok = check_password(new_password); !ok) return std::unexpected(ok.error());
  auto account = existing(readers_, email, "No account has that address.");
  if (!account) return std::unexpected(account.error());
  auto hash = hash_password(new_password, options_.password_cost);
  if (!hash) return std::unexpected(hash.error());
  if (auto set = readers_.set_reader_password(account->id, *hash, now); !set)
    return std::unexpected(set.error());
  if (auto ended = readers_.delete_reader_sessions(account->id); !ended)
    return std::unexpected(ended.error());
  login_pair_.reset_prefix(account_prefix(account->email));
  password_check_.reset(lower(account->email));
  return {};
}

Result<void> Accounts::delete_account_of(std::string_view email) {
  auto account = existing(readers_, email, "No account has that address.");
  if (!account) return std::unexpected(account.error());
  return readers_.delete_reader(account->id);
}

Result<NewSession> Accounts::start_session(std::int64_t reader_id, TimePoint now) {
  NewSession session{
      .token = random_token(), .reader_id = reader_id, .expires_at = now + options_.session_lifetime};
  auto ok = readers_.create_session({.token_hash = token_hash(session.token),
                                     .reader_id = reader_id,
                                     .created_at = now,
                                     .expires_at = session.expires_at});
  if (!ok) return std::unexpected(ok.error());
  return session;
}

Result<void> Accounts::log_out(std::string_view token) {
  if (token.empty()) return {};
  return readers_.delete_session(token_hash(token));
}

Result<std::optional<storage::SessionReader>> Accounts::reader(std::string_view token, TimePoint now) {
  // Tokens are 43 base64url characters; anything else cannot be one, so the database is not asked.
  if (token.empty() || token.size() > 128) return std::optional<storage::SessionReader>{};
  return readers_.session_reader(token_hash(token), now);
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

// --- feed apps (the Google Reader API)

Result<NewAppPassword> Accounts::create_app_password(std::int64_t reader_id, std::string_view name,
                                                     TimePoint now) {
  const std::string label = collapse_whitespace(name);
  if (label.empty() || label.size() > 60)
    return fail(ErrorKind::kInvalidInput, "accounts: bad app password name",
                "Name the app password (1 to 60 characters), to tell your apps apart.");
  // 120 random bits: a password no one types, so no length or strength rules apply to it.
  NewAppPassword created{.password = random_token(15)};
  auto hash = hash_password(created.password, options_.password_cost);
  if (!hash) return std::unexpected(hash.error());
  auto id = readers_.add_app_password(reader_id, label, *hash, now);
  if (!id) return std::unexpected(id.error());
  created.id = *id;
  return created;
}

Result<ApiLogin> Accounts::api_log_in(std::string_view email_input, std::string_view app_password,
                                      std::string_view client, TimePoint now) {
  auto email = normalize_email(email_input);
  if (!email)
    return fail(ErrorKind::kInvalidInput, "accounts: API login with a malformed address", kBadCredentials);
  if (app_password.empty() || app_password.size() > kMaxPasswordLength)
    return fail(ErrorKind::kInvalidInput, "accounts: empty or oversized app password", kBadCredentials);
  const std::string by_client = client_key(client);
  const std::string by_pair = pair_key(*email, client);
  if (auto wait = login_client_.retry_after(by_client, now)) return limited("API login per client", *wait);
  if (auto wait = login_pair_.retry_after(by_pair, now)) return limited("API login per account", *wait);

  auto account = readers_.reader_by_email(*email);
  if (!account) return std::unexpected(account.error());
  std::optional<std::int64_t> matched;
  if (*account) {
    auto passwords = readers_.app_passwords((*account)->id);
    if (!passwords) return std::unexpected(passwords.error());
    for (const auto& p : *passwords) {
      if (verify_password(p.password_hash, app_password)) {
        matched = p.id;
        break;
      }
    }
    // An account without app passwords costs one verification too, like an unknown address.
    if (passwords->empty()) static_cast<void>(verify_password(dummy_hash_, app_password));
  } else {
    static_cast<void>(verify_password(dummy_hash_, app_password));
  }
  if (!matched) {
    login_client_.record(by_client, now);
    login_pair_.record(by_pair, now);
    return fail(ErrorKind::kInvalidInput, "accounts: API login failed", kBadCredentials);
  }
  login_pair_.reset(by_pair);
  if (!(*account)->confirmed_at)
    return fail(ErrorKind::kForbidden, "accounts: API login to a pending account",
                "Confirm your address first.");
  ApiLogin login{.token = random_token(), .reader_id = (*account)->id};
  auto stored = readers_.add_api_token({.token_hash = token_hash(login.token),
                                        .app_password_id = *matched,
                                        .reader_id = login.reader_id,
                                        .created_at = now,
                                        .expires_at = now + options_.api_token_lifetime});
  if (!stored) return std::unexpected(stored.error());
  return login;
}

Result<std::optional<std::int64_t>> Accounts::api_reader(std::string_view token, TimePoint now) {
  if (token.empty() || token.size() > 128) return std::optional<std::int64_t>{};
  return readers_.api_token_reader(token_hash(token), now);
}

std::string Accounts::api_edit_token(std::string_view token) const {
  return csrf_token("api-edit:" + token_hash(token));
}

bool Accounts::api_edit_token_valid(std::string_view token, std::string_view edit_token) const {
  return csrf_valid("api-edit:" + token_hash(token), edit_token);
}

}  // namespace longread::accounts
