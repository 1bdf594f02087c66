// The account-mail outbox end to end: the real `longread serve` (smtp.url set, retry waits of 1 to 2 s
// through smtp.retry_initial_seconds / smtp.retry_max_seconds), a real SMTP server (tests/smtp/
// smtp_server.py on Debian's python3-aiosmtpd) that the test starts late, stops or makes answer 4xx/5xx,
// and the real database file. (1) A sign-up while the SMTP server is down is answered, and its mail is sent
// once the server is up, without a restart; (2) a 4xx is retried, a 5xx is dropped and not retried;
// (3) serve killed (SIGKILL) with a mail queued: the next serve sends it; (4) an expired mail is dropped
// unsent; (5) the newsletter's double opt-in goes through the same outbox: a subscription while the SMTP
// server is down is answered as when it is up, and its mail is sent once the server is up. Outcomes are
// polled for with generous deadlines, never timed.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <regex>
#include <sstream>
#include <string>
#include <thread>

#include "smtp/smtp_server.h"
#include "storage/store.h"
#include "testing/ports.h"
#include "testing/test_dir.h"
#include "web/http.h"
#include "web/testing/client.h"

namespace {

namespace fs = std::filesystem;
using longread::testing::aiosmtpd_available;
using longread::testing::Child;
using longread::testing::header_value;
using longread::testing::SmtpServer;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

// Argon2id at serve's "interactive" cost, and a sanitizer build, make a sign-up slow: a generous deadline
// per request and per outcome, never a limit on how fast anything must be.
constexpr auto kRequestTimeout = std::chrono::seconds(60);
constexpr auto kDeadline = std::chrono::seconds(90);

// A port that was free a moment ago (for serve's listen address, and for an SMTP server that is not up
// yet: nothing listens there until the test starts it).
int free_port() {
  return longread::testing::unused_loopback_port();
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Polls `done` until it holds or the deadline passes.
bool eventually(const std::function<bool()>& done, std::chrono::seconds deadline = kDeadline) {
  for (const auto end = std::chrono::steady_clock::now() + deadline;;) {
    if (done()) return true;
    if (std::chrono::steady_clock::now() >= end) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
}

class ServeOutboxTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!aiosmtpd_available()) GTEST_SKIP() << "skipped: /usr/bin/python3 has no aiosmtpd (python3-aiosmtpd)";
    dir_ = longread::testing::fresh_test_dir("longread-serve-outbox");
    fs::create_directories(dir_);
    // No blogs and no background crawl: these tests make no outside requests.
    std::ofstream(dir_ / "blogs.opml")
        << "<?xml version=\"1.0\"?><opml version=\"2.0\"><head><title>none</title></head><body/></opml>";
    port_ = free_port();
    ASSERT_NE(port_, 0);
  }
  void TearDown() override {
    serve_.reset();
    if (HasFailure()) {
      for (int run = 1; run <= runs_; ++run)
        std::cerr << "--- longread serve output (run " << run << ") ---\n" << serve_log(run) << "---\n";
    }
    if (!dir_.empty()) fs::remove_all(dir_);
  }

