// The admin area over real HTTP: the role gate and the CSRF check on every route of the site's routes
// table (walked from Site::routes(), so a route added later is covered), and each admin action's audit
// entry. The site runs on an ephemeral port over a real SQLite store with the fixture blogs.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <regex>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "ui/site.h"
#include "ui/testing/running_site.h"
#include "ui/testing/visitor.h"

namespace longread::ui {
namespace {

using ::testing::HasSubstr;
using testing::Visitor;

using Form = std::map<std::string, std::string>;

bool is_admin(const std::string& pattern) {
  return pattern == "/admin" || pattern.starts_with("/admin/");
}

class AdminTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    SiteOptions options = testing::test_site_options();
    // The newsletter form exists only where confirmations can be sent; nothing is mailed in this test.
    options.send_confirmation = [](std::string_view, std::string_view) -> Result<void> { return {}; };
    auto running = testing::RunningSite::start("admin-test", std::move(options));
    ASSERT_TRUE(running) << running.error().message;
    running_ = std::move(*running);
    // A suggestion whose feed was found, for the suggestion routes ({suggestion}).
    auto suggested = store().add_suggestion({.url = "https://suggested.example/", .now = now_seconds()});
    ASSERT_TRUE(suggested) << suggested.error().message;
    ASSERT_EQ(
        store().claim_suggestions(now_seconds(), now_seconds() + std::chrono::minutes(3), 10, 3)->size(), 1u);
    ASSERT_TRUE(
        store().save_suggestion_finding(suggested->id, {.status = storage::SuggestionStatus::kFound,
                                                        .at = now_seconds(),
                                                        .feed_url = "https://suggested.example/feed.xml",
                                                        .title = "Suggested Blog",
                                                        .format = "RSS 2.0"}));
    suggestion_ = suggested->id;
  }
  static void TearDownTestSuite() { running_.reset(); }

  static storage::Store& store() { return running_->store(); }
  static std::uint16_t port() { return running_->port(); }

  // A visitor who signed up as `email` and is logged in; an operator when `promote`.
  static Visitor signed_up(const std::string& email, bool promote = false) {
    Visitor v = testing::sign_up(port(), email);
    if (promote) {
      EXPECT_TRUE(store().set_reader_operator(email, true));
    }
    return v;
  }
  // The logged-in visitor's CSRF token (every page's header has the log-out form).
  static std::string token_of(Visitor& v) { return Visitor::token_in(v.get("/about").body); }

  // A route's pattern with its placeholders filled from the fixtures.
  static std::string concrete(std::string pattern) {
    const auto& ids = running_->ids();
    const std::map<std::string, std::string> values = {
        {"{blog}", std::to_string(ids.compiler_blog)}, {"{article}", std::to_string(ids.recent_article)},
        {"{id}", std::to_string(ids.recent_article)},  {"{slug}", "programming"},
        {"{suggestion}", std::to_string(suggestion_)}, {"{file}", "site.css"}};
    for (const auto& [name, value] : values) {
      for (auto at = pattern.find(name); at != std::string::npos; at = pattern.find(name)) {
        pattern.replace(at, name.size(), value);
      }
    }
    return pattern;
  }

  // The form an operator posts to each admin action in the table test (besides the token): every admin
  // POST route must be here, so a new one cannot be left out of the test.
  static const std::map<std::string, Form>& admin_samples() {
    static const std::map<std::string, Form> samples = {
        {"POST /admin/blogs/{blog}/pause", {}},
        {"POST /admin/blogs/{blog}/resume", {}},
        {"POST /admin/blogs/{blog}/edit", {}},  // no fields: the blog keeps its title and category
        // Without confirm=yes: the confirmation page, nothing removed.
        {"POST /admin/blogs/{blog}/remove", {}},
        {"POST /admin/junk/{article}/decide", {{"decision", "keep"}}},
        // Whichever of approve and reject runs second finds the suggestion decided: 303 with a notice.
        {"POST /admin/suggestions/{suggestion}/approve", {{"category", "essays"}}},
        {"POST /admin/suggestions/{suggestion}/reject", {{"reason", "not a personal blog"}}},
        {"POST /admin/blogs/add", {{"url", "https://added-by-operator.example/"}, {"category", "essays"}}},
        // Retire, then un-retire: the fixture blog ends polled as before.
        {"POST /admin/lifecycle/{blog}/retire", {}},
        {"POST /admin/lifecycle/{blog}/unretire", {}},
        {"POST /admin/lifecycle/{blog}/accept-move", {}},
        {"POST /admin/flags/{article}/decide", {{"decision", "keep"}}},
    };
    return samples;
  }

