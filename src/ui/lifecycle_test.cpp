// /admin/lifecycle over real HTTP: a dead, a moved (to another site) and an inactive blog each in their
// list, Retire / Un-retire / Accept move with an audit entry each, and a retired blog's articles still on
// the site. The site runs on an ephemeral port over a real SQLite store with the fixture blogs.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "ui/site.h"
#include "ui/testing/running_site.h"
#include "ui/testing/visitor.h"

namespace longread::ui {
namespace {

using std::chrono::days;
using ::testing::HasSubstr;
using ::testing::Not;
using testing::Visitor;

class LifecycleTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    SiteOptions options = testing::test_site_options();
    options.lifecycle = {.dead_failures = 3, .dead_days = days{7}, .inactive_months = 12};
    auto running = testing::RunningSite::start("lifecycle-test", std::move(options));
    ASSERT_TRUE(running) << running.error().message;
    running_ = std::move(*running);
  }
  static void TearDownTestSuite() { running_.reset(); }
  static storage::Store& store() { return running_->store(); }
  static std::uint16_t port() { return running_->port(); }

  static std::int64_t blog_with(const std::string& url, const std::string& title, TimePoint read_at,
                                bool success, int failures, std::optional<TimePoint> posted,
                                std::optional<std::string> moved_to = std::nullopt) {
    const auto id = store().upsert_blog({.feed_url = url, .title = title}).value();
    storage::CrawlRecord r{.blog_id = id,
                           .attempted_at = read_at,
                           .success = success,
                           .status = success ? "ok" : "HTTP 404",
                           .error = success ? "" : "HTTP 404",
                           .consecutive_failures = failures,
                           .new_feed_url = std::move(moved_to)};
    if (posted) {
      model::Article a;
      a.guid = title;
      a.title = title + " post";
      a.link = url + "/post";
      a.published = *posted;
      a.text = a.excerpt = "Words of " + title + ".";
      a.word_count = 300;
      r.articles.push_back(a);
    }
    EXPECT_TRUE(store().save_crawl(r));
    return id;
  }

  static inline std::unique_ptr<testing::RunningSite> running_;
};

TEST_F(LifecycleTest, ListsDeadMovedAndInactiveBlogsAndRetiresWithAnAuditEntry) {
  const TimePoint now = now_seconds();
  const auto dead =
      blog_with("https://dead-blog.example/feed", "Dead Blog", now - days{20}, true, 0, now - days{20});
  {
    storage::CrawlRecord fail{.blog_id = dead,
                              .attempted_at = now,
                              .success = false,
                              .status = "HTTP 404",
                              .error = "HTTP 404",
                              .consecutive_failures = 3};
    ASSERT_TRUE(store().save_crawl(fail));
  }
  const auto moved = blog_with("https://old-home.example/feed", "Moved Blog", now, true, 0, now - days{1},
                               "https://new-owner.example.net/feed");
  const auto inactive =
      blog_with("https://silent.example/feed", "Silent Blog", now, true, 0, now - days{400});

  Visitor op = testing::sign_up(port(), "lifecycle-op@example.org");
  ASSERT_TRUE(store().set_reader_operator("lifecycle-op@example.org", true));
  auto page = op.get("/admin/lifecycle");
  ASSERT_EQ(page.status, 200) << page.body;
  const auto section = [&](const std::string& id) {
    const auto from = page.body.find("id=\"" + id + "\"");
    EXPECT_NE(from, std::string::npos) << id;
    return page.body.substr(from, page.body.find("</table>", from) - from);
  };
  EXPECT_THAT(section("dead"), HasSubstr("Dead Blog"));
  EXPECT_THAT(section("dead"), HasSubstr("3 failed polls in a row"));
  EXPECT_THAT(section("dead"), Not(HasSubstr("Silent Blog")));
  EXPECT_THAT(section("moved"), HasSubstr("Moved Blog"));
  EXPECT_THAT(section("moved"), HasSubstr("https://old-home.example/feed"));
  EXPECT_THAT(section("moved"), HasSubstr("another site"));
  EXPECT_THAT(section("inactive"), HasSubstr("Silent Blog"));
  EXPECT_THAT(section("inactive"), Not(HasSubstr("Moved Blog")));

  const std::string token = Visitor::token_in(op.get("/about").body);
  auto retired = op.post("/admin/lifecycle/" + std::to_string(inactive) + "/retire", {{"csrf", token}});
  ASSERT_EQ(retired.status, 303) << retired.body;
  EXPECT_TRUE(store().blog(inactive).value()->paused);
  auto entry = store().audit_entries(1, 0).value().entries.at(0);
  EXPECT_EQ(entry.action, "blog.retire");
  EXPECT_EQ(entry.actor, "lifecycle-op@example.org");
  EXPECT_THAT(entry.target, HasSubstr("Silent Blog"));
  page = op.get(std::string(retired.header("Location").value_or("")));
  EXPECT_THAT(page.body, HasSubstr("retired: no crawl polls it"));
  EXPECT_THAT(section("retired"), HasSubstr("Silent Blog"));
  EXPECT_THAT(section("retired"), HasSubstr("retired by an operator"));
  // Its article is still on the site.
  Visitor anonymous(port());
  EXPECT_THAT(anonymous.get("/blog/" + std::to_string(inactive)).body, HasSubstr("Silent Blog post"));

  ASSERT_EQ(op.post("/admin/lifecycle/" + std::to_string(inactive) + "/unretire", {{"csrf", token}}).status,
            303);
  EXPECT_FALSE(store().blog(inactive).value()->paused);
  EXPECT_EQ(store().audit_entries(1, 0).value().entries.at(0).action, "blog.unretire");

  ASSERT_EQ(op.post("/admin/lifecycle/" + std::to_string(moved) + "/accept-move", {{"csrf", token}}).status,
            303);
  entry = store().audit_entries(1, 0).value().entries.at(0);
  EXPECT_EQ(entry.action, "blog.accept_move");
  EXPECT_THAT(entry.detail,
              HasSubstr("from https://old-home.example/feed to https://new-owner.example.net/feed"));
  page = op.get("/admin/lifecycle");
  EXPECT_THAT(page.body, Not(HasSubstr("https://old-home.example/feed")));
  EXPECT_EQ(op.post("/admin/lifecycle/999999/retire", {{"csrf", token}}).status, 404);
  (void)dead;
}

