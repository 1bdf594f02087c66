// Several crawler processes over one SQLite file (docs/operating.md, "Several crawlers"): the real binary
// against feeds served slowly by the fixture HTTP server on 127.0.0.1. Two `crawl` processes started
// together never poll one blog twice; a crawler killed with SIGKILL mid-pass holds its blogs until its
// lease lapses, and then another crawler takes them over; `crawl --loop` polls, keeps polling, and stops
// cleanly on SIGTERM.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "fixture_server/fixture_server.h"
#include "testing/test_dir.h"

namespace {
namespace fs = std::filesystem;
using namespace std::chrono_literals;

constexpr int kBlogs = 12;
const std::string kBinary = LONGREAD_BINARY_DIR "/src/app/longread";

std::string feed_xml(int blog) {
  std::string body;
  for (int w = 0; w < 220; ++w) body += "word" + std::to_string((w * 31 + blog) % 97) + " ";
  return "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>Blog " + std::to_string(blog) +
         "</title><item><title>Post of blog " + std::to_string(blog) + "</title><guid>b" +
         std::to_string(blog) +
         "</guid><pubDate>Mon, 23 May 2022 10:00:00 GMT</pubDate><description><![CDATA[<p>" + body +
         "</p>]]></description></item></channel></rss>";
}

// Starts `longread --db DB ARGS` with `env` added; its output goes to `log`.
pid_t start(const std::string& db, const std::vector<std::string>& args, const std::vector<std::string>& env,
            const fs::path& log) {
  std::vector<std::string> argv_text{kBinary, "--db", db};
  argv_text.insert(argv_text.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_text) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::vector<std::string> env_text = env;
  for (char** e = environ; *e != nullptr; ++e) env_text.emplace_back(*e);
  std::vector<char*> envp;
  for (auto& e : env_text) envp.push_back(e.data());
  envp.push_back(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    const int out = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(out, STDOUT_FILENO);
    dup2(out, STDERR_FILENO);
    execve(argv[0], argv.data(), envp.data());
    _exit(127);
  }
  return pid;
}

int wait_exit(pid_t pid) {
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

class CrawlersTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = longread::testing::fresh_test_dir("longread_crawlers");
    fs::create_directories(dir_ / "www");
    for (int b = 0; b < kBlogs; ++b)
      std::ofstream(dir_ / "www" / ("f" + std::to_string(b) + ".xml")) << feed_xml(b);
    auto server = longread::testing::FixtureServer::start(dir_ / "www");
    ASSERT_TRUE(server) << server.error().message;
    server_.emplace(std::move(*server));
  }
  void TearDown() override {
    server_.reset();
    fs::remove_all(dir_);
  }

  // Follows the kBlogs feeds, each answered after `delay` seconds.
  void follow(const std::string& delay) {
    std::string opml = "<?xml version=\"1.0\"?><opml version=\"2.0\"><body><outline text=\"programming\">";
    for (int b = 0; b < kBlogs; ++b) {
      opml += "<outline type=\"rss\" text=\"Blog " + std::to_string(b) + "\" xmlUrl=\"" +
              server_->url("/slow/" + delay + "/f" + std::to_string(b) + ".xml") + "\"/>";
    }
    opml += "</outline></body></opml>";
    std::ofstream(dir_ / "list.opml") << opml;
    ASSERT_EQ(wait_exit(start(db(), {"import", (dir_ / "list.opml").string()}, {}, dir_ / "import.log")), 0);
  }
  std::string db() const { return (dir_ / "crawl.db").string(); }

