// Blog suggestions with the real `longread serve`: a fixture HTTP server on 127.0.0.1 stands for the blog
// (LONGREAD_FETCH_ALLOW_NETWORKS allows exactly that address), the database is a real file. (1) A suggestion
// that an earlier serve claimed and never finished (killed mid-discovery) is discovered by the next serve
// on its own, without a request; (2) a reader's suggestion over HTTP is discovered in the background while
// the request has long been answered, and one for a private address ends refused. Outcomes are polled for
// with generous deadlines, never timed.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <thread>

#include "fixture_server/fixture_server.h"
#include "storage/store.h"
#include "testing/ports.h"
#include "testing/serve_process.h"
#include "testing/test_dir.h"
#include "ui/testing/visitor.h"

namespace {

namespace fs = std::filesystem;
using longread::storage::SuggestionStatus;
using ::testing::HasSubstr;

constexpr auto kDeadline = std::chrono::seconds(90);

bool eventually(const std::function<bool()>& done) {
  for (const auto end = std::chrono::steady_clock::now() + kDeadline;;) {
    if (done()) return true;
    if (std::chrono::steady_clock::now() >= end) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
}

class ServeSuggestTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = longread::testing::fresh_test_dir("longread-serve-suggest");
    fs::create_directories(dir_ / "www" / "river");
    std::ofstream(dir_ / "www" / "river" / "index.html")
        << "<!DOCTYPE html><html><head><title>River</title><link rel=\"alternate\" "
           "type=\"application/rss+xml\" href=\"feed.xml\"></head><body></body></html>";
    std::ofstream(dir_ / "www" / "river" / "feed.xml")
        << "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>River Notes</title>"
           "<item><title>The old mill</title><guid>a</guid><description>Notes.</description></item>"
           "</channel></rss>";
    auto server = longread::testing::FixtureServer::start(dir_ / "www");
    ASSERT_TRUE(server) << server.error().message;
    server_.emplace(std::move(*server));
    port_ = longread::testing::unused_loopback_port();
  }
  void TearDown() override {
    server_.reset();
    fs::remove_all(dir_);
  }

  // The suggestion as the database has it now (read with a store of the test's own, as another process).
  std::optional<longread::storage::Suggestion> stored(std::int64_t id) {
    auto store = longread::storage::open_sqlite_store((dir_ / "longread.db").string());
    if (!store) return std::nullopt;
    auto s = (*store)->suggestion(id);
    return s ? *s : std::nullopt;
  }

  std::map<std::string, std::string> environment() const {
    return {{"LONGREAD_FETCH_ALLOW_NETWORKS", "127.0.0.1/32"}, {"LONGREAD_SITE_SUGGESTIONS_PER_DAY", "5"}};
  }

  fs::path dir_;
  std::optional<longread::testing::FixtureServer> server_;
  int port_ = 0;
};

TEST_F(ServeSuggestTest, ASuggestionAKilledServeLeftPendingIsDiscoveredByTheNextServe) {
  std::int64_t id = 0;
  {
    auto store = longread::storage::open_sqlite_store((dir_ / "longread.db").string());
    ASSERT_TRUE(store) << store.error().message;
    auto s =
        (*store)->add_suggestion({.url = server_->url("/river/index.html"), .now = longread::now_seconds()});
    ASSERT_TRUE(s) << s.error().message;
    id = s->id;
    // The earlier serve's claim, whose lease has run out: it was killed before it saved anything.
    const auto now = longread::now_seconds();
    ASSERT_EQ((*store)->claim_suggestions(now, now - std::chrono::seconds(1), 10, 3)->size(), 1u);
  }
  longread::testing::ServeProcess serve(dir_, port_);
  ASSERT_TRUE(serve.start(environment())) << serve.log();
  // Nothing asks for it: the worker's first pass takes it over.
  EXPECT_TRUE(eventually([&] {
    auto s = stored(id);
    return s && s->status != SuggestionStatus::kPending;
  })) << serve.log();
  auto s = stored(id);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->status, SuggestionStatus::kFound) << s->error;
  EXPECT_EQ(s->feed_url, server_->url("/river/feed.xml"));
  EXPECT_EQ(s->title, "River Notes");
  EXPECT_EQ(s->attempts, 2);
  EXPECT_EQ(serve.stop(), 0);
}

