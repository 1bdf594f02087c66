// Blog lifecycle as stored and judged (migration 0026, storage/lifecycle.h): dead at N failures in a row
// over D days and not at N-1 or a second short of D, inactive at exactly the months without a post, a
// permanent redirect recorded with when and from where (another site told apart), and a retired blog that
// no crawl polls but whose articles stay on the site. On both backends.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "storage/lifecycle.h"
#include "storage/store.h"
#include "testing/store_test.h"

namespace longread::storage {
namespace {

using std::chrono::days;
using std::chrono::seconds;

class LifecycleStoreTest : public longread::testing::StoreSuite {
 protected:
  LifecycleStoreTest() : StoreSuite("longread-lifecycle-store") {}

  std::int64_t add_blog(const std::string& feed_url) {
    auto id = store_->upsert_blog({.feed_url = feed_url, .title = feed_url});
    EXPECT_TRUE(id) << id.error().message;
    return id.value_or(0);
  }
  // One poll of `blog` at `at`: a success, or a failure leaving `failures` in a row.
  void poll(std::int64_t blog, TimePoint at, bool success, int failures = 0,
            std::vector<model::Article> articles = {}, std::optional<std::string> moved_to = std::nullopt) {
    CrawlRecord r{.blog_id = blog,
                  .attempted_at = at,
                  .success = success,
                  .status = success ? "ok" : "HTTP 404",
                  .error = success ? "" : "HTTP 404",
                  .next_due_at = at + std::chrono::hours(1),
                  .consecutive_failures = failures,
                  .new_feed_url = std::move(moved_to)};
    r.articles = std::move(articles);
    ASSERT_TRUE(store_->save_crawl(r));
  }
  BlogHealth health_of(std::int64_t blog, TimePoint now) {
    const auto all1 = store_->blog_health(now).value();

    for (auto& h : all1)
      if (h.blog.id == blog) return h;
    ADD_FAILURE() << "no blog " << blog;
    return {};
  }
  BlogLifecycle lifecycle_of(std::int64_t blog) {
    const auto all2 = store_->blog_lifecycle().value();

    for (auto& l : all2)
      if (l.blog_id == blog) return l;
    ADD_FAILURE() << "no blog " << blog;
    return {};
  }
  LifecycleVerdict verdict(std::int64_t blog, TimePoint now) {
    return classify_blog(health_of(blog, now), lifecycle_of(blog), rules_, now);
  }

