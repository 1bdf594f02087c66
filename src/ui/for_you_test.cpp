// "/for-you" over real HTTP: a visitor is sent to log in; a reader with too little history is told so and
// shown Hot; a reader who voted for and saved enough gets fresh articles like them, each with "because you
// saved / voted for <title>" and the shared words, without what they saved, voted for, read or muted; and
// one reader's choices never shape another's page. The site runs on an ephemeral port over a real SQLite
// store with the fixture blogs.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <regex>
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

class ForYouTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    auto running = testing::RunningSite::start("for-you-test", testing::test_site_options());
    ASSERT_TRUE(running) << running.error().message;
    running_ = std::move(*running);
  }
  static void TearDownTestSuite() { running_.reset(); }
  static storage::Store& store() { return running_->store(); }
  static std::uint16_t port() { return running_->port(); }

  static Visitor signed_up(const std::string& email) { return testing::sign_up(port(), email); }
  static std::int64_t reader_id(const std::string& email) {
    return store().reader_by_email(email).value()->id;
  }
  // One article on a blog of its own, dated `age` ago.
  static model::Article article_in(const std::string& host, const std::string& title,
                                   std::chrono::hours age) {
    const TimePoint now = now_seconds();
    const auto blog = store().upsert_blog({.feed_url = "https://" + host + "/feed", .title = host}).value();
    model::Article a;
    a.guid = title;
    a.title = title;
    a.link = "https://" + host + "/post";
    a.published = now - age;
    a.text = a.excerpt = "Words about " + title + ".";
    a.word_count = 500;
    a.first_seen = now;
    EXPECT_TRUE(store().save_crawl(
        {.blog_id = blog, .attempted_at = now, .success = true, .status = "ok", .articles = {a}}));
    auto keys = store().article_keys(blog);
    EXPECT_TRUE(keys) << keys.error().message;
    if (!keys) return {};
    for (const auto& key : *keys) {
      if (key.guid == title) return store().article(key.id).value()->article;
    }
    ADD_FAILURE() << "no article " << title;
    return {};
  }
  // For each pick on a for-you page, in order, the id of the seed it is like.
  static std::vector<std::string> reasons(const std::string& body) {
    std::vector<std::string> out;
    static const std::regex because("data-because=\"([0-9]+)\"");
    for (auto it = std::sregex_iterator(body.begin(), body.end(), because); it != std::sregex_iterator();
         ++it) {
      out.push_back((*it)[1].str());
    }
    return out;
  }

  static inline std::unique_ptr<testing::RunningSite> running_;
};

TEST_F(ForYouTest, AVisitorIsSentToLogIn) {
  Visitor visitor(port());
  auto page = visitor.get("/for-you");
  EXPECT_EQ(page.status, 303);
  EXPECT_THAT(std::string(page.header("Location").value_or("")), HasSubstr("/login?next=%2Ffor-you"));
}

TEST_F(ForYouTest, TooLittleHistorySaysSoAndShowsHot) {
  Visitor v = signed_up("new-reader@example.org");
  auto page = v.get("/for-you");
  ASSERT_EQ(page.status, 200) << page.body;
  EXPECT_THAT(page.body, HasSubstr("data-too-little-history"));
  EXPECT_THAT(page.body, HasSubstr("0 so far, 3 needed"));
  // Hot's articles are there: the fixture's newest post leads the front page.
  EXPECT_THAT(page.body, HasSubstr("The last voyage of the Hindenburg&#39;s sister ship"));
  EXPECT_TRUE(reasons(page.body).empty());
  // The nav offers the page to a logged-in reader only.
  EXPECT_THAT(page.body, HasSubstr("href=\"/for-you\""));
  Visitor visitor(port());
  EXPECT_THAT(visitor.get("/").body, Not(HasSubstr("href=\"/for-you\"")));
}

