// Personal filters over real HTTP (docs/readers.md, "Personal filters"): muting and un-muting a blog or a
// category from the article page, the blog page and the account page; muted items gone from that reader's
// Hot, Newest, category pages and search (and never from anyone else's, nor from the shared page cache);
// read and unread marks (the reader API's state) dimming or, with the setting, hiding articles; the
// reading preferences; one reader never seeing or changing another's; visitors sent to log in; bad input
// refused with nothing stored. The newsletter side is mail_test's NewsletterTest.ReadersFiltersShape...
// The site runs on an ephemeral port over a real SQLite store with the fixture blogs.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <regex>
#include <string>
#include <vector>

#include "ui/site.h"
#include "ui/testing/running_site.h"
#include "ui/testing/visitor.h"
#include "ui/view.h"

namespace longread::ui {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using testing::Visitor;
using Form = std::map<std::string, std::string>;

class FiltersTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    auto running = testing::RunningSite::start("filters-test", testing::test_site_options());
    ASSERT_TRUE(running) << running.error().message;
    running_ = std::move(*running);
    recent_ = store().article(ids().recent_article).value()->article;
  }
  static void TearDownTestSuite() { running_.reset(); }

  static storage::Store& store() { return running_->store(); }
  static const testing::FixtureIds& ids() { return running_->ids(); }
  static std::uint16_t port() { return running_->port(); }

  static Visitor signed_up(const std::string& email) {
    Visitor v(port());
    auto form = v.get("/signup");
    auto res =
        v.post("/signup",
               {{"csrf", Visitor::token_in(form.body)}, {"email", email}, {"password", "a long passphrase"}});
    EXPECT_EQ(res.status, 303) << res.body;
    return v;
  }
  static std::int64_t id_of(const std::string& email) { return store().reader_by_email(email).value()->id; }
  static std::string token_of(Visitor& v) { return Visitor::token_in(v.get("/about").body); }
  // The link to a blog's page that every listing item's meta line has.
  static std::string blog_link(std::int64_t blog) { return "href=\"/blog/" + std::to_string(blog) + "\""; }
  static long items_on(const std::string& body) {
    long n = 0;
    for (auto at = body.find(" data-item "); at != std::string::npos; at = body.find(" data-item ", at + 1))
      ++n;
    return n;
  }
  static std::string item_of(std::int64_t article) {
    return "data-article=\"" + std::to_string(article) + "\"";
  }

  static inline std::unique_ptr<testing::RunningSite> running_;
  static inline model::Article recent_;  // history, the newest article; mentions "zeppelin"
};

TEST_F(FiltersTest, AMutedBlogLeavesThatReadersListingsOnlyAndComesBackWhenUnmuted) {
  Visitor ada = signed_up("mute-blog@example.org");
  Visitor bob = signed_up("mute-bystander@example.org");
  Visitor anonymous(port());
  const std::string history = blog_link(ids().history_blog);
  const std::vector<std::string> listings = {"/", "/newest", "/category/history", "/search?q=zeppelin"};
  for (const auto& path : listings) {
    EXPECT_THAT(anonymous.get(path).body, HasSubstr(history)) << path;  // primes the shared cache
    EXPECT_THAT(ada.get(path).body, HasSubstr(history)) << path;
  }

  // The article page offers the mute; the form is a POST with the session's token.
  auto page = ada.get(article_path(recent_));
  ASSERT_EQ(page.status, 200);
  const std::string action = "/mutes/blog/" + std::to_string(ids().history_blog);
  EXPECT_THAT(page.body, HasSubstr("action=\"" + action + "\""));
  auto muted = ada.post(
      action, {{"csrf", Visitor::token_in(page.body)}, {"action", "mute"}, {"next", article_path(recent_)}});
  EXPECT_EQ(muted.status, 303);
  EXPECT_EQ(muted.header("Location").value_or(""), article_path(recent_));
  EXPECT_THAT(ada.get(article_path(recent_)).body, HasSubstr("You muted this."));

  for (const auto& path : listings) {
    SCOPED_TRACE(path);
    auto mine = ada.get(path);
    EXPECT_EQ(mine.status, 200);
    EXPECT_THAT(mine.body, Not(HasSubstr(history)));
    EXPECT_THAT(mine.header("Cache-Control").value_or(""), HasSubstr("private"));
    EXPECT_THAT(bob.get(path).body, HasSubstr(history));
    EXPECT_THAT(anonymous.get(path).body, HasSubstr(history));  // the cached copy is everyone's
  }
  // Hot and Newest keep their pages full: the muted blog's places go to other articles.
  for (const std::string path : {"/", "/newest"})
    EXPECT_EQ(items_on(ada.get(path).body), items_on(bob.get(path).body));

  // The account page lists it with an Unmute form; the blog's own page still shows it, with Unmute.
  auto account = ada.get("/account");
  EXPECT_THAT(account.body, HasSubstr("Field Notes on History</a> (blog)"));
  EXPECT_THAT(account.body, HasSubstr("name=\"action\" value=\"unmute\""));
  auto blog_page = ada.get("/blog/" + std::to_string(ids().history_blog));
  EXPECT_THAT(blog_page.body, HasSubstr(item_of(recent_.id)));
  EXPECT_THAT(blog_page.body, HasSubstr("Unmute this blog"));
  EXPECT_THAT(bob.get("/account").body, Not(HasSubstr("(blog)")));

  auto unmuted = ada.post(action, {{"csrf", Visitor::token_in(account.body)}, {"action", "unmute"}});
  EXPECT_EQ(unmuted.status, 303);
  EXPECT_THAT(ada.get("/newest").body, HasSubstr(history));
  EXPECT_TRUE(store().reader_mutes(id_of("mute-blog@example.org")).value().blogs.empty());
}