  // Requests for feeds in all, however often each.
  std::size_t total_feed_requests() const {
    std::size_t n = 0;
    for (const auto& [path, count] : feed_requests()) n += static_cast<std::size_t>(count);
    return n;
  }
  // How often each feed was asked for.
  std::map<std::string, int> feed_requests() const {
    std::map<std::string, int> out;
    const auto log = nlohmann::json::parse(server_->requests_json());
    for (const auto& r : log) {
      const std::string path = r["path"];
      if (path.ends_with(".xml")) ++out[path];
    }
    return out;
  }
  int polled_blogs() const {
    sqlite3* handle = nullptr;
    int n = -1;
    if (sqlite3_open_v2(db().c_str(), &handle, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
      sqlite3_busy_timeout(handle, 2000);
      sqlite3_stmt* stmt = nullptr;
      if (sqlite3_prepare_v2(handle, "SELECT count(*) FROM blogs WHERE last_attempt_at IS NOT NULL", -1,
                             &stmt, nullptr) == SQLITE_OK &&
          sqlite3_step(stmt) == SQLITE_ROW) {
        n = sqlite3_column_int(stmt, 0);
      }
      sqlite3_finalize(stmt);
    }
    sqlite3_close(handle);
    return n;
  }

  // The crawlers may fetch only from the fixture server, which stands for the internet.
  const std::vector<std::string> env_{"LONGREAD_FETCH_ALLOW_NETWORKS=127.0.0.1/32",
                                      "LONGREAD_CRAWL_FETCH_FULL_TEXT=false"};
  fs::path dir_;
  std::optional<longread::testing::FixtureServer> server_;
};

TEST_F(CrawlersTest, TwoCrawlersStartedTogetherNeverPollOneBlogTwice) {
  follow("0.3");
  auto env = env_;
  env.push_back("LONGREAD_CRAWL_MAX_BLOGS_PER_PASS=4");
  // Two rounds of two crawlers at once, each pass claiming at most 4 of the due blogs: whatever the order,
  // the first round polls 8 and the second the last 4. Without claims, each pass would poll every due blog.
  for (int round = 0; round < 2; ++round) {
    const pid_t a = start(db(), {"crawl"}, env, dir_ / "a.log");
    const pid_t b = start(db(), {"crawl"}, env, dir_ / "b.log");
    ASSERT_EQ(wait_exit(a), 0);
    ASSERT_EQ(wait_exit(b), 0);
  }
  const auto requests = feed_requests();
  for (const auto& [path, count] : requests)
    EXPECT_EQ(count, 1) << path << " was polled " << count << " times";
  EXPECT_EQ(requests.size(), 12u);
  EXPECT_EQ(polled_blogs(), 12);
}

TEST_F(CrawlersTest, AKilledCrawlersBlogsWaitForItsLeaseThenAnotherCrawlerTakesThemOver) {
  follow("3");
  auto env = env_;
  env.push_back("LONGREAD_CRAWL_LEASE_SECONDS=10");
  env.push_back("LONGREAD_CRAWL_PER_HOST=16");  // every feed at once: they all live on 127.0.0.1
  const auto started = std::chrono::steady_clock::now();
  const pid_t doomed = start(db(), {"crawl"}, env, dir_ / "doomed.log");
  // Its claims are made before its first transfer starts; the feeds take 3 s to answer.
  for (int i = 0; i < 100 && feed_requests().empty(); ++i) std::this_thread::sleep_for(20ms);
  ASSERT_FALSE(feed_requests().empty()) << "the first crawler never started polling";
  ASSERT_EQ(kill(doomed, SIGKILL), 0);
  waitpid(doomed, nullptr, 0);
  const std::size_t asked_by_the_dead = total_feed_requests();

  // Within the lease the blogs are the dead crawler's: another pass polls none of them.
  ASSERT_LT(std::chrono::steady_clock::now() - started, 7s)
      << "the machine was too slow to test inside the lease";
  ASSERT_EQ(wait_exit(start(db(), {"crawl"}, env, dir_ / "early.log")), 0);
  EXPECT_EQ(total_feed_requests(), asked_by_the_dead);
  EXPECT_EQ(polled_blogs(), 0);

  // After it, another crawler takes every blog over and polls each once.
  std::this_thread::sleep_until(started + 11s);
  ASSERT_EQ(wait_exit(start(db(), {"crawl"}, env, dir_ / "late.log")), 0);
  EXPECT_EQ(polled_blogs(), kBlogs);
  EXPECT_EQ(total_feed_requests(), asked_by_the_dead + kBlogs);
}

TEST_F(CrawlersTest, CrawlLoopPollsAndStopsCleanlyOnSigterm) {
  follow("0");
  const pid_t loop = start(db(), {"crawl", "--loop"}, env_, dir_ / "loop.log");
  for (int i = 0; i < 300 && polled_blogs() < kBlogs; ++i) std::this_thread::sleep_for(50ms);
  EXPECT_EQ(polled_blogs(), kBlogs);
  ASSERT_EQ(kill(loop, SIGTERM), 0);
  EXPECT_EQ(wait_exit(loop), 0);
  std::ifstream log(dir_ / "loop.log");
  const std::string text((std::istreambuf_iterator<char>(log)), {});
  EXPECT_NE(text.find("crawl: stopping (signal 15)"), std::string::npos) << text;
  // `--loop` with `--all` would poll every blog every minute: refused.
  EXPECT_NE(wait_exit(start(db(), {"crawl", "--loop", "--all"}, env_, dir_ / "both.log")), 0);
}

}  // namespace
