// /metrics end to end: the real `longread serve` crawls a blog from a fixture server on 127.0.0.1 while a
// scraper reads its metrics, on the site with a bearer token and on the separate metrics.listen address.
// The text is read with Debian's python3-prometheus-client parser (parse_metrics.py), so what passes is
// what Prometheus itself would accept; the counters are checked to move with the crawl and the requests.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <thread>

#include "fixture_server/fixture_server.h"
#include "testing/ports.h"
#include "testing/serve_process.h"
#include "testing/test_dir.h"
#include "web/testing/client.h"

namespace fs = std::filesystem;
using longread::web::testing::http_get;

namespace {

bool prometheus_client_available() {
  return std::system("/usr/bin/python3 -c 'import prometheus_client' >/dev/null 2>&1") == 0;
}

// The samples of `text` as {"name{labels}": value}, through the Prometheus parser; null if it rejects them.
nlohmann::json parse(const fs::path& dir, const std::string& text) {
  const fs::path input = dir / "scrape.txt";
  std::ofstream(input, std::ios::binary) << text;
  const std::string command = "/usr/bin/python3 " LONGREAD_SOURCE_DIR
                              "/tests/integration/parse_metrics.py < " +
                              input.string() + " 2>&1";
  std::string out;
  if (FILE* pipe = popen(command.c_str(), "r")) {
    char buffer[4096];
    while (const auto n = fread(buffer, 1, sizeof buffer, pipe)) out.append(buffer, n);
    if (pclose(pipe) != 0) {
      ADD_FAILURE() << "the Prometheus parser rejected the metrics: " << out << "\n" << text;
      return nullptr;
    }
  }
  return nlohmann::json::parse(out, nullptr, false);
}

double sample(const nlohmann::json& samples, const std::string& key) {
  return samples.is_object() && samples.contains(key) ? samples[key].get<double>() : -1;
}

bool eventually(const std::function<bool()>& done) {
  for (const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(60);;) {
    if (done()) return true;
    if (std::chrono::steady_clock::now() >= end) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
}

// A paragraph of ordinary English, different for each n, so each article passes the length and language
// rules.
std::string paragraph(int n) {
  std::string text;
  for (int i = 0; i < 12; ++i) {
    text += "The queue in chapter " + std::to_string(n * 12 + i) +
            " keeps its head and tail on separate cache lines, so the producer and the consumer do not "
            "fight over the same memory while they work. ";
  }
  return text;
}

class MetricsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!prometheus_client_available()) GTEST_SKIP() << "skipped: no python3-prometheus-client";
    dir_ = longread::testing::fresh_test_dir("longread-metrics");
    fs::create_directories(dir_ / "www");
    std::string items;
    for (int n = 1; n <= 3; ++n) {
      items += "<item><title>Queues, part " + std::to_string(n) + "</title><link>https://queues.example/" +
               std::to_string(n) + "</link><guid>q-" + std::to_string(n) + "</guid><pubDate>Mon, 2" +
               std::to_string(n) + " Nov 2026 10:00:00 GMT</pubDate><description><![CDATA[<p>" +
               paragraph(n) + "</p><p>" + paragraph(n + 10) + "</p>]]></description></item>";
    }
    std::ofstream(dir_ / "www/feed.xml")
        << "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>Queues</title>"
           "<link>https://queues.example/</link>"
        << items << "</channel></rss>";
    auto server = longread::testing::FixtureServer::start(dir_ / "www");
    ASSERT_TRUE(server) << server.error().message;
    feeds_.emplace(std::move(*server));
    std::ofstream(dir_ / "blogs.opml")
        << "<?xml version=\"1.0\"?><opml version=\"2.0\"><head><title>t</title></head><body>"
           "<outline text=\"programming\"><outline type=\"rss\" text=\"Queues\" xmlUrl=\""
        << feeds_->url("/feed.xml") << "\"/></outline></body></opml>";
    port_ = longread::testing::unused_loopback_port();
    metrics_port_ = longread::testing::unused_loopback_port();
    ASSERT_NE(port_, 0);
    ASSERT_NE(metrics_port_, 0);
  }
  void TearDown() override {
    if (serve_ && HasFailure()) std::cerr << "--- serve output ---\n" << serve_->log() << "---\n";
    serve_.reset();
    feeds_.reset();
    if (!dir_.empty()) fs::remove_all(dir_);
  }

  std::string scrape(const longread::web::Fields& headers = {{"Authorization", "Bearer s3cret-token"}}) {
    auto res = http_get(static_cast<std::uint16_t>(port_), "/metrics", headers);
    if (!res || res->status != 200) return {};
    return res->body;
  }

  fs::path dir_;
  std::optional<longread::testing::FixtureServer> feeds_;
  std::optional<longread::testing::ServeProcess> serve_;
  int port_ = 0;
  int metrics_port_ = 0;
};

