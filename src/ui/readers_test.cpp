// Readers over real HTTP: sign-up, login, logout, CSRF, rate limits, session expiry, votes,
// reading list and the newsletter's web side, against the site on an ephemeral port over a real SQLite
// store filled with the fixture blogs.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <mutex>
#include <regex>
#include <thread>

#include "accounts/crypto.h"
#include "ui/site.h"
#include "ui/testing/running_site.h"
#include "ui/testing/visitor.h"
#include "web/testing/client.h"

namespace longread::ui {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using testing::Visitor;
using web::testing::ClientResponse;

class ReadersTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    SiteOptions options = testing::test_site_options();
    options.accounts.login_failures_per_account_client = 3;
    options.accounts.signups_per_client = 1000;
    options.send_confirmation = [](std::string_view email, std::string_view url) -> Result<void> {
      std::lock_guard lock(mail_mutex_);
      confirmations_.emplace_back(std::string(email), std::string(url));
      return {};
    };
    auto running = testing::RunningSite::start("readers-test", std::move(options));
    ASSERT_TRUE(running) << running.error().message;
    running_ = std::move(*running);
    store_ = &running_->store();
    ids_ = running_->ids();
    port_ = running_->port();
  }
  static void TearDownTestSuite() { running_.reset(); }

  // A visitor who signed up as `email` (and is logged in).
  static Visitor signed_up(const std::string& email) { return testing::sign_up(port_, email); }

  static std::string article_path(std::int64_t id) {
    auto a = store_->article(id).value();
    return "/blog/" + std::to_string(a->article.blog_id) + "/read/" + std::to_string(id) + "-" +
           slug(a->article.title);
  }
  static std::string slug(const std::string& title) {
    std::string s;
    for (char c : title) {
      if (std::isalnum(static_cast<unsigned char>(c)))
        s += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      else if (!s.empty() && s.back() != '-')
        s += '-';
    }
    while (!s.empty() && s.back() == '-') s.pop_back();
    return s;
  }
  static int votes(std::int64_t id) { return store_->article(id).value()->article.votes; }

  static inline std::unique_ptr<testing::RunningSite> running_;
  static inline storage::Store* store_ = nullptr;
  static inline testing::FixtureIds ids_;
  static inline std::uint16_t port_ = 0;
  static inline std::mutex mail_mutex_;
  static inline std::vector<std::pair<std::string, std::string>> confirmations_;
};

TEST_F(ReadersTest, HeaderLinksForVisitors) {
  Visitor v(port_);
  auto res = v.get("/");
  ASSERT_EQ(res.status, 200);
  EXPECT_THAT(res.body, HasSubstr("Sign Up <span class=\"key\" aria-hidden=\"true\">[alt+shift+s]</span>"));
  EXPECT_THAT(res.body, HasSubstr("Log In <span class=\"key\" aria-hidden=\"true\">[alt+shift+l]</span>"));
  // The shortcuts overlay lists the account keys to visitors.
  EXPECT_THAT(res.body, HasSubstr("<dd>Sign up</dd>"));
  EXPECT_THAT(res.body, HasSubstr("<dd>Log in</dd>"));
  EXPECT_THAT(res.body, HasSubstr("data-shortcut=\"signup\""));
  EXPECT_THAT(res.body, HasSubstr("data-shortcut=\"login\""));
  // Visitors see the article page first, not the original.
  EXPECT_THAT(res.body, HasSubstr("<h2><a href=\"/blog/"));
}

TEST_F(ReadersTest, SignUpLogOutLogIn) {
  Visitor v(port_);
  auto form = v.get("/signup?next=/categories");
  ASSERT_EQ(form.status, 200);
  EXPECT_THAT(form.header("Cache-Control").value_or(""), HasSubstr("no-store"));
  const std::string token = Visitor::token_in(form.body);
  ASSERT_FALSE(token.empty());
  ASSERT_FALSE(v.cookie("lr_csrf").empty());
  auto res = v.post("/signup", {{"csrf", token},
                                {"email", "reader1@example.org"},
                                {"password", "a long passphrase"},
                                {"next", "/categories"}});
  ASSERT_EQ(res.status, 303) << res.body;
  EXPECT_EQ(res.header("Location").value_or(""), "/categories");
  bool session_cookie = false;
  for (const auto& c : v.last_set_cookies) {
    if (!c.starts_with("lr_session=")) continue;
    session_cookie = true;
    EXPECT_THAT(c, HasSubstr("HttpOnly"));
    EXPECT_THAT(c, HasSubstr("SameSite=Lax"));
    EXPECT_THAT(c, HasSubstr("Secure"));  // the base URL is https
    EXPECT_THAT(c, HasSubstr("Max-Age=2592000"));
  }
  EXPECT_TRUE(session_cookie);
  const std::string session = v.cookie("lr_session");

  auto front = v.get("/");
  ASSERT_EQ(front.status, 200);
  EXPECT_THAT(front.body, HasSubstr("Reading list <span class=\"count\" data-reading-count>0</span>"));
  EXPECT_THAT(front.body, HasSubstr("Log out"));
  EXPECT_THAT(front.body, Not(HasSubstr("[alt+shift+s]")));
  // ... nor does the shortcuts overlay offer to sign up or log in.
  EXPECT_THAT(front.body, HasSubstr("<dialog id=\"shortcuts\""));
  EXPECT_THAT(front.body, Not(HasSubstr("<dd>Sign up</dd>")));
  EXPECT_THAT(front.body, Not(HasSubstr("<dd>Log in</dd>")));
  EXPECT_THAT(front.header("Cache-Control").value_or(""), HasSubstr("private"));
  // Logged-in readers' titles go straight to the original article.
  EXPECT_THAT(front.body, HasSubstr("<h2><a href=\"https://"));

  // Log out: the session ends server-side, so the old cookie no longer works.
  auto out = v.post("/logout", {{"csrf", Visitor::token_in(front.body.substr(front.body.find("/logout")))}});
  ASSERT_EQ(out.status, 303) << out.body;
  EXPECT_TRUE(v.cookie("lr_session").empty());
  Visitor replay(port_);
  replay.set_cookie("lr_session", session);
  EXPECT_THAT(replay.get("/").body, HasSubstr("[alt+shift+l]"));

  // Log in again, with the address in another case.
  auto login_form = v.get("/login?next=/about");
  auto login = v.post("/login", {{"csrf", Visitor::token_in(login_form.body)},
                                 {"email", "READER1@example.org"},
                                 {"password", "a long passphrase"},
                                 {"next", "/about"}});
  ASSERT_EQ(login.status, 303) << login.body;
  EXPECT_EQ(login.header("Location").value_or(""), "/about");
  EXPECT_THAT(v.get("/about").body, HasSubstr("Log out"));
}

