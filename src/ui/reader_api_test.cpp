// The Google Reader API over real HTTP on the site's fixtures: every API route refuses a request without
// a live token (a table over the router, so a route added later is covered), changes need the edit token,
// edit-tag and mark-all-as-read change what streams say, and two readers' answers never mix (the page
// cache is bypassed). newsboat itself is driven by tests/feedapps/newsboat_test.py.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <regex>

#include "ui/testing/running_site.h"
#include "ui/testing/visitor.h"
#include "web/testing/client.h"

namespace longread::ui {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;
using testing::Visitor;

class ReaderApiTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    SiteOptions options = testing::test_site_options();
    options.accounts.signups_per_client = 1000;
    auto running = testing::RunningSite::start("reader-api-test", std::move(options));
    ASSERT_TRUE(running) << running.error().message;
    running_ = std::move(*running);
  }
  static void TearDownTestSuite() { running_.reset(); }
  static std::uint16_t port() { return running_->port(); }

  struct App {
    std::string email{};
    std::string password{};  // the app password
    std::string auth{};      // ClientLogin's token
  };

  // Signs a reader up and makes an app password through the account page, as a person would.
  static App app_for(const std::string& email) {
    Visitor v = testing::sign_up(port(), email);
    auto account = v.get("/account");
    EXPECT_THAT(account.body, HasSubstr("Feed apps"));
    auto made =
        v.post("/account/app-passwords", {{"csrf", Visitor::token_in(account.body)}, {"name", "test app"}});
    std::smatch m;
    EXPECT_TRUE(std::regex_search(made.body, m, std::regex("<code class=\"app-password\">([^<]+)</code>")))
        << made.body;
    App app{.email = email, .password = m[1]};
    auto login = post("/accounts/ClientLogin",
                      "Email=" + web::url_encode(email) + "&Passwd=" + web::url_encode(app.password));
    EXPECT_EQ(login.status, 200) << login.body;
    std::smatch auth;
    EXPECT_TRUE(std::regex_search(login.body, auth, std::regex("Auth=([^\\n]+)")));
    app.auth = auth[1];
    return app;
  }

  static web::testing::ClientResponse get(const std::string& target, const App* app = nullptr) {
    web::Fields headers;
    if (app) headers.emplace_back("Authorization", "GoogleLogin auth=" + app->auth);
    auto res = web::testing::http_get(port(), target, headers);
    EXPECT_TRUE(res) << target;
    return res.value_or(web::testing::ClientResponse{});
  }
  static web::testing::ClientResponse post(const std::string& target, const std::string& body,
                                           const App* app = nullptr) {
    auto client = web::testing::Client::connect(port());
    EXPECT_TRUE(client);
    web::Fields headers{{"Content-Type", "application/x-www-form-urlencoded"}};
    if (app) headers.emplace_back("Authorization", "GoogleLogin auth=" + app->auth);
    auto res = client->request("POST", target, headers, body);
    EXPECT_TRUE(res) << target;
    return res.value_or(web::testing::ClientResponse{});
  }
  static std::string edit_token(const App& app) { return get("/reader/api/0/token", &app).body; }

  static std::vector<std::string> ids(const std::string& stream, const App& app,
                                      const std::string& extra = "") {
    auto res = get("/reader/api/0/stream/items/ids?n=1000&s=" + web::url_encode(stream) + extra, &app);
    EXPECT_EQ(res.status, 200) << res.body;
    std::vector<std::string> out;
    const json doc = json::parse(res.body);
    for (const auto& ref : doc["itemRefs"]) out.push_back(ref["id"].get<std::string>());
    return out;
  }

  static inline std::unique_ptr<testing::RunningSite> running_;
};

TEST_F(ReaderApiTest, EveryApiRouteRefusesARequestWithoutALiveToken) {
  App app = app_for("table@example.org");
  App forged{.auth = "forged-token"};
  int checked = 0;
  for (const auto& [method, pattern] : running_->site().routes()) {
    if (!pattern.starts_with("/reader/")) continue;
    // A concrete path for the pattern's placeholders.
    std::string target =
        std::regex_replace(pattern, std::regex("\\{blog\\}"), std::to_string(running_->ids().ada_blog));
    target = std::regex_replace(target, std::regex("\\{user\\}"), "-");
    target = std::regex_replace(target, std::regex("\\{state\\}"), "reading-list");
    target = std::regex_replace(target, std::regex("\\{label\\}"), "History");
    for (const App* who : {static_cast<const App*>(nullptr), static_cast<const App*>(&forged)}) {
      auto res = method == "GET" ? get(target, who) : post(target, "i=1&T=x", who);
      EXPECT_EQ(res.status, 401) << method << " " << target;
    }
    // With the token, each answers.
    auto res = method == "GET"
                   ? get(target, &app)
                   : post(target, "i=1&s=user/-/state/com.google/reading-list&T=" + edit_token(app), &app);
    EXPECT_EQ(res.status, 200) << method << " " << target << ": " << res.body;
    ++checked;
  }
  EXPECT_GE(checked, 12);
}