TEST_F(MetricsTest, CountersMoveWithTheCrawlAndTheRequestsAndPrometheusParsesThem) {
  serve_.emplace(dir_, port_);
  ASSERT_TRUE(serve_->start({{"LONGREAD_DEFAULT_BLOG_LIST", (dir_ / "blogs.opml").string()},
                             {"LONGREAD_SITE_CRAWL_IN_BACKGROUND", "true"},
                             {"LONGREAD_FETCH_ALLOW_PRIVATE", "true"},
                             {"LONGREAD_METRICS_TOKEN", "s3cret-token"},
                             {"LONGREAD_METRICS_LISTEN", "127.0.0.1:" + std::to_string(metrics_port_)}}))
      << serve_->log();

  // The crawl in the background polls the one blog and stores its three articles.
  nlohmann::json samples;
  ASSERT_TRUE(eventually([&] {
    samples = parse(dir_, scrape());
    return sample(samples, "longread_crawl_polls_total{result=fetched}") >= 1 &&
           sample(samples, "longread_articles_visible{}") >= 3;
  })) << samples.dump(1);
  EXPECT_EQ(sample(samples, "longread_crawl_articles_total{change=new}"), 3);
  EXPECT_EQ(sample(samples, "longread_crawl_polls_total{result=failed}"), 0);
  EXPECT_GE(sample(samples, "longread_fetch_duration_seconds_count{}"), 1);
  EXPECT_EQ(sample(samples, "longread_blogs{}"), 1);
  EXPECT_EQ(sample(samples, "longread_blogs_due{}"), 0) << "just polled: not due again yet";
  EXPECT_EQ(sample(samples, "longread_articles_junk{}"), 0);
  EXPECT_EQ(sample(samples, "longread_articles_held{}"), 0);
  EXPECT_EQ(sample(samples, "longread_readers{}"), 0);
  EXPECT_EQ(sample(samples, "longread_newsletter_subscribers{}"), 0);
  EXPECT_EQ(sample(samples, "longread_mail_outbox_queued{}"), 0);
  EXPECT_EQ(sample(samples, "longread_store_up{}"), 1);

  // Requests are counted by route pattern and status; an invented path is "(none)", never itself.
  const double front_before = sample(samples, "longread_http_requests_total{route=/,status=200}");
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(http_get(static_cast<std::uint16_t>(port_), "/").has_value());
  ASSERT_TRUE(http_get(static_cast<std::uint16_t>(port_), "/no/such/page-12345").has_value());
  // The server counts a response after writing it, so the client can read it before it is counted.
  ASSERT_TRUE(eventually([&] {
    samples = parse(dir_, scrape());
    return sample(samples, "longread_http_requests_total{route=(none),status=404}") >= 1 &&
           sample(samples, "longread_http_requests_total{route=/,status=200}") >=
               std::max(front_before, 0.0) + 3;
  })) << samples.dump(1);
  EXPECT_EQ(sample(samples, "longread_http_requests_total{route=/,status=200}"),
            std::max(front_before, 0.0) + 3);
  EXPECT_GE(sample(samples, "longread_http_requests_total{route=(none),status=404}"), 1);
  EXPECT_EQ(samples.dump().find("page-12345"), std::string::npos);
  EXPECT_GE(sample(samples, "longread_http_request_duration_seconds_count{route=/}"), 3);

  // The separate listener serves the same metrics without a token, and nothing else.
  auto direct = http_get(static_cast<std::uint16_t>(metrics_port_), "/metrics");
  ASSERT_TRUE(direct.has_value());
  EXPECT_EQ(direct->status, 200);
  EXPECT_EQ(sample(parse(dir_, direct->body), "longread_crawl_articles_total{change=new}"), 3);
  auto other = http_get(static_cast<std::uint16_t>(metrics_port_), "/");
  ASSERT_TRUE(other.has_value());
  EXPECT_EQ(other->status, 404);

  EXPECT_EQ(serve_->stop(), 0);
}

// On the site, /metrics answers only the token holder (401 with a Bearer challenge otherwise, never a
// cached copy), and without a token configured it is not there at all.
TEST_F(MetricsTest, TheSiteServesMetricsOnlyWithTheConfiguredToken) {
  serve_.emplace(dir_, port_);
  ASSERT_TRUE(serve_->start({{"LONGREAD_METRICS_TOKEN", "s3cret-token"}})) << serve_->log();
  ASSERT_FALSE(scrape().empty());
  for (const longread::web::Fields& headers :
       {longread::web::Fields{}, longread::web::Fields{{"Authorization", "Bearer wrong"}},
        longread::web::Fields{{"Authorization", "Bearer s3cret-token-and-more"}},
        longread::web::Fields{{"Authorization", "Basic czNjcmV0LXRva2Vu"}},
        longread::web::Fields{{"Authorization", "Bearer "}}}) {
    auto res = http_get(static_cast<std::uint16_t>(port_), "/metrics", headers);
    ASSERT_TRUE(res.has_value());
    EXPECT_EQ(res->status, 401) << (headers.empty() ? "no header" : headers[0].second);
    EXPECT_EQ(res->body.find("longread_"), std::string::npos);
  }
  EXPECT_EQ(serve_->stop(), 0);

  longread::testing::ServeProcess plain(dir_, port_);
  ASSERT_TRUE(plain.start({})) << plain.log();
  auto res = http_get(static_cast<std::uint16_t>(port_), "/metrics", {{"Authorization", "Bearer "}});
  ASSERT_TRUE(res.has_value());
  EXPECT_EQ(res->status, 404);
  EXPECT_EQ(plain.stop(), 0);
}

}  // namespace