// SIGTERM while a discovery waits on a slow blog: serve stops without waiting for it, the suggestion is
// handed back (pending, no lease, the attempt not counted), and the next serve discovers it at once.
TEST_F(ServeSuggestTest, ASuggestionCutShortBySigtermIsDiscoveredByTheNextServe) {
  std::int64_t id = 0;
  {
    auto store = longread::storage::open_sqlite_store((dir_ / "longread.db").string());
    ASSERT_TRUE(store) << store.error().message;
    auto s = (*store)->add_suggestion(
        {.url = server_->url("/slow/8/river/index.html"), .now = longread::now_seconds()});
    ASSERT_TRUE(s) << s.error().message;
    id = s->id;
  }
  {
    longread::testing::ServeProcess serve(dir_, port_);
    ASSERT_TRUE(serve.start(environment())) << serve.log();
    ASSERT_TRUE(eventually([&] {
      auto s = stored(id);
      return s && s->attempts == 1;
    })) << serve.log();
    EXPECT_EQ(serve.stop(), 0);
  }
  auto handed_back = stored(id);
  ASSERT_TRUE(handed_back);
  if (handed_back->status == SuggestionStatus::kPending) {
    EXPECT_EQ(handed_back->attempts, 0);
  } else {
    // The slow answer came before the stop (a loaded machine): then it was simply found.
    EXPECT_EQ(handed_back->status, SuggestionStatus::kFound);
  }
  longread::testing::ServeProcess again(dir_, port_);
  ASSERT_TRUE(again.start(environment())) << again.log();
  EXPECT_TRUE(eventually([&] {
    auto s = stored(id);
    return s && s->status == SuggestionStatus::kFound;
  })) << again.log();
  EXPECT_EQ(again.stop(), 0);
}

TEST_F(ServeSuggestTest, AReadersSuggestionIsDiscoveredInTheBackgroundAndAPrivateOneIsRefused) {
  longread::testing::ServeProcess serve(dir_, port_);
  ASSERT_TRUE(serve.start(environment())) << serve.log();
  longread::ui::testing::Visitor reader(static_cast<std::uint16_t>(port_));
  auto form = reader.get("/signup");
  ASSERT_EQ(reader
                .post("/signup", {{"csrf", longread::ui::testing::Visitor::token_in(form.body)},
                                  {"email", "reader@example.org"},
                                  {"password", "a long passphrase"}})
                .status,
            303);
  const std::string token = longread::ui::testing::Visitor::token_in(reader.get("/suggest").body);
  ASSERT_FALSE(token.empty());
  for (const std::string& url : {server_->url("/river/index.html"), std::string("http://10.1.2.3/blog/")}) {
    auto res = reader.post("/suggest", {{"csrf", token}, {"url", url}});
    ASSERT_EQ(res.status, 303) << res.body;
  }
  // The account page shows both as discovery leaves them.
  EXPECT_TRUE(eventually([&] {
    const auto page = reader.get("/account").body;
    return page.find("Waiting for an operator") != std::string::npos &&
           page.find("10.1.2.3 is a private address") != std::string::npos;
  })) << reader.get("/account").body
      << serve.log();
  EXPECT_EQ(serve.stop(), 0);
  auto store = longread::storage::open_sqlite_store((dir_ / "longread.db").string());
  ASSERT_TRUE(store);
  EXPECT_EQ((*store)->blog_count().value(), 0);  // nothing is followed before an operator approves
}

}  // namespace
