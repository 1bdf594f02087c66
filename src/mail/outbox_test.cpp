// The account-mail outbox against a real SMTP server (tests/smtp/smtp_server.py on Debian's
// python3-aiosmtpd) and a real SQLite file. Passes are run at chosen times (send_due(now)), so backoff and
// expiry are tested without waiting: a 4xx is retried when its backoff has passed and not before, a 5xx is
// dropped and never retried, an expired mail is dropped unsent, and a mail survives an SMTP outage.
#include "mail/outbox.h"
#include "testing/ports.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <filesystem>
#include <thread>

#include "mail/account_mail.h"
#include "smtp/smtp_server.h"
#include "storage/store.h"
#include "testing/test_dir.h"

namespace longread::mail {
namespace {

namespace fs = std::filesystem;
using longread::testing::aiosmtpd_available;
using longread::testing::header_value;
using longread::testing::SmtpServer;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

TimePoint at(std::int64_t seconds_after) {
  return from_unix(1'700'000'000 + seconds_after);
}

// A port nothing listens on (bound, read, closed): an SMTP server that is down.
int closed_port() {
  return longread::testing::unused_loopback_port();
}

SmtpSender sender_to(const std::string& url) {
  SmtpOptions options;
  options.url = url;
  options.from = "longread <accounts@longread.test>";
  return SmtpSender(options);
}

TEST(RetryDelay, DoublesFromTheFirstWaitUpToTheCap) {
  const OutboxOptions options{.retry_initial = std::chrono::seconds{60},
                              .retry_max = std::chrono::seconds{3600}};
  std::vector<long> delays;
  for (int attempts = 1; attempts <= 8; ++attempts) delays.push_back(retry_delay(attempts, options).count());
  EXPECT_THAT(delays, ElementsAre(60, 120, 240, 480, 960, 1920, 3600, 3600));
  EXPECT_EQ(retry_delay(10'000, options).count(), 3600);  // no overflow however many attempts
  EXPECT_EQ(retry_delay(3, {.retry_initial = std::chrono::seconds{1}, .retry_max = std::chrono::seconds{2}})
                .count(),
            2);
}

TEST(LogRecipient, KeepsOnlyTheDomain) {
  EXPECT_EQ(log_recipient("kim@example.org"), "*@example.org");
  EXPECT_EQ(log_recipient("no-at-sign"), "*");
}

class OutboxTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!aiosmtpd_available()) GTEST_SKIP() << "skipped: /usr/bin/python3 has no aiosmtpd (python3-aiosmtpd)";
    dir_ = longread::testing::fresh_test_dir("longread-outbox-mail");
    fs::create_directories(dir_);
    store_ = storage::open_sqlite_store((dir_ / "db.sqlite").string()).value();
  }
  void TearDown() override {
    store_.reset();
    if (!dir_.empty()) fs::remove_all(dir_);
  }

  // Queues a confirmation mail to `to` at `now`, its link valid until `not_after`.
  std::int64_t enqueue(Outbox& outbox, const std::string& to, TimePoint now, TimePoint not_after) {
    NewsletterOptions site;
    site.site_name = "Longread Test";
    site.from = "longread <accounts@longread.test>";
    const auto message = account_message(site, accounts::MailKind::kConfirmAccount, to,
                                         "https://longread.test/account/confirm?sig=abc", 48);
    auto id = outbox.enqueue(accounts::MailKind::kConfirmAccount, message, "account.1@longread.test", now,
                             not_after);
    EXPECT_TRUE(id) << id.error().message;
    return id.value_or(0);
  }
  std::vector<storage::OutboxMail> queued() { return store_->outbox_mails().value(); }

  fs::path dir_;
  std::unique_ptr<storage::Store> store_;
};

TEST_F(OutboxTest, TemporaryFailureIsRetriedOnceItsBackoffHasPassed) {
  SmtpServer smtp(dir_ / "mail", {"--tempfail-once", "kim@example.org"});
  ASSERT_NE(smtp.port(), 0);
  Outbox outbox(*store_, sender_to(smtp.url()), {.retry_initial = std::chrono::seconds{60}});
  const auto id = enqueue(outbox, "kim@example.org", at(0), at(48 * 3600));

  auto first = outbox.send_due(at(0));
  ASSERT_TRUE(first) << first.error().message;
  EXPECT_EQ(first->retry, 1);
  EXPECT_EQ(first->sent, 0);
  EXPECT_THAT(smtp.rcpt_replies("kim@example.org"), ElementsAre(451));
  auto rows = queued();
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].id, id);
  EXPECT_EQ(rows[0].attempts, 1);
  EXPECT_EQ(rows[0].next_attempt_at, at(60));
  EXPECT_THAT(rows[0].last_error, HasSubstr("451"));

  // Before the backoff has passed: nothing is tried.
  auto early = outbox.send_due(at(59));
  ASSERT_TRUE(early);
  EXPECT_EQ(early->sent + early->retry, 0);
  EXPECT_THAT(smtp.rcpt_replies("kim@example.org"), ElementsAre(451));

  auto second = outbox.send_due(at(60));
  ASSERT_TRUE(second) << second.error().message;
  EXPECT_EQ(second->sent, 1);
  EXPECT_THAT(smtp.rcpt_replies("kim@example.org"), ElementsAre(451, 250));
  ASSERT_TRUE(smtp.wait_for(1));
  const auto mails = smtp.messages_to("kim@example.org");
  ASSERT_EQ(mails.size(), 1u);
  // The message queued, as rendered then: its Message-ID and Date are those of the enqueue.
  EXPECT_EQ(header_value(mails[0], "Message-ID"), "<account.1@longread.test>");
  EXPECT_EQ(header_value(mails[0], "Date"), format_http_date(at(0)).substr(0, 25) + " +0000");
  EXPECT_EQ(header_value(mails[0], "Subject"), "Confirm your account at Longread Test");
  EXPECT_TRUE(queued().empty()) << "a sent mail (and its link) is deleted";
}

