// Accounts over a real SQLite store: validation, Argon2id, sessions, rate limits, CSRF tokens, links.
// The limiter itself has its own tests (rate_limiter_test.cpp).
#include "accounts/accounts.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "accounts/validate.h"
#include "storage/store.h"
#include "testing/test_dir.h"

namespace longread::accounts {
namespace {

namespace fs = std::filesystem;
using std::chrono::minutes;

TimePoint t0() {
  return from_unix(1'700'000'000);
}

TEST(Validate, Emails) {
  EXPECT_EQ(normalize_email("  ada@example.org ").value(), "ada@example.org");
  EXPECT_TRUE(normalize_email("o'brien+news@mail.example.co.uk"));
  for (const char* bad :
       {"", "ada", "ada@", "@example.org", "ada@example", "a..b@example.org", ".a@example.org", "ada@-x.org",
        "<script>@x.org", "a b@example.org", "x@example.org'; DROP TABLE readers;--", "ada@exa_mple.org"}) {
    auto r = normalize_email(bad);
    ASSERT_FALSE(r) << bad;
    EXPECT_EQ(r.error().kind, ErrorKind::kInvalidInput);
    EXPECT_FALSE(r.error().user_message.empty());
  }
  auto huge = normalize_email(std::string(10'000, 'a') + "@example.org");
  ASSERT_FALSE(huge);
  EXPECT_EQ(huge.error().user_message, "That email address is too long.");
}

TEST(Validate, Passwords) {
  EXPECT_FALSE(check_password("123456789"));
  EXPECT_TRUE(check_password("1234567890"));
  EXPECT_FALSE(check_password("ééééé"));  // 10 bytes, 5 characters
  EXPECT_FALSE(check_password(std::string(2000, 'x')));
}

// An API token check: only the exact configured secret passes, whatever its length or prefix.
TEST(Crypto, SecretsEqualOnlyForTheExactSecret) {
  EXPECT_TRUE(secrets_equal("s3cret-token", "s3cret-token"));
  EXPECT_FALSE(secrets_equal("s3cret-toke", "s3cret-token"));
  EXPECT_FALSE(secrets_equal("s3cret-token-and-more", "s3cret-token"));
  EXPECT_FALSE(secrets_equal("S3cret-token", "s3cret-token"));
  EXPECT_FALSE(secrets_equal("", "s3cret-token"));
  EXPECT_FALSE(secrets_equal(std::string_view("s3cret-token\0", 13), "s3cret-token"));
}

TEST(Crypto, PasswordsTokensAndMacs) {
  auto hash = hash_password("correct horse battery", PasswordCost::minimum());
  ASSERT_TRUE(hash);
  EXPECT_TRUE(hash->starts_with("$argon2id$"));
  EXPECT_TRUE(verify_password(*hash, "correct horse battery"));
  EXPECT_FALSE(verify_password(*hash, "correct horse battery!"));
  EXPECT_FALSE(verify_password("garbage", "x"));
  EXPECT_NE(random_token(), random_token());
  EXPECT_EQ(random_token().size(), 43u);
  EXPECT_EQ(token_hash("abc"), token_hash("abc"));
  EXPECT_EQ(token_hash("abc").size(), 64u);
  const Key key = derive_key(key_from_hex(new_master_key_hex()).value(), 1);
  const std::string tag = mac(key, "hello");
  EXPECT_TRUE(mac_valid(key, "hello", tag));
  EXPECT_FALSE(mac_valid(key, "hellp", tag));
  EXPECT_FALSE(mac_valid(key, "hello", tag.substr(1)));
  EXPECT_FALSE(mac_valid(key, "hello", std::string(5000, 'A')));
}

class AccountsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = longread::testing::fresh_test_dir("longread-accounts");
    fs::create_directories(dir_);
    store_ = storage::open_sqlite_store((dir_ / "db.sqlite").string()).value();
    AccountsOptions options;
    options.password_cost = PasswordCost::minimum();
    options.login_failures_per_account_client = 3;
    options.session_lifetime = std::chrono::hours(1);
    accounts_ = Accounts::open(*store_, *store_, *store_, options).value();
  }
  void TearDown() override {
    accounts_.reset();
    store_.reset();
    fs::remove_all(dir_);
  }
  fs::path dir_;
  std::unique_ptr<storage::Store> store_;
  std::unique_ptr<Accounts> accounts_;
};

TEST_F(AccountsTest, SignUpLogInLogOut) {
  auto signed_up = accounts_->sign_up("Ada@Example.org", "a long passphrase", "10.0.0.1", t0());
  ASSERT_TRUE(signed_up) << signed_up.error().message;
  ASSERT_TRUE(signed_up->session);  // no mail: the account works at once
  EXPECT_FALSE(signed_up->mail);
  const NewSession* created = &*signed_up->session;
  auto who = accounts_->reader(created->token, t0());
  ASSERT_TRUE(who && *who);
  EXPECT_EQ((*who)->email, "Ada@Example.org");
  // The stored hash is Argon2id, and the token itself is nowhere in the database.
  EXPECT_TRUE(store_->reader_by_email("ada@example.org").value()->password_hash.starts_with("$argon2id$"));
  EXPECT_FALSE(store_->session_reader(created->token, t0()).value());

  auto login = accounts_->log_in("ada@example.ORG", "a long passphrase", "10.0.0.2", t0());
  ASSERT_TRUE(login) << login.error().message;
  EXPECT_NE(login->token, created->token);
  ASSERT_TRUE(accounts_->log_out(login->token));
  EXPECT_FALSE(accounts_->reader(login->token, t0()).value());
  EXPECT_TRUE(accounts_->reader(created->token, t0()).value());  // other sessions live on
  // Sessions expire.
  EXPECT_FALSE(accounts_->reader(created->token, t0() + std::chrono::hours(1)).value());
  EXPECT_FALSE(accounts_->reader("forged", t0()).value());
}

TEST_F(AccountsTest, LoginFailuresSayTheSameForUnknownEmails) {
  ASSERT_TRUE(accounts_->sign_up("ada@example.org", "a long passphrase", "10.0.0.1", t0()));
  auto wrong = accounts_->log_in("ada@example.org", "not the passphrase", "10.0.0.1", t0());
  auto unknown = accounts_->log_in("nobody@example.org", "not the passphrase", "10.0.0.1", t0());
  ASSERT_FALSE(wrong);
  ASSERT_FALSE(unknown);
  EXPECT_EQ(wrong.error().kind, unknown.error().kind);
  EXPECT_EQ(wrong.error().user_message, unknown.error().user_message);
  EXPECT_EQ(wrong.error().user_message, "Email or password is incorrect.");
}

TEST_F(AccountsTest, LoginLimitsCountAnAccountPerClientSoNobodyCanLockOutItsOwner) {
  ASSERT_TRUE(accounts_->sign_up("ada@example.org", "a long passphrase", "10.0.0.1", t0()));
  // Wrong passwords for Ada from many clients (3 is this fixture's limit per account and client): each
  // client has had one try, and Ada's right password from her own client still logs in.
  for (int i = 0; i < 5; ++i) {
    auto wrong =
        accounts_->log_in("ada@example.org", "wrong password", "10.0.0." + std::to_string(10 + i), t0());
    ASSERT_FALSE(wrong);
    EXPECT_EQ(wrong.error().kind, ErrorKind::kInvalidInput);
  }
  EXPECT_TRUE(accounts_->log_in("ada@example.org", "a long passphrase", "10.0.0.1", t0() + minutes(1)));

  // One client guessing Ada's password: after three misses it waits, even with the right one; Ada from
  // her own client does not.
  for (int i = 0; i < 3; ++i) EXPECT_FALSE(accounts_->log_in("ada@example.org", "guess", "10.6.6.6", t0()));
  auto limited = accounts_->log_in("ada@example.org", "a long passphrase", "10.6.6.6", t0() + minutes(1));
  ASSERT_FALSE(limited);
  EXPECT_EQ(limited.error().kind, ErrorKind::kRateLimited);
  EXPECT_EQ(limited.error().user_message, "Too many attempts. Try again in 14 minutes.");
  EXPECT_TRUE(accounts_->log_in("ada@example.org", "a long passphrase", "10.0.0.1", t0() + minutes(1)));
  EXPECT_TRUE(accounts_->log_in("ada@example.org", "a long passphrase", "10.6.6.6", t0() + minutes(15)));

  // Per client, over many accounts: 50 failures (the default), then that client waits; others do not.
  for (int i = 0; i < 50; ++i) {
    EXPECT_FALSE(
        accounts_->log_in("u" + std::to_string(i) + "@example.org", "wrong password", "10.9.9.9", t0()));
  }
  auto still = accounts_->log_in("zz@example.org", "wrong password", "10.9.9.9", t0() + minutes(1));
  ASSERT_FALSE(still);
  EXPECT_EQ(still.error().kind, ErrorKind::kRateLimited);
  EXPECT_FALSE(accounts_->log_in("ada@example.org", "a long passphrase", "10.9.9.9", t0() + minutes(1)));
  EXPECT_TRUE(accounts_->log_in("ada@example.org", "a long passphrase", "10.0.0.1", t0() + minutes(1)));
  EXPECT_TRUE(accounts_->log_in("ada@example.org", "a long passphrase", "10.9.9.9", t0() + minutes(20)));
}

TEST_F(AccountsTest, SignUpChecksInputAndExistingAccounts) {
  auto short_password = accounts_->sign_up("ada@example.org", "short", "10.0.0.1", t0());
  ASSERT_FALSE(short_password);
  EXPECT_EQ(short_password.error().user_message, "Please choose a password of at least 10 characters.");
  EXPECT_FALSE(store_->reader_by_email("ada@example.org").value());
  ASSERT_TRUE(accounts_->sign_up("ada@example.org", "a long passphrase", "10.0.0.1", t0()));
  auto again = accounts_->sign_up("ADA@example.org", "a long passphrase", "10.0.0.1", t0());
  ASSERT_TRUE(again && again->session);  // logs in
  auto other = accounts_->sign_up("ada@example.org", "another passphrase", "10.0.0.1", t0());
  ASSERT_FALSE(other);
  EXPECT_EQ(other.error().kind, ErrorKind::kInvalidInput);
}

TEST_F(AccountsTest, ChangePasswordEndsEverySessionAndDeleteTakesTheAccount) {
  auto first =
      accounts_->sign_up("ada@example.org", "a long passphrase", "10.0.0.1", t0()).value().session.value();
  auto other = accounts_->log_in("ada@example.org", "a long passphrase", "10.0.0.2", t0()).value();

  auto wrong = accounts_->change_password("ada@example.org", "not my passphrase", "a new passphrase", t0());
  ASSERT_FALSE(wrong);
  EXPECT_EQ(wrong.error().user_message, "The current password is incorrect.");
  auto weak = accounts_->change_password("ada@example.org", "a long passphrase", "short", t0());
  ASSERT_FALSE(weak);
  EXPECT_EQ(weak.error().kind, ErrorKind::kInvalidInput);
  EXPECT_TRUE(accounts_->reader(other.token, t0()).value());  // nothing changed yet

  auto moved = accounts_->change_password("ADA@example.org", "a long passphrase", "a new passphrase", t0());
  ASSERT_TRUE(moved) << moved.error().message;
  EXPECT_TRUE(accounts_->reader(moved->token, t0()).value());
  EXPECT_FALSE(accounts_->reader(first.token, t0()).value());
  EXPECT_FALSE(accounts_->reader(other.token, t0()).value());
  EXPECT_FALSE(accounts_->log_in("ada@example.org", "a long passphrase", "10.0.0.3", t0()));
  EXPECT_TRUE(accounts_->log_in("ada@example.org", "a new passphrase", "10.0.0.3", t0()));

  // Ending the other sessions keeps this browser logged in with a new session.
  auto elsewhere = accounts_->log_in("ada@example.org", "a new passphrase", "10.0.0.4", t0()).value();
  auto here = accounts_->end_other_sessions(moved->reader_id, t0());
  ASSERT_TRUE(here);
  EXPECT_FALSE(accounts_->reader(elsewhere.token, t0()).value());
  EXPECT_TRUE(accounts_->reader(here->token, t0()).value());

  // Wrong passwords count as failed logins of the account: three (this fixture's limit), then a wait.
  EXPECT_FALSE(accounts_->delete_account("ada@example.org", "guess one", t0()));
  EXPECT_FALSE(accounts_->delete_account("ada@example.org", "guess two", t0()));
  EXPECT_FALSE(accounts_->delete_account("ada@example.org", "guess three", t0()));
  auto limited = accounts_->delete_account("ada@example.org", "a new passphrase", t0());
  ASSERT_FALSE(limited);
  EXPECT_EQ(limited.error().kind, ErrorKind::kRateLimited);
  ASSERT_TRUE(accounts_->delete_account("ada@example.org", "a new passphrase", t0() + minutes(16)));
  EXPECT_FALSE(store_->reader_by_email("ada@example.org").value());
  EXPECT_FALSE(accounts_->reader(here->token, t0() + minutes(16)).value());
  // The address is free again.
  EXPECT_TRUE(accounts_->sign_up("ada@example.org", "a third passphrase", "10.0.0.1", t0() + minutes(17)));
}

TEST_F(AccountsTest, CsrfTokensAndSignedLinks) {
  const std::string token = accounts_->csrf_token("session-a");
  EXPECT_TRUE(accounts_->csrf_valid("session-a", token));
  EXPECT_FALSE(accounts_->csrf_valid("session-b", token));
  EXPECT_FALSE(accounts_->csrf_valid("session-a", ""));
  EXPECT_FALSE(accounts_->csrf_valid("", token));
  // Another Accounts over the same database shares the key (serve and `newsletter send`).
  auto again = Accounts::open(*store_, *store_, *store_, {.password_cost = PasswordCost::minimum()}).value();
  EXPECT_TRUE(again->csrf_valid("session-a", token));

  const auto expires = to_unix(t0()) + 3600;
  const std::string sig = accounts_->link_signature("confirm", "Ada@example.org", expires);
  EXPECT_TRUE(accounts_->link_valid("confirm", "ada@example.org", expires, sig, t0()));
  EXPECT_FALSE(
      accounts_->link_valid("confirm", "ada@example.org", expires, sig, t0() + std::chrono::hours(1)));
  EXPECT_FALSE(accounts_->link_valid("unsubscribe", "ada@example.org", expires, sig, t0()));
  EXPECT_FALSE(accounts_->link_valid("confirm", "eve@example.org", expires, sig, t0()));
  EXPECT_FALSE(accounts_->link_valid("confirm", "ada@example.org", expires + 1, sig, t0()));
  const std::string forever = accounts_->link_signature("unsubscribe", "ada@example.org", 0);
  EXPECT_TRUE(
      accounts_->link_valid("unsubscribe", "ada@example.org", 0, forever, t0() + std::chrono::days(3650)));
}

// Accounts confirmed by mail (the site sends mail): sign-ups answer alike for new, pending and confirmed
// addresses, and the mailed links confirm or reset.
// Feed apps log in with an app password, never the account password; the token and its edit token work
// until the app password is revoked.
TEST_F(AccountsTest, AppPasswordsLogAppsInUntilRevoked) {
  auto signed_up = accounts_->sign_up("ada@example.org", "a long passphrase", "10.0.0.1", t0());
  ASSERT_TRUE(signed_up);
  const std::int64_t reader = signed_up->session->reader_id;
  EXPECT_EQ(accounts_->create_app_password(reader, "  ", t0()).error().kind, ErrorKind::kInvalidInput);
  auto app = accounts_->create_app_password(reader, "newsboat on the laptop", t0());
  ASSERT_TRUE(app) << app.error().message;
  EXPECT_GE(app->password.size(), 20u);
  const auto stored = store_->app_passwords(reader).value();
  ASSERT_EQ(stored.size(), 1u);
  EXPECT_TRUE(stored[0].password_hash.starts_with("$argon2id$"));
  EXPECT_EQ(stored[0].password_hash.find(app->password), std::string::npos);

  // The account password is not an app password.
  auto with_account_password =
      accounts_->api_log_in("ada@example.org", "a long passphrase", "10.0.0.9", t0());
  ASSERT_FALSE(with_account_password);
  EXPECT_EQ(with_account_password.error().display(), "Email or password is incorrect.");
  auto unknown = accounts_->api_log_in("nobody@example.org", app->password, "10.0.0.9", t0());
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error().display(), with_account_password.error().display());

  auto login = accounts_->api_log_in("Ada@Example.org", app->password, "10.0.0.2", t0());
  ASSERT_TRUE(login) << login.error().message;
  EXPECT_EQ(accounts_->api_reader(login->token, t0()).value(), reader);
  EXPECT_FALSE(accounts_->api_reader(login->token, t0() + std::chrono::days(31)).value());
  EXPECT_FALSE(accounts_->api_reader("forged", t0()).value());
  const std::string edit = accounts_->api_edit_token(login->token);
  EXPECT_TRUE(accounts_->api_edit_token_valid(login->token, edit));
  EXPECT_FALSE(accounts_->api_edit_token_valid("another token", edit));
  EXPECT_FALSE(accounts_->api_edit_token_valid(login->token, edit + "x"));

  ASSERT_TRUE(store_->revoke_app_password(reader, app->id));
  EXPECT_FALSE(accounts_->api_reader(login->token, t0()).value());
  EXPECT_FALSE(accounts_->api_log_in("ada@example.org", app->password, "10.0.0.2", t0()));
}

// ClientLogin counts failures like the login form: an attacker guessing app passwords is stopped the same.
TEST_F(AccountsTest, AppLoginFailuresAreRateLimitedLikeLogins) {
  auto signed_up = accounts_->sign_up("bob@example.org", "a long passphrase", "10.0.0.1", t0());
  ASSERT_TRUE(signed_up);
  auto app = accounts_->create_app_password(signed_up->session->reader_id, "app", t0());
  ASSERT_TRUE(app);
  for (int i = 0; i < 3; ++i)
    EXPECT_FALSE(accounts_->api_log_in("bob@example.org", "guess", "10.6.6.6", t0()));
  auto limited = accounts_->api_log_in("bob@example.org", app->password, "10.6.6.6", t0());
  ASSERT_FALSE(limited);
  EXPECT_EQ(limited.error().kind, ErrorKind::kRateLimited);
  // Its owner, from their own address, is not locked out.
  EXPECT_TRUE(accounts_->api_log_in("bob@example.org", app->password, "10.0.0.1", t0()));
}

class MailedAccountsTest : public AccountsTest {
 protected:
  void SetUp() override {
    AccountsTest::SetUp();
    AccountsOptions options;
    options.password_cost = PasswordCost::minimum();
    options.confirm_by_mail = true;
    options.session_lifetime = std::chrono::hours(1);
    options.resets_per_account_client = 3;
    accounts_ = Accounts::open(*store_, *store_, *store_, options).value();
  }
  AccountMail sign_up(const std::string& email, const std::string& password, TimePoint at = t0()) {
    auto result = accounts_->sign_up(email, password, "10.0.0.1", at);
    EXPECT_TRUE(result) << (result ? "" : result.error().message);
    if (!result) return {};
    EXPECT_FALSE(result->session);  // nobody is logged in before the address answers
    EXPECT_TRUE(result->mail);
    return result->mail.value_or(AccountMail{});
  }
};

TEST_F(MailedAccountsTest, SignUpMakesAPendingAccountThatTheMailedLinkConfirms) {
  const AccountMail mail = sign_up("Ada@Example.org", "a long passphrase");
  EXPECT_EQ(mail.kind, MailKind::kConfirmAccount);
  EXPECT_EQ(mail.email, "Ada@Example.org");
  EXPECT_EQ(mail.expires, to_unix(t0() + std::chrono::hours(48)));
  EXPECT_FALSE(store_->reader_by_email("ada@example.org").value()->confirmed_at);

  // Before confirming, the right password does not log in, and says why; a wrong one gets the usual.
  auto early = accounts_->log_in("ada@example.org", "a long passphrase", "10.0.0.1", t0());
  ASSERT_FALSE(early);
  EXPECT_EQ(early.error().kind, ErrorKind::kForbidden);
  EXPECT_EQ(accounts_->log_in("ada@example.org", "wrong passphrase", "10.0.0.1", t0()).error().user_message,
            "Email or password is incorrect.");

  // A tampered, expired or other-purpose link: rejected, nothing confirmed.
  EXPECT_EQ(accounts_->confirm("ada@example.org", mail.expires + 1, mail.signature, t0()).error().kind,
            ErrorKind::kForbidden);
  EXPECT_FALSE(accounts_->confirm("ada@example.org", mail.expires, mail.signature, from_unix(mail.expires)));
  EXPECT_FALSE(accounts_->confirm("eve@example.org", mail.expires, mail.signature, t0()));
  EXPECT_FALSE(accounts_->reset_link_valid("ada@example.org", mail.expires, mail.signature, t0()).value());
  EXPECT_FALSE(store_->reader_by_email("ada@example.org").value()->confirmed_at);

  auto session = accounts_->confirm("ADA@example.org", mail.expires, mail.signature, t0() + minutes(5));
  ASSERT_TRUE(session) << session.error().message;
  EXPECT_EQ(accounts_->reader(session->token, t0() + minutes(5)).value()->email, "Ada@Example.org");
  EXPECT_EQ(store_->reader_by_email("ada@example.org").value()->confirmed_at, t0() + minutes(5));
  EXPECT_TRUE(accounts_->log_in("ada@example.org", "a long passphrase", "10.0.0.1", t0() + minutes(6)));
  // The link may be opened twice (mail scanners, a second click); it confirms nothing new.
  EXPECT_TRUE(accounts_->confirm("ada@example.org", mail.expires, mail.signature, t0() + minutes(7)));
}

TEST_F(MailedAccountsTest, SignUpAnswersAlikeForNewPendingAndConfirmedAddresses) {
  const AccountMail first = sign_up("ada@example.org", "a long passphrase");
  ASSERT_TRUE(accounts_->confirm("ada@example.org", first.expires, first.signature, t0()));
  const auto stored_hash = store_->reader_by_email("ada@example.org").value()->password_hash;

  // Someone else signs up with Ada's address: the same kind of answer (a mail, no session), but the mail
  // tells Ada she already has an account, and her password is untouched.
  const AccountMail taken = sign_up("ada@example.org", "the stranger's passphrase");
  EXPECT_EQ(taken.kind, MailKind::kAlreadyRegistered);
  EXPECT_EQ(store_->reader_by_email("ada@example.org").value()->password_hash, stored_hash);
  EXPECT_FALSE(accounts_->log_in("ada@example.org", "the stranger's passphrase", "10.0.0.2", t0()));
  // Its link is a password-reset link for Ada, not a confirmation.
  EXPECT_TRUE(accounts_->reset_link_valid("ada@example.org", taken.expires, taken.signature, t0()).value());
  EXPECT_FALSE(accounts_->confirm("ada@example.org", taken.expires, taken.signature, t0()));

  // A stranger signs up first with Bob's address; Bob then signs up himself. The newest sign-up's
  // password is the account's, and only the newest link confirms it. Within the hour Bob gets no second
  // mail (one per address and hour), but the stranger's link is void all the same.
  const AccountMail strangers = sign_up("bob@example.org", "the stranger's passphrase");
  auto too_soon =
      accounts_->sign_up("bob@example.org", "bob's own passphrase", "10.0.0.3", t0() + minutes(1));
  ASSERT_TRUE(too_soon);
  EXPECT_FALSE(too_soon->mail);
  EXPECT_FALSE(too_soon->session);
  EXPECT_FALSE(
      accounts_->confirm("bob@example.org", strangers.expires, strangers.signature, t0() + minutes(2)));
  const AccountMail bobs = sign_up("bob@example.org", "bob's own passphrase", t0() + minutes(61));
  EXPECT_EQ(bobs.kind, MailKind::kConfirmAccount);
  ASSERT_TRUE(accounts_->confirm("bob@example.org", bobs.expires, bobs.signature, t0() + minutes(62)));
  EXPECT_TRUE(accounts_->log_in("bob@example.org", "bob's own passphrase", "10.0.0.3", t0() + minutes(63)));
  EXPECT_FALSE(
      accounts_->log_in("bob@example.org", "the stranger's passphrase", "10.0.0.4", t0() + minutes(63)));

  // Input errors still say what is wrong; they say nothing about accounts.
  auto short_password = accounts_->sign_up("ada@example.org", "short", "10.0.0.1", t0());
  ASSERT_FALSE(short_password);
  EXPECT_EQ(short_password.error().kind, ErrorKind::kInvalidInput);
}

TEST_F(MailedAccountsTest, PasswordResetWorksOnceAndEndsEverySession) {
  const AccountMail mail = sign_up("ada@example.org", "a long passphrase");
  const auto first_session =
      accounts_->confirm("ada@example.org", mail.expires, mail.signature, t0()).value();
  const auto second_session =
      accounts_->log_in("ada@example.org", "a long passphrase", "10.0.0.1", t0()).value();

  // Unknown addresses get no mail (the page answers alike); known ones get a link for 2 hours.
  auto none = accounts_->request_password_reset("nobody@example.org", "10.0.0.1", t0());
  ASSERT_TRUE(none);
  EXPECT_FALSE(*none);
  auto reset = accounts_->request_password_reset("ADA@example.org", "10.0.0.1", t0());
  ASSERT_TRUE(reset && *reset) << (reset ? "no mail" : reset.error().message);
  EXPECT_EQ((*reset)->kind, MailKind::kPasswordReset);
  EXPECT_EQ((*reset)->expires, to_unix(t0() + std::chrono::hours(2)));
  const auto& link = **reset;
  EXPECT_TRUE(accounts_->reset_link_valid("ada@example.org", link.expires, link.signature, t0()).value());
  EXPECT_FALSE(
      accounts_->confirm("ada@example.org", link.expires, link.signature, t0()));  // not a confirmation

  auto too_short = accounts_->reset_password("ada@example.org", link.expires, link.signature, "short", t0());
  ASSERT_FALSE(too_short);
  EXPECT_EQ(too_short.error().user_message, "Please choose a password of at least 10 characters.");
  auto expired = accounts_->reset_password("ada@example.org", link.expires, link.signature,
                                           "a new passphrase", from_unix(link.expires));
  ASSERT_FALSE(expired);
  EXPECT_EQ(expired.error().kind, ErrorKind::kForbidden);
  EXPECT_EQ(expired.error().user_message, "This link is not valid or has expired.");

  auto session =
      accounts_->reset_password("ada@example.org", link.expires, link.signature, "a new passphrase", t0());
  ASSERT_TRUE(session) << session.error().message;
  EXPECT_TRUE(accounts_->reader(session->token, t0()).value());
  EXPECT_FALSE(accounts_->reader(first_session.token, t0()).value());  // every other session ended
  EXPECT_FALSE(accounts_->reader(second_session.token, t0()).value());
  EXPECT_FALSE(accounts_->log_in("ada@example.org", "a long passphrase", "10.0.0.1", t0()));
  EXPECT_TRUE(accounts_->log_in("ada@example.org", "a new passphrase", "10.0.0.1", t0()));
  // The link worked once: the password it was signed over is gone.
  EXPECT_FALSE(accounts_->reset_link_valid("ada@example.org", link.expires, link.signature, t0()).value());
  EXPECT_FALSE(
      accounts_->reset_password("ada@example.org", link.expires, link.signature, "a third passphrase", t0()));

  // Requests are rate-limited per address from one client (3 per hour here; one was made above), and
  // never for the address as a whole: Ada asking from her own client is answered.
  ASSERT_TRUE(accounts_->request_password_reset("ada@example.org", "10.0.0.1", t0()));
  ASSERT_TRUE(accounts_->request_password_reset("ada@example.org", "10.0.0.1", t0()));
  auto limited = accounts_->request_password_reset("ada@example.org", "10.0.0.1", t0());
  ASSERT_FALSE(limited);
  EXPECT_EQ(limited.error().kind, ErrorKind::kRateLimited);
  // Other clients are answered, but within the hour of the last reset mail no new one goes, whoever asks.
  for (int i = 0; i < 5; ++i) {
    auto again = accounts_->request_password_reset("ada@example.org", "10.0.1." + std::to_string(i), t0());
    ASSERT_TRUE(again) << again.error().message;
    EXPECT_FALSE(*again);
  }
  auto next_hour = accounts_->request_password_reset("ada@example.org", "10.0.0.8", t0() + minutes(60));
  ASSERT_TRUE(next_hour && *next_hour);
  EXPECT_EQ(accounts_->request_password_reset("not an address", "10.0.0.7", t0()).error().kind,
            ErrorKind::kInvalidInput);
}

TEST_F(MailedAccountsTest, AResetLinkConfirmsAPendingAccount) {
  sign_up("ada@example.org", "a long passphrase");
  auto reset = accounts_->request_password_reset("ada@example.org", "10.0.0.1", t0()).value();
  ASSERT_TRUE(reset);
  ASSERT_TRUE(accounts_->reset_password("ada@example.org", reset->expires, reset->signature,
                                        "a new passphrase", t0() + minutes(1)));
  EXPECT_EQ(store_->reader_by_email("ada@example.org").value()->confirmed_at, t0() + minutes(1));
  EXPECT_TRUE(accounts_->log_in("ada@example.org", "a new passphrase", "10.0.0.1", t0() + minutes(2)));
}

}  // namespace
}  // namespace longread::accounts
