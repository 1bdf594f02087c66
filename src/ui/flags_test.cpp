// Readers' flags over real HTTP: the form on the article page (labelled, no script needed), once per
// reader, the visitor sent to log in, the CSRF check, the hold at moderation.flags_to_hide flags (gone from
// the listings, search and the Atom feed; still there for the operators and the readers who flagged it),
// the daily limit, and /admin/flags keeping or junking with an audit entry. The site runs on an ephemeral
// port over a real SQLite store with the fixture blogs.
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

class FlagsTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    SiteOptions options = testing::test_site_options();
    options.flag_rules = {.flags_to_hide = 3, .flags_per_day = 4};
    auto running = testing::RunningSite::start("flags-test", std::move(options));
    ASSERT_TRUE(running) << running.error().message;
    running_ = std::move(*running);
    auto ada = store().articles({.blog_id = running_->ids().ada_blog, .limit = 30});
    ASSERT_TRUE(ada);
    for (const auto& v : *ada) ada_articles_.push_back(v.article);
    ASSERT_GE(ada_articles_.size(), 10u);
  }
  static void TearDownTestSuite() { running_.reset(); }

  static storage::Store& store() { return running_->store(); }
  static std::uint16_t port() { return running_->port(); }

  static Visitor signed_up(const std::string& email, bool promote = false) {
    Visitor v = testing::sign_up(port(), email);
    if (promote) {
      EXPECT_TRUE(store().set_reader_operator(email, true));
    }
    return v;
  }
  static std::string token_of(Visitor& v) { return Visitor::token_in(v.get("/about").body); }
  static std::string path_of(const model::Article& a) { return article_path(a); }
  static int flags_on(std::int64_t id) { return store().flag_state(id, std::nullopt).value().flags; }
  static storage::AuditEntry last_audit() {
    auto page = store().audit_entries(1, 0);
    EXPECT_TRUE(page && !page->entries.empty());
    return page && !page->entries.empty() ? page->entries[0] : storage::AuditEntry{};
  }

  static inline std::unique_ptr<testing::RunningSite> running_;
  static inline std::vector<model::Article> ada_articles_;
};

TEST_F(FlagsTest, AReaderFlagsFromTheArticlePageOnceAndCanWithdraw) {
  const model::Article& a = ada_articles_.at(0);
  Visitor reader = signed_up("flagger@example.org");
  auto page = reader.get(path_of(a));
  ASSERT_EQ(page.status, 200);
  // A plain form: every reason a radio button with its own label, in a fieldset with a legend.
  EXPECT_THAT(page.body, HasSubstr("action=\"/articles/" + std::to_string(a.id) + "/flag\""));
  EXPECT_THAT(page.body, HasSubstr("<legend>What is wrong with it?</legend>"));
  for (const std::string reason : {"spam", "ai", "not_article", "broken_link"}) {
    EXPECT_THAT(page.body, HasSubstr("id=\"flag-" + reason + "\" name=\"reason\" value=\"" + reason + "\""));
    EXPECT_THAT(page.body, HasSubstr("<label for=\"flag-" + reason + "\">"));
  }
  const std::string token = token_of(reader);
  const std::string target = "/articles/" + std::to_string(a.id) + "/flag";

  auto flagged = reader.post(target, {{"csrf", token}, {"reason", "ai"}, {"next", path_of(a)}});
  ASSERT_EQ(flagged.status, 303) << flagged.body;
  EXPECT_EQ(flagged.header("Location").value_or(""), path_of(a) + "?flag=flagged");
  EXPECT_EQ(flags_on(a.id), 1);
  auto after = reader.get(path_of(a) + "?flag=flagged");
  EXPECT_THAT(after.body, HasSubstr("your flag is recorded"));
  EXPECT_THAT(after.body, HasSubstr("You flagged this article as AI-generated."));
  EXPECT_THAT(after.body, HasSubstr("action=\"/articles/" + std::to_string(a.id) + "/unflag\""));

  // The same reader again, with another reason: nothing changes, and the page says so.
  auto again = reader.post(target, {{"csrf", token}, {"reason", "spam"}, {"next", path_of(a)}});
  ASSERT_EQ(again.status, 303);
  EXPECT_EQ(again.header("Location").value_or(""), path_of(a) + "?flag=already");
  EXPECT_EQ(flags_on(a.id), 1);
  EXPECT_THAT(reader.get(path_of(a) + "?flag=already").body, HasSubstr("already flagged this article"));
  EXPECT_EQ(store()
                .flag_state(a.id, store().reader_by_email("flagger@example.org").value()->id)
                .value()
                .reader_flag,
            storage::FlagReason::kAiGenerated);

  // An unknown reason is refused.
  EXPECT_EQ(reader
                .post("/articles/" + std::to_string(ada_articles_.at(1).id) + "/flag",
                      {{"csrf", token}, {"reason", "boring"}})
                .status,
            400);

  auto withdrawn =
      reader.post("/articles/" + std::to_string(a.id) + "/unflag", {{"csrf", token}, {"next", path_of(a)}});
  ASSERT_EQ(withdrawn.status, 303);
  EXPECT_EQ(flags_on(a.id), 0);
  EXPECT_THAT(reader.get(path_of(a) + "?flag=withdrawn").body, HasSubstr("Your flag is withdrawn."));
}

