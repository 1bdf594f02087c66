// Blog suggestions over real HTTP: the site on an ephemeral port over a real SQLite store, the discovery
// worker serve runs (pipeline::SuggestionWorker) woken by the site, and a fixture HTTP server on 127.0.0.1
// standing for the blogs (the outbound policy allows exactly that address, as the crawl tests do). Covers
// the reader's form (log-in, CSRF, bounds, the daily limit, already-followed blogs), a private address
// refused by discovery, and the operator's review: approve with a category, reject with a reason, and "Add
// a blog", each audited.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <regex>
#include <string>
#include <thread>

#include "fetch/http_client.h"
#include "fixture_server/fixture_server.h"
#include "pipeline/article_builder.h"
#include "pipeline/suggestions.h"
#include "testing/test_dir.h"
#include "ui/site.h"
#include "ui/testing/running_site.h"
#include "ui/testing/visitor.h"

namespace longread::ui {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using testing::Visitor;
namespace fs = std::filesystem;

constexpr int kPerDay = 2;

std::string long_post_html() {
  std::string p =
      "<p>Every winter the river below the old mill freezes from the banks inward, and the village gathers "
      "to "
      "watch the last channel of open water close. My grandmother kept a notebook of the dates for sixty "
      "years, and reading it now I can see the winters getting shorter, one careful line at a time.</p>";
  std::string html;
  for (int i = 0; i < 6; ++i) html += p;
  return html;
}

class SuggestTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    www_ = longread::testing::fresh_test_dir("longread_suggest_www");
    fs::create_directories(www_);
    write("river/index.html",
          "<!DOCTYPE html><html><head><title>River</title><link rel=\"alternate\" "
          "type=\"application/rss+xml\" href=\"feed.xml\"></head><body></body></html>");
    write("river/feed.xml",
          "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>River Notes</title>"
          "<link>http://river.example/</link>"
          "<item><title>The old mill</title><guid>a</guid><pubDate>Mon, 01 Apr 2024 08:30:00 GMT</pubDate>"
          "<description><![CDATA[" +
              long_post_html() +
              "]]></description></item>"
              "<item><title>Back soon</title><guid>b</guid><pubDate>Mon, 06 May 2024 10:00:00 GMT</pubDate>"
              "<description>Back next week.</description></item></channel></rss>");
    write("hill/feed.xml",
          "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>Hill Diary</title>"
          "<link>http://hill.example/</link><item><title>Up the hill</title><guid>h</guid>"
          "<description><![CDATA[" +
              long_post_html() + "]]></description></item></channel></rss>");
    auto server = longread::testing::FixtureServer::start(www_);
    ASSERT_TRUE(server) << server.error().message;
    server_ = std::make_unique<longread::testing::FixtureServer>(std::move(*server));

    SiteOptions options = testing::test_site_options();
    options.suggestions_per_day = kPerDay;
    options.suggestion_added = [] {
      if (auto* w = worker_.load()) w->wake();
    };
    auto running = testing::RunningSite::start("suggest-test", std::move(options));
    ASSERT_TRUE(running) << running.error().message;
    running_ = std::move(*running);
    fetch::ClientOptions client;
    client.address_policy.allow_networks.push_back(*IpNetwork::parse("127.0.0.1/32"));
    owned_worker_ = std::make_unique<pipeline::SuggestionWorker>(
        running_->store(), running_->store(), client, pipeline::CurationContext{},
        pipeline::SuggestionWorkerOptions{.idle_check = std::chrono::seconds(1)});
    owned_worker_->start();
    worker_.store(owned_worker_.get());
  }
  static void TearDownTestSuite() {
    worker_.store(nullptr);
    owned_worker_.reset();
    running_.reset();
    server_.reset();
    fs::remove_all(www_);
  }
  static void write(const std::string& path, const std::string& text) {
    fs::create_directories((www_ / path).parent_path());
    std::ofstream(www_ / path, std::ios::binary) << text;
  }

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
  static std::int64_t reader_id(const std::string& email) {
    return store().reader_by_email(email).value()->id;
  }
  // The reader's newest suggestion once discovery has left `pending` (the worker runs on its own thread).
  static storage::Suggestion discovered(std::int64_t reader) {
    for (int i = 0; i < 400; ++i) {
      auto mine = store().reader_suggestions(reader, 1);
      if (mine && !mine->empty() && mine->front().status != storage::SuggestionStatus::kPending) {
        return mine->front();
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(25));
    }
    ADD_FAILURE() << "discovery did not finish";
    return {};
  }
  static storage::AuditEntry last_audit() {
    auto page = store().audit_entries(1, 0);
    EXPECT_TRUE(page && !page->entries.empty());
    return page && !page->entries.empty() ? page->entries[0] : storage::AuditEntry{};
  }

  static inline fs::path www_;
  static inline std::unique_ptr<longread::testing::FixtureServer> server_;
  static inline std::unique_ptr<testing::RunningSite> running_;
  static inline std::unique_ptr<pipeline::SuggestionWorker> owned_worker_;
  static inline std::atomic<pipeline::SuggestionWorker*> worker_{nullptr};
};