  static inline std::unique_ptr<testing::RunningSite> running_;
  static inline std::int64_t suggestion_ = 0;
};

TEST_F(AdminTest, EveryAdminRouteRefusesVisitorsAndReadersAndServesOperators) {
  Visitor anonymous(port());
  Visitor reader = signed_up("plain-reader@example.org");
  Visitor operator_ = signed_up("operator1@example.org", true);
  const std::string reader_token = token_of(reader);
  const std::string operator_token = token_of(operator_);
  ASSERT_FALSE(reader_token.empty());
  ASSERT_FALSE(operator_token.empty());

  int admin_routes = 0;
  for (const auto& [method, pattern] : running_->site().routes()) {
    if (!is_admin(pattern)) continue;
    ++admin_routes;
    const std::string target = concrete(pattern);
    SCOPED_TRACE(method + " " + target);
    if (method == "GET") {
      // A visitor is sent to log in and come back; a reader is refused; an operator gets the page.
      auto visitor = anonymous.get(target);
      EXPECT_EQ(visitor.status, 303);
      EXPECT_THAT(visitor.header("Location").value_or(""), HasSubstr("/login?next="));
      EXPECT_EQ(reader.get(target).status, 403);
      auto page = operator_.get(target);
      EXPECT_EQ(page.status, 200) << page.body;
      EXPECT_THAT(page.header("Cache-Control").value_or(""), HasSubstr("no-store"));
    } else {
      ASSERT_EQ(method, "POST");
      const auto sample = admin_samples().find(method + " " + pattern);
      ASSERT_NE(sample, admin_samples().end()) << "add a sample form for this admin action";
      Form with_token = sample->second;
      with_token["csrf"] = reader_token;
      EXPECT_EQ(anonymous.post(target, sample->second).status, 403);
      EXPECT_EQ(reader.post(target, with_token).status, 403);  // a valid token does not make a role
      // An operator's form without a token, or with a wrong one, is refused before the handler runs.
      EXPECT_EQ(operator_.post(target, sample->second).status, 403);
      Form forged = sample->second;
      forged["csrf"] = reader_token;  // the reader's token is bound to the reader's session
      EXPECT_EQ(operator_.post(target, forged).status, 403);
      forged["csrf"] = "AAAAforged";
      EXPECT_EQ(operator_.post(target, forged).status, 403);
      with_token["csrf"] = operator_token;
      const int status = operator_.post(target, with_token).status;
      EXPECT_TRUE(status == 200 || status == 303) << status;
    }
  }
  EXPECT_GE(admin_routes, 2);
}

// The check sits in front of every POST route of the site, not only the admin area's: a logged-in
// reader's form without the session's token, or with a forged one, is refused with 403 and never reaches
// the handler. The exceptions are RFC 8058's one-click unsubscribe, whose authority is its signed link,
// and the Google Reader API for feed apps, whose authority is the Authorization header and the edit token
// (ui_reader_api_test walks those routes the same way).
TEST_F(AdminTest, EveryFormRouteRefusesAMissingOrWrongToken) {
  Visitor reader = signed_up("csrf-walker@example.org");
  const int votes_before = store().article(running_->ids().recent_article).value()->article.votes;
  int forms = 0;
  for (const auto& [method, pattern] : running_->site().routes()) {
    if (method != "POST" || pattern == "/newsletter/unsubscribe" || pattern == "/accounts/ClientLogin" ||
        pattern.starts_with("/reader/"))
      continue;
    ++forms;
    const std::string target = concrete(pattern);
    SCOPED_TRACE(target);
    // "password" and "current" keep the account forms from failing for another reason first.
    Form form = {{"email", "csrf-walker@example.org"}, {"password", "a long passphrase"}};
    EXPECT_EQ(reader.post(target, form).status, 403);
    form["csrf"] = "AAAAforged";
    EXPECT_EQ(reader.post(target, form).status, 403);
  }
  EXPECT_GE(forms, 12);
  // Nothing was done: the reader still has a session (no log-out, no deletion), no vote was counted.
  EXPECT_FALSE(token_of(reader).empty());
  EXPECT_TRUE(store().reader_by_email("csrf-walker@example.org").value());
  EXPECT_EQ(store().article(running_->ids().recent_article).value()->article.votes, votes_before);
}