TEST_F(FlagsTest, AVisitorIsSentToLogInAndNothingIsWritten) {
  const model::Article& a = ada_articles_.at(2);
  Visitor visitor(port());
  auto page = visitor.get(path_of(a));
  ASSERT_EQ(page.status, 200);
  EXPECT_THAT(page.body, HasSubstr("Log in to flag this article"));
  EXPECT_THAT(page.body, Not(HasSubstr("/flag\"")));
  // Without a token, and with the pre-login token a visitor's form carries: to log in, nothing written.
  const std::string target = "/articles/" + std::to_string(a.id) + "/flag";
  auto bare = visitor.post(target, {{"reason", "spam"}, {"next", path_of(a)}});
  EXPECT_EQ(bare.status, 303);
  EXPECT_THAT(bare.header("Location").value_or(""), HasSubstr("/login?next="));
  const std::string anon_token = Visitor::token_in(visitor.get("/login").body);
  ASSERT_FALSE(anon_token.empty());
  auto with_token = visitor.post(target, {{"csrf", anon_token}, {"reason", "spam"}, {"next", path_of(a)}});
  EXPECT_EQ(with_token.status, 303);
  EXPECT_THAT(with_token.header("Location").value_or(""), HasSubstr("/login?next="));
  EXPECT_EQ(flags_on(a.id), 0);
}

TEST_F(FlagsTest, AReadersFlagWithoutTheSessionsTokenIsRefused) {
  const model::Article& a = ada_articles_.at(3);
  Visitor reader = signed_up("csrf-flagger@example.org");
  Visitor other = signed_up("csrf-other@example.org");
  const std::string target = "/articles/" + std::to_string(a.id) + "/flag";
  EXPECT_EQ(reader.post(target, {{"reason", "spam"}}).status, 403);
  EXPECT_EQ(reader.post(target, {{"csrf", "AAAAforged"}, {"reason", "spam"}}).status, 403);
  EXPECT_EQ(reader.post(target, {{"csrf", token_of(other)}, {"reason", "spam"}}).status, 403);
  EXPECT_EQ(flags_on(a.id), 0);
}