  LifecycleRules rules_{.dead_failures = 5, .dead_days = days{14}, .inactive_months = 12};
  const TimePoint now_ = now_seconds();
};

TEST_P(LifecycleStoreTest, DeadTakesNFailuresInARowAndDDaysWithoutASuccess) {
  const auto blog = add_blog("https://failing.example/feed");
  const TimePoint last_success = now_ - days{30};
  poll(blog, last_success, true);
  poll(blog, now_ - days{1}, false, 4);
  EXPECT_FALSE(verdict(blog, now_).dead) << "N-1 failures";
  poll(blog, now_, false, 5);
  EXPECT_TRUE(verdict(blog, now_).dead) << "N failures, 30 days";
  // D days exactly since the last success is dead; a second less is not.
  EXPECT_TRUE(verdict(blog, last_success + days{14}).dead);
  EXPECT_FALSE(verdict(blog, last_success + days{14} - seconds{1}).dead);
  // A success ends it.
  poll(blog, now_ + seconds{1}, true);
  EXPECT_FALSE(verdict(blog, now_ + days{30}).dead);
}

TEST_P(LifecycleStoreTest, ABlogNeverReadCountsItsDaysFromWhenItWasFollowed) {
  const auto blog = add_blog("https://never.example/feed");
  poll(blog, now_, false, 9);
  const TimePoint followed = health_of(blog, now_).followed_at;
  EXPECT_FALSE(verdict(blog, followed + days{14} - seconds{1}).dead);
  EXPECT_TRUE(verdict(blog, followed + days{14}).dead);
}

TEST_P(LifecycleStoreTest, InactiveAtExactlyTheMonthsWithoutAPost) {
  const auto blog = add_blog("https://quiet.example/feed");
  const TimePoint posted = now_ - days{400};
  model::Article a;
  a.guid = "last-post";
  a.title = "The last post";
  a.link = "https://quiet.example/last";
  a.published = posted;
  a.text = a.excerpt = "Words.";
  a.word_count = 300;
  poll(blog, now_, true, 0, {a});
  const TimePoint boundary = posted + 12 * kLifecycleMonth;
  EXPECT_TRUE(verdict(blog, boundary).inactive);
  EXPECT_FALSE(verdict(blog, boundary - seconds{1}).inactive);
  EXPECT_FALSE(verdict(blog, boundary).dead);
  // Without a post, the months count from when the blog was followed.
  const auto empty = add_blog("https://empty.example/feed");
  const TimePoint followed = health_of(empty, now_).followed_at;
  EXPECT_FALSE(verdict(empty, followed + 12 * kLifecycleMonth - seconds{1}).inactive);
  EXPECT_TRUE(verdict(empty, followed + 12 * kLifecycleMonth).inactive);
}

TEST_P(LifecycleStoreTest, APermanentRedirectIsRecordedWithWhenAndFromWhereAndAnotherSiteIsMarked) {
  const auto same = add_blog("https://feeds.example.com/posts.xml");
  const auto other = add_blog("https://lapsed.example/feed");
  EXPECT_FALSE(verdict(same, now_).moved);
  poll(same, now_ - days{2}, true, 0, {}, "https://example.com/feed.xml");
  poll(other, now_ - days{1}, true, 0, {}, "https://casino.example.net/feed");

  auto moved = lifecycle_of(same);
  EXPECT_EQ(moved.moved_from, "https://feeds.example.com/posts.xml");
  EXPECT_EQ(moved.moved_at, now_ - days{2});
  EXPECT_EQ(store_->blog(same).value()->feed_url, "https://example.com/feed.xml");
  auto v = verdict(same, now_);
  EXPECT_TRUE(v.moved);
  EXPECT_FALSE(v.moved_off_site) << "feeds.example.com and example.com are one site";

  auto off = verdict(other, now_);
  EXPECT_TRUE(off.moved);
  EXPECT_TRUE(off.moved_off_site);
  EXPECT_EQ(lifecycle_of(other).moved_from, "https://lapsed.example/feed");

  // Accepting the move takes it off the list; the blog stays at its new URL.
  EXPECT_TRUE(store_->clear_blog_move(other).value());
  EXPECT_FALSE(store_->clear_blog_move(other).value());
  EXPECT_FALSE(verdict(other, now_).moved);
  EXPECT_EQ(store_->blog(other).value()->feed_url, "https://casino.example.net/feed");
}

TEST_P(LifecycleStoreTest, ARetiredBlogIsNotPolledButKeepsItsArticles) {
  const auto blog = add_blog("https://retired.example/feed");
  model::Article a;
  a.guid = "kept-post";
  a.title = "A post that stays";
  a.link = "https://retired.example/kept";
  a.published = now_ - days{3};
  a.text = a.excerpt = "Words that stay on the site.";
  a.word_count = 300;
  poll(blog, now_ - days{3}, true, 0, {a});
  const auto visible_before = store_->count_articles({.blog_id = blog}).value();
  ASSERT_EQ(visible_before, 1);
  auto due = [&](TimePoint at) {
    const auto all3 = store_->due_blogs(at).value();

    for (const auto& b : all3)
      if (b.id == blog) return true;
    return false;
  };
  ASSERT_TRUE(due(now_));

  EXPECT_TRUE(store_->retire_blog(blog, "dead: 12 failed polls in a row", now_).value());
  EXPECT_FALSE(store_->retire_blog(blog, "again", now_).value()) << "already retired: nothing changes";
  EXPECT_FALSE(due(now_ + days{365}));
  EXPECT_TRUE(store_->blog(blog).value()->paused);
  const auto l = lifecycle_of(blog);
  EXPECT_EQ(l.retired_at, now_);
  EXPECT_EQ(l.retired_reason, "dead: 12 failed polls in a row");
  EXPECT_TRUE(verdict(blog, now_).retired);
  EXPECT_EQ(store_->count_articles({.blog_id = blog}).value(), visible_before);
  EXPECT_EQ(store_->articles({.blog_id = blog}).value().size(), 1u);
  reopen();

  EXPECT_TRUE(store_->unretire_blog(blog).value());
  EXPECT_FALSE(store_->unretire_blog(blog).value());
  EXPECT_FALSE(lifecycle_of(blog).retired_at);
  EXPECT_TRUE(due(now_)) << "un-retired: due at once";

  // Resuming a retired blog by another path (`blogs resume`, the blogs table) un-retires it too.
  ASSERT_TRUE(store_->retire_blog(blog, "inactive", now_).value());
  ASSERT_TRUE(store_->edit_blog(blog, {.paused = false}));
  EXPECT_FALSE(lifecycle_of(blog).retired_at);
  EXPECT_EQ(lifecycle_of(blog).retired_reason, "");

  EXPECT_EQ(store_->retire_blog(999999, "x", now_).error().kind, ErrorKind::kNotFound);
  EXPECT_EQ(store_->unretire_blog(999999).error().kind, ErrorKind::kNotFound);
}

LONGREAD_STORE_BACKENDS(LifecycleStoreTest);

}  // namespace
}  // namespace longread::storage
