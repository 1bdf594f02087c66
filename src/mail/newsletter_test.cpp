// The newsletter against a real SMTP server (tests/smtp/smtp_server.py, Debian's python3-aiosmtpd) started
// on 127.0.0.1 by the test: the digest's headers and body, permanent and temporary failures, the site's
// double opt-in and one-click unsubscribe, and no duplicate after kill -9 during a send and a restart.
// Also the account mails (sign-up confirmation, "already registered", password reset) sent by the site.
#include "mail/newsletter.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <regex>
#include <thread>

#include "mail/account_mail.h"
#include "smtp/smtp_server.h"
#include "testing/test_dir.h"
#include "ui/site.h"
#include "ui/testing/fixtures.h"
#include "ui/testing/running_site.h"
#include "web/testing/client.h"

namespace longread::mail {
namespace {

namespace fs = std::filesystem;
using longread::testing::aiosmtpd_available;
using longread::testing::Child;
using longread::testing::header_value;
using longread::testing::SmtpServer;
using ::testing::HasSubstr;
using ::testing::Not;

SmtpOptions smtp_options(const std::string& url) {
  SmtpOptions options;
  options.url = url;
  options.from = "longread <news@longread.test>";
  return options;
}

class NewsletterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!aiosmtpd_available()) GTEST_SKIP() << "skipped: /usr/bin/python3 has no aiosmtpd (python3-aiosmtpd)";
    dir_ = longread::testing::fresh_test_dir("longread-mail");
    fs::create_directories(dir_);
    db_ = (dir_ / "db.sqlite").string();
    store_ = storage::open_sqlite_store(db_).value();
    ids_ = ui::testing::seed_fixtures(*store_, now_seconds()).value();
    accounts_ = accounts::Accounts::open(*store_, *store_, *store_,
                                         {.password_cost = accounts::PasswordCost::minimum()})
                    .value();
    // Votes: the recent article most, then the lock-free one.
    for (int i = 0; i < 3; ++i) {
      const auto reader =
          store_
              ->create_reader("voter" + std::to_string(i) + "@example.org", "x", now_seconds(), now_seconds())
              .value();
      ASSERT_TRUE(store_->set_vote(reader, ids_.recent_article, true, now_seconds()));
      if (i == 0) {
        ASSERT_TRUE(store_->set_vote(reader, ids_.lock_free_article, true, now_seconds()));
      }
    }
    options_.site_name = "longread";
    options_.base_url = "https://longread.test";
    options_.from = "longread <news@longread.test>";
  }
  void TearDown() override {
    accounts_.reset();
    store_.reset();
    if (!dir_.empty()) fs::remove_all(dir_);
  }
  void subscribe(const std::string& email) {
    ASSERT_TRUE(store_->add_subscriber(email, now_seconds()));
    ASSERT_TRUE(store_->confirm_subscriber(email, now_seconds()).value());
  }
  // `count` confirmed subscribers named <prefix><i>@example.org; then the database is left to the sender
  // processes (this test's store and accounts are closed), and the command line that starts one.
  std::vector<std::string> subscribers_for_senders(const std::string& prefix, int count,
                                                   const SmtpServer& smtp) {
    for (int i = 0; i < count; ++i) subscribe(prefix + std::to_string(i) + "@example.org");
    store_.reset();
    accounts_.reset();
    return {std::string(LONGREAD_BINARY_DIR) + "/src/mail/longread-newsletter-send",
            "--db",
            db_,
            "--smtp",
            smtp.url(),
            "--base-url",
            "https://longread.test",
            "--from",
            "longread <news@longread.test>"};
  }
  // How many messages each recipient got.
  static std::map<std::string, int> per_recipient(const SmtpServer& smtp) {
    std::map<std::string, int> out;
    for (const auto& [name, text] : smtp.messages()) ++out[name.substr(7)];
    return out;
  }

  fs::path dir_;
  std::string db_;
  std::unique_ptr<storage::Store> store_;
  std::unique_ptr<accounts::Accounts> accounts_;
  ui::testing::FixtureIds ids_;
  NewsletterOptions options_;
};