TEST_F(ReadersTest, MissingOrForgedCsrfIsRejectedAndNothingIsWritten) {
  Visitor v(port_);
  auto no_token = v.post("/signup", {{"email", "csrf1@example.org"}, {"password", "a long passphrase"}});
  EXPECT_EQ(no_token.status, 403);
  EXPECT_THAT(no_token.body, HasSubstr("This form has expired or was not sent from this site"));
  v.get("/signup");
  auto forged = v.post(
      "/signup", {{"csrf", "AAAAforged"}, {"email", "csrf1@example.org"}, {"password", "a long passphrase"}});
  EXPECT_EQ(forged.status, 403);
  EXPECT_FALSE(store_->reader_by_email("csrf1@example.org").value());

  // A token from another visitor does not work either.
  Visitor other(port_);
  const std::string other_token = Visitor::token_in(other.get("/signup").body);
  auto stolen = v.post(
      "/signup", {{"csrf", other_token}, {"email", "csrf1@example.org"}, {"password", "a long passphrase"}});
  EXPECT_EQ(stolen.status, 403);
  EXPECT_FALSE(store_->reader_by_email("csrf1@example.org").value());

  // Logged in: a vote without the session's token changes nothing.
  Visitor reader = signed_up("csrf2@example.org");
  const int before = votes(ids_.lock_free_article);
  auto vote =
      reader.post("/articles/" + std::to_string(ids_.lock_free_article) + "/vote", {{"csrf", other_token}});
  EXPECT_EQ(vote.status, 403);
  auto vote_json = reader.post("/articles/" + std::to_string(ids_.lock_free_article) + "/vote", {},
                               {{"Accept", "application/json"}});
  EXPECT_EQ(vote_json.status, 403);
  EXPECT_THAT(vote_json.body, HasSubstr("\"error\""));
  EXPECT_EQ(votes(ids_.lock_free_article), before);
  // Logging out needs the token too.
  EXPECT_EQ(reader.post("/logout", {}).status, 403);
  EXPECT_THAT(reader.get("/").body, HasSubstr("Log out"));
}