// /admin/blogs names a retired blog "retired" with its reason (not merely paused), lists it under the
// Retired filter, and its button there un-retires it.
TEST_F(LifecycleTest, TheBlogsTableShowsRetiredBlogsAndResumingUnretires) {
  const TimePoint now = now_seconds();
  const auto quiet =
      blog_with("https://retired-here.example/feed", "Retired Here Blog", now, true, 0, now - days{500});
  const auto running = blog_with("https://running.example/feed", "Running Blog", now, true, 0, now - days{2});
  ASSERT_TRUE(store().retire_blog(quiet, "no post in 12 months", now).value());

  Visitor op = testing::sign_up(port(), "lifecycle-table@example.org");
  ASSERT_TRUE(store().set_reader_operator("lifecycle-table@example.org", true));
  const auto row = [](const std::string& body, std::int64_t id) {
    const auto from = body.find("<tr data-blog=\"" + std::to_string(id) + "\"");
    if (from == std::string::npos) return std::string();
    return body.substr(from, body.find("</tr>", from) - from);
  };
  auto page = op.get("/admin/blogs?show=retired");
  ASSERT_EQ(page.status, 200) << page.body;
  EXPECT_THAT(row(page.body, quiet), HasSubstr("data-retired=\"no post in 12 months\""));
  EXPECT_THAT(row(page.body, quiet), HasSubstr("Un-retire"));
  EXPECT_EQ(row(page.body, running), "");
  page = op.get("/admin/blogs");
  EXPECT_THAT(row(page.body, running), Not(HasSubstr("retired")));

  const std::string token = Visitor::token_in(page.body);
  ASSERT_EQ(op.post("/admin/blogs/" + std::to_string(quiet) + "/resume", {{"csrf", token}}).status, 303);
  const auto lifecycle = store().blog_lifecycle().value();
  for (const auto& l : lifecycle) {
    if (l.blog_id == quiet) {
      EXPECT_FALSE(l.retired_at.has_value());
    }
  }
  EXPECT_FALSE(store().blog(quiet).value()->paused);
  EXPECT_EQ(row(op.get("/admin/blogs?show=retired").body, quiet), "");
}

}  // namespace
}  // namespace longread::ui
