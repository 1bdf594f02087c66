// The real `longread serve` with smtp.url set, against a real SMTP server (tests/smtp/smtp_server.py on
// Debian's python3-aiosmtpd) on 127.0.0.1: a sign-up is answered at once, the confirmation mail arrives
// through SMTP (sent off the request thread) and its link confirms and logs in on the running binary; a
// second sign-up with the address mails "you already have an account" with a reset link that works, and
// gives the stranger nothing. serve then stops on SIGTERM with exit status 0, every queued mail sent.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <thread>

#include "smtp/smtp_server.h"
#include "testing/ports.h"
#include "web/http.h"
#include "web/testing/client.h"

namespace {

namespace fs = std::filesystem;
using longread::testing::Child;
using longread::testing::header_value;
using longread::testing::SmtpServer;
using longread::web::testing::ClientResponse;
using ::testing::HasSubstr;
using ::testing::MatchesRegex;
using ::testing::Not;

constexpr const char* kSiteName = "Longread Test";
constexpr const char* kFrom = "Longread Test <accounts@longread.test>";
// Argon2id at serve's "interactive" cost, and a sanitizer build, make each password hash slow: a
// generous deadline per request, never a limit on how fast it must be.
constexpr auto kRequestTimeout = std::chrono::seconds(60);

// A port that was free a moment ago: serve takes its listen address and base URL from configuration, so
// the test picks the port before starting it.
int free_port() {
  return longread::testing::unused_loopback_port();
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string regex_escape(const std::string& text) {
  return std::regex_replace(text, std::regex(R"([.^$|()\[\]{}*+?\\])"), R"(\$&)");
}

// A browser against the running binary: a cookie jar, GETs, and form POSTs.
class Browser {
 public:
  explicit Browser(int port) : port_(static_cast<std::uint16_t>(port)) {}

  ClientResponse get(const std::string& target) { return send("GET", target, ""); }
  ClientResponse post(const std::string& target,
                      const std::vector<std::pair<std::string, std::string>>& fields) {
    std::string body;
    for (const auto& [name, value] : fields)
      body += (body.empty() ? "" : "&") + name + "=" + longread::web::url_encode(value);
    return send("POST", target, body);
  }
  [[nodiscard]] std::string cookie(const std::string& name) const {
    const auto it = cookies_.find(name);
    return it == cookies_.end() ? "" : it->second;
  }
  // The Set-Cookie headers of the last answer.
  [[nodiscard]] const std::vector<std::string>& last_set_cookies() const { return last_set_cookies_; }

  // Opens a mailed link (GET: a page with a form), then posts that form with its hidden fields (the
  // link's email, expires and sig, and the CSRF token) and `extra`, as pressing its button does.
  ClientResponse follow(const std::string& link,
                        std::vector<std::pair<std::string, std::string>> extra = {}) {
    auto page = get(link);
    EXPECT_EQ(page.status, 200) << link << "\n" << page.body;
    std::vector<std::pair<std::string, std::string>> fields{{"csrf", token_in(page.body)}};
    std::string rest = page.body;
    std::smatch m;
    static const std::regex kHidden(
        "<input type=\"hidden\" name=\"(email|expires|sig)\" value=\"([^\"]*)\">");
    while (std::regex_search(rest, m, kHidden)) {
      fields.emplace_back(m[1].str(), m[2].str());  // the test's address and signatures need no unescaping
      rest = m.suffix();
    }
    EXPECT_EQ(fields.size(), 4u) << page.body;
    fields.insert(fields.end(), extra.begin(), extra.end());
    return post(link.substr(0, link.find('?')), fields);
  }

  // The form's CSRF token (`name="csrf" value="..."`), "" if the page has none.
  static std::string token_in(const std::string& page) {
    std::smatch m;
    return std::regex_search(page, m, std::regex("name=\"csrf\" value=\"([^\"]+)\"")) ? m[1].str() : "";
  }

 private:
  ClientResponse send(const std::string& method, const std::string& target, const std::string& body) {
    longread::web::Fields headers;
    std::string cookie_header;
    for (const auto& [name, value] : cookies_)
      cookie_header += (cookie_header.empty() ? "" : "; ") + name + "=" + value;
    if (!cookie_header.empty()) headers.emplace_back("Cookie", cookie_header);
    if (method == "POST") headers.emplace_back("Content-Type", "application/x-www-form-urlencoded");
    auto client = longread::web::testing::Client::connect(port_, kRequestTimeout);
    if (!client) {
      ADD_FAILURE() << method << " " << target << ": " << client.error().message;
      return {};
    }
    auto response = client->request(method, target, headers, body);
    if (!response) {
      ADD_FAILURE() << method << " " << target << ": " << response.error().message;
      return {};
    }
    last_set_cookies_.clear();
    for (const auto& [name, value] : response->headers) {
      if (name != "Set-Cookie" && name != "set-cookie") continue;
      last_set_cookies_.push_back(value);
      const std::string pair = value.substr(0, value.find(';'));
      const auto eq = pair.find('=');
      if (eq == std::string::npos) continue;
      const std::string cookie_name = pair.substr(0, eq), cookie_value = pair.substr(eq + 1);
      if (cookie_value.empty() || value.find("Max-Age=0") != std::string::npos)
        cookies_.erase(cookie_name);
      else
        cookies_[cookie_name] = cookie_value;
    }
    return *response;
  }

  std::uint16_t port_;
  std::map<std::string, std::string> cookies_;
  std::vector<std::string> last_set_cookies_;
};

class ServeMailTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!longread::testing::aiosmtpd_available())
      GTEST_SKIP() << "skipped: /usr/bin/python3 has no aiosmtpd (python3-aiosmtpd)";
    dir_ = fs::temp_directory_path() / ("longread-serve-mail-" + std::to_string(getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    if (HasFailure() && fs::exists(dir_ / "serve.log"))
      std::cerr << "--- longread serve output ---\n" << read_file(dir_ / "serve.log") << "---\n";
    if (!dir_.empty()) fs::remove_all(dir_);
  }

  fs::path dir_;
};

TEST_F(ServeMailTest, SignUpConfirmByMailedLinkAndSecondSignUpMailsTheOwner) {
  SmtpServer smtp(dir_ / "mail");
  ASSERT_NE(smtp.port(), 0) << "smtp_server.py did not start";
  const int port = free_port();
  ASSERT_NE(port, 0);
  const std::string base_url = "http://127.0.0.1:" + std::to_string(port);
  // An empty blog list for the first run, and no background crawl: this test makes no outside requests.
  std::ofstream(dir_ / "blogs.opml")
      << "<?xml version=\"1.0\"?><opml version=\"2.0\"><head><title>none</title></head><body/></opml>";

  Child serve({std::string(LONGREAD_BINARY_DIR) + "/src/app/longread", "serve"},
              {.environment = {{"LONGREAD_DB", (dir_ / "longread.db").string()},
                               {"LONGREAD_DEFAULT_BLOG_LIST", (dir_ / "blogs.opml").string()},
                               {"LONGREAD_SITE_LISTEN", "127.0.0.1:" + std::to_string(port)},
                               {"LONGREAD_SITE_BASE_URL", base_url},
                               {"LONGREAD_SITE_NAME", kSiteName},
                               {"LONGREAD_SITE_CRAWL_IN_BACKGROUND", "false"},
                               {"LONGREAD_NEWSLETTER_ENABLED", "false"},
                               {"LONGREAD_SMTP_URL", smtp.url()},
                               {"LONGREAD_SMTP_FROM", kFrom}},
               .output = dir_ / "serve.log"});
  ASSERT_GT(serve.pid(), 0);

  // Up when /healthz answers (polling, with a generous deadline); a serve that exits fails at once.
  bool up = false;
  for (const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
       !up && std::chrono::steady_clock::now() < deadline;) {
    if (const auto exited = serve.wait_exit_for(std::chrono::milliseconds(0)))
      FAIL() << "longread serve exited with status " << *exited;
    auto health = longread::web::testing::http_get(static_cast<std::uint16_t>(port), "/healthz");
    up = health && health->status == 200;
    if (!up) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  ASSERT_TRUE(up) << "longread serve did not answer /healthz on port " << port;

  // Sign-up: the form sets a pre-login CSRF cookie; the answer asks to check the inbox and logs nobody in.
  Browser kim(port);
  auto form = kim.get("/signup");
  ASSERT_EQ(form.status, 200);
  EXPECT_FALSE(kim.cookie("lr_csrf").empty());
  const std::string signup_token = Browser::token_in(form.body);
  ASSERT_FALSE(signup_token.empty()) << form.body;
  auto signed_up =
      kim.post("/signup",
               {{"csrf", signup_token}, {"email", "kim@example.org"}, {"password", "kim's own passphrase"}});
  ASSERT_EQ(signed_up.status, 200) << signed_up.body;
  EXPECT_THAT(signed_up.body, HasSubstr("Check your inbox"));
  for (const auto& set_cookie : kim.last_set_cookies())
    EXPECT_THAT(set_cookie, Not(HasSubstr("lr_session=")));
  EXPECT_TRUE(kim.cookie("lr_session").empty());

  // The confirmation mail, through SMTP from serve's outbox thread.
  ASSERT_TRUE(smtp.wait_for(1)) << "no mail arrived";
  auto mails = smtp.messages_to("kim@example.org");
  ASSERT_EQ(mails.size(), 1u);
  const std::string& confirmation = mails[0];
  EXPECT_EQ(header_value(confirmation, "From"), kFrom);
  EXPECT_EQ(header_value(confirmation, "To"), "kim@example.org");
  EXPECT_EQ(header_value(confirmation, "Subject"), std::string("Confirm your account at ") + kSiteName);
  EXPECT_FALSE(header_value(confirmation, "Date").empty());
  EXPECT_THAT(header_value(confirmation, "Message-ID"), MatchesRegex("<account\\.[^@>]+@127\\.0\\.0\\.1>"));
  EXPECT_EQ(header_value(confirmation, "MIME-Version"), "1.0");
  EXPECT_EQ(header_value(confirmation, "Content-Type"), "text/plain; charset=utf-8");
  EXPECT_THAT(confirmation, ::testing::StartsWith("X-Envelope-From: accounts@longread.test\r\n"));
  const std::string body = confirmation.substr(confirmation.find("\r\n\r\n") + 4);
  EXPECT_THAT(body, HasSubstr(std::string("signed up at ") + kSiteName + " with this address"));
  EXPECT_THAT(body, HasSubstr("The link works for 48 hours."));
  // The link is on the configured base URL, for this address, signed, and valid for 48 hours.
  std::smatch link;
  ASSERT_TRUE(std::regex_search(
      body, link,
      std::regex(regex_escape(base_url) +
                 "(/account/confirm\\?email=kim%40example\\.org&expires=([0-9]+)&sig=[^&\\s]+)\r\n")))
      << body;
  const long long expires = std::stoll(link[2].str());
  const long long now = std::time(nullptr);
  EXPECT_GT(expires, now + 47 * 3600);
  EXPECT_LE(expires, now + 48 * 3600);

  // Before confirming, Kim cannot log in with the password.
  auto login_form = kim.get("/login");
  auto early = kim.post("/login", {{"csrf", Browser::token_in(login_form.body)},
                                   {"email", "kim@example.org"},
                                   {"password", "kim's own passphrase"}});
  EXPECT_EQ(early.status, 403);
  EXPECT_TRUE(kim.cookie("lr_session").empty());

  // The link opens a page whose form carries the link's fields; posting it confirms and logs in.
  auto confirmed = kim.follow(link[1].str());
  ASSERT_EQ(confirmed.status, 303) << confirmed.body;
  EXPECT_EQ(confirmed.header("Location").value_or(""), "/");
  bool session_set = false;
  for (const auto& set_cookie : kim.last_set_cookies()) session_set |= set_cookie.starts_with("lr_session=");
  EXPECT_TRUE(session_set);
  ASSERT_FALSE(kim.cookie("lr_session").empty());
  auto front = kim.get("/");
  EXPECT_EQ(front.status, 200);
  EXPECT_THAT(front.body, HasSubstr("Log out"));

  // A stranger signs up with Kim's address: the same answer, no session; Kim is mailed.
  Browser stranger(port);
  auto stranger_form = stranger.get("/signup");
  auto taken = stranger.post("/signup", {{"csrf", Browser::token_in(stranger_form.body)},
                                         {"email", "kim@example.org"},
                                         {"password", "the stranger's passphrase"}});
  EXPECT_EQ(taken.status, 200) << taken.body;
  EXPECT_THAT(taken.body, HasSubstr("Check your inbox"));
  for (const auto& set_cookie : stranger.last_set_cookies())
    EXPECT_THAT(set_cookie, Not(HasSubstr("lr_session=")));
  EXPECT_TRUE(stranger.cookie("lr_session").empty());
  ASSERT_TRUE(smtp.wait_for(2)) << "no second mail arrived";
  mails = smtp.messages_to("kim@example.org");
  ASSERT_EQ(mails.size(), 2u);
  const std::string& registered = mails[1];
  EXPECT_EQ(header_value(registered, "Subject"), std::string("You already have an account at ") + kSiteName);
  EXPECT_EQ(header_value(registered, "To"), "kim@example.org");
  EXPECT_THAT(registered, HasSubstr("\r\n" + base_url + "/login\r\n"));
  std::smatch reset_link;
  ASSERT_TRUE(std::regex_search(
      registered, reset_link,
      std::regex(regex_escape(base_url) + "(/password/reset\\?email=kim%40example\\.org&[^\\s]+)\r\n")))
      << registered;
  // The stranger's password opens nothing; Kim's still does.
  auto stranger_login_form = stranger.get("/login");
  auto strangers_login = stranger.post("/login", {{"csrf", Browser::token_in(stranger_login_form.body)},
                                                  {"email", "kim@example.org"},
                                                  {"password", "the stranger's passphrase"}});
  EXPECT_EQ(strangers_login.status, 400);
  EXPECT_TRUE(stranger.cookie("lr_session").empty());
  EXPECT_THAT(stranger.get("/").body, Not(HasSubstr("Log out")));

  // The mailed reset link works on the running site: a new password, and a session with it.
  Browser kim_again(port);
  auto reset = kim_again.follow(reset_link[1].str(), {{"password", "kim's second passphrase"}});
  EXPECT_EQ(reset.status, 303) << reset.body;
  EXPECT_FALSE(kim_again.cookie("lr_session").empty());
  EXPECT_THAT(kim_again.get("/").body, HasSubstr("Log out"));

  // SIGTERM: a clean exit, with every queued mail sent and nothing else (no newsletter, no other mail).
  serve.send_signal(SIGTERM);
  const auto status = serve.wait_exit_for(std::chrono::seconds(60));
  ASSERT_TRUE(status.has_value()) << "longread serve did not stop within 60 s of SIGTERM";
  EXPECT_EQ(*status, 0);
  EXPECT_EQ(smtp.messages().size(), 2u);
  EXPECT_THAT(read_file(dir_ / "serve.log"), Not(HasSubstr("mail not sent")));
}

}  // namespace
