// "Similar articles" on the article page over real HTTP: the picks the crawl stored, each with its
// reason in data-shared and a visible "shares:" line, and never a pick of the article's own blog or one
// hidden since (junk, duplicate, held). The site runs on an ephemeral port over a real SQLite store.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "ui/site.h"
#include "ui/testing/running_site.h"
#include "ui/testing/visitor.h"
#include "ui/view.h"

namespace longread::ui {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using testing::Visitor;

class SimilarPageTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    auto running = testing::RunningSite::start("similar-page-test", testing::test_site_options());
    ASSERT_TRUE(running) << running.error().message;
    running_ = std::move(*running);
  }
  static void TearDownTestSuite() { running_.reset(); }
  static storage::Store& store() { return running_->store(); }

  // A blog with one article; returns the article.
  static model::Article article_in(const std::string& host, const std::string& title) {
    const auto blog = store().upsert_blog({.feed_url = "https://" + host + "/feed", .title = host}).value();
    return add_article(blog, host, title);
  }
  static model::Article add_article(std::int64_t blog, const std::string& host, const std::string& title) {
    const TimePoint now = now_seconds();
    model::Article a;
    a.guid = title;
    a.title = title;
    a.link = "https://" + host + "/" + std::to_string(title.size());
    a.published = now - std::chrono::hours(3);
    a.text = a.excerpt = "Words about " + title + ".";
    a.word_count = 400;
    a.first_seen = now;
    EXPECT_TRUE(store().save_crawl(
        {.blog_id = blog, .attempted_at = now, .success = true, .status = "ok", .articles = {a}}));
    const auto keys = store().article_keys(blog).value();
    for (const auto& key : keys) {
      if (key.guid == title) return store().article(key.id).value()->article;
    }
    ADD_FAILURE() << "no article " << title;
    return {};
  }
  // The "Similar articles" section of a page ("" when there is none).
  static std::string similar_section(const std::string& body) {
    const auto start = body.find("<section class=\"related similar-articles\">");
    if (start == std::string::npos) return "";
    return body.substr(start, body.find("</section>", start) - start);
  }

  static inline std::unique_ptr<testing::RunningSite> running_;
};

TEST_F(SimilarPageTest, ShowsStoredPicksWithReasonsAndNeverSameBlogOrHiddenOnes) {
  const auto subject = article_in("queues.example", "Lock-free queues in practice");
  const auto same_blog = add_article(subject.blog_id, "queues.example", "More about our queue");
  const auto other = article_in("ring.example", "A ring buffer for audio");
  const auto later_junk = article_in("spam.example", "Cache lines for sale");
  ASSERT_TRUE(
      store().save_similar({.article_id = subject.id,
                            .picks = {{subject.id, same_blog.id, 0.9, "queue, lock free"},
                                      {subject.id, other.id, 0.6, "lock free, ring buffer, cache line"},
                                      {subject.id, later_junk.id, 0.5, "cache line, false sharing"}}}));

  Visitor visitor(running_->port());
  auto page = visitor.get(article_path(subject));
  ASSERT_EQ(page.status, 200) << page.body;
  auto section = similar_section(page.body);
  ASSERT_FALSE(section.empty()) << page.body;
  EXPECT_THAT(section, HasSubstr("<h2>Similar articles</h2>"));
  EXPECT_THAT(section, HasSubstr("<li data-shared=\"lock free, ring buffer, cache line\">"));
  EXPECT_THAT(section, HasSubstr("shares: lock free, ring buffer, cache line"));
  EXPECT_THAT(section, HasSubstr("href=\"" + article_path(other) + "\">A ring buffer for audio</a>"));
  EXPECT_THAT(section, HasSubstr(">ring.example</a>"));  // the blog
  EXPECT_THAT(section, HasSubstr("<time datetime="));
  EXPECT_THAT(section, HasSubstr("Cache lines for sale"));
  EXPECT_THAT(section, Not(HasSubstr("More about our queue"))) << "same blog";
  // Best first.
  EXPECT_LT(section.find("A ring buffer for audio"), section.find("Cache lines for sale"));

  // Junk since the crawl: gone from the page though still stored.
  ASSERT_TRUE(store().set_keep_override(later_junk.id, false));
  page = visitor.get(article_path(subject));
  ASSERT_EQ(page.status, 200);
  section = similar_section(page.body);
  EXPECT_THAT(section, HasSubstr("A ring buffer for audio"));
  EXPECT_THAT(section, Not(HasSubstr("Cache lines for sale")));

  // No picks: no section at all (no empty heading).
  page = visitor.get(article_path(other));
  ASSERT_EQ(page.status, 200);
  EXPECT_EQ(similar_section(page.body), "");
}

}  // namespace
}  // namespace longread::ui