TEST_F(FlagsTest, ThreeFlagsHoldAnArticleUntilAnOperatorKeepsIt) {
  const model::Article a = store().article(running_->ids().recent_article).value()->article;
  Visitor anonymous(port());
  const auto shown_in_public = [&] {
    const bool page = anonymous.get(path_of(a)).status == 200;
    const bool newest = anonymous.get("/newest").body.find(path_of(a)) != std::string::npos;
    const bool search = anonymous.get("/search?q=zeppelin").body.find(path_of(a)) != std::string::npos;
    const bool feed = anonymous.get("/feed.atom").body.find("Hindenburg") != std::string::npos;
    EXPECT_EQ(page, newest);
    EXPECT_EQ(page, search);
    EXPECT_EQ(page, feed);
    return page && newest && search && feed;
  };
  ASSERT_TRUE(shown_in_public());

  std::vector<Visitor> readers;
  for (int i = 0; i < 3; ++i) readers.push_back(signed_up("holder" + std::to_string(i) + "@example.org"));
  const std::string target = "/articles/" + std::to_string(a.id) + "/flag";
  for (int i = 0; i < 3; ++i) {
    ASSERT_EQ(
        readers[i].post(target, {{"csrf", token_of(readers[i])}, {"reason", i == 0 ? "spam" : "ai"}}).status,
        303);
    if (i < 2) {
      EXPECT_TRUE(shown_in_public()) << "held after " << i + 1 << " flags";
    }
  }
  EXPECT_FALSE(shown_in_public());
  // A reader who flagged it still sees it, with why it is hidden; another reader does not.
  auto own = readers[0].get(path_of(a));
  ASSERT_EQ(own.status, 200);
  EXPECT_THAT(own.body, HasSubstr("hidden from the site while the operators review"));
  Visitor bystander = signed_up("bystander@example.org");
  EXPECT_EQ(bystander.get(path_of(a)).status, 404);

  // The operator sees it held, with the counts by reason, and keeps it.
  Visitor op = signed_up("flags-operator@example.org", true);
  EXPECT_EQ(op.get(path_of(a)).status, 200);
  auto list = op.get("/admin/flags?show=held");
  ASSERT_EQ(list.status, 200);
  EXPECT_THAT(list.body, HasSubstr("Hindenburg"));
  EXPECT_THAT(list.body, HasSubstr("spam 1, AI-generated 2"));
  EXPECT_THAT(list.body, HasSubstr("held: hidden until you decide"));
  EXPECT_EQ(op.get("/admin/flags?show=bogus").status, 400);
  auto kept = op.post("/admin/flags/" + std::to_string(a.id) + "/decide",
                      {{"csrf", token_of(op)}, {"decision", "keep"}});
  ASSERT_EQ(kept.status, 303) << kept.body;
  EXPECT_TRUE(shown_in_public());
  auto entry = last_audit();
  EXPECT_EQ(entry.action, "flags.keep");
  EXPECT_EQ(entry.actor, "flags-operator@example.org");
  EXPECT_THAT(entry.target, HasSubstr("article " + std::to_string(a.id)));
  EXPECT_THAT(entry.detail, HasSubstr("flags: 3; was: held"));
  EXPECT_THAT(op.get(std::string(kept.header("Location").value_or(""))).body,
              HasSubstr("kept: it shows on the site"));

  // A fourth flag after the decision is recorded and hides nothing.
  ASSERT_EQ(bystander.post(target, {{"csrf", token_of(bystander)}, {"reason", "spam"}}).status, 303);
  EXPECT_EQ(flags_on(a.id), 4);
  EXPECT_TRUE(shown_in_public());

  // Junk from the same page: the operator's override, hidden again, audited.
  ASSERT_EQ(op.post("/admin/flags/" + std::to_string(a.id) + "/decide",
                    {{"csrf", token_of(op)}, {"decision", "junk"}})
                .status,
            303);
  EXPECT_FALSE(shown_in_public());
  EXPECT_EQ(store().article(a.id).value()->article.keep_override, std::optional<bool>(false));
  EXPECT_EQ(last_audit().action, "flags.junk");
  EXPECT_EQ(op.post("/admin/flags/" + std::to_string(a.id) + "/decide",
                    {{"csrf", token_of(op)}, {"decision", "maybe"}})
                .status,
            400);
}

TEST_F(FlagsTest, AReaderFlagsAtMostFlagsPerDayArticles) {
  Visitor reader = signed_up("busy-flagger@example.org");
  const std::string token = token_of(reader);
  for (int i = 0; i < 4; ++i) {
    const auto& a = ada_articles_.at(5 + i);
    auto res = reader.post("/articles/" + std::to_string(a.id) + "/flag",
                           {{"csrf", token}, {"reason", "spam"}, {"next", path_of(a)}});
    EXPECT_EQ(res.header("Location").value_or(""), path_of(a) + "?flag=flagged") << i;
  }
  const auto& fifth = ada_articles_.at(9);
  auto over = reader.post("/articles/" + std::to_string(fifth.id) + "/flag",
                          {{"csrf", token}, {"reason", "spam"}, {"next", path_of(fifth)}});
  EXPECT_EQ(over.header("Location").value_or(""), path_of(fifth) + "?flag=limit");
  EXPECT_EQ(flags_on(fifth.id), 0);
  EXPECT_THAT(reader.get(path_of(fifth) + "?flag=limit").body,
              HasSubstr("as many articles as one reader may in a day"));
}

}  // namespace
}  // namespace longread::ui
