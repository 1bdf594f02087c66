// The automatic retirement of dead and inactive blogs (pipeline::retire_lifecycle_blogs) over a real
// SQLite store: off by default, each switch retires only its own kind, never a paused or already retired
// blog, and each retirement has an audit entry by "system".
#include "pipeline/lifecycle.h"

#include <gtest/gtest.h>

#include <string>

#include "testing/store_test.h"

namespace longread::pipeline {
namespace {

using std::chrono::days;

class AutoRetireTest : public longread::testing::StoreTest {
 protected:
  AutoRetireTest() : StoreTest("longread-auto-retire") {}

  void SetUp() override {
    StoreTest::SetUp();
    dead_ = add("https://dead.example/feed");
    inactive_ = add("https://inactive.example/feed");
    healthy_ = add("https://healthy.example/feed");
    paused_dead_ = add("https://paused.example/feed");
    // Dead: read once long ago, failing ever since.
    for (const auto blog : {dead_, paused_dead_}) {
      save(blog, now_ - days{60}, true, 0, {});
      save(blog, now_ - days{1}, false, 20, {});
    }
    ASSERT_TRUE(store_->edit_blog(paused_dead_, {.paused = true}));
    save(inactive_, now_ - days{1}, true, 0, {article("old", now_ - days{500})});
    save(healthy_, now_ - days{1}, true, 0, {article("fresh", now_ - days{2})});
  }

  std::int64_t add(const std::string& url) {
    return store_->upsert_blog({.feed_url = url, .title = url}).value();
  }
  static model::Article article(const std::string& guid, TimePoint published) {
    model::Article a;
    a.guid = guid;
    a.title = guid;
    a.link = "https://example.org/" + guid;
    a.published = published;
    a.text = a.excerpt = "Words.";
    a.word_count = 300;
    return a;
  }
  void save(std::int64_t blog, TimePoint at, bool success, int failures,
            std::vector<model::Article> articles) {
    storage::CrawlRecord r{.blog_id = blog,
                           .attempted_at = at,
                           .success = success,
                           .status = success ? "ok" : "HTTP 410",
                           .error = success ? "" : "HTTP 410",
                           .consecutive_failures = failures};
    r.articles = std::move(articles);
    ASSERT_TRUE(store_->save_crawl(r));
  }
  bool retired(std::int64_t blog) {
    const auto all1 = store_->blog_lifecycle().value();

    for (const auto& l : all1)
      if (l.blog_id == blog) return l.retired_at.has_value();
    return false;
  }

  const TimePoint now_ = now_seconds();
  std::int64_t dead_ = 0, inactive_ = 0, healthy_ = 0, paused_dead_ = 0;
};

TEST_F(AutoRetireTest, OffByDefaultRetiresNothing) {
  auto done = retire_lifecycle_blogs(*store_, *store_, storage::LifecycleRules{}, now_);
  ASSERT_TRUE(done) << done.error().message;
  EXPECT_TRUE(done->empty());
  EXPECT_FALSE(retired(dead_));
  EXPECT_FALSE(retired(inactive_));
  EXPECT_TRUE(store_->audit_entries(10, 0).value().entries.empty());
}

TEST_F(AutoRetireTest, EachSwitchRetiresItsOwnKindWithASystemAuditEntry) {
  storage::LifecycleRules rules{.dead_failures = 10, .dead_days = days{14}, .auto_retire_dead = true};
  auto done = retire_lifecycle_blogs(*store_, *store_, rules, now_);
  ASSERT_TRUE(done) << done.error().message;
  ASSERT_EQ(done->size(), 1u);
  EXPECT_EQ(done->at(0).blog_id, dead_);
  EXPECT_TRUE(retired(dead_));
  EXPECT_FALSE(retired(inactive_)) << "inactive, but its switch is off";
  EXPECT_FALSE(retired(paused_dead_)) << "paused: already in the operator's hands";
  EXPECT_FALSE(retired(healthy_));
  EXPECT_TRUE(store_->blog(dead_).value()->paused);
  auto audit = store_->audit_entries(10, 0).value().entries;
  ASSERT_EQ(audit.size(), 1u);
  EXPECT_EQ(audit[0].actor, "system");
  EXPECT_FALSE(audit[0].actor_id);
  EXPECT_EQ(audit[0].action, "blog.retire");
  EXPECT_NE(audit[0].target.find("blog " + std::to_string(dead_)), std::string::npos);
  EXPECT_EQ(audit[0].detail.rfind("dead: 20 failed polls in a row, no success since ", 0), 0u)
      << audit[0].detail;

  // Run again: nothing more (the dead one is retired); then the inactive switch.
  EXPECT_TRUE(retire_lifecycle_blogs(*store_, *store_, rules, now_)->empty());
  rules.auto_retire_inactive = true;
  done = retire_lifecycle_blogs(*store_, *store_, rules, now_);
  ASSERT_TRUE(done);
  ASSERT_EQ(done->size(), 1u);
  EXPECT_EQ(done->at(0).blog_id, inactive_);
  EXPECT_EQ(done->at(0).reason.rfind("inactive: no post since ", 0), 0u);
  EXPECT_FALSE(retired(healthy_));
  // The retired blogs keep their articles on the site.
  EXPECT_EQ(store_->count_articles({.blog_id = inactive_}).value(), 1);
}

}  // namespace
}  // namespace longread::pipeline