TEST_F(NewsletterTest, DigestHeadersBodyAndFailures) {
  SmtpServer smtp(dir_ / "mail", {"--reject", "gone@example.org=550", "--tempfail-once", "busy@example.org"});
  ASSERT_NE(smtp.port(), 0);
  subscribe("ok@example.org");
  subscribe("gone@example.org");
  subscribe("busy@example.org");
  ASSERT_TRUE(store_->add_subscriber("pending@example.org", now_seconds()));  // never confirmed
  const SmtpSender sender(smtp_options(smtp.url()));

  auto first = send_newsletter(*store_, *accounts_, sender, options_, now_seconds(), false);
  ASSERT_TRUE(first) << first.error().message;
  EXPECT_EQ(first->sent, 1);
  EXPECT_EQ(first->permanent, 1);
  EXPECT_EQ(first->temporary, 1);
  EXPECT_EQ(first->articles, 5);

  auto mails = smtp.messages_to("ok@example.org");
  ASSERT_EQ(mails.size(), 1u);
  const std::string& m = mails[0];
  EXPECT_THAT(m, HasSubstr("\r\nFrom: longread <news@longread.test>\r\n"));
  EXPECT_THAT(m, HasSubstr("\r\nTo: ok@example.org\r\n"));
  EXPECT_THAT(header_value(m, "Subject"), HasSubstr("=?UTF-8?B?"));  // "—" and "’" are not ASCII
  EXPECT_FALSE(header_value(m, "Date").empty());
  EXPECT_THAT(header_value(m, "Message-ID"), ::testing::MatchesRegex("<.*@longread.test>"));
  EXPECT_EQ(header_value(m, "MIME-Version"), "1.0");
  EXPECT_EQ(header_value(m, "Content-Type"), "text/plain; charset=utf-8");
  const std::string unsubscribe = header_value(m, "List-Unsubscribe");
  EXPECT_THAT(
      unsubscribe,
      ::testing::MatchesRegex(
          "<https://longread.test/newsletter/unsubscribe\\?email=ok%40example.org&sig=[A-Za-z0-9_-]+>, "
          "<mailto:news@longread.test\\?subject=unsubscribe>"));
  EXPECT_EQ(header_value(m, "List-Unsubscribe-Post"), "List-Unsubscribe=One-Click");
  const std::string body = m.substr(m.find("\r\n\r\n") + 4);
  // The most voted first; each with blog, excerpt, original link and site link; no tracking.
  const auto recent = store_->article(ids_.recent_article).value()->article;
  const auto lock_free = store_->article(ids_.lock_free_article).value()->article;
  EXPECT_THAT(body, HasSubstr("1. " + recent.title + "\r\n   from Field Notes on History · 3 votes\r\n"));
  EXPECT_THAT(body, HasSubstr("\r\n5. "));             // five articles of the past week
  EXPECT_THAT(body, Not(HasSubstr(lock_free.title)));  // voted, but from 2022: not this week's
  EXPECT_THAT(body, HasSubstr("   Read: " + recent.link + "\r\n"));
  EXPECT_THAT(body, HasSubstr("   On longread: https://longread.test/blog/"));
  EXPECT_THAT(body, HasSubstr("Unsubscribe with one click: "
                              "https://longread.test/newsletter/unsubscribe?email=ok%40example.org&sig="));
  EXPECT_THAT(body, Not(HasSubstr("utm_")));
  EXPECT_TRUE(smtp.messages_to("gone@example.org").empty());
  EXPECT_TRUE(smtp.messages_to("pending@example.org").empty());

  // The next run retries the temporary failure only; nobody gets the issue twice.
  auto second = send_newsletter(*store_, *accounts_, sender, options_, now_seconds(), false);
  ASSERT_TRUE(second) << second.error().message;
  EXPECT_EQ(second->sent, 1);
  EXPECT_EQ(second->skipped, 2);
  EXPECT_EQ(smtp.messages_to("busy@example.org").size(), 1u);
  EXPECT_EQ(smtp.messages_to("ok@example.org").size(), 1u);
  EXPECT_EQ(store_->count_deliveries(first->issue_id, storage::DeliveryState::kFailed).value(), 1);
  EXPECT_EQ(store_->count_deliveries(first->issue_id, storage::DeliveryState::kSent).value(), 2);

  // --dry-run prints and records nothing.
  std::string printed;
  auto dry = send_newsletter(*store_, *accounts_, sender, options_, now_seconds(), true,
                             [&](std::string_view text) { printed = text; });
  ASSERT_TRUE(dry);
  EXPECT_THAT(printed, HasSubstr("List-Unsubscribe-Post: List-Unsubscribe=One-Click"));
  EXPECT_EQ(smtp.messages().size(), 2u);
}