TEST_F(SuggestTest, AVisitorIsSentToLogInAndAFormWithoutTheTokenIsRefused) {
  Visitor anonymous(port());
  auto form = anonymous.get("/suggest");
  EXPECT_EQ(form.status, 303);
  EXPECT_THAT(form.header("Location").value_or(""), HasSubstr("/login?next=%2Fsuggest"));
  auto posted = anonymous.post("/suggest", {{"url", server_->url("/river/")}});
  EXPECT_TRUE(posted.status == 303 || posted.status == 403) << posted.status;

  Visitor reader = signed_up("csrf-suggester@example.org");
  EXPECT_EQ(reader.post("/suggest", {{"url", server_->url("/river/")}}).status, 403);
  EXPECT_EQ(reader.post("/suggest", {{"csrf", "AAAAforged"}, {"url", server_->url("/river/")}}).status, 403);
  EXPECT_TRUE(store().reader_suggestions(reader_id("csrf-suggester@example.org"), 10).value().empty());

  // The form itself: the inclusion guidance, reached from the account page and /blogs.
  auto page = reader.get("/suggest");
  ASSERT_EQ(page.status, 200);
  EXPECT_THAT(page.body, HasSubstr("writing by its author"));
  EXPECT_THAT(page.body, HasSubstr("in the last 12 months"));
  EXPECT_THAT(page.header("Cache-Control").value_or(""), HasSubstr("no-store"));
  EXPECT_THAT(reader.get("/account").body, HasSubstr("href=\"/suggest\""));
  EXPECT_THAT(reader.get("/blogs").body, HasSubstr("href=\"/suggest\""));
}

TEST_F(SuggestTest, BadAddressesAndLongNotesAreRefusedAndNothingIsStored) {
  Visitor reader = signed_up("bounds@example.org");
  const std::string token = token_of(reader);
  for (const std::string bad : {"", "javascript:alert(1)", "file:///etc/passwd", "ftp://river.example/"}) {
    auto res = reader.post("/suggest", {{"csrf", token}, {"url", bad}});
    EXPECT_EQ(res.status, 400) << bad;
    EXPECT_THAT(res.body, HasSubstr("form-error"));
  }
  EXPECT_EQ(reader.post("/suggest", {{"csrf", token}, {"url", "https://x.example/" + std::string(2100, 'a')}})
                .status,
            400);
  auto long_note = reader.post(
      "/suggest", {{"csrf", token}, {"url", server_->url("/river/")}, {"note", std::string(1001, 'n')}});
  EXPECT_EQ(long_note.status, 400);
  EXPECT_THAT(long_note.body, HasSubstr("The note is too long"));
  EXPECT_TRUE(store().reader_suggestions(reader_id("bounds@example.org"), 10).value().empty());
}

TEST_F(SuggestTest, AnAlreadyFollowedBlogIsSaidAtOnce) {
  auto followed = store().blog(running_->ids().ada_blog).value().value();
  Visitor reader = signed_up("followed@example.org");
  const std::string token = token_of(reader);
  for (const std::string& url : {followed.feed_url, followed.site_url}) {
    auto res = reader.post("/suggest", {{"csrf", token}, {"url", url}});
    EXPECT_EQ(res.status, 200) << url;
    EXPECT_THAT(res.body, HasSubstr("This blog is already followed"));
    EXPECT_THAT(res.body, HasSubstr("href=\"/blog/" + std::to_string(followed.id) + "\""));
  }
  EXPECT_TRUE(store().reader_suggestions(reader_id("followed@example.org"), 10).value().empty());
}