TEST_F(OutboxTest, PermanentFailureIsDroppedAndNeverRetried) {
  SmtpServer smtp(dir_ / "mail", {"--reject", "gone@example.org=550"});
  ASSERT_NE(smtp.port(), 0);
  Outbox outbox(*store_, sender_to(smtp.url()));
  enqueue(outbox, "gone@example.org", at(0), at(48 * 3600));
  enqueue(outbox, "kim@example.org", at(0), at(48 * 3600));

  auto pass = outbox.send_due(at(0));
  ASSERT_TRUE(pass) << pass.error().message;
  EXPECT_EQ(pass->refused, 1);
  EXPECT_EQ(pass->sent, 1);
  EXPECT_TRUE(queued().empty());
  for (const auto later : {at(60), at(3600), at(40 * 3600)}) {
    auto again = outbox.send_due(later);
    ASSERT_TRUE(again);
    EXPECT_EQ(again->sent + again->retry + again->refused, 0);
  }
  EXPECT_THAT(smtp.rcpt_replies("gone@example.org"), ElementsAre(550));
  EXPECT_THAT(smtp.rcpt_replies("kim@example.org"), ElementsAre(250));
  EXPECT_TRUE(smtp.messages_to("gone@example.org").empty());
}

TEST_F(OutboxTest, ExpiredMailIsDroppedUnsent) {
  SmtpServer smtp(dir_ / "mail");
  ASSERT_NE(smtp.port(), 0);
  Outbox outbox(*store_, sender_to(smtp.url()));
  enqueue(outbox, "late@example.org", at(0), at(7200));
  enqueue(outbox, "kim@example.org", at(0), at(48 * 3600));

  auto pass = outbox.send_due(at(7200));  // the reset link of the first has just expired
  ASSERT_TRUE(pass) << pass.error().message;
  EXPECT_EQ(pass->expired, 1);
  EXPECT_EQ(pass->sent, 1);
  EXPECT_TRUE(queued().empty());
  EXPECT_TRUE(smtp.rcpt_replies("late@example.org").empty());
  EXPECT_EQ(smtp.messages_to("kim@example.org").size(), 1u);
}

TEST_F(OutboxTest, RetryThatWouldComeAfterTheLinkExpiresDropsTheMail) {
  const std::string down = "smtp://127.0.0.1:" + std::to_string(closed_port());
  Outbox outbox(*store_, sender_to(down), {.retry_initial = std::chrono::seconds{60}});
  enqueue(outbox, "kim@example.org", at(0), at(30));
  auto pass = outbox.send_due(at(0));
  ASSERT_TRUE(pass) << pass.error().message;
  EXPECT_EQ(pass->expired, 1);
  EXPECT_EQ(pass->retry, 0);
  EXPECT_TRUE(queued().empty());
}

TEST_F(OutboxTest, MailQueuedWhileTheServerIsDownIsSentWhenItComesUp) {
  const int port = closed_port();
  ASSERT_NE(port, 0);
  Outbox outbox(*store_, sender_to("smtp://127.0.0.1:" + std::to_string(port)),
                {.retry_initial = std::chrono::seconds{60}, .retry_max = std::chrono::seconds{3600}});
  enqueue(outbox, "kim@example.org", at(0), at(48 * 3600));

  // Connection refused, three times: temporary, with the wait doubling.
  for (const auto& [now, next] : {std::pair{0, 60}, std::pair{60, 180}, std::pair{180, 420}}) {
    auto pass = outbox.send_due(at(now));
    ASSERT_TRUE(pass) << pass.error().message;
    EXPECT_EQ(pass->retry, 1) << "at " << now;
    ASSERT_EQ(queued().size(), 1u);
    EXPECT_EQ(queued()[0].next_attempt_at, at(next));
  }
  SmtpServer smtp(dir_ / "mail", {"--port", std::to_string(port)});
  ASSERT_EQ(smtp.port(), port) << "smtp_server.py could not take the port back";
  auto pass = outbox.send_due(at(420));
  ASSERT_TRUE(pass) << pass.error().message;
  EXPECT_EQ(pass->sent, 1);
  EXPECT_EQ(smtp.messages_to("kim@example.org").size(), 1u);
  EXPECT_TRUE(queued().empty());
}

TEST_F(OutboxTest, RunSendsWhatIsQueuedWithoutBeingAsked) {
  SmtpServer smtp(dir_ / "mail");
  ASSERT_NE(smtp.port(), 0);
  Outbox outbox(*store_, sender_to(smtp.url()));
  {
    std::jthread sender([&outbox](std::stop_token stop) { outbox.run(stop); });
    enqueue(outbox, "kim@example.org", now_seconds(), now_seconds() + std::chrono::hours(48));
    ASSERT_TRUE(smtp.wait_for(1, std::chrono::seconds(60))) << "run() did not send the queued mail";
  }  // the jthread asks run() to stop and joins it
  EXPECT_EQ(smtp.messages_to("kim@example.org").size(), 1u);
  EXPECT_TRUE(queued().empty());
}

}  // namespace
}  // namespace longread::mail