TEST_F(FiltersTest, AMutedCategoryLeavesHotItsPageAndSearchForThatReader) {
  Visitor ada = signed_up("mute-category@example.org");
  auto page = ada.get(article_path(recent_));
  EXPECT_THAT(page.body, HasSubstr("action=\"/mutes/category/history\""));
  auto json = ada.post("/mutes/category/history", {{"csrf", Visitor::token_in(page.body)}},
                       {{"Accept", "application/json"}});
  EXPECT_EQ(json.status, 200);
  EXPECT_EQ(json.body, "{\"muted\":true}");
  EXPECT_THAT(ada.get("/category/history").body, Not(HasSubstr(item_of(recent_.id))));
  EXPECT_THAT(ada.get("/").body, Not(HasSubstr(blog_link(ids().history_blog))));
  EXPECT_THAT(ada.get("/search?q=zeppelin").body, HasSubstr("Nothing matches"));
  EXPECT_THAT(ada.get("/category/programming").body, HasSubstr(blog_link(ids().ada_blog)));
  EXPECT_THAT(ada.get("/account").body, HasSubstr("History</a> (category)"));
  EXPECT_THAT(Visitor(port()).get("/category/history").body, HasSubstr(item_of(recent_.id)));
}

TEST_F(FiltersTest, ReadMarksDimOrHideAndAreTheFeedAppsReadState) {
  Visitor ada = signed_up("read-marks@example.org");
  const std::int64_t reader = id_of("read-marks@example.org");
  auto newest = ada.get("/newest");
  EXPECT_THAT(newest.body, HasSubstr("class=\"item\" data-item " + item_of(recent_.id)));
  // Every item has a toggle (the form that works without script) and "Read now" links say so for site.js.
  EXPECT_THAT(newest.body, HasSubstr("action=\"/articles/" + std::to_string(recent_.id) + "/read\""));
  EXPECT_THAT(newest.body, HasSubstr("data-read-now"));
  EXPECT_THAT(newest.body, HasSubstr("data-csrf=\""));
  EXPECT_THAT(newest.body, Not(HasSubstr("data-mark-read-on-scroll")));

  const std::string target = "/articles/" + std::to_string(recent_.id) + "/read";
  auto read =
      ada.post(target, {{"csrf", Visitor::token_in(newest.body)}, {"action", "read"}, {"next", "/newest"}});
  EXPECT_EQ(read.status, 303);
  EXPECT_EQ(read.header("Location").value_or(""), "/newest");
  EXPECT_THAT(ada.get("/newest").body, HasSubstr("class=\"item is-read\" data-item " + item_of(recent_.id)));
  EXPECT_THAT(ada.get(article_path(recent_)).body, HasSubstr("class=\"article is-read\""));
  // The same state feed apps see (the reader API's article_reads).
  auto items = store().reader_items(reader, {recent_.id}).value();
  ASSERT_EQ(items.size(), 1u);
  EXPECT_TRUE(items[0].read);
  EXPECT_THAT(Visitor(port()).get("/newest").body, Not(HasSubstr("is-read")));

  // With "hide read" the article leaves the listings (and the page is still full: page_size items).
  auto account = ada.get("/account");
  EXPECT_EQ(
      ada.post("/account/filters", {{"csrf", Visitor::token_in(account.body)}, {"hide_read", "on"}}).status,
      303);
  EXPECT_THAT(ada.get("/newest").body, Not(HasSubstr(item_of(recent_.id))));
  EXPECT_THAT(ada.get("/search?q=zeppelin").body, HasSubstr("Nothing matches"));

  // Unread, by script (JSON) this time: it is back.
  auto unread =
      ada.post(target, {{"csrf", token_of(ada)}, {"action", "unread"}}, {{"Accept", "application/json"}});
  EXPECT_EQ(unread.status, 200);
  EXPECT_EQ(unread.body, "{\"read\":false}");
  EXPECT_THAT(ada.get("/newest").body, HasSubstr(item_of(recent_.id)));
  EXPECT_FALSE(store().reader_items(reader, {recent_.id}).value().at(0).read);
}