TEST_F(SuggestTest, AReaderIsLimitedPerDayWithAMessageSayingSo) {
  Visitor reader = signed_up("limited@example.org");
  const std::string token = token_of(reader);
  for (int i = 0; i < kPerDay; ++i) {
    auto res = reader.post("/suggest",
                           {{"csrf", token}, {"url", "https://limit" + std::to_string(i) + ".example/"}});
    ASSERT_EQ(res.status, 303) << res.body;
    EXPECT_EQ(res.header("Location").value_or(""), "/account?done=suggested#suggestions");
  }
  auto over = reader.post("/suggest", {{"csrf", token}, {"url", "https://limit9.example/"}});
  EXPECT_EQ(over.status, 429);
  EXPECT_THAT(over.body, HasSubstr("You have suggested 2 blogs in the last 24 hours"));
  EXPECT_EQ(over.header("Retry-After").value_or(""), "3600");
  EXPECT_EQ(store().reader_suggestions(reader_id("limited@example.org"), 10).value().size(), 2u);
}

// The metadata address of a cloud machine: discovery's request is refused by the outbound policy before
// it is sent, and the reader sees "Refused" with the reason.
TEST_F(SuggestTest, APrivateAddressSuggestionEndsRefused) {
  Visitor reader = signed_up("private@example.org");
  auto res = reader.post("/suggest",
                         {{"csrf", token_of(reader)}, {"url", "http://169.254.169.254/latest/meta-data/"}});
  ASSERT_EQ(res.status, 303) << res.body;
  const auto s = discovered(reader_id("private@example.org"));
  EXPECT_EQ(s.status, storage::SuggestionStatus::kRefused);
  EXPECT_THAT(s.error, HasSubstr("refused: 169.254.169.254 is a private address"));
  auto account = reader.get("/account");
  EXPECT_THAT(account.body, HasSubstr("Refused"));
  EXPECT_THAT(account.body, HasSubstr("169.254.169.254 is a private address"));
  EXPECT_EQ(store().blog_by_feed_url("http://169.254.169.254/latest/meta-data/").value(), std::nullopt);
}

TEST_F(SuggestTest, AnOperatorApprovesAFoundSuggestionAndRejectsAnother) {
  Visitor reader = signed_up("suggester@example.org");
  Visitor op = signed_up("suggest-operator@example.org", true);
  const auto reader_key = reader_id("suggester@example.org");
  const std::string token = token_of(reader);
  ASSERT_EQ(
      reader
          .post("/suggest", {{"csrf", token}, {"url", server_->url("/river/index.html")}, {"note", "lovely"}})
          .status,
      303);
  const auto found = discovered(reader_key);
  ASSERT_EQ(found.status, storage::SuggestionStatus::kFound) << found.error;
  EXPECT_EQ(found.feed_url, server_->url("/river/feed.xml"));
  EXPECT_THAT(reader.get("/account").body, HasSubstr("Waiting for an operator"));

  // The operator sees what was found: title, format, the posts and their verdicts, the note.
  auto review = op.get("/admin/suggestions");
  ASSERT_EQ(review.status, 200);
  EXPECT_THAT(review.body, HasSubstr("River Notes"));
  EXPECT_THAT(review.body, HasSubstr("RSS 2.0"));
  EXPECT_THAT(review.body, HasSubstr("The old mill"));
  EXPECT_THAT(review.body, HasSubstr("too short"));
  EXPECT_THAT(review.body, HasSubstr("lovely"));
  EXPECT_THAT(review.body, HasSubstr("suggester@example.org"));
  const std::string id = std::to_string(found.id);
  const std::string op_token = token_of(op);

  auto bad =
      op.post("/admin/suggestions/" + id + "/approve", {{"csrf", op_token}, {"category", "Long Essays"}});
  EXPECT_EQ(bad.status, 400);
  EXPECT_THAT(bad.body, HasSubstr("long-essays"));
  auto approved =
      op.post("/admin/suggestions/" + id + "/approve", {{"csrf", op_token}, {"category", "essays"}});
  ASSERT_EQ(approved.status, 303) << approved.body;
  auto blog = store().blog_by_feed_url(server_->url("/river/feed.xml")).value();
  ASSERT_TRUE(blog);
  EXPECT_EQ(blog->title, "River Notes");
  EXPECT_EQ(blog->category, "essays");
  EXPECT_EQ(blog->site_url, "http://river.example/");
  EXPECT_FALSE(blog->next_due_at);  // due at once: the next crawl reads it
  auto entry = last_audit();
  EXPECT_EQ(entry.action, "suggestion.approve");
  EXPECT_EQ(entry.actor, "suggest-operator@example.org");
  EXPECT_THAT(entry.detail, HasSubstr("followed as blog " + std::to_string(blog->id)));
  EXPECT_EQ(store().suggestion(found.id).value()->blog_id, blog->id);
  EXPECT_THAT(op.get("/admin/blogs").body, HasSubstr("River Notes"));
  auto account = reader.get("/account");
  EXPECT_THAT(account.body, HasSubstr("Approved"));
  EXPECT_THAT(account.body, HasSubstr("href=\"/blog/" + std::to_string(blog->id) + "\""));
  // Twice is not twice: the second approval is told it was decided, and nothing more is audited.
  auto again =
      op.post("/admin/suggestions/" + id + "/approve", {{"csrf", op_token}, {"category", "history"}});
  EXPECT_EQ(again.status, 303);
  EXPECT_THAT(again.header("Location").value_or(""), HasSubstr("done=decided"));
  EXPECT_EQ(store().blog(blog->id).value()->category, "essays");
  EXPECT_EQ(last_audit().id, entry.id);

  // A second suggestion is rejected with a reason, which the reader sees.
  ASSERT_EQ(reader.post("/suggest", {{"csrf", token}, {"url", server_->url("/hill/feed.xml")}}).status, 303);
  const auto hill = discovered(reader_key);
  ASSERT_EQ(hill.status, storage::SuggestionStatus::kFound) << hill.error;
  EXPECT_EQ(op.post("/admin/suggestions/" + std::to_string(hill.id) + "/reject", {{"csrf", op_token}}).status,
            400);  // a reason is required
  ASSERT_EQ(op.post("/admin/suggestions/" + std::to_string(hill.id) + "/reject",
                    {{"csrf", op_token}, {"reason", "a company's blog, not a person's"}})
                .status,
            303);
  EXPECT_EQ(store().suggestion(hill.id).value()->status, storage::SuggestionStatus::kRejected);
  EXPECT_FALSE(store().blog_by_feed_url(server_->url("/hill/feed.xml")).value());
  entry = last_audit();
  EXPECT_EQ(entry.action, "suggestion.reject");
  EXPECT_THAT(entry.detail, HasSubstr("a company's blog"));
  EXPECT_THAT(reader.get("/account").body, HasSubstr("a company&#39;s blog, not a person&#39;s"));
  EXPECT_EQ(op.post("/admin/suggestions/999999/reject", {{"csrf", op_token}, {"reason", "x"}}).status, 404);
}