TEST_F(ForYouTest, PicksFollowTheReadersOwnVotesAndSavesWithTheirReasons) {
  const auto seed1 = article_in("spinlocks.example", "Optimizing a Spin-Lock", std::chrono::hours(24 * 40));
  const auto seed2 = article_in("seqlock.example", "Seqlocks", std::chrono::hours(24 * 41));
  const auto seed3 = article_in("rcu.example", "Read-copy-update", std::chrono::hours(24 * 42));
  const auto fresh = article_in("mcs.example", "MCS locks from scratch", std::chrono::hours(5));
  const auto fresher = article_in("futex.example", "Futexes, briefly", std::chrono::hours(2));
  const auto muted = article_in("muted.example", "Ticket locks", std::chrono::hours(3));
  const auto stale = article_in("stale.example", "Locks in 1990", std::chrono::hours(24 * 400));
  ASSERT_TRUE(store().save_similar({.article_id = seed1.id,
                                    .picks = {{seed1.id, fresh.id, 0.6, "spin lock, cache line"},
                                              {seed1.id, muted.id, 0.7, "spin lock, ticket"},
                                              {seed1.id, stale.id, 0.9, "spin lock"}}}));
  ASSERT_TRUE(store().save_similar(
      {.article_id = fresher.id, .picks = {{fresher.id, seed2.id, 0.4, "futex, wait queue"}}}));

  Visitor ada = signed_up("ada-for-you@example.org");
  std::string token = Visitor::token_in(ada.get("/reading-list").body);
  ASSERT_EQ(
      ada.post("/reading-list/" + std::to_string(seed1.id), {{"csrf", token}, {"action", "add"}}).status,
      303);
  ASSERT_EQ(ada.post("/articles/" + std::to_string(seed2.id) + "/vote", {{"csrf", token}}).status, 303);
  ASSERT_EQ(ada.post("/articles/" + std::to_string(seed3.id) + "/vote", {{"csrf", token}}).status, 303);
  ASSERT_TRUE(
      store().set_blog_muted(reader_id("ada-for-you@example.org"), muted.blog_id, true, now_seconds()));

  auto page = ada.get("/for-you");
  ASSERT_EQ(page.status, 200) << page.body;
  EXPECT_THAT(page.body, Not(HasSubstr("data-too-little-history")));
  // The fresh article like the saved spin-lock post, then the one that picked the voted seqlock post; the
  // muted blog's and the stale article are left out.
  EXPECT_EQ(reasons(page.body),
            (std::vector<std::string>{std::to_string(seed1.id), std::to_string(seed2.id)}));
  EXPECT_THAT(page.body, HasSubstr("MCS locks from scratch"));
  EXPECT_THAT(page.body, HasSubstr("Futexes, briefly"));
  EXPECT_THAT(page.body, Not(HasSubstr("Ticket locks")));
  EXPECT_THAT(page.body, Not(HasSubstr("Locks in 1990")));
  EXPECT_THAT(page.body, HasSubstr("Because you saved <a href=\"" + article_path(seed1) +
                                   "\">Optimizing a Spin-Lock</a>"));
  EXPECT_THAT(page.body,
              HasSubstr("Because you voted for <a href=\"" + article_path(seed2) + "\">Seqlocks</a>"));
  EXPECT_THAT(page.body, HasSubstr("data-shared=\"spin lock, cache line\""));

  // Read: gone from the page.
  ASSERT_EQ(store()
                .set_articles_read(reader_id("ada-for-you@example.org"), {fresh.id}, true, now_seconds())
                .value(),
            1);
  page = ada.get("/for-you");
  EXPECT_THAT(page.body, Not(HasSubstr("MCS locks from scratch")));
  EXPECT_THAT(page.body, HasSubstr("Futexes, briefly"));

  // Another reader with the same history size but different choices sees none of Ada's picks.
  Visitor bob = signed_up("bob-for-you@example.org");
  token = Visitor::token_in(bob.get("/reading-list").body);
  for (const auto id : {fresh.id, fresher.id, muted.id}) {
    ASSERT_EQ(bob.post("/articles/" + std::to_string(id) + "/vote", {{"csrf", token}}).status, 303);
  }
  page = bob.get("/for-you");
  ASSERT_EQ(page.status, 200);
  EXPECT_TRUE(reasons(page.body).empty()) << page.body;
  EXPECT_THAT(page.body, Not(HasSubstr("Because you")));
}

}  // namespace
}  // namespace longread::ui