// A subscriber whose confirmed account muted a blog, or chose the newsletter's categories, gets their own
// five from what they chose; every other subscriber (no account, an account without filters) the issue.
TEST_F(NewsletterTest, ReadersFiltersShapeTheirOwnIssueOnly) {
  SmtpServer smtp(dir_ / "mail");
  ASSERT_NE(smtp.port(), 0);
  const SmtpSender sender(smtp_options(smtp.url()));
  const auto muter = store_->create_reader("muter@example.org", "x", now_seconds(), now_seconds()).value();
  const auto chooser =
      store_->create_reader("chooser@example.org", "x", now_seconds(), now_seconds()).value();
  ASSERT_TRUE(store_->create_reader("plain@example.org", "x", now_seconds(), now_seconds()));
  const auto recent = store_->article(ids_.recent_article).value()->article;  // history, most voted
  ASSERT_TRUE(store_->set_blog_muted(muter, recent.blog_id, true, now_seconds()));
  ASSERT_TRUE(store_->set_reader_preferences(chooser, {.newsletter_categories = {"programming"}}));
  for (const char* email :
       {"muter@example.org", "chooser@example.org", "plain@example.org", "other@example.org"})
    subscribe(email);

  auto sent = send_newsletter(*store_, *accounts_, sender, options_, now_seconds(), false);
  ASSERT_TRUE(sent) << sent.error().message;
  EXPECT_EQ(sent->sent, 4);
  auto body_of = [&](const std::string& to) {
    const auto mails = smtp.messages_to(to);
    EXPECT_EQ(mails.size(), 1u) << to;
    return mails.empty() ? std::string() : mails[0].substr(mails[0].find("\r\n\r\n") + 4);
  };
  EXPECT_THAT(body_of("plain@example.org"), HasSubstr(recent.title));
  EXPECT_THAT(body_of("other@example.org"), HasSubstr(recent.title));
  const std::string muted = body_of("muter@example.org");
  EXPECT_THAT(muted, Not(HasSubstr(recent.title)));
  EXPECT_THAT(muted, Not(HasSubstr("Field Notes on History")));
  EXPECT_THAT(muted, HasSubstr("1. "));
  const std::string chosen = body_of("chooser@example.org");
  EXPECT_THAT(chosen, Not(HasSubstr("Field Notes on History")));
  EXPECT_THAT(chosen, HasSubstr("1. "));
  // Every article of the chooser's issue is filed under programming.
  const auto chosen_articles = select_articles(*store_, now_seconds(), 5, chooser);
  ASSERT_TRUE(chosen_articles);
  for (const auto& a : *chosen_articles) EXPECT_EQ(a.article.category, "programming");

  // A second run sends nobody the issue again, personal or not.
  auto again = send_newsletter(*store_, *accounts_, sender, options_, now_seconds(), false);
  ASSERT_TRUE(again);
  EXPECT_EQ(again->sent, 0);
  EXPECT_EQ(smtp.messages().size(), 4u);
}