TEST_F(AdminTest, ADemotedOperatorIsRefusedAtTheNextRequest) {
  Visitor v = signed_up("operator2@example.org", true);
  EXPECT_EQ(v.get("/admin").status, 200);
  ASSERT_TRUE(store().set_reader_operator("operator2@example.org", false));
  EXPECT_EQ(v.get("/admin").status, 403);
  EXPECT_EQ(v.get("/admin/audit").status, 403);
}

TEST_F(AdminTest, AuditLogShowsEntriesNewestFirstAndPages) {
  Visitor v = signed_up("operator3@example.org", true);
  for (int i = 0; i < 55; ++i) {
    ASSERT_TRUE(store().add_audit_entry({.at = now_seconds(),
                                         .actor = "operator3@example.org",
                                         .action = "test.entry",
                                         .target = "entry " + std::to_string(i)}));
  }
  auto first = v.get("/admin/audit");
  ASSERT_EQ(first.status, 200);
  const auto newest = first.body.find("entry 54");
  ASSERT_NE(newest, std::string::npos);
  EXPECT_LT(newest, first.body.find("entry 53"));
  EXPECT_EQ(first.body.find("entry 4<"), std::string::npos);  // past the first page of 50
  std::smatch older;
  ASSERT_TRUE(std::regex_search(first.body, older, std::regex("href=\"(/admin/audit\\?before=[0-9]+)\"")));
  auto second = v.get(older[1]);
  ASSERT_EQ(second.status, 200);
  EXPECT_THAT(second.body, HasSubstr("entry 4<"));
  EXPECT_EQ(v.get("/admin/audit?before=x").status, 400);
}

// The newest audit entry, which the action just taken must have written.
storage::AuditEntry last_audit(storage::Store& store) {
  auto page = store.audit_entries(1, 0);
  EXPECT_TRUE(page && !page->entries.empty());
  return page && !page->entries.empty() ? page->entries[0] : storage::AuditEntry{};
}