TEST_F(ReaderApiTest, ReadAndStarredFollowEditTagAndMarkAllAsRead) {
  App ada = app_for("ada-api@example.org");
  App bob = app_for("bob-api@example.org");
  const auto& ids_ = running_->ids();
  const std::string reading_list = "user/-/state/com.google/reading-list";
  const auto all = ids(reading_list, ada);
  ASSERT_GT(all.size(), 10u);
  EXPECT_EQ(ids(reading_list, ada, "&xt=user/-/state/com.google/read"), all);  // nothing read yet

  // The edit token is required and bound to the caller's token.
  const std::string item = all.front();
  EXPECT_EQ(post("/reader/api/0/edit-tag", "i=" + item + "&a=user/-/state/com.google/read", &ada).status,
            401);
  EXPECT_EQ(post("/reader/api/0/edit-tag",
                 "i=" + item + "&a=user/-/state/com.google/read&T=" + edit_token(bob), &ada)
                .status,
            401);
  auto marked = post("/reader/api/0/edit-tag",
                     "i=" + item + "&a=user/-/state/com.google/read&T=" + edit_token(ada), &ada);
  ASSERT_EQ(marked.status, 200);
  EXPECT_EQ(marked.body, "OK");
  auto unread = ids(reading_list, ada, "&xt=user/-/state/com.google/read");
  EXPECT_EQ(unread.size(), all.size() - 1);
  EXPECT_EQ(ids("user/-/state/com.google/read", ada), std::vector<std::string>{item});
  EXPECT_EQ(ids(reading_list, bob, "&xt=user/-/state/com.google/read").size(), all.size());  // Bob's own

  // Starred is the reading list, both ways; the long item id form works too.
  const std::string lock_free = std::to_string(ids_.lock_free_article);
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(ids_.lock_free_article));
  ASSERT_EQ(post("/reader/api/0/edit-tag",
                 "i=tag%3Agoogle.com%2C2005%3Areader%2Fitem%2F" + std::string(hex) +
                     "&a=user/-/state/com.google/starred&T=" + edit_token(ada),
                 &ada)
                .status,
            200);
  EXPECT_EQ(ids("user/-/state/com.google/starred", ada), std::vector<std::string>{lock_free});
  auto contents =
      json::parse(get("/reader/api/0/stream/contents/user/-/state/com.google/starred", &ada).body);
  ASSERT_EQ(contents["items"].size(), 1u);
  EXPECT_EQ(contents["items"][0]["id"], "tag:google.com,2005:reader/item/" + std::string(hex));
  EXPECT_EQ(running_->store()
                .reading_list(running_->store().reader_by_email("ada-api@example.org").value()->id, 10, 0)
                .value()
                .size(),
            1u);
  ASSERT_EQ(post("/reader/api/0/edit-tag",
                 "i=" + lock_free + "&r=user/-/state/com.google/starred&T=" + edit_token(ada), &ada)
                .status,
            200);
  EXPECT_TRUE(ids("user/-/state/com.google/starred", ada).empty());

  // Kept unread after all; then everything of one blog read at once.
  ASSERT_EQ(post("/reader/api/0/edit-tag",
                 "i=" + item + "&a=user/-/state/com.google/kept-unread&T=" + edit_token(ada), &ada)
                .status,
            200);
  EXPECT_TRUE(ids("user/-/state/com.google/read", ada).empty());
  const std::string blog = "feed/" + std::to_string(ids_.ada_blog);
  const auto in_blog = ids(blog, ada);
  ASSERT_FALSE(in_blog.empty());
  ASSERT_EQ(
      post("/reader/api/0/mark-all-as-read", "s=" + web::url_encode(blog) + "&T=" + edit_token(ada), &ada)
          .status,
      200);
  EXPECT_TRUE(ids(blog, ada, "&xt=user/-/state/com.google/read").empty());
  EXPECT_EQ(ids(reading_list, ada, "&xt=user/-/state/com.google/read").size(), all.size() - in_blog.size());
  // The same URL, another reader: their own answer, not a cached one.
  EXPECT_EQ(ids(blog, bob, "&xt=user/-/state/com.google/read").size(), in_blog.size());

  // Bad input: an unknown stream is a 404, a forged continuation a 400, a malformed item id a 400.
  EXPECT_EQ(get("/reader/api/0/stream/contents/feed/999999", &ada).status, 200);  // a blog with no articles
  EXPECT_EQ(get("/reader/api/0/stream/contents?s=user/-/label/No%20Such%20Label", &ada).status, 404);
  EXPECT_EQ(get("/reader/api/0/stream/contents?s=bogus", &ada).status, 404);
  EXPECT_EQ(get("/reader/api/0/stream/contents?c=forged", &ada).status, 400);
  EXPECT_EQ(
      post("/reader/api/0/edit-tag", "i=not-an-id&a=user/-/state/com.google/read&T=" + edit_token(ada), &ada)
          .status,
      400);
}

TEST_F(ReaderApiTest, ClientLoginAnswersAlikeForEveryWrongPasswordAndRevokedOnesStopAtOnce) {
  App app = app_for("revoke@example.org");
  auto wrong = post("/accounts/ClientLogin", "Email=revoke%40example.org&Passwd=a+long+passphrase");
  auto unknown = post("/accounts/ClientLogin", "Email=nobody%40example.org&Passwd=whatever");
  EXPECT_EQ(wrong.status, 401);
  EXPECT_EQ(wrong.body, "Error=BadAuthentication\n");
  EXPECT_EQ(unknown.status, wrong.status);
  EXPECT_EQ(unknown.body, wrong.body);
  EXPECT_EQ(get("/reader/api/0/subscription/list", &app).status, 200);
  EXPECT_EQ(get("/reader/api/0/subscription/list", &app).header("Cache-Control").value_or(""),
            "private, no-store");
  auto& store = running_->store();
  const auto reader = store.reader_by_email("revoke@example.org").value()->id;
  ASSERT_TRUE(store.revoke_app_password(reader, store.app_passwords(reader).value().at(0).id));
  EXPECT_EQ(get("/reader/api/0/subscription/list", &app).status, 401);
  EXPECT_EQ(
      post("/accounts/ClientLogin", "Email=revoke%40example.org&Passwd=" + web::url_encode(app.password))
          .status,
      401);
}

}  // namespace
}  // namespace longread::ui