TEST_F(NewsletterTest, SiteDoubleOptInAndOneClickUnsubscribe) {
  SmtpServer smtp(dir_ / "mail");
  ASSERT_NE(smtp.port(), 0);
  const SmtpSender sender(smtp_options(smtp.url()));
  ui::SiteOptions site_options = ui::testing::test_site_options();
  site_options.base_url = options_.base_url;
  const NewsletterOptions options = options_;
  site_options.send_confirmation = [&sender, options](std::string_view email,
                                                      std::string_view url) -> Result<void> {
    const auto message = confirmation_message(options, email, url);
    const auto outcome =
        sender.send(email, render_message(message, now_seconds(), "confirm.1@longread.test"));
    if (!outcome.sent()) return fail(ErrorKind::kNetwork, outcome.detail);
    return {};
  };
  auto site = ui::testing::RunningSite::over(*store_, std::move(site_options));
  ASSERT_TRUE(site) << site.error().message;
  const auto port = (*site)->port();

  // The "Stay updated" form, as a browser posts it after reading the page with the token.
  auto form = web::testing::http_get(port, "/newsletter").value();
  std::string cookie;
  for (const auto& [name, value] : form.headers) {
    if (name == "Set-Cookie" || name == "set-cookie") cookie = value.substr(0, value.find(';'));
  }
  std::smatch token;
  ASSERT_TRUE(std::regex_search(form.body, token, std::regex("name=\"csrf\" value=\"([^\"]+)\"")));
  auto client = web::testing::Client::connect(port).value();
  auto posted = client.request("POST", "/newsletter",
                               {{"Cookie", cookie}, {"Content-Type", "application/x-www-form-urlencoded"}},
                               "csrf=" + std::string(token[1]) + "&email=new%40example.org");
  ASSERT_TRUE(posted);
  EXPECT_EQ(posted->status, 200) << posted->body;
  ASSERT_TRUE(smtp.wait_for(1));
  auto confirmations = smtp.messages_to("new@example.org");
  ASSERT_EQ(confirmations.size(), 1u);
  EXPECT_THAT(confirmations[0], HasSubstr("Subject: Confirm your subscription to longread\r\n"));
  std::smatch link;
  ASSERT_TRUE(std::regex_search(confirmations[0], link,
                                std::regex("https://longread.test(/newsletter/confirm\\?[^\r\n]+)")));
  EXPECT_TRUE(store_->confirmed_subscribers().value().empty());  // only confirmed addresses get the digest
  auto confirmed = web::testing::http_get(port, link[1].str()).value();
  EXPECT_EQ(confirmed.status, 200);
  ASSERT_EQ(store_->confirmed_subscribers().value().size(), 1u);

  auto sent = send_newsletter(*store_, *accounts_, sender, options_, now_seconds(), false);
  ASSERT_TRUE(sent) << sent.error().message;
  EXPECT_EQ(sent->sent, 1);
  ASSERT_TRUE(smtp.wait_for(2));
  auto digests = smtp.messages_to("new@example.org");
  ASSERT_EQ(digests.size(), 2u);
  std::smatch unsubscribe;
  const std::string header = header_value(digests[1], "List-Unsubscribe");
  ASSERT_TRUE(std::regex_search(header, unsubscribe, std::regex("<https://longread.test([^>]+)>")));
  // RFC 8058 one-click: the mail client POSTs List-Unsubscribe=One-Click, with no cookie and no token.
  auto client2 = web::testing::Client::connect(port).value();
  auto one_click =
      client2.request("POST", std::string(unsubscribe[1]),
                      {{"Content-Type", "application/x-www-form-urlencoded"}}, "List-Unsubscribe=One-Click");
  ASSERT_TRUE(one_click);
  EXPECT_EQ(one_click->status, 200);
  EXPECT_TRUE(store_->confirmed_subscribers().value().empty());
  // The body's link works with one click too (GET), and says so.
  auto page = web::testing::http_get(port, std::string(unsubscribe[1])).value();
  EXPECT_EQ(page.status, 200);
  EXPECT_THAT(page.body, HasSubstr("will get no more newsletters"));
}

// Account mails through a real SMTP server, as `serve` wires them when smtp.url is set: the sign-up
// confirmation, the "already registered" mail for a second sign-up, and the links in them working on the
// real site.
TEST_F(NewsletterTest, SiteAccountMailsConfirmAndTellRegisteredAddresses) {
  SmtpServer smtp(dir_ / "mail");
  ASSERT_NE(smtp.port(), 0);
  const SmtpSender sender(smtp_options(smtp.url()));
  ui::SiteOptions site_options = ui::testing::test_site_options();
  site_options.base_url = options_.base_url;
  const NewsletterOptions options = options_;
  site_options.send_account_mail = [&sender, options](accounts::MailKind kind, std::string_view email,
                                                      std::string_view url) -> Result<void> {
    const auto message =
        account_message(options, kind, email, url, kind == accounts::MailKind::kConfirmAccount ? 48 : 2);
    const auto outcome =
        sender.send(email, render_message(message, now_seconds(), "account.1@longread.test"));
    if (!outcome.sent()) return fail(ErrorKind::kNetwork, outcome.detail);
    return {};
  };
  auto site = ui::testing::RunningSite::over(*store_, std::move(site_options));
  ASSERT_TRUE(site) << site.error().message;
  const auto port = (*site)->port();

  // A browser's round trip: GET a form (cookie + token), POST it.
  auto submit = [port](const std::string& form_path, const std::string& action, std::string fields) {
    auto form = web::testing::http_get(port, form_path).value();
    std::string cookie;
    for (const auto& [name, value] : form.headers) {
      if (name == "Set-Cookie" || name == "set-cookie") cookie = value.substr(0, value.find(';'));
    }
    std::smatch token;
    EXPECT_TRUE(std::regex_search(form.body, token, std::regex("name=\"csrf\" value=\"([^\"]+)\"")));
    std::smatch m;
    std::string rest = form.body;
    while (std::regex_search(
        rest, m, std::regex("<input type=\"hidden\" name=\"(email|expires|sig)\" value=\"([^\"]*)\">"))) {
      fields += "&" + m[1].str() + "=" + web::url_encode(m[2].str());
      rest = m.suffix();
    }
    auto client = web::testing::Client::connect(port).value();
    return client
        .request("POST", action, {{"Cookie", cookie}, {"Content-Type", "application/x-www-form-urlencoded"}},
                 "csrf=" + web::url_encode(token[1].str()) + fields)
        .value();
  };

  auto signed_up = submit("/signup", "/signup", "&email=kim%40example.org&password=kim%27s+passphrase");
  EXPECT_EQ(signed_up.status, 200) << signed_up.body;
  ASSERT_TRUE(smtp.wait_for(1));
  auto mails = smtp.messages_to("kim@example.org");
  ASSERT_EQ(mails.size(), 1u);
  EXPECT_THAT(mails[0], HasSubstr("Subject: Confirm your account at longread\r\n"));
  EXPECT_THAT(mails[0], HasSubstr("The link works for 48 hours."));
  std::smatch link;
  ASSERT_TRUE(
      std::regex_search(mails[0], link, std::regex("https://longread.test(/account/confirm\\?[^\r\n]+)")));
  EXPECT_FALSE(store_->reader_by_email("kim@example.org").value()->confirmed_at);
  auto confirmed = submit(link[1].str(), "/account/confirm", "");
  EXPECT_EQ(confirmed.status, 303) << confirmed.body;
  bool session = false;
  for (const auto& [name, value] : confirmed.headers)
    session |= value.starts_with("lr_session=") && value.size() > 20;
  EXPECT_TRUE(session);
  EXPECT_TRUE(store_->reader_by_email("kim@example.org").value()->confirmed_at);

  // Signing up again with the address: Kim is told, with a login link and a reset link.
  auto again = submit("/signup", "/signup", "&email=kim%40example.org&password=another+passphrase");
  EXPECT_EQ(again.status, 200);
  ASSERT_TRUE(smtp.wait_for(2));
  mails = smtp.messages_to("kim@example.org");
  ASSERT_EQ(mails.size(), 2u);
  EXPECT_THAT(mails[1], HasSubstr("Subject: You already have an account at longread\r\n"));
  EXPECT_THAT(mails[1], HasSubstr("https://longread.test/login\r\n"));
  ASSERT_TRUE(
      std::regex_search(mails[1], link, std::regex("https://longread.test(/password/reset\\?[^\r\n]+)")));
  auto reset = submit(link[1].str(), "/password/reset", "&password=kim%27s+new+passphrase");
  EXPECT_EQ(reset.status, 303) << reset.body;
}