TEST_F(AdminTest, BlogsTablePausesResumesEditsAndRemovesWithAnAuditEntryEach) {
  Visitor v = signed_up("blog-operator@example.org", true);
  const std::int64_t reader_id = store().reader_by_email("blog-operator@example.org").value()->id;
  auto added = store().upsert_blog({.feed_url = "https://lifecycle.example/feed", .title = "Lifecycle Blog"});
  ASSERT_TRUE(added);
  const std::string id = std::to_string(*added);
  const std::string token = token_of(v);

  auto table = v.get("/admin/blogs");
  ASSERT_EQ(table.status, 200);
  EXPECT_THAT(table.body, HasSubstr("Lifecycle Blog"));
  EXPECT_THAT(table.body, HasSubstr("not polled yet"));
  EXPECT_THAT(table.body, HasSubstr("action=\"/admin/blogs/" + id + "/pause\""));
  EXPECT_EQ(v.get("/admin/blogs?sort=bogus").status, 400);
  EXPECT_EQ(v.get("/admin/blogs?show=bogus").status, 400);
  for (const std::string sort : {"title", "status", "success", "due", "articles", "rate"}) {
    EXPECT_EQ(v.get("/admin/blogs?sort=" + sort).status, 200) << sort;
  }
  // A new blog shows under "new", not under "paused" or "failing".
  EXPECT_THAT(v.get("/admin/blogs?show=new").body, HasSubstr("Lifecycle Blog"));
  EXPECT_THAT(v.get("/admin/blogs?show=paused").body, ::testing::Not(HasSubstr("Lifecycle Blog")));

  auto paused = v.post("/admin/blogs/" + id + "/pause", {{"csrf", token}});
  ASSERT_EQ(paused.status, 303) << paused.body;
  EXPECT_TRUE(store().blog(*added).value()->paused);
  auto entry = last_audit(store());
  EXPECT_EQ(entry.action, "blog.pause");
  EXPECT_EQ(entry.actor, "blog-operator@example.org");
  EXPECT_EQ(entry.actor_id, reader_id);
  EXPECT_THAT(entry.target, HasSubstr("blog " + id));
  auto paused_list = v.get("/admin/blogs?show=paused");
  EXPECT_THAT(paused_list.body, HasSubstr("Lifecycle Blog"));
  EXPECT_THAT(paused_list.body, HasSubstr("action=\"/admin/blogs/" + id + "/resume\""));

  ASSERT_EQ(v.post("/admin/blogs/" + id + "/resume", {{"csrf", token}}).status, 303);
  EXPECT_FALSE(store().blog(*added).value()->paused);
  EXPECT_EQ(last_audit(store()).action, "blog.resume");

  // Edit: a bad category is refused and changes nothing; a good edit is stored and audited with both values.
  auto bad =
      v.post("/admin/blogs/" + id + "/edit", {{"csrf", token}, {"title", "X"}, {"category", "Not A Slug"}});
  EXPECT_EQ(bad.status, 400);
  EXPECT_THAT(bad.body, HasSubstr("not-a-slug"));
  EXPECT_EQ(store().blog(*added).value()->title, "Lifecycle Blog");
  EXPECT_EQ(v.get("/admin/blogs/" + id + "/edit").status, 200);
  auto edited = v.post("/admin/blogs/" + id + "/edit",
                       {{"csrf", token}, {"title", "Renamed Blog"}, {"category", "essays"}});
  ASSERT_EQ(edited.status, 303) << edited.body;
  EXPECT_EQ(store().blog(*added).value()->title, "Renamed Blog");
  EXPECT_EQ(store().blog(*added).value()->category, "essays");
  entry = last_audit(store());
  EXPECT_EQ(entry.action, "blog.edit");
  EXPECT_THAT(entry.detail, HasSubstr("\"Lifecycle Blog\" -> \"Renamed Blog\""));
  EXPECT_THAT(entry.detail, HasSubstr("-> essays"));

  // Remove: the confirmation page first; only its button (confirm=yes) removes.
  auto confirm = v.get("/admin/blogs/" + id + "/remove");
  ASSERT_EQ(confirm.status, 200);
  EXPECT_THAT(confirm.body, HasSubstr("name=\"confirm\" value=\"yes\""));
  EXPECT_EQ(v.post("/admin/blogs/" + id + "/remove", {{"csrf", token}}).status, 200);
  EXPECT_TRUE(store().blog(*added).value());
  ASSERT_EQ(v.post("/admin/blogs/" + id + "/remove", {{"csrf", token}, {"confirm", "yes"}}).status, 303);
  EXPECT_FALSE(store().blog(*added).value());
  entry = last_audit(store());
  EXPECT_EQ(entry.action, "blog.remove");
  EXPECT_THAT(entry.detail, HasSubstr("https://lifecycle.example/feed"));
  EXPECT_EQ(v.post("/admin/blogs/" + id + "/pause", {{"csrf", token}}).status, 404);
  EXPECT_THAT(v.get("/admin/audit").body, HasSubstr("blog.remove"));
}