// The reading list's "Mark as read" and the site-wide read state (listings, feed apps) are one state: a
// mark made on either side shows on the other, and so does its undoing.
TEST_F(FiltersTest, TheReadingListAndTheListingsShareOneReadState) {
  Visitor ada = signed_up("one-read-state@example.org");
  const std::int64_t reader = id_of("one-read-state@example.org");
  const std::string id = std::to_string(recent_.id);
  const std::string saved_item = "data-item data-saved=\"" + id + "\"";
  ASSERT_EQ(ada.post("/reading-list/" + id, {{"csrf", token_of(ada)}, {"action", "add"}}).status, 303);
  EXPECT_THAT(ada.get("/reading-list").body, HasSubstr("class=\"item\" " + saved_item));

  // Read from a listing: the reading list shows it read, and keeps the mark for its exports.
  ASSERT_EQ(ada.post("/articles/" + id + "/read", {{"csrf", token_of(ada)}, {"action", "read"}}).status, 303);
  EXPECT_THAT(ada.get("/reading-list").body, HasSubstr("class=\"item is-read\" " + saved_item));
  auto listed = store().reading_list(reader, 10, 0).value();
  ASSERT_EQ(listed.size(), 1u);
  EXPECT_TRUE(listed[0].read_at.has_value());

  // Unread from the reading list: unread in the listings and for feed apps too.
  ASSERT_EQ(ada.post("/reading-list/" + id, {{"csrf", token_of(ada)}, {"action", "unread"}}).status, 303);
  EXPECT_THAT(ada.get("/newest").body, HasSubstr("class=\"item\" data-item " + item_of(recent_.id)));
  EXPECT_FALSE(store().reader_items(reader, {recent_.id}).value().at(0).read);
  EXPECT_THAT(ada.get("/reading-list").body, HasSubstr("class=\"item\" " + saved_item));

  // Read from the reading list: read in the listings.
  ASSERT_EQ(ada.post("/reading-list/" + id, {{"csrf", token_of(ada)}, {"action", "read"}}).status, 303);
  EXPECT_THAT(ada.get("/newest").body, HasSubstr("class=\"item is-read\" data-item " + item_of(recent_.id)));
  EXPECT_TRUE(store().reader_items(reader, {recent_.id}).value().at(0).read);
}