TEST_F(NewsletterTest, KillDuringSendThenRestartSendsNoDuplicates) {
  SmtpServer smtp(dir_ / "mail", {"--delay", "0.3"});
  ASSERT_NE(smtp.port(), 0);
  constexpr int kSubscribers = 8;
  const auto argv = subscribers_for_senders("s", kSubscribers, smtp);
  {
    Child first(argv);
    ASSERT_TRUE(smtp.wait_for(2));
    first.kill_now(SIGKILL);  // mid-send: a message is (most likely) in flight
  }
  const std::size_t before_restart = smtp.messages().size();
  EXPECT_LT(before_restart, static_cast<std::size_t>(kSubscribers));
  Child second(argv);
  const std::string output = second.read_all();
  EXPECT_EQ(second.wait_exit(), 0) << output;
  std::this_thread::sleep_for(std::chrono::milliseconds(500));  // a message accepted after the kill lands

  const auto mailed = per_recipient(smtp);
  for (const auto& [rcpt, count] : mailed) EXPECT_EQ(count, 1) << rcpt;
  // At most the one delivery that was in flight at the kill is given up (at most once, not at least once).
  EXPECT_GE(mailed.size(), static_cast<std::size_t>(kSubscribers - 1)) << output;
  EXPECT_THAT(output, HasSubstr("skipped"));
}

// Two sender processes at once over one database (two machines' schedulers firing together): each
// delivery is claimed by one of them (Store::claim_delivery), so every subscriber gets the issue once.
TEST_F(NewsletterTest, TwoSendersAtOnceSendEachIssueOnce) {
  SmtpServer smtp(dir_ / "mail", {"--delay", "0.1"});
  ASSERT_NE(smtp.port(), 0);
  constexpr int kSubscribers = 8;
  const auto argv = subscribers_for_senders("t", kSubscribers, smtp);
  Child first(argv);
  Child second(argv);
  const std::string first_output = first.read_all();
  const std::string second_output = second.read_all();
  EXPECT_EQ(first.wait_exit(), 0) << first_output;
  EXPECT_EQ(second.wait_exit(), 0) << second_output;
  ASSERT_TRUE(smtp.wait_for(kSubscribers));

  const auto mailed = per_recipient(smtp);
  EXPECT_EQ(mailed.size(), static_cast<std::size_t>(kSubscribers));
  for (const auto& [rcpt, count] : mailed) EXPECT_EQ(count, 1) << rcpt;
}

}  // namespace
}  // namespace longread::mail