TEST_F(ReadersTest, BadInputGetsClearMessagesAndWritesNothing) {
  Visitor v(port_);
  auto form = v.get("/signup");
  const std::string token = Visitor::token_in(form.body);
  const std::string huge(10'000, 'a');
  auto res = v.post("/signup",
                    {{"csrf", token}, {"email", huge + "@example.org"}, {"password", "a long passphrase"}});
  EXPECT_EQ(res.status, 400);
  EXPECT_THAT(res.body, HasSubstr("That email address is too long."));
  EXPECT_THAT(res.body, Not(HasSubstr(huge)));
  auto short_pw =
      v.post("/signup", {{"csrf", token}, {"email", "short@example.org"}, {"password", "123456789"}});
  EXPECT_EQ(short_pw.status, 400);
  EXPECT_THAT(short_pw.body, HasSubstr("at least 10 characters"));
  EXPECT_FALSE(store_->reader_by_email("short@example.org").value());

  const std::string evil = "<script>alert(1)</script>'; DROP TABLE readers;--";
  for (const char* path : {"/signup", "/login"}) {
    auto r = v.post(path, {{"csrf", token}, {"email", evil}, {"password", evil}, {"next", evil}});
    EXPECT_EQ(r.status, 400) << path;
    EXPECT_THAT(r.body, Not(HasSubstr("<script>alert(1)")));
    EXPECT_THAT(r.body, HasSubstr("&lt;script&gt;alert(1)&lt;/script&gt;"));
  }
  auto nl = v.post("/newsletter", {{"csrf", token}, {"email", evil}});
  EXPECT_EQ(nl.status, 400);
  EXPECT_THAT(nl.body, Not(HasSubstr("<script>alert(1)")));
  // "next" may only be a path on this site.
  Visitor reader = signed_up("next@example.org");
  auto redirect =
      reader.post("/articles/" + std::to_string(ids_.lock_free_article) + "/vote",
                  {{"csrf", Visitor::token_in(reader.get("/about").body)}, {"next", "//evil.example/x"}});
  EXPECT_EQ(redirect.status, 303);
  EXPECT_EQ(redirect.header("Location").value_or(""), "/");
  EXPECT_TRUE(store_->reader_by_email("next@example.org").value());
  EXPECT_EQ(store_->article_count().value() > 0, true);  // the tables are all still there
}

TEST_F(ReadersTest, LoginMessagesDoNotRevealAccountsAndAreRateLimited) {
  signed_up("limited@example.org");
  Visitor v(port_);
  const std::string token = Visitor::token_in(v.get("/login").body);
  auto wrong =
      v.post("/login", {{"csrf", token}, {"email", "limited@example.org"}, {"password", "wrong password"}});
  auto unknown =
      v.post("/login", {{"csrf", token}, {"email", "nobody@example.org"}, {"password", "wrong password"}});
  EXPECT_EQ(wrong.status, 400);
  EXPECT_EQ(unknown.status, 400);
  EXPECT_THAT(wrong.body, HasSubstr("Email or password is incorrect."));
  EXPECT_THAT(unknown.body, HasSubstr("Email or password is incorrect."));
  v.post("/login", {{"csrf", token}, {"email", "limited@example.org"}, {"password", "wrong again"}});
  v.post("/login", {{"csrf", token}, {"email", "limited@example.org"}, {"password", "wrong thrice"}});
  auto limited = v.post(
      "/login", {{"csrf", token}, {"email", "limited@example.org"}, {"password", "a long passphrase"}});
  EXPECT_EQ(limited.status, 429);
  EXPECT_THAT(limited.body, HasSubstr("Too many attempts. Try again in 15 minutes."));
  EXPECT_TRUE(limited.header("Retry-After"));
  EXPECT_TRUE(v.cookie("lr_session").empty());
}

TEST_F(ReadersTest, ExpiredSessionsAreLoggedOut) {
  const std::int64_t reader =
      store_->create_reader("expired@example.org", "$argon2id$x", now_seconds(), now_seconds()).value();
  const std::string token = accounts::random_token();
  ASSERT_TRUE(store_->create_session({.token_hash = accounts::token_hash(token),
                                      .reader_id = reader,
                                      .created_at = now_seconds() - std::chrono::hours(48),
                                      .expires_at = now_seconds() - std::chrono::seconds(1)}));
  Visitor v(port_);
  v.set_cookie("lr_session", token);
  EXPECT_THAT(v.get("/").body, HasSubstr("[alt+shift+l]"));
  auto vote = v.post("/articles/" + std::to_string(ids_.recent_article) + "/vote", {{"next", "/"}});
  EXPECT_EQ(vote.status, 303);
  EXPECT_THAT(vote.header("Location").value_or(""), HasSubstr("/login?next="));
  EXPECT_EQ(store_->reader_marks(reader, {ids_.recent_article}).value().voted.size(), 0u);
}

TEST_F(ReadersTest, VotesCountOnceAndCanBeWithdrawn) {
  Visitor v = signed_up("voter@example.org");
  const std::string token = Visitor::token_in(v.get("/about").body);
  const auto id = ids_.recent_article;
  const std::string base = "/articles/" + std::to_string(id);
  const int before = votes(id);

  // Without JavaScript: a form post and a redirect back.
  auto first = v.post(base + "/vote", {{"csrf", token}, {"next", "/top"}});
  ASSERT_EQ(first.status, 303) << first.body;
  EXPECT_EQ(first.header("Location").value_or(""), "/top");
  // With JavaScript: JSON, no reload. A second vote counts once.
  auto second = v.post(base + "/vote", {{"csrf", token}}, {{"Accept", "application/json"}});
  ASSERT_EQ(second.status, 200);
  EXPECT_EQ(second.body, "{\"voted\":true,\"votes\":" + std::to_string(before + 1) + "}");
  EXPECT_EQ(votes(id), before + 1);

  // Shown everywhere, as voted for this reader; the Top tab appears.
  auto front = v.get("/");
  EXPECT_THAT(front.body, HasSubstr("action=\"/articles/" + std::to_string(id) + "/unvote\""));
  EXPECT_THAT(front.body, HasSubstr("href=\"/top\""));
  Visitor other(port_);
  EXPECT_THAT(other.get("/top").body,
              HasSubstr(std::to_string(before + 1) + (before + 1 == 1 ? " vote<" : " votes<")));
  EXPECT_THAT(other.get("/top?period=all").body, HasSubstr("Top of all time"));
  EXPECT_EQ(other.get("/top?period=month").status, 200);
  EXPECT_EQ(other.get("/top?period=decade").status, 404);

  auto withdrawn = v.post(base + "/unvote", {{"csrf", token}}, {{"Accept", "application/json"}});
  EXPECT_EQ(withdrawn.body, "{\"voted\":false,\"votes\":" + std::to_string(before) + "}");
  EXPECT_EQ(votes(id), before);

  // Unknown, malformed and hidden (junk) articles.
  EXPECT_EQ(v.post("/articles/99999999/vote", {{"csrf", token}}).status, 404);
  EXPECT_EQ(v.post("/articles/abc/vote", {{"csrf", token}}).status, 404);
  EXPECT_EQ(v.post("/articles/99999999/vote", {{"csrf", token}}, {{"Accept", "application/json"}}).status,
            404);
  auto junk = store_->recent_junk(1).value();
  if (!junk.empty()) {
    EXPECT_EQ(v.post("/articles/" + std::to_string(junk[0].article.id) + "/vote", {{"csrf", token}}).status,
              404);
    EXPECT_EQ(junk[0].article.votes, votes(junk[0].article.id));
  }
  // Logged out: asked to log in (JSON: 401 with where to go).
  Visitor visitor(port_);
  auto anon = visitor.post(base + "/vote", {{"next", "/"}}, {{"Accept", "application/json"}});
  EXPECT_EQ(anon.status, 401);
  EXPECT_THAT(anon.body, HasSubstr("/login?next="));
  EXPECT_EQ(votes(id), before);
}

// A visitor who votes is sent to log in (or sign up) and the vote is counted once they have: the login
// form carries the vote and says so, without JavaScript and with it.
TEST_F(ReadersTest, AVisitorsVoteIsCountedAfterLogInOrSignUp) {
  signed_up("voter-later@example.org");
  const auto id = ids_.recent_article;
  const std::string path = article_path(id);
  const int before = votes(id);
  Visitor v(port_);
  ASSERT_EQ(v.get(path).status, 200);
  auto ask = v.post("/articles/" + std::to_string(id) + "/vote", {{"next", path}});
  ASSERT_EQ(ask.status, 303);
  const std::string login = std::string(ask.header("Location").value_or(""));
  EXPECT_EQ(login, "/login?next=" + web::url_encode(path) +
                       "&then=" + web::url_encode("vote:" + std::to_string(id)));
  EXPECT_EQ(votes(id), before);

  auto form = v.get(login);
  ASSERT_EQ(form.status, 200);
  EXPECT_THAT(form.body, HasSubstr("Your vote for &ldquo;The last voyage of the Hindenburg&#39;s sister "
                                   "ship&rdquo; counts as soon as you log in."));
  EXPECT_THAT(form.body,
              HasSubstr("<input type=\"hidden\" name=\"then\" value=\"vote:" + std::to_string(id) + "\">"));
  // A wrong password keeps the vote waiting in the form shown again.
  auto wrong = v.post("/login", {{"csrf", Visitor::token_in(form.body)},
                                 {"email", "voter-later@example.org"},
                                 {"password", "not the passphrase"},
                                 {"next", path},
                                 {"then", "vote:" + std::to_string(id)}});
  EXPECT_EQ(wrong.status, 400);
  EXPECT_THAT(wrong.body, HasSubstr("name=\"then\" value=\"vote:" + std::to_string(id) + "\""));
  EXPECT_EQ(votes(id), before);
  auto in = v.post("/login", {{"csrf", Visitor::token_in(form.body)},
                              {"email", "voter-later@example.org"},
                              {"password", "a long passphrase"},
                              {"next", path},
                              {"then", "vote:" + std::to_string(id)}});
  ASSERT_EQ(in.status, 303) << in.body;
  EXPECT_EQ(in.header("Location").value_or(""), path);
  EXPECT_EQ(votes(id), before + 1);
  auto page = v.get(path);
  EXPECT_THAT(page.body, HasSubstr("action=\"/articles/" + std::to_string(id) + "/unvote\""));

  // With JavaScript: the 401 names the login page with the vote; signing up from there counts it too.
  const auto other_id = ids_.lock_free_article;
  const int other_before = votes(other_id);
  Visitor w(port_);
  auto json = w.post("/articles/" + std::to_string(other_id) + "/vote", {{"next", "/"}},
                     {{"Accept", "application/json"}});
  EXPECT_EQ(json.status, 401);
  const std::string then = "vote:" + std::to_string(other_id);
  EXPECT_THAT(json.body, HasSubstr("&then=" + web::url_encode(then)));
  auto signup = w.get("/signup?next=%2F&then=" + web::url_encode(then));
  EXPECT_THAT(signup.body, HasSubstr("counts as soon as you sign up."));
  auto created = w.post("/signup", {{"csrf", Visitor::token_in(signup.body)},
                                    {"email", "voter-new@example.org"},
                                    {"password", "a long passphrase"},
                                    {"next", "/"},
                                    {"then", then}});
  ASSERT_EQ(created.status, 303) << created.body;
  EXPECT_EQ(votes(other_id), other_before + 1);

  // A "then" that names no article, or is not an action, changes nothing and still logs in.
  Visitor x(port_);
  auto x_form = x.get("/login?next=%2F&then=vote%3A99999999");
  EXPECT_THAT(x_form.body, Not(HasSubstr("counts as soon as")));
  auto x_in = x.post("/login", {{"csrf", Visitor::token_in(x_form.body)},
                                {"email", "voter-later@example.org"},
                                {"password", "a long passphrase"},
                                {"next", "/"},
                                {"then", "vote:99999999"}});
  EXPECT_EQ(x_in.status, 303);
  EXPECT_EQ(x.post("/login", {{"then", "explode"}}).status, 403);
}

TEST_F(ReadersTest, ReadingListNeedsAnAccountAndComesBackToTheArticle) {
  const auto id = ids_.lock_free_article;
  const std::string path = article_path(id);
  Visitor v(port_);
  auto page = v.get(path);
  ASSERT_EQ(page.status, 200) << path;
  EXPECT_THAT(page.body, HasSubstr("Add to reading list"));
  auto ask = v.post("/reading-list/" + std::to_string(id), {{"next", path}});
  ASSERT_EQ(ask.status, 303);
  EXPECT_EQ(ask.header("Location").value_or(""), "/login?next=" + web::url_encode(path) + "&then=" +
                                                     web::url_encode("save:" + std::to_string(id)));
  EXPECT_EQ(v.get("/reading-list").status, 303);

  // Sign up from there and come back to the article.
  auto form = v.get(std::string(*ask.header("Location")).replace(0, 6, "/signup"));
  EXPECT_THAT(form.body, HasSubstr("Saving &ldquo;Lock-free queues, part 2&rdquo; to your reading list"));
  auto created = v.post("/signup", {{"csrf", Visitor::token_in(form.body)},
                                    {"email", "saver@example.org"},
                                    {"password", "a long passphrase"},
                                    {"next", path},
                                    {"then", "save:" + std::to_string(id)}});
  ASSERT_EQ(created.status, 303);
  EXPECT_EQ(created.header("Location").value_or(""), path);

  // The add the visitor started is done: the article is on the new reader's list.
  auto article = v.get(path);
  EXPECT_THAT(article.body, HasSubstr("Remove from reading list"));
  EXPECT_THAT(article.body, HasSubstr("data-reading-count>1<"));
  const std::string token =
      Visitor::token_in(article.body.substr(article.body.find("data-shortcut=\"reading-list\"") - 200));
  auto add =
      v.post("/reading-list/" + std::to_string(id), {{"csrf", token}, {"next", path}, {"action", "add"}});
  ASSERT_EQ(add.status, 303) << add.body;
  EXPECT_EQ(add.header("Location").value_or(""), path);
  auto second =
      v.post("/reading-list/" + std::to_string(ids_.recent_article), {{"csrf", token}, {"action", "add"}});
  ASSERT_EQ(second.status, 303);
  auto after = v.get(path);
  EXPECT_THAT(after.body, HasSubstr("Remove from reading list"));
  EXPECT_THAT(after.body, HasSubstr("data-reading-count>2<"));

  auto list = v.get("/reading-list");
  ASSERT_EQ(list.status, 200);
  // Newest saved first.
  const auto first_pos = list.body.find("data-saved=\"" + std::to_string(ids_.recent_article) + "\"");
  const auto second_pos = list.body.find("data-saved=\"" + std::to_string(id) + "\"");
  ASSERT_NE(first_pos, std::string::npos);
  ASSERT_NE(second_pos, std::string::npos);
  EXPECT_LT(first_pos, second_pos);

  ASSERT_EQ(v.post("/reading-list/" + std::to_string(id), {{"csrf", token}, {"action", "read"}}).status, 303);
  EXPECT_THAT(v.get("/reading-list").body, HasSubstr("Mark as unread"));
  EXPECT_THAT(v.get("/").body, HasSubstr("data-reading-count>1<"));
  ASSERT_EQ(v.post("/reading-list/" + std::to_string(id), {{"csrf", token}, {"action", "remove"}}).status,
            303);
  EXPECT_THAT(v.get("/reading-list").body, Not(HasSubstr("data-saved=\"" + std::to_string(id) + "\"")));
  EXPECT_EQ(v.post("/reading-list/99999999", {{"csrf", token}, {"action", "add"}}).status, 404);
  EXPECT_EQ(v.post("/reading-list/" + std::to_string(id), {{"csrf", token}, {"action", "explode"}}).status,
            400);
  EXPECT_EQ(v.post("/reading-list/" + std::to_string(id), {{"csrf", "x"}, {"action", "add"}}).status, 403);
}

// Votes and the reading list act for the session's reader only: another reader who posts the same
// article ids (with their own valid token, or with the first reader's token) changes nothing of the
// first reader's.
TEST_F(ReadersTest, OneReaderCannotChangeAnotherReadersVotesOrList) {
  Visitor alice = signed_up("alice@example.org");
  Visitor bob = signed_up("bob@example.org");
  const std::string alice_token = Visitor::token_in(alice.get("/about").body);
  const std::string bob_token = Visitor::token_in(bob.get("/about").body);
  ASSERT_NE(alice_token, bob_token);
  const auto id = ids_.recent_article;
  const std::string vote = "/articles/" + std::to_string(id);
  const std::string saved = "/reading-list/" + std::to_string(id);
  const int before = votes(id);
  ASSERT_EQ(alice.post(vote + "/vote", {{"csrf", alice_token}}).status, 303);
  ASSERT_EQ(alice.post(saved, {{"csrf", alice_token}, {"action", "add"}}).status, 303);
  ASSERT_EQ(votes(id), before + 1);

  // Bob withdraws "the vote" and removes "the saved article": his own, which he never had.
  auto unvote = bob.post(vote + "/unvote", {{"csrf", bob_token}}, {{"Accept", "application/json"}});
  ASSERT_EQ(unvote.status, 200);
  EXPECT_EQ(unvote.body, "{\"voted\":false,\"votes\":" + std::to_string(before + 1) + "}");
  EXPECT_EQ(bob.post(saved, {{"csrf", bob_token}, {"action", "remove"}}).status, 303);
  // Marking read an article that is not on his own list is "not found", not hers marked.
  EXPECT_EQ(bob.post(saved, {{"csrf", bob_token}, {"action", "read"}}).status, 404);
  // Alice's token in Bob's session is refused.
  EXPECT_EQ(bob.post(vote + "/unvote", {{"csrf", alice_token}}).status, 403);
  EXPECT_EQ(bob.post(saved, {{"csrf", alice_token}, {"action", "remove"}}).status, 403);

  EXPECT_EQ(votes(id), before + 1);
  auto list = alice.get("/reading-list");
  EXPECT_THAT(list.body, HasSubstr("data-saved=\"" + std::to_string(id) + "\""));
  EXPECT_THAT(list.body, Not(HasSubstr("Mark as unread")));  // Bob's "read" did not mark hers
  EXPECT_THAT(alice.get(article_path(id)).body, HasSubstr("action=\"" + vote + "/unvote\""));
  EXPECT_THAT(bob.get("/reading-list").body, Not(HasSubstr("data-saved=\"" + std::to_string(id) + "\"")));
}

TEST_F(ReadersTest, NewsletterDoubleOptInAndOneClickUnsubscribe) {
  Visitor v(port_);
  // This site can mail the confirmation, so the article page offers the newsletter (SiteTest's cannot).
  auto article = v.get("/blog/" + std::to_string(ids_.ada_blog) + "/read/" +
                       std::to_string(ids_.lock_free_article) + "-lock-free-queues-part-2");
  ASSERT_EQ(article.status, 200);
  EXPECT_THAT(article.body, HasSubstr("<h2>Stay updated</h2>"));
  EXPECT_THAT(article.body, HasSubstr("action=\"/newsletter\""));
  EXPECT_EQ(v.get("/newsletter").status, 200);
  // The cached article page has no token for a cookie-less visitor: the post asks to confirm on a form.
  auto first = v.post("/newsletter", {{"email", "news@example.org"}});
  EXPECT_EQ(first.status, 403);
  EXPECT_THAT(first.body, HasSubstr("Please confirm your subscription."));
  EXPECT_THAT(first.body, HasSubstr("value=\"news@example.org\""));
  auto res = v.post("/newsletter", {{"csrf", Visitor::token_in(first.body)}, {"email", "news@example.org"}});
  ASSERT_EQ(res.status, 200) << res.body;
  EXPECT_THAT(res.body, HasSubstr("a confirmation link is on its way"));
  std::string url;
  {
    std::lock_guard lock(mail_mutex_);
    ASSERT_FALSE(confirmations_.empty());
    EXPECT_EQ(confirmations_.back().first, "news@example.org");
    url = confirmations_.back().second;
  }
  ASSERT_TRUE(url.starts_with("https://longread.test/newsletter/confirm?"));
  const std::string target = url.substr(std::string("https://longread.test").size());
  EXPECT_TRUE(store_->confirmed_subscribers().value().empty());
  // A tampered link does nothing.
  auto tampered = v.get(std::regex_replace(target, std::regex("news%40"), "eve%40"));
  EXPECT_EQ(tampered.status, 400);
  auto confirmed = v.get(target);
  ASSERT_EQ(confirmed.status, 200) << confirmed.body;
  EXPECT_THAT(confirmed.body, HasSubstr("will get the weekly newsletter"));
  ASSERT_EQ(store_->confirmed_subscribers().value().size(), 1u);

  // An expired link.
  const auto expired = to_unix(now_seconds()) - 10;
  const std::string sig = "x";  // expired first: any signature is turned down
  EXPECT_EQ(
      v.get("/newsletter/confirm?email=news%40example.org&expires=" + std::to_string(expired) + "&sig=" + sig)
          .status,
      400);

  // One-click unsubscribe: RFC 8058 POST, and the link in the body (GET).
  auto accounts = accounts::Accounts::open(*store_, *store_, *store_,
                                           {.password_cost = accounts::PasswordCost::minimum()})
                      .value();
  const std::string unsub = "/newsletter/unsubscribe?email=news%40example.org&sig=" +
                            accounts->link_signature("unsubscribe", "news@example.org", 0);
  EXPECT_EQ(
      v.post("/newsletter/unsubscribe?email=news%40example.org&sig=bad", {{"List-Unsubscribe", "One-Click"}})
          .status,
      400);
  auto one_click = v.post(unsub, {{"List-Unsubscribe", "One-Click"}});
  EXPECT_EQ(one_click.status, 200);
  EXPECT_TRUE(store_->confirmed_subscribers().value().empty());
  auto again = v.get(unsub);
  EXPECT_EQ(again.status, 200);
  EXPECT_THAT(again.body, HasSubstr("will get no more newsletters"));

  auto bad =
      v.post("/newsletter", {{"csrf", Visitor::token_in(first.body)}, {"email", std::string(10'000, 'x')}});
  EXPECT_EQ(bad.status, 400);
  EXPECT_THAT(bad.body, HasSubstr("too long"));
}

TEST_F(ReadersTest, AccountSettingsChangePasswordEndSessionsAndDelete) {
  Visitor stranger(port_);
  auto ask = stranger.get("/account");
  EXPECT_EQ(ask.status, 303);
  EXPECT_EQ(ask.header("Location").value_or(""), "/login?next=%2Faccount");

  Visitor v = signed_up("settings@example.org");
  auto log_in = [](Visitor& who, const std::string& password) {
    auto form = who.get("/login");
    return who.post(
        "/login",
        {{"csrf", Visitor::token_in(form.body)}, {"email", "settings@example.org"}, {"password", password}});
  };
  Visitor laptop(port_);
  ASSERT_EQ(log_in(laptop, "a long passphrase").status, 303);

  auto page = v.get("/account");
  ASSERT_EQ(page.status, 200);
  EXPECT_THAT(page.body, HasSubstr("Logged in as settings@example.org."));
  EXPECT_THAT(page.header("Cache-Control").value_or(""), HasSubstr("no-store"));
  EXPECT_THAT(v.get("/").body, HasSubstr("<a href=\"/account\">Account</a>"));
  const std::string token = Visitor::token_in(page.body);

  // Without the token, or with a wrong current password: nothing changes.
  EXPECT_EQ(v.post("/account/password", {{"current", "a long passphrase"}, {"password", "a new passphrase"}})
                .status,
            403);
  auto wrong = v.post("/account/password",
                      {{"csrf", token}, {"current", "not the passphrase"}, {"password", "a new passphrase"}});
  EXPECT_EQ(wrong.status, 400);
  EXPECT_THAT(wrong.body, HasSubstr("The current password is incorrect."));
  EXPECT_THAT(laptop.get("/").body, HasSubstr("Log out"));

  // A new password: this browser moves to a new session, every other one ends.
  auto changed =
      v.post("/account/password",
             {{"csrf", token}, {"current", "a long passphrase"}, {"password", "a new passphrase"}});
  ASSERT_EQ(changed.status, 303) << changed.body;
  EXPECT_EQ(changed.header("Location").value_or(""), "/account?done=password");
  auto after = v.get("/account?done=password");
  EXPECT_THAT(after.body, HasSubstr("Your password is changed."));
  EXPECT_THAT(laptop.get("/").body, HasSubstr("[alt+shift+l]"));
  EXPECT_EQ(log_in(laptop, "a long passphrase").status, 400);
  ASSERT_EQ(log_in(laptop, "a new passphrase").status, 303);

  // Log out everywhere else.
  auto ended = v.post("/account/sessions", {{"csrf", Visitor::token_in(after.body)}});
  ASSERT_EQ(ended.status, 303);
  EXPECT_THAT(laptop.get("/").body, HasSubstr("[alt+shift+l]"));
  auto still = v.get("/account?done=sessions");
  EXPECT_THAT(still.body, HasSubstr("Every other browser and device is logged out."));

  // Delete: the votes go with the account.
  const auto id = ids_.lock_free_article;
  const int before = votes(id);
  ASSERT_EQ(
      v.post("/articles/" + std::to_string(id) + "/vote", {{"csrf", Visitor::token_in(still.body)}}).status,
      303);
  EXPECT_EQ(votes(id), before + 1);
  auto refused =
      v.post("/account/delete", {{"csrf", Visitor::token_in(still.body)}, {"password", "wrong one"}});
  EXPECT_EQ(refused.status, 400);
  EXPECT_TRUE(store_->reader_by_email("settings@example.org").value());
  auto deleted =
      v.post("/account/delete", {{"csrf", Visitor::token_in(still.body)}, {"password", "a new passphrase"}});
  ASSERT_EQ(deleted.status, 303) << deleted.body;
  EXPECT_EQ(deleted.header("Location").value_or(""), "/");
  EXPECT_TRUE(v.cookie("lr_session").empty());
  EXPECT_FALSE(store_->reader_by_email("settings@example.org").value());
  EXPECT_EQ(votes(id), before);
  EXPECT_EQ(log_in(laptop, "a new passphrase").status, 400);
}

TEST_F(ReadersTest, WithoutMailPasswordsCannotBeResetAndTheLoginPageSaysWhere) {
  Visitor v(port_);
  EXPECT_THAT(v.get("/login").body, HasSubstr("<a href=\"/password/forgot\">Forgot your password?</a>"));
  auto forgot = v.get("/password/forgot");
  EXPECT_EQ(forgot.status, 200);
  EXPECT_THAT(forgot.body, HasSubstr("not set up to send mail"));
  EXPECT_THAT(forgot.body, Not(HasSubstr("<form method=\"post\" action=\"/password/forgot\"")));
}

// A site that sends mail (SiteOptions::send_account_mail): accounts are confirmed by mail, sign-up says
// the same whatever the address, and passwords can be reset with a mailed link. The mails are caught by
// the hook the app wires to SMTP (mail/newsletter_test.cpp sends them through a real SMTP server).
class MailedReadersTest : public ::testing::Test {
 protected:
  struct Mail {
    accounts::MailKind kind;
    std::string email;
    std::string path;  // the link without the base URL
  };

  static void SetUpTestSuite() {
    SiteOptions options = testing::test_site_options();
    options.accounts.signups_per_client = 1000;
    options.accounts.resets_per_client = 1000;
    options.send_account_mail = [](accounts::MailKind kind, std::string_view email,
                                   std::string_view url) -> Result<void> {
      std::lock_guard lock(mail_mutex_);
      EXPECT_TRUE(url.starts_with("https://longread.test/")) << url;
      mails_.push_back({kind, std::string(email),
                        std::string(url.substr(std::string_view("https://longread.test").size()))});
      return {};
    };
    auto running = testing::RunningSite::start("mailed-readers-test", std::move(options));
    ASSERT_TRUE(running) << running.error().message;
    running_ = std::move(*running);
    store_ = &running_->store();
    port_ = running_->port();
  }
  static void TearDownTestSuite() { running_.reset(); }

  // Waits (polling, up to 10 s) until `email` has had `n` mails: password-reset mails are queued off the
  // request's thread.
  static bool wait_for_mails(const std::string& email, std::size_t n) {
    for (const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(10);;) {
      if (mails_to(email).size() >= n) return true;
      if (std::chrono::steady_clock::now() >= end) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
  static std::vector<Mail> mails_to(const std::string& email) {
    std::lock_guard lock(mail_mutex_);
    std::vector<Mail> out;
    for (const auto& m : mails_) {
      if (m.email == email) out.push_back(m);
    }
    return out;
  }
  static ClientResponse sign_up(Visitor& v, const std::string& email, const std::string& password) {
    auto form = v.get("/signup");
    return v.post("/signup",
                  {{"csrf", Visitor::token_in(form.body)}, {"email", email}, {"password", password}});
  }
  // Opens a mailed link and presses the page's button (a form with the link's fields and a CSRF token).
  static ClientResponse follow(Visitor& v, const std::string& path,
                               std::map<std::string, std::string> extra = {}) {
    auto page = v.get(path);
    EXPECT_EQ(page.status, 200) << page.body;
    std::map<std::string, std::string> fields = std::move(extra);
    std::smatch m;
    std::string rest = page.body.substr(page.body.find("<main"));
    while (std::regex_search(rest, m,
                             std::regex("<input type=\"hidden\" name=\"([a-z]+)\" value=\"([^\"]*)\">"))) {
      fields.emplace(m[1], m[2]);  // the test's addresses and signatures need no unescaping
      rest = m.suffix();
    }
    const std::string action = path.substr(0, path.find('?'));
    return v.post(action, fields);
  }
  // A page body with the per-visitor parts (CSRF tokens) blanked, to compare two answers.
  static std::string without_tokens(const std::string& body) {
    return std::regex_replace(body, std::regex("name=\"csrf\" value=\"[^\"]*\""), "name=\"csrf\" value=\"\"");
  }

  static inline std::unique_ptr<testing::RunningSite> running_;
  static inline storage::Store* store_ = nullptr;
  static inline std::uint16_t port_ = 0;
  static inline std::mutex mail_mutex_;
  static inline std::vector<Mail> mails_;
};

TEST_F(MailedReadersTest, SignUpSaysTheSameWhetherOrNotTheAddressHasAnAccount) {
  Visitor mia(port_);
  auto first = sign_up(mia, "mia@example.org", "mia's own passphrase");
  ASSERT_EQ(first.status, 200) << first.body;
  EXPECT_THAT(first.body, HasSubstr("Check your inbox"));
  EXPECT_TRUE(mia.cookie("lr_session").empty());  // nobody is logged in before the address answers
  auto mails = mails_to("mia@example.org");
  ASSERT_EQ(mails.size(), 1u);
  EXPECT_EQ(mails[0].kind, accounts::MailKind::kConfirmAccount);
  EXPECT_TRUE(mails[0].path.starts_with("/account/confirm?email=mia%40example.org&expires="))
      << mails[0].path;

  // Before confirming, logging in says what to do.
  auto login_form = mia.get("/login");
  auto early = mia.post("/login", {{"csrf", Visitor::token_in(login_form.body)},
                                   {"email", "mia@example.org"},
                                   {"password", "mia's own passphrase"}});
  EXPECT_EQ(early.status, 403);
  EXPECT_THAT(early.body, HasSubstr("Please confirm your address first"));

  // The link opens a page with a button; pressing it confirms and logs in.
  auto confirmed = follow(mia, mails[0].path);
  ASSERT_EQ(confirmed.status, 303) << confirmed.body;
  EXPECT_EQ(confirmed.header("Location").value_or(""), "/");
  EXPECT_FALSE(mia.cookie("lr_session").empty());
  EXPECT_THAT(mia.get("/").body, HasSubstr("Log out"));
  ASSERT_TRUE(store_->reader_by_email("mia@example.org").value()->confirmed_at);

  // A stranger signs up with Mia's address: the same page, status and cookies as a new address gets
  // (the address shown is the one typed); Mia is mailed that she has an account, and nothing changes.
  Visitor stranger(port_);
  auto taken = sign_up(stranger, "MIA@example.org", "the stranger's passphrase");
  Visitor newcomer(port_);
  auto fresh = sign_up(newcomer, "NOA@example.org", "a long passphrase");
  EXPECT_EQ(taken.status, fresh.status);
  EXPECT_EQ(taken.header("Set-Cookie").has_value(), fresh.header("Set-Cookie").has_value());
  EXPECT_THAT(taken.body, HasSubstr("MIA@example.org"));
  EXPECT_EQ(std::regex_replace(without_tokens(taken.body), std::regex("MIA@example\\.org"), "X"),
            std::regex_replace(without_tokens(fresh.body), std::regex("NOA@example\\.org"), "X"));
  EXPECT_TRUE(stranger.cookie("lr_session").empty());
  mails = mails_to("mia@example.org");
  ASSERT_EQ(mails.size(), 2u);
  EXPECT_EQ(mails[1].kind, accounts::MailKind::kAlreadyRegistered);
  EXPECT_TRUE(mails[1].path.starts_with("/password/reset?")) << mails[1].path;
  login_form = stranger.get("/login");
  auto strangers_login = stranger.post("/login", {{"csrf", Visitor::token_in(login_form.body)},
                                                  {"email", "mia@example.org"},
                                                  {"password", "the stranger's passphrase"}});
  EXPECT_EQ(strangers_login.status, 400);
  EXPECT_THAT(strangers_login.body, HasSubstr("Email or password is incorrect."));
}

TEST_F(MailedReadersTest, PasswordResetByMailedLinkEndsOtherSessions) {
  Visitor old_device(port_);
  ASSERT_EQ(sign_up(old_device, "rae@example.org", "rae's first passphrase").status, 200);
  ASSERT_EQ(follow(old_device, mails_to("rae@example.org").at(0).path).status, 303);
  ASSERT_FALSE(old_device.cookie("lr_session").empty());

  // "Forgot your password?" answers alike for an address with an account and one without; only the
  // first gets a mail.
  Visitor v(port_);
  auto form = v.get("/password/forgot");
  ASSERT_EQ(form.status, 200);
  auto unknown =
      v.post("/password/forgot", {{"csrf", Visitor::token_in(form.body)}, {"email", "zed@example.org"}});
  auto known =
      v.post("/password/forgot", {{"csrf", Visitor::token_in(form.body)}, {"email", "rae@example.org"}});
  ASSERT_EQ(known.status, 200) << known.body;
  EXPECT_EQ(unknown.status, 200);
  EXPECT_EQ(std::regex_replace(without_tokens(known.body), std::regex("rae@example\\.org"), "X"),
            std::regex_replace(without_tokens(unknown.body), std::regex("zed@example\\.org"), "X"));
  // The mail is queued off the request's thread, in order: once Rae's is there, Zed's turn has passed.
  ASSERT_TRUE(wait_for_mails("rae@example.org", 2));
  EXPECT_TRUE(mails_to("zed@example.org").empty());
  auto mails = mails_to("rae@example.org");
  ASSERT_EQ(mails.size(), 2u);
  EXPECT_EQ(mails[1].kind, accounts::MailKind::kPasswordReset);

  // Too short a password: the form again, with the reason; nothing changes.
  auto weak = follow(v, mails[1].path, {{"password", "short"}});
  EXPECT_EQ(weak.status, 400);
  EXPECT_THAT(weak.body, HasSubstr("at least 10 characters"));
  auto reset = follow(v, mails[1].path, {{"password", "rae's second passphrase"}});
  ASSERT_EQ(reset.status, 303) << reset.body;
  EXPECT_FALSE(v.cookie("lr_session").empty());
  EXPECT_THAT(v.get("/").body, HasSubstr("Log out"));
  // The old device's session ended; the link worked once.
  EXPECT_THAT(old_device.get("/").body, HasSubstr("[alt+shift+l]"));
  auto again = v.get(mails[1].path);
  EXPECT_EQ(again.status, 400);
  EXPECT_THAT(again.body, HasSubstr("not valid or has expired"));
  auto login_form = old_device.get("/login");
  EXPECT_EQ(old_device
                .post("/login", {{"csrf", Visitor::token_in(login_form.body)},
                                 {"email", "rae@example.org"},
                                 {"password", "rae's second passphrase"}})
                .status,
            303);
}

TEST_F(MailedReadersTest, BadLinksAndForgedFormsChangeNothing) {
  Visitor v(port_);
  ASSERT_EQ(sign_up(v, "ivy@example.org", "ivy's own passphrase").status, 200);
  const std::string link = mails_to("ivy@example.org").at(0).path;
  // Malformed links: a clear 400 page at once; a tampered signature when the button is pressed (the
  // confirmation page itself checks nothing but the link's form), a reset link on opening.
  std::vector<ClientResponse> answers = {
      v.get("/account/confirm"), v.get("/account/confirm?email=ivy%40example.org&expires=soon&sig=x"),
      follow(v, std::regex_replace(link, std::regex("sig=[^&]*"), "sig=AAAA")),
      v.get("/password/reset?email=ivy%40example.org&expires=99999999999&sig=AAAA")};
  for (const auto& res : answers) {
    EXPECT_EQ(res.status, 400);
    EXPECT_THAT(res.body, HasSubstr("not valid or has expired"));
  }
  EXPECT_FALSE(store_->reader_by_email("ivy@example.org").value()->confirmed_at);
  // The right link without the form's CSRF token: 403, still pending.
  std::smatch sig;
  ASSERT_TRUE(std::regex_search(link, sig, std::regex("email=([^&]*)&expires=([0-9]+)&sig=([^&]*)")));
  auto forged = v.post(
      "/account/confirm",
      {{"email", "ivy@example.org"}, {"expires", sig[2]}, {"sig", web::url_decode(sig[3].str(), false)}});
  EXPECT_EQ(forged.status, 403);
  EXPECT_FALSE(store_->reader_by_email("ivy@example.org").value()->confirmed_at);
  EXPECT_TRUE(v.cookie("lr_session").empty());
  // With the form, the same link works.
  EXPECT_EQ(follow(v, link).status, 303);
}

// Mail bombing: many clients asking for mail to one address (sign-up, "forgot your password") get the
// same answers as ever, and the address gets one mail of each kind per hour.
TEST_F(MailedReadersTest, ManyClientsAskingForMailToOneAddressSendOneMailPerHour) {
  std::vector<std::string> answers;
  for (int i = 0; i < 5; ++i) {
    Visitor v(port_, "127.0.0." + std::to_string(40 + i));
    auto res = sign_up(v, "target@example.org", "passphrase number " + std::to_string(i));
    EXPECT_EQ(res.status, 200) << res.body;
    answers.push_back(without_tokens(res.body));
  }
  for (const auto& answer : answers) EXPECT_EQ(answer, answers.front());
  ASSERT_EQ(mails_to("target@example.org").size(), 1u);
  EXPECT_EQ(mails_to("target@example.org")[0].kind, accounts::MailKind::kConfirmAccount);

  answers.clear();
  for (int i = 0; i < 5; ++i) {
    Visitor v(port_, "127.0.0." + std::to_string(50 + i));
    auto form = v.get("/password/forgot");
    auto res =
        v.post("/password/forgot", {{"csrf", Visitor::token_in(form.body)}, {"email", "target@example.org"}});
    EXPECT_EQ(res.status, 200) << res.body;
    answers.push_back(without_tokens(res.body));
  }
  for (const auto& answer : answers) EXPECT_EQ(answer, answers.front());
  // A last request for another address: reset jobs run in order, so once its mail is there, every
  // request for the target has been dealt with.
  Visitor other(port_, "127.0.0.59");
  ASSERT_EQ(sign_up(other, "sentinel@example.org", "the sentinel's passphrase").status, 200);
  auto form = other.get("/password/forgot");
  other.post("/password/forgot", {{"csrf", Visitor::token_in(form.body)}, {"email", "sentinel@example.org"}});
  ASSERT_TRUE(wait_for_mails("sentinel@example.org", 2));
  const auto mails = mails_to("target@example.org");
  ASSERT_EQ(mails.size(), 2u);
  EXPECT_EQ(mails[1].kind, accounts::MailKind::kPasswordReset);
  // The newest sign-up's password is the pending account's (a stranger's sign-up cannot hold it); the
  // reset link mailed to the address confirms it with a password of the owner's choosing.
  Visitor owner(port_, "127.0.0.60");
  ASSERT_EQ(follow(owner, mails[1].path, {{"password", "the owner's passphrase"}}).status, 303);
  EXPECT_TRUE(store_->reader_by_email("target@example.org").value()->confirmed_at);
}

// Reset requests are limited per address from one client, never per address alone.
TEST_F(MailedReadersTest, ResetRequestsAreLimitedPerClientNotPerAddress) {
  const auto ask = [&](Visitor& v) {
    auto form = v.get("/password/forgot");
    return v.post("/password/forgot", {{"csrf", Visitor::token_in(form.body)}, {"email", "lim@example.org"}});
  };
  Visitor pest(port_, "127.0.0.70");
  for (int i = 0; i < 3; ++i) EXPECT_EQ(ask(pest).status, 200);
  auto limited = ask(pest);
  EXPECT_EQ(limited.status, 429);
  EXPECT_THAT(limited.body, HasSubstr("Too many attempts"));
  Visitor owner(port_, "127.0.0.71");
  EXPECT_EQ(ask(owner).status, 200);
}

// Login lockout: five wrong passwords for an address from five clients do not stop its owner; a client
// that keeps guessing one account waits, and only that client.
TEST_F(ReadersTest, NobodyCanLockAReaderOutByFailingLoginsFromOtherClients) {
  {
    Visitor creator(port_, "127.0.0.20");
    auto form = creator.get("/signup");
    ASSERT_EQ(creator
                  .post("/signup", {{"csrf", Visitor::token_in(form.body)},
                                    {"email", "owner@example.org"},
                                    {"password", "the owner's passphrase"}})
                  .status,
              303);
  }
  const auto log_in = [&](Visitor& v, const std::string& password) {
    auto form = v.get("/login");
    return v.post("/login", {{"csrf", Visitor::token_in(form.body)},
                             {"email", "owner@example.org"},
                             {"password", password},
                             {"next", "/about"}});
  };
  for (int i = 0; i < 5; ++i) {
    Visitor attacker(port_, "127.0.0." + std::to_string(21 + i));
    auto res = log_in(attacker, "not the passphrase");
    EXPECT_EQ(res.status, 400) << res.body;
    EXPECT_THAT(res.body, HasSubstr("Email or password is incorrect."));
  }
  Visitor guesser(port_, "127.0.0.26");
  for (int i = 0; i < 3; ++i) EXPECT_EQ(log_in(guesser, "guess " + std::to_string(i)).status, 400);
  auto waiting = log_in(guesser, "the owner's passphrase");  // even the right one, from this client
  EXPECT_EQ(waiting.status, 429);
  EXPECT_TRUE(guesser.cookie("lr_session").empty());

  Visitor owner(port_, "127.0.0.27");
  auto in = log_in(owner, "the owner's passphrase");
  ASSERT_EQ(in.status, 303) << in.body;
  EXPECT_EQ(in.header("Location").value_or(""), "/about");
  EXPECT_FALSE(owner.cookie("lr_session").empty());
}

// Sign-up is limited the same way: per address from one client, never per address alone.
TEST_F(ReadersTest, SignUpLimitsCountAnAddressPerClient) {
  Visitor creator(port_, "127.0.0.30");
  auto form = creator.get("/signup");
  ASSERT_EQ(creator
                .post("/signup", {{"csrf", Visitor::token_in(form.body)},
                                  {"email", "signer@example.org"},
                                  {"password", "the signer's passphrase"}})
                .status,
            303);
  const auto sign_up = [&](Visitor& v, const std::string& password) {
    auto page = v.get("/signup");
    return v.post(
        "/signup",
        {{"csrf", Visitor::token_in(page.body)}, {"email", "signer@example.org"}, {"password", password}});
  };
  Visitor pest(port_, "127.0.0.31");
  for (int i = 0; i < 5; ++i) EXPECT_EQ(sign_up(pest, "another passphrase " + std::to_string(i)).status, 400);
  EXPECT_EQ(sign_up(pest, "another passphrase").status, 429);
  Visitor owner(port_, "127.0.0.32");
  EXPECT_EQ(sign_up(owner, "the signer's passphrase").status, 303);  // signing up again logs in
}

// The newsletter form: limited per client (another client is served), and one confirmation per address
// and hour however many clients subscribe it, with the same answer every time.
TEST_F(ReadersTest, NewsletterIsLimitedPerClientAndMailsAnAddressOncePerHour) {
  const auto subscribe = [&](Visitor& v, const std::string& email) {
    auto page = v.get("/newsletter");
    return v.post("/newsletter", {{"csrf", Visitor::token_in(page.body)}, {"email", email}});
  };
  const auto confirmations_to = [&](const std::string& email) {
    std::lock_guard lock(mail_mutex_);
    return std::count_if(confirmations_.begin(), confirmations_.end(),
                         [&](const auto& c) { return c.first == email; });
  };
  std::vector<std::string> answers;
  for (int i = 0; i < 5; ++i) {
    Visitor v(port_, "127.0.0." + std::to_string(80 + i));
    auto res = subscribe(v, "bombed@example.org");
    EXPECT_EQ(res.status, 200) << res.body;
    answers.push_back(std::regex_replace(res.body, std::regex("name=\"csrf\" value=\"[^\"]*\""), ""));
  }
  for (const auto& answer : answers) EXPECT_EQ(answer, answers.front());
  EXPECT_EQ(confirmations_to("bombed@example.org"), 1);

  Visitor pest(port_, "127.0.0.90");
  for (int i = 0; i < 10; ++i)
    EXPECT_EQ(subscribe(pest, "n" + std::to_string(i) + "@example.org").status, 200);
  EXPECT_EQ(subscribe(pest, "n10@example.org").status, 429);
  Visitor other(port_, "127.0.0.91");
  EXPECT_EQ(subscribe(other, "n10@example.org").status, 200);
  EXPECT_EQ(confirmations_to("n10@example.org"), 1);
}

// next= is read as a browser reads a Location: tab, CR and LF removed first, then only a path with
// exactly one leading "/" and no "\"; anything else goes to "/". Both ways in: the login form's hidden
// field (from the query) and the posted field.
TEST_F(ReadersTest, NextRedirectsStayOnTheSiteAsBrowsersReadThem) {
  signed_up("nexter@example.org");
  const std::vector<std::string> off_site = {
      "/\t/evil.example",      "/\\evil",  "//evil",        "/\t/evil",  "\t//evil.example", "/\r\n/evil",
      "https://evil.example/", "/\\/evil", "/ok\\..\\evil", "/\x0b/evil"};
  for (const auto& next : off_site) {
    Visitor v(port_);
    auto form = v.get("/login?next=" + web::url_encode(next));
    ASSERT_EQ(form.status, 200);
    EXPECT_THAT(form.body, Not(HasSubstr("evil"))) << "form for " << next;
    auto res = v.post("/login", {{"csrf", Visitor::token_in(form.body)},
                                 {"email", "nexter@example.org"},
                                 {"password", "a long passphrase"},
                                 {"next", next}});
    ASSERT_EQ(res.status, 303) << next << "\n" << res.body;
    EXPECT_EQ(res.header("Location").value_or(""), "/") << "next " << next;
    EXPECT_FALSE(v.cookie("lr_session").empty());  // the reader is logged in all the same
  }
  // The query "?next=/%09/evil.example" as the issue sent it: decoded, that is "/<tab>/evil.example".
  Visitor v(port_);
  auto form = v.get("/login?next=/%09/evil.example");
  EXPECT_THAT(form.body, HasSubstr("name=\"next\" value=\"/\""));
  // A path of the site is kept, tab and all removed as the browser would.
  Visitor w(port_);
  auto page = w.get("/login");
  auto kept = w.post("/login", {{"csrf", Visitor::token_in(page.body)},
                                {"email", "nexter@example.org"},
                                {"password", "a long passphrase"},
                                {"next", "/cate\tgories?page=2"}});
  ASSERT_EQ(kept.status, 303);
  EXPECT_EQ(kept.header("Location").value_or(""), "/categories?page=2");
}

// Behind a trusted reverse proxy (site.trusted_proxies) each forwarded client has its own budget, an
// IPv6 client counted by its /64; X-Forwarded-For from a peer that is not trusted is ignored.
class ProxiedReadersTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    SiteOptions options = testing::test_site_options();
    options.accounts.login_failures_per_account_client = 3;
    options.trusted_proxies = {"127.0.0.1"};
    auto running = testing::RunningSite::start("proxied-readers-test", std::move(options));
    ASSERT_TRUE(running) << running.error().message;
    running_ = std::move(*running);
    port_ = running_->port();
    Visitor creator(port_, "127.0.0.1", "198.51.100.50");
    auto form = creator.get("/signup");
    ASSERT_EQ(creator
                  .post("/signup", {{"csrf", Visitor::token_in(form.body)},
                                    {"email", "proxied@example.org"},
                                    {"password", "the right passphrase"}})
                  .status,
              303);
  }
  static void TearDownTestSuite() { running_.reset(); }

  static int log_in(Visitor& v, const std::string& password) {
    auto form = v.get("/login");
    return v
        .post("/login", {{"csrf", Visitor::token_in(form.body)},
                         {"email", "proxied@example.org"},
                         {"password", password}})
        .status;
  }

  static inline std::unique_ptr<testing::RunningSite> running_;
  static inline std::uint16_t port_ = 0;
};

TEST_F(ProxiedReadersTest, EachForwardedClientHasItsOwnBudget) {
  Visitor guesser(port_, "127.0.0.1", "203.0.113.1");
  for (int i = 0; i < 3; ++i) EXPECT_EQ(log_in(guesser, "wrong"), 400);
  EXPECT_EQ(log_in(guesser, "the right passphrase"), 429);
  // The same proxy, another client: not affected.
  Visitor owner(port_, "127.0.0.1", "203.0.113.2");
  EXPECT_EQ(log_in(owner, "the right passphrase"), 303);
}

TEST_F(ProxiedReadersTest, Ipv6ClientsAreCountedByTheirSlash64) {
  Visitor first(port_, "127.0.0.1", "2001:db8:1:2::a");
  for (int i = 0; i < 3; ++i) EXPECT_EQ(log_in(first, "wrong"), 400);
  Visitor same_network(port_, "127.0.0.1", "2001:db8:1:2::b");
  EXPECT_EQ(log_in(same_network, "the right passphrase"), 429);
  Visitor next_network(port_, "127.0.0.1", "2001:db8:1:3::1");
  EXPECT_EQ(log_in(next_network, "the right passphrase"), 303);
}

TEST_F(ProxiedReadersTest, ForwardedForFromAnUntrustedPeerIsIgnored) {
  // 127.0.0.2 is no proxy of ours: whatever address it claims, it is counted as itself.
  for (int i = 0; i < 3; ++i) {
    Visitor spoofer(port_, "127.0.0.2", "203.0.113." + std::to_string(100 + i));
    EXPECT_EQ(log_in(spoofer, "wrong"), 400);
  }
  Visitor spoofer(port_, "127.0.0.2", "203.0.113.200");
  EXPECT_EQ(log_in(spoofer, "the right passphrase"), 429);
  // The addresses it named have their whole budget.
  Visitor named(port_, "127.0.0.1", "203.0.113.100");
  EXPECT_EQ(log_in(named, "the right passphrase"), 303);
}

}  // namespace
}  // namespace longread::ui