// The junk review: a junk article with its rule's reason is kept with one click (and shows on the site),
// a near miss is junked (and leaves it), each decision is audited with what it replaced, and Undo puts
// the override back.
TEST_F(AdminTest, JunkReviewKeepsJunksAndUndoesWithAnAuditEntryEach) {
  Visitor v = signed_up("junk-operator@example.org", true);
  auto blog =
      store().upsert_blog({.feed_url = "https://junkreview.example/feed", .title = "Junk Review Blog"});
  ASSERT_TRUE(blog);
  storage::CrawlRecord record{
      .blog_id = *blog, .attempted_at = now_seconds(), .success = true, .status = "ok"};
  for (const auto& [guid, words, junk] : std::vector<std::tuple<std::string, int, bool>>{
           {"tiny-junk-post", 12, true}, {"barely-kept-post", 151, false}}) {
    model::Article a;
    a.guid = guid;
    a.title = guid;
    a.link = "https://junkreview.example/" + guid;
    a.published = now_seconds() - std::chrono::hours(1);
    a.text = "text";
    a.excerpt = "text";
    a.word_count = words;
    a.junk = junk;
    a.junk_reason = junk ? "too short: 12 words" : "";
    record.articles.push_back(a);
  }
  ASSERT_TRUE(store().save_crawl(record));
  std::int64_t junk_id = 0, near_id = 0;
  auto stored = store().articles({.blog_id = *blog, .include_junk = true, .limit = 10});
  ASSERT_TRUE(stored);
  for (const auto& a : *stored) {
    (a.article.junk ? junk_id : near_id) = a.article.id;
  }
  ASSERT_NE(junk_id, 0);
  ASSERT_NE(near_id, 0);

  auto page = v.get("/admin/junk");
  ASSERT_EQ(page.status, 200);
  EXPECT_THAT(page.body, HasSubstr("too short: 12 words"));
  EXPECT_THAT(page.body, HasSubstr("barely-kept-post"));
  const std::string token = token_of(v);

  // Keep the junk article: visible, audited with the verdict it overrode; Undo hands it back.
  auto kept =
      v.post("/admin/junk/" + std::to_string(junk_id) + "/decide", {{"csrf", token}, {"decision", "keep"}});
  ASSERT_EQ(kept.status, 303);
  EXPECT_EQ(store().article(junk_id).value()->article.keep_override, std::optional<bool>(true));
  auto entry = last_audit(store());
  EXPECT_EQ(entry.action, "article.keep");
  EXPECT_EQ(entry.actor, "junk-operator@example.org");
  EXPECT_THAT(entry.target, HasSubstr("article " + std::to_string(junk_id)));
  EXPECT_THAT(entry.detail, HasSubstr("was: filter (junk: too short: 12 words)"));
  auto after = v.get(std::string(kept.header("Location").value_or("")));
  EXPECT_THAT(after.body, HasSubstr("kept: it shows on the site"));
  EXPECT_THAT(after.body, HasSubstr("name=\"decision\" value=\"filter\""));  // the Undo button
  EXPECT_EQ(
      v.post("/admin/junk/" + std::to_string(junk_id) + "/decide", {{"csrf", token}, {"decision", "filter"}})
          .status,
      303);
  EXPECT_FALSE(store().article(junk_id).value()->article.keep_override);
  EXPECT_EQ(last_audit(store()).action, "article.filter");

  // Junk the near miss: hidden, and listed with the junk as the operator's.
  ASSERT_EQ(
      v.post("/admin/junk/" + std::to_string(near_id) + "/decide", {{"csrf", token}, {"decision", "junk"}})
          .status,
      303);
  EXPECT_EQ(store().article(near_id).value()->article.keep_override, std::optional<bool>(false));
  EXPECT_EQ(last_audit(store()).action, "article.junk");
  EXPECT_THAT(v.get("/admin/junk").body, HasSubstr("junked by an operator"));
  EXPECT_EQ(
      v.post("/admin/junk/" + std::to_string(near_id) + "/decide", {{"csrf", token}, {"decision", "maybe"}})
          .status,
      400);
  EXPECT_EQ(v.post("/admin/junk/999999/decide", {{"csrf", token}, {"decision", "keep"}}).status, 404);
}

}  // namespace
}  // namespace longread::ui