TEST_F(FiltersTest, PreferencesAreSavedAndShown) {
  Visitor ada = signed_up("preferences@example.org");
  const std::int64_t reader = id_of("preferences@example.org");
  auto account = ada.get("/account");
  EXPECT_THAT(account.body, HasSubstr("id=\"filters\""));
  EXPECT_THAT(account.body, HasSubstr("name=\"newsletter_category\" value=\"history\" checked"));
  auto saved = ada.post("/account/filters", {{"csrf", Visitor::token_in(account.body)},
                                             {"mark_read_on_scroll", "on"},
                                             {"newsletter_category", "programming"}});
  EXPECT_EQ(saved.status, 303);
  const auto prefs = store().reader_preferences(reader).value();
  EXPECT_FALSE(prefs.hide_read);
  EXPECT_TRUE(prefs.mark_read_on_scroll);
  EXPECT_EQ(prefs.newsletter_categories, std::vector<std::string>{"programming"});
  account = ada.get("/account?done=filters");
  EXPECT_THAT(account.body, HasSubstr("Your reading preferences are saved."));
  EXPECT_THAT(account.body, HasSubstr("id=\"mark-read-on-scroll\" name=\"mark_read_on_scroll\" checked"));
  EXPECT_THAT(account.body, HasSubstr("name=\"newsletter_category\" value=\"programming\" checked"));
  EXPECT_THAT(account.body, Not(HasSubstr("name=\"newsletter_category\" value=\"history\" checked")));
  EXPECT_THAT(ada.get("/newest").body, HasSubstr("data-mark-read-on-scroll"));
}

// No form names a reader: every change acts on the session's. Reader A holding B's ids, B's cookie with
// A's token, or a reader_id field changes nothing of B's, and A's pages never show B's state.
TEST_F(FiltersTest, OneReaderNeverSeesOrChangesAnothersFilters) {
  Visitor a = signed_up("reader-a@example.org");
  Visitor b = signed_up("reader-b@example.org");
  const std::int64_t b_id = id_of("reader-b@example.org");
  const std::string b_token = token_of(b);
  ASSERT_EQ(b.post("/mutes/blog/" + std::to_string(ids().compiler_blog), {{"csrf", b_token}}).status, 303);
  ASSERT_EQ(b.post("/mutes/category/history", {{"csrf", b_token}}).status, 303);
  ASSERT_EQ(
      b.post("/articles/" + std::to_string(recent_.id) + "/read", {{"csrf", b_token}, {"action", "read"}})
          .status,
      303);
  ASSERT_EQ(b.post("/account/filters", {{"csrf", b_token}, {"hide_read", "on"}}).status, 303);

  const std::string a_token = token_of(a);
  // A un-mutes what B muted and marks B's read article unread: only A's own state is touched.
  EXPECT_EQ(a.post("/mutes/blog/" + std::to_string(ids().compiler_blog),
                   {{"csrf", a_token}, {"action", "unmute"}, {"reader_id", std::to_string(b_id)}})
                .status,
            303);
  EXPECT_EQ(a.post("/mutes/category/history", {{"csrf", a_token}, {"action", "unmute"}}).status, 303);
  EXPECT_EQ(a.post("/articles/" + std::to_string(recent_.id) + "/read",
                   {{"csrf", a_token}, {"action", "unread"}, {"reader", std::to_string(b_id)}})
                .status,
            303);
  EXPECT_EQ(a.post("/account/filters", {{"csrf", a_token}, {"reader_id", std::to_string(b_id)}}).status, 303);
  const auto mutes = store().reader_mutes(b_id).value();
  EXPECT_EQ(mutes.blogs.size(), 1u);
  EXPECT_EQ(mutes.categories.size(), 1u);
  EXPECT_TRUE(store().reader_items(b_id, {recent_.id}).value().at(0).read);
  EXPECT_TRUE(store().reader_preferences(b_id).value().hide_read);

  // B's session cookie with A's token: refused before anything happens.
  Visitor forged(port());
  forged.set_cookie(std::string(kSessionCookie), b.cookie(std::string(kSessionCookie)));
  EXPECT_EQ(forged
                .post("/mutes/blog/" + std::to_string(ids().compiler_blog),
                      {{"csrf", a_token}, {"action", "unmute"}})
                .status,
            403);
  EXPECT_EQ(forged.post("/account/filters", {{"csrf", a_token}}).status, 403);
  EXPECT_EQ(forged
                .post("/articles/" + std::to_string(recent_.id) + "/read",
                      {{"csrf", a_token}, {"action", "unread"}})
                .status,
            403);
  EXPECT_EQ(store().reader_mutes(b_id).value().blogs.size(), 1u);
  EXPECT_TRUE(store().reader_preferences(b_id).value().hide_read);

  // A's pages show none of B's state.
  auto account = a.get("/account");
  EXPECT_THAT(account.body, Not(HasSubstr("(blog)")));
  EXPECT_THAT(account.body, Not(HasSubstr("(category)")));
  EXPECT_THAT(account.body, Not(HasSubstr("id=\"hide-read\" name=\"hide_read\" checked")));
  EXPECT_THAT(a.get("/newest").body, HasSubstr("class=\"item\" data-item " + item_of(recent_.id)));
  EXPECT_THAT(a.get("/").body, HasSubstr(blog_link(ids().compiler_blog)));
}