  // Starts serve (the runs_-th time) sending to `smtp_url`, and waits until /healthz answers.
  void start_serve(const std::string& smtp_url) {
    ++runs_;
    serve_ = std::make_unique<Child>(
        std::vector<std::string>{std::string(LONGREAD_BINARY_DIR) + "/src/app/longread", "serve"},
        Child::Options{
            .environment = {{"LONGREAD_DB", db().string()},
                            {"LONGREAD_DEFAULT_BLOG_LIST", (dir_ / "blogs.opml").string()},
                            {"LONGREAD_SITE_LISTEN", "127.0.0.1:" + std::to_string(port_)},
                            {"LONGREAD_SITE_BASE_URL", "http://127.0.0.1:" + std::to_string(port_)},
                            {"LONGREAD_SITE_CRAWL_IN_BACKGROUND", "false"},
                            {"LONGREAD_NEWSLETTER_ENABLED", "false"},
                            {"LONGREAD_SMTP_URL", smtp_url},
                            {"LONGREAD_SMTP_FROM", "Longread Test <accounts@longread.test>"},
                            {"LONGREAD_SMTP_RETRY_INITIAL_SECONDS", "1"},
                            {"LONGREAD_SMTP_RETRY_MAX_SECONDS", "2"}},
            .output = dir_ / ("serve-" + std::to_string(runs_) + ".log")});
    ASSERT_GT(serve_->pid(), 0);
    bool up = false;
    for (const auto deadline = std::chrono::steady_clock::now() + kDeadline;
         !up && std::chrono::steady_clock::now() < deadline;) {
      if (const auto exited = serve_->wait_exit_for(std::chrono::milliseconds(0)))
        FAIL() << "longread serve exited with status " << *exited;
      auto health = longread::web::testing::http_get(static_cast<std::uint16_t>(port_), "/healthz");
      up = health && health->status == 200;
      if (!up) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    ASSERT_TRUE(up) << "longread serve did not answer /healthz on port " << port_;
  }

  // SIGTERM, and a clean exit.
  void stop_serve() {
    serve_->send_signal(SIGTERM);
    const auto status = serve_->wait_exit_for(kDeadline);
    ASSERT_TRUE(status.has_value()) << "longread serve did not stop after SIGTERM";
    EXPECT_EQ(*status, 0);
  }

  // A browser's sign-up: GET the form (CSRF cookie and token), POST it. The answer's status and body.
  std::pair<int, std::string> sign_up(const std::string& email) {
    return post_form("/signup", "&email=" + longread::web::url_encode(email) +
                                    "&password=" + longread::web::url_encode("a passphrase of " + email));
  }
  // The "Stay updated" form of the newsletter, as a browser posts it.
  std::pair<int, std::string> subscribe(const std::string& email) {
    return post_form("/newsletter", "&email=" + longread::web::url_encode(email));
  }
  // GETs the form at `path` (CSRF cookie and token), POSTs its token and `fields` back.
  std::pair<int, std::string> post_form(const std::string& path, const std::string& fields) {
    auto client = longread::web::testing::Client::connect(static_cast<std::uint16_t>(port_), kRequestTimeout);
    if (!client) return {0, client.error().message};
    auto form = client->request("GET", path);
    if (!form) return {0, form.error().message};
    std::string cookie;
    for (const auto& [name, value] : form->headers) {
      if ((name == "Set-Cookie" || name == "set-cookie") && value.starts_with("lr_csrf="))
        cookie = value.substr(0, value.find(';'));
    }
    std::smatch token;
    if (!std::regex_search(form->body, token, std::regex("name=\"csrf\" value=\"([^\"]+)\"")))
      return {0, "no CSRF token in the form at " + path};
    auto answer = client->request("POST", path,
                                  {{"Cookie", cookie}, {"Content-Type", "application/x-www-form-urlencoded"}},
                                  "csrf=" + longread::web::url_encode(token[1].str()) + fields);
    if (!answer) return {0, answer.error().message};
    return {answer->status, answer->body};
  }

  // The outbox as stored, read through a second connection to serve's database (WAL: serve keeps going).
  std::vector<longread::storage::OutboxMail> queued() {
    auto store = longread::storage::open_sqlite_store(db().string());
    if (!store) {
      ADD_FAILURE() << store.error().message;
      return {};
    }
    auto mails = (*store)->outbox_mails();
    if (!mails) ADD_FAILURE() << mails.error().message;
    return mails.value_or(std::vector<longread::storage::OutboxMail>{});
  }

  [[nodiscard]] fs::path db() const { return dir_ / "longread.db"; }
  [[nodiscard]] std::string serve_log(int run) const {
    return read_file(dir_ / ("serve-" + std::to_string(run) + ".log"));
  }

  fs::path dir_;
  int port_ = 0;
  int runs_ = 0;
  std::unique_ptr<Child> serve_;
};

TEST_F(ServeOutboxTest, SignUpWhileSmtpIsDownIsMailedOnceItComesUp) {
  const int smtp_port = free_port();
  ASSERT_NE(smtp_port, 0);
  ASSERT_NO_FATAL_FAILURE(start_serve("smtp://127.0.0.1:" + std::to_string(smtp_port)));

  const auto [status, body] = sign_up("kim@example.org");
  ASSERT_EQ(status, 200) << body;
  EXPECT_THAT(body, HasSubstr("Check your inbox"));
  // At least one attempt failed against the closed port; the mail stays queued for a retry.
  ASSERT_TRUE(eventually([&] {
    const auto mails = queued();
    return mails.size() == 1 && mails[0].attempts >= 1 && !mails[0].last_error.empty();
  })) << "no failed attempt recorded";
  EXPECT_EQ(queued()[0].kind, "confirm");

  SmtpServer smtp(dir_ / "mail", {"--port", std::to_string(smtp_port)});
  ASSERT_EQ(smtp.port(), smtp_port) << "smtp_server.py could not take the port";
  ASSERT_TRUE(smtp.wait_for(1, kDeadline)) << "the queued mail was not sent once the server was up";
  const auto mails = smtp.messages_to("kim@example.org");
  ASSERT_EQ(mails.size(), 1u);
  EXPECT_EQ(header_value(mails[0], "Subject"), "Confirm your account at longread");
  EXPECT_THAT(mails[0], HasSubstr("/account/confirm?email=kim%40example.org&expires="));
  EXPECT_TRUE(eventually([&] { return queued().empty(); })) << "the sent mail (with its link) was kept";

  ASSERT_NO_FATAL_FAILURE(stop_serve());
  const std::string log = serve_log(1);
  EXPECT_THAT(log, HasSubstr("accounts: mail not sent, will retry"));
  EXPECT_THAT(log, HasSubstr("accounts: mail sent"));
  EXPECT_THAT(log, HasSubstr("to=*@example.org"));
  EXPECT_THAT(log, Not(HasSubstr("kim@example.org"))) << "the log names the domain, not the address";
  EXPECT_EQ(smtp.messages().size(), 1u);
}

TEST_F(ServeOutboxTest, TemporaryFailureIsRetriedPermanentFailureIsDropped) {
  SmtpServer smtp(dir_ / "mail", {"--tempfail-once", "kim@example.org", "--reject", "lee@example.org=550"});
  ASSERT_NE(smtp.port(), 0);
  ASSERT_NO_FATAL_FAILURE(start_serve(smtp.url()));

  for (const std::string email : {"kim@example.org", "lee@example.org"}) {
    const auto [status, body] = sign_up(email);
    ASSERT_EQ(status, 200) << email << "\n" << body;
  }
  // Kim: 451 first, then delivered by a retry.
  ASSERT_TRUE(eventually([&] { return smtp.messages_to("kim@example.org").size() == 1; }))
      << "the mail answered 451 was not retried";
  EXPECT_THAT(smtp.rcpt_replies("kim@example.org"), ElementsAre(451, 250));
  // Lee: 550 once, then the mail is gone from the outbox, so nothing can retry it.
  ASSERT_TRUE(eventually([&] { return queued().empty(); })) << "the refused mail was kept";
  EXPECT_THAT(smtp.rcpt_replies("lee@example.org"), ElementsAre(550));

  // Later passes (another sign-up's mail goes through) still do not try Lee again.
  const auto [status, body] = sign_up("ann@example.org");
  ASSERT_EQ(status, 200) << body;
  ASSERT_TRUE(eventually([&] { return smtp.messages_to("ann@example.org").size() == 1; }));
  EXPECT_THAT(smtp.rcpt_replies("lee@example.org"), ElementsAre(550));
  EXPECT_TRUE(smtp.messages_to("lee@example.org").empty());

  ASSERT_NO_FATAL_FAILURE(stop_serve());
  const std::string log = serve_log(1);
  EXPECT_THAT(log, HasSubstr("accounts: mail dropped reason=refused"));
  EXPECT_THAT(log, HasSubstr("SMTP reply 550"));
  EXPECT_THAT(log, Not(HasSubstr("lee@example.org")));
}

TEST_F(ServeOutboxTest, KilledWithAMailQueuedTheNextServeSendsIt) {
  const int smtp_port = free_port();
  ASSERT_NE(smtp_port, 0);
  ASSERT_NO_FATAL_FAILURE(start_serve("smtp://127.0.0.1:" + std::to_string(smtp_port)));
  const auto [status, body] = sign_up("kim@example.org");
  ASSERT_EQ(status, 200) << body;
  // Queued and tried once (the server is down). A kill during a later attempt would leave the mail
  // claimed for its lease (120 s) instead: still sent by the next serve, only later; connection refused
  // takes a millisecond, so the kill almost always lands between attempts.
  ASSERT_TRUE(eventually([&] {
    const auto mails = queued();
    return mails.size() == 1 && mails[0].attempts >= 1;
  }));
  serve_->kill_now(SIGKILL);
  ASSERT_EQ(queued().size(), 1u) << "the mail did not survive the kill";

  SmtpServer smtp(dir_ / "mail", {"--port", std::to_string(smtp_port)});
  ASSERT_EQ(smtp.port(), smtp_port) << "smtp_server.py could not take the port";
  ASSERT_NO_FATAL_FAILURE(start_serve(smtp.url()));
  ASSERT_TRUE(smtp.wait_for(1, std::chrono::seconds(180))) << "the restarted serve did not send the mail";
  EXPECT_EQ(smtp.messages_to("kim@example.org").size(), 1u);
  EXPECT_TRUE(eventually([&] { return queued().empty(); }));
  ASSERT_NO_FATAL_FAILURE(stop_serve());
  EXPECT_EQ(smtp.messages().size(), 1u);
}

TEST_F(ServeOutboxTest, ExpiredMailIsDroppedNotSent) {
  // Left queued by an earlier run, as after a long outage: one whose link has expired, one still valid.
  {
    auto store = longread::storage::open_sqlite_store(db().string());
    ASSERT_TRUE(store) << store.error().message;
    const auto now = longread::now_seconds();
    const auto message = [](const std::string& to) {
      return "From: accounts@longread.test\r\nTo: " + to +
             "\r\nSubject: Set a new password\r\n\r\nhttp://127.0.0.1/password/reset?sig=x\r\n";
    };
    for (const auto& [to, not_after] :
         {std::pair{std::string("old@example.org"), now - std::chrono::hours(1)},
          std::pair{std::string("new@example.org"), now + std::chrono::hours(2)}}) {
      auto id = (*store)->enqueue_mail({.kind = "reset",
                                        .recipient = to,
                                        .message = message(to),
                                        .created_at = now - std::chrono::hours(3),
                                        .not_after = not_after,
                                        .next_attempt_at = now - std::chrono::hours(3)});
      ASSERT_TRUE(id) << id.error().message;
    }
  }
  SmtpServer smtp(dir_ / "mail");
  ASSERT_NE(smtp.port(), 0);
  ASSERT_NO_FATAL_FAILURE(start_serve(smtp.url()));
  // A pass drops expired mail before it sends any, so once the valid one is here the other was handled.
  ASSERT_TRUE(smtp.wait_for(1, kDeadline));
  EXPECT_EQ(smtp.messages_to("new@example.org").size(), 1u);
  EXPECT_TRUE(eventually([&] { return queued().empty(); }));
  ASSERT_NO_FATAL_FAILURE(stop_serve());
  EXPECT_TRUE(smtp.rcpt_replies("old@example.org").empty()) << "the expired mail was tried";
  EXPECT_EQ(smtp.messages().size(), 1u);
  EXPECT_THAT(serve_log(1), HasSubstr("accounts: mail dropped reason=expired"));
}

// The newsletter's double opt-in, formerly sent on the request thread (a down SMTP server made the form
// answer 503), is queued like the account mails.
TEST_F(ServeOutboxTest, NewsletterSubscriptionWhileSmtpIsDownIsMailedOnceItComesUp) {
  const int smtp_port = free_port();
  ASSERT_NE(smtp_port, 0);
  ASSERT_NO_FATAL_FAILURE(start_serve("smtp://127.0.0.1:" + std::to_string(smtp_port)));

  const auto [status_down, body_down] = subscribe("kim@example.org");
  ASSERT_EQ(status_down, 200) << body_down;
  EXPECT_THAT(body_down, HasSubstr("Check your inbox"));
  ASSERT_TRUE(eventually([&] {
    const auto mails = queued();
    return mails.size() == 1 && mails[0].attempts >= 1 && !mails[0].last_error.empty();
  })) << "no failed attempt recorded";
  const auto waiting = queued()[0];
  EXPECT_EQ(waiting.kind, "newsletter");
  EXPECT_EQ(waiting.recipient, "kim@example.org");
  // Worth sending as long as its link works: the site's confirmation lifetime, 48 hours.
  EXPECT_EQ(waiting.not_after - waiting.created_at, std::chrono::hours(48));

  SmtpServer smtp(dir_ / "mail", {"--port", std::to_string(smtp_port)});
  ASSERT_EQ(smtp.port(), smtp_port) << "smtp_server.py could not take the port";
  ASSERT_TRUE(smtp.wait_for(1, kDeadline)) << "the queued confirmation was not sent once the server was up";
  const auto mails = smtp.messages_to("kim@example.org");
  ASSERT_EQ(mails.size(), 1u);
  EXPECT_EQ(header_value(mails[0], "Subject"), "Confirm your subscription to longread");
  EXPECT_TRUE(eventually([&] { return queued().empty(); })) << "the sent mail (with its link) was kept";
  // The link in the mail that waited out the outage works.
  std::smatch link;
  ASSERT_TRUE(std::regex_search(mails[0], link,
                                std::regex("http://127\\.0\\.0\\.1:[0-9]+(/newsletter/"
                                           "confirm\\?email=kim%40example\\.org[^\r\n]+)")))
      << mails[0];
  auto confirmed = longread::web::testing::http_get(static_cast<std::uint16_t>(port_), link[1].str());
  ASSERT_TRUE(confirmed) << confirmed.error().message;
  EXPECT_EQ(confirmed->status, 200) << confirmed->body;
  EXPECT_THAT(confirmed->body, HasSubstr("will get the weekly newsletter"));

  // With the server up, the page answers exactly as it did while it was down (its text, the address aside).
  const auto [status_up, body_up] = subscribe("lee@example.org");
  ASSERT_EQ(status_up, 200) << body_up;
  const auto answer = [](const std::string& body, const std::string& email) {
    const auto from = body.find("<h1");
    const auto to = body.find("</p>", from);
    std::string text =
        from == std::string::npos || to == std::string::npos ? body : body.substr(from, to - from);
    for (auto at = text.find(email); at != std::string::npos; at = text.find(email))
      text.replace(at, email.size(), "ADDRESS");
    return text;
  };
  EXPECT_EQ(answer(body_down, "kim@example.org"), answer(body_up, "lee@example.org"));
  EXPECT_THAT(answer(body_up, "lee@example.org"), HasSubstr("a confirmation link is on its way"));
  ASSERT_TRUE(eventually([&] { return smtp.messages_to("lee@example.org").size() == 1; }));

  ASSERT_NO_FATAL_FAILURE(stop_serve());
  const std::string log = serve_log(1);
  EXPECT_THAT(log, HasSubstr("newsletter: mail not sent, will retry"));
  EXPECT_THAT(log, HasSubstr("newsletter: mail sent mail_id="));
  EXPECT_THAT(log, HasSubstr("kind=newsletter to=*@example.org"));
  EXPECT_THAT(log, Not(HasSubstr("kim@example.org"))) << "the log names the domain, not the address";
  EXPECT_EQ(smtp.messages().size(), 2u);
}

}  // namespace
