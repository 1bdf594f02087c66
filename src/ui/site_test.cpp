// The site over real sockets: a server on 127.0.0.1:0 in front of a real SQLite store in a temp dir,
// filled with the fixture blogs through Store::upsert_blog + save_crawl.
#include "ui/site.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <thread>

#include "ui/testing/fixtures.h"
#include "web/gzip.h"
#include "web/testing/client.h"

namespace longread::ui {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using web::testing::http_get;

class SiteTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = std::filesystem::temp_directory_path() / ("longread-site-test-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    auto store = storage::open_sqlite_store((dir_ / "site.db").string());
    ASSERT_TRUE(store.has_value()) << store.error().message;
    store_ = std::move(*store);
    auto ids = testing::seed_fixtures(*store_, now_seconds());
    ASSERT_TRUE(ids.has_value()) << ids.error().message;
    ids_ = *ids;
    SiteOptions options;
    options.listen = "127.0.0.1:0";
    options.base_url = "https://longread.test";
    options.threads = 2;
    options.access_log = false;
    site_ = std::make_unique<Site>(*store_, options);
    auto server = make_server(*site_, false);
    ASSERT_TRUE(server.has_value()) << server.error().message;
    server_ = std::move(*server);
    port_ = server_->port();
    runner_ = std::thread([] { server_->run(); });
  }

  static void TearDownTestSuite() {
    if (server_) server_->stop();
    if (runner_.joinable()) runner_.join();
    server_.reset();
    site_.reset();
    store_.reset();
    std::filesystem::remove_all(dir_);
  }

  static web::testing::ClientResponse get(const std::string& target, const web::Fields& headers = {}) {
    auto res = http_get(port_, target, headers);
    EXPECT_TRUE(res.has_value()) << target << ": " << (res ? "" : res.error().message);
    return res ? *res : web::testing::ClientResponse{};
  }

  static std::string article_url(std::int64_t blog, std::int64_t article) {
    return "/blog/" + std::to_string(blog) + "/read/" + std::to_string(article);
  }

  static inline std::filesystem::path dir_;
  static inline std::unique_ptr<storage::Store> store_;
  static inline testing::FixtureIds ids_;
  static inline std::unique_ptr<Site> site_;
  static inline std::unique_ptr<web::Server> server_;
  static inline std::uint16_t port_ = 0;
  static inline std::thread runner_;
};

TEST_F(SiteTest, Healthz) {
  auto res = get("/healthz");
  EXPECT_EQ(res.status, 200);
  EXPECT_EQ(res.body, "ok\n");
}

TEST_F(SiteTest, FrontPageListsNewestArticles) {
  auto res = get("/");
  ASSERT_EQ(res.status, 200);
  EXPECT_THAT(res.header("content-type").value_or(""), HasSubstr("text/html"));
  const std::string& body = res.body;
  EXPECT_THAT(body, HasSubstr("<!doctype html>"));
  EXPECT_THAT(body, HasSubstr("<html lang=\"en\">"));
  EXPECT_THAT(body, HasSubstr("<link rel=\"canonical\" href=\"https://longread.test/\">"));
  EXPECT_THAT(body, HasSubstr("The last voyage of the Hindenburg&#39;s sister ship"));
  EXPECT_THAT(body, HasSubstr(">Field Notes on History</a> in <a href=\"/category/history\">History</a>"));
  EXPECT_THAT(body, HasSubstr("5 minutes ago"));
  EXPECT_THAT(body, HasSubstr("0 votes"));
  EXPECT_THAT(body, HasSubstr("href=\"/?page=2\""));
  EXPECT_THAT(body, Not(HasSubstr("href=\"/top\"")));  // no votes yet: no Top tab
}

}  // namespace
}  // namespace longread::ui