TEST_F(FiltersTest, VisitorsAreSentToLogInAndChangeNothing) {
  Visitor anonymous(port());
  const std::string token = token_of(anonymous);  // a visitor's token (bound to lr_csrf), valid for them
  const std::vector<std::string> targets = {
      "/mutes/blog/" + std::to_string(ids().history_blog), "/mutes/category/history",
      "/articles/" + std::to_string(recent_.id) + "/read", "/account/filters"};
  for (const auto& target : targets) {
    SCOPED_TRACE(target);
    for (const Form& form : {Form{{"next", "/newest"}}, Form{{"csrf", token}, {"next", "/newest"}}}) {
      auto res = anonymous.post(target, form);
      EXPECT_EQ(res.status, 303);
      EXPECT_THAT(res.header("Location").value_or(""), HasSubstr("/login?next="));
    }
    auto json = anonymous.post(target, {{"csrf", token}}, {{"Accept", "application/json"}});
    EXPECT_EQ(json.status, 401);
    EXPECT_NE(anonymous.get(target).status, 200);  // never a GET that changes state
  }
  // Visitors' pages offer no mute or read controls.
  auto page = anonymous.get(article_path(recent_));
  EXPECT_THAT(page.body, Not(HasSubstr("/mutes/")));
  EXPECT_THAT(page.body, Not(HasSubstr("/read\" class=\"inline read-toggle\"")));
  EXPECT_THAT(page.body, Not(HasSubstr("data-csrf")));
}

TEST_F(FiltersTest, BadInputIsRefusedWithNothingStored) {
  Visitor ada = signed_up("bad-input@example.org");
  const std::int64_t reader = id_of("bad-input@example.org");
  const std::string token = token_of(ada);
  const std::vector<std::pair<std::string, Form>> not_found = {
      {"/mutes/blog/999999", {}},
      {"/mutes/blog/0", {}},
      {"/mutes/blog/-3", {}},
      {"/mutes/blog/12abc", {}},
      {"/mutes/blog/99999999999999999999999", {}},
      {"/mutes/category/no-such-category", {}},
      {"/mutes/category/%01", {}},
      {"/articles/999999/read", {{"action", "read"}}},
      {"/articles/abc/read", {{"action", "read"}}},
      {"/account/filters", {{"newsletter_category", "no-such-category"}, {"hide_read", "on"}}},
  };
  for (auto [target, form] : not_found) {
    SCOPED_TRACE(target);
    form["csrf"] = token;
    EXPECT_EQ(ada.post(target, form).status, 404);
  }
  const std::vector<std::pair<std::string, Form>> invalid = {
      {"/mutes/blog/" + std::to_string(ids().history_blog), {{"action", "delete"}}},
      {"/mutes/category/history", {{"action", "mute-all"}}},
      {"/articles/" + std::to_string(recent_.id) + "/read", {{"action", "toggle"}}},
      {"/account/filters", {{"newsletter_category", ""}, {"hide_read", "on"}}},
  };
  for (auto [target, form] : invalid) {
    SCOPED_TRACE(target);
    form["csrf"] = token;
    EXPECT_EQ(ada.post(target, form).status, 400);
  }
  const auto mutes = store().reader_mutes(reader).value();
  EXPECT_TRUE(mutes.blogs.empty());
  EXPECT_TRUE(mutes.categories.empty());
  EXPECT_FALSE(store().reader_preferences(reader).value().hide_read);
  EXPECT_FALSE(store().reader_items(reader, {recent_.id}).value().at(0).read);
}

}  // namespace
}  // namespace longread::ui