// "Add a blog" on /admin/blogs is an operator's suggestion: the same background discovery, approved with
// the category given when adding.
TEST_F(SuggestTest, AnOperatorAddsABlogFromTheBrowser) {
  write("lake/feed.xml",
        "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>Lake "
        "Letters</title><item><title>Ice</title>"
        "<guid>l</guid><description><![CDATA[" +
            long_post_html() + "]]></description></item></channel></rss>");
  Visitor op = signed_up("adder@example.org", true);
  const std::string token = token_of(op);
  EXPECT_THAT(op.get("/admin/blogs").body, HasSubstr("action=\"/admin/blogs/add\""));
  auto bad = op.post("/admin/blogs/add", {{"csrf", token}, {"url", "ftp://lake.example/"}});
  EXPECT_EQ(bad.status, 400);
  auto followed = store().blog(running_->ids().compiler_blog).value().value();
  auto again = op.post("/admin/blogs/add", {{"csrf", token}, {"url", followed.feed_url}});
  EXPECT_EQ(again.status, 409);
  EXPECT_THAT(again.body, HasSubstr("Already followed as blog " + std::to_string(followed.id)));

  auto added = op.post("/admin/blogs/add",
                       {{"csrf", token}, {"url", server_->url("/lake/feed.xml")}, {"category", "nature"}});
  ASSERT_EQ(added.status, 303) << added.body;
  EXPECT_EQ(last_audit().action, "suggestion.add");
  const auto s = discovered(reader_id("adder@example.org"));
  ASSERT_EQ(s.status, storage::SuggestionStatus::kFound) << s.error;
  EXPECT_TRUE(s.by_operator);
  EXPECT_EQ(s.category, "nature");
  // Approved without a category in the form: the one given when adding.
  ASSERT_EQ(op.post("/admin/suggestions/" + std::to_string(s.id) + "/approve", {{"csrf", token}}).status,
            303);
  auto blog = store().blog_by_feed_url(server_->url("/lake/feed.xml")).value();
  ASSERT_TRUE(blog);
  EXPECT_EQ(blog->category, "nature");
  EXPECT_EQ(blog->title, "Lake Letters");
}

}  // namespace
}  // namespace longread::ui
