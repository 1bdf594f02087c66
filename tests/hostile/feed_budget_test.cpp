// Hostile feeds against the real `longread` binary, the fixture server and a real database file. Each case
// checks what the attacker gets, what the operator sees, and that nothing already stored is lost:
//   - an entity bomb (a ~400 KB feed whose 100 KB entity is used 100,000 times) fails its blog alone;
//   - a 2.9 MB feed whose 20,000 guids change on every poll stays within the per-blog cap;
//   - a blog that kills the crawler while it is parsed is found at the next start, backed off, and
//     quarantined after the third time; `blogs resume` lifts it;
//   - SIGTERM while a blog is parsed is a stop, not a crash.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "fixture_server/fixture_server.h"
#include "testing/command.h"
#include "testing/test_dir.h"

namespace {
namespace fs = std::filesystem;
using longread::testing::FixtureServer;

const std::string kBin = LONGREAD_BINARY_DIR "/src/app/longread";

std::string repeat(const std::string& s, int n) {
  std::string out;
  out.reserve(s.size() * static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

// ~200 words: kept by the junk rules.
std::string body(int seed) {
  static const char* kWords[] = {"queue",  "memory", "thread",  "atomic",
                                 "kernel", "buffer", "latency", "page"};
  std::string s = "<p>";
  for (int i = 0; i < 200; ++i) s += std::string(kWords[(seed + i * 5) % 8]) + (i % 12 == 11 ? ". " : " ");
  return s + "</p>";
}

std::string rss(const std::string& title, const std::string& items) {
  return "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>" + title +
         "</title><link>https://example.org/</link>" + items + "</channel></rss>";
}

// `count` items with guids "<prefix><n>", one a minute back from 2024-05-01, `long_bodies` ~200 words each
// (else a word: junk).
std::string items(const std::string& prefix, int count, bool long_bodies) {
  std::string out;
  for (int n = 0; n < count; ++n) {
    const int minute = n % 60, hour = (n / 60) % 24, day = 1 + (n / 1440) % 28;
    char date[64];
    std::snprintf(date, sizeof date, "%02d Apr 2024 %02d:%02d:00 GMT", 28 - day + 1, 23 - hour, 59 - minute);
    out += "<item><title>" + prefix + std::to_string(n) + "</title><guid>" + prefix + std::to_string(n) +
           "</guid><pubDate>" + date + "</pubDate><description>" +
           (long_bodies ? "<![CDATA[" + body(n) + "]]>" : std::string("x")) + "</description></item>";
  }
  return out;
}

void write(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

class Database {
 public:
  explicit Database(const std::string& path) {
    if (sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) db_ = nullptr;
    if (db_) sqlite3_busy_timeout(db_, 5000);
  }
  ~Database() { sqlite3_close(db_); }
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  // The first column of every row, joined by newlines; "error: ..." when the statement fails.
  std::string text(const std::string& sql) const {
    if (!db_) return "error: no database";
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK)
      return std::string("error: ") + sqlite3_errmsg(db_);
    std::string out;
    while (sqlite3_step(stmt) == SQLITE_ROW) {
      if (!out.empty()) out += "\n";
      const auto* t = sqlite3_column_text(stmt, 0);
      out += t ? reinterpret_cast<const char*>(t) : "NULL";
    }
    sqlite3_finalize(stmt);
    return out;
  }
  long long number(const std::string& sql) const {
    const std::string t = text(sql);
    try {
      return std::stoll(t);
    } catch (...) {
      ADD_FAILURE() << sql << ": " << t;
      return -1;
    }
  }

 private:
  sqlite3* db_ = nullptr;
};

#if defined(__SANITIZE_ADDRESS__)
// AddressSanitizer reserves terabytes of address space for its shadow memory, so an address-space limit
// stops the binary before main; its own cap on one allocation stands in for it.
const std::string kMemoryLimit =
    "export ASAN_OPTIONS=\"${ASAN_OPTIONS:+$ASAN_OPTIONS:}max_allocation_size_mb=4000\"; ";
#else
const std::string kMemoryLimit = "ulimit -v 4000000; ";
#endif

class HostileFeedTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = longread::testing::fresh_test_dir("longread_hostile_feed");
    fs::create_directories(dir_ / "www");
    auto server = FixtureServer::start(dir_ / "www");
    ASSERT_TRUE(server) << server.error().message;
    server_.emplace(std::move(*server));
  }
  void TearDown() override {
    server_.reset();
    fs::remove_all(dir_);
  }

  std::string db() const { return (dir_ / "site.db").string(); }

  // Imports one outline per path (in order: blog ids 1, 2, ...).
  void import(const std::vector<std::string>& paths) {
    std::string opml = "<?xml version=\"1.0\"?><opml version=\"2.0\"><body><outline text=\"programming\">";
    for (const auto& p : paths)
      opml += "<outline type=\"rss\" text=\"" + p + "\" xmlUrl=\"" + server_->url(p) + "\"/>";
    write(dir_ / "list.opml", opml + "</outline></body></opml>");
    const auto r = longread(env_ + " " + kBin + " --db " + db() + " import " + (dir_ / "list.opml").string());
    ASSERT_EQ(r.status, 0) << r.err;
  }

  // Runs `longread ARGS` to its end under a 4 GB memory limit (a regression then fails with std::bad_alloc
  // or an allocation error instead of taking the machine's memory).
  longread::testing::CommandOutcome longread(const std::string& command) {
    return longread::testing::run_command(kMemoryLimit + command, dir_ / "stderr.txt");
  }
  longread::testing::CommandOutcome run(const std::string& args) {
    return longread(env_ + " " + kBin + " --db " + db() + " " + args);
  }

  // Starts `longread crawl --all` in the background (its output in dir_/crawl.log).
  pid_t start_crawl() {
    const pid_t pid = fork();
    if (pid == 0) {
      const int log = open((dir_ / "crawl.log").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      dup2(log, STDOUT_FILENO);
      dup2(log, STDERR_FILENO);
      execl("/bin/sh", "sh", "-c", (env_ + " exec " + kBin + " --db " + db() + " crawl --all").c_str(),
            static_cast<char*>(nullptr));
      _exit(127);
    }
    return pid;
  }

  // Waits until blog `id` carries a parsing mark (its feed body is being parsed); false after a minute.
  bool wait_for_parsing_mark(int id) {
    for (int i = 0; i < 6000; ++i) {
      // Before the crawl creates the companion file and its table, the owners read "error: ...".
      const std::string owners = fs::exists(db() + "-parsing") ? parse_mark_owners(id) : "";
      if (!owners.empty() && !owners.starts_with("error")) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return false;
  }
  // The owners of the parse marks left on disk ("" when none), for blog `id` or (id 0) every blog: the SQLite
  // store keeps them in the companion file "<database>-parsing".
  std::string parse_mark_owners(int id = 0) {
    Database marks(db() + "-parsing");
    return marks.text("SELECT owner FROM parse_marks" + (id ? " WHERE blog_id = " + std::to_string(id) : ""));
  }
  // Waits (up to a minute) until blog `id` has `count` articles stored.
  bool wait_for_articles(int id, long long count) {
    for (int i = 0; i < 6000; ++i) {
      Database probe(db());
      if (probe.number("SELECT COUNT(*) FROM articles WHERE blog_id = " + std::to_string(id)) >= count)
        return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return false;
  }

  fs::path dir_;
  // The fixture server on 127.0.0.1 stands for the public internet: the outbound policy allows exactly it.
  std::string env_ = "LONGREAD_CRAWL_FETCH_FULL_TEXT=false LONGREAD_FETCH_ALLOW_NETWORKS=127.0.0.1/32";
  std::optional<FixtureServer> server_;
};

TEST_F(HostileFeedTest, AnEntityBombFailsItsBlogAloneAndLosesNothing) {
  write(dir_ / "www/good.xml", rss("Good", items("good-", 3, true)));
  write(dir_ / "www/bomb.xml", rss("Bomb", items("before-", 2, true)));
  import({"/good.xml", "/bomb.xml"});
  ASSERT_EQ(run("crawl --all").status, 0);
  Database before(db());
  ASSERT_EQ(before.number("SELECT COUNT(*) FROM articles WHERE blog_id = 2"), 2);

  // The attack: a ~400 KB feed declaring a 100 KB entity and using it 100,000 times in one description.
  const std::string bomb =
      "<?xml version=\"1.0\"?>\n<!DOCTYPE rss [<!ENTITY a \"" + std::string(100 * 1024, 'A') +
      "\">]>\n<rss version=\"2.0\"><channel><title>Bomb</title><item><title>Bomb</title><guid>bomb</guid>"
      "<description>" +
      repeat("&a;", 100000) + "</description></item></channel></rss>";
  ASSERT_GT(bomb.size(), 390'000u);
  write(dir_ / "www/bomb.xml", bomb);
  write(dir_ / "www/good.xml", rss("Good", items("good-", 5, true)));
  const auto crawl = run("crawl --all");
  // The crawl goes on and exits normally.
  EXPECT_EQ(crawl.status, 0) << crawl.err;
  Database after(db());
  // What the attacker gets: nothing stored from the bomb.
  EXPECT_EQ(after.number("SELECT COUNT(*) FROM articles WHERE guid = 'bomb'"), 0);
  // What the operator sees: the blog failed with the reason, backed off.
  EXPECT_EQ(after.text("SELECT last_error FROM blogs WHERE id = 2"),
            "XML error: entity expansion over 64 KiB");
  EXPECT_EQ(after.number("SELECT consecutive_failures FROM blogs WHERE id = 2"), 1);
  const auto table = run("blogs");
  EXPECT_NE(table.out.find("XML error: entity expansion over 64 KiB"), std::string::npos) << table.out;
  // Nothing already stored is lost, and the other blog was crawled.
  EXPECT_EQ(after.number("SELECT COUNT(*) FROM articles WHERE blog_id = 2"), 2);
  EXPECT_EQ(after.number("SELECT COUNT(*) FROM articles WHERE blog_id = 1"), 5);
  EXPECT_EQ(after.text("SELECT last_status FROM blogs WHERE id = 1").substr(0, 2), "ok");
}

// 20,000 entries (2.9 MB) with new guids on every poll: each poll adds at most crawl.max_entries_per_feed
// (500), the blog holds at most crawl.max_articles_per_blog (2,000) however many polls, and an article the
// operator kept stays.
TEST_F(HostileFeedTest, AFeedWhoseGuidsChangeOnEveryPollStaysBounded) {
  write(dir_ / "www/good.xml", rss("Good", items("good-", 4, true)));
  write(dir_ / "www/churn.xml", rss("Churn", items("poll0-", 20000, false)));
  ASSERT_GT(fs::file_size(dir_ / "www/churn.xml"), 2'500'000u);
  import({"/good.xml", "/churn.xml"});
  ASSERT_EQ(run("crawl --all").status, 0);
  {
    Database first(db());
    EXPECT_EQ(first.number("SELECT COUNT(*) FROM articles WHERE blog_id = 2"), 500);
    EXPECT_NE(first.text("SELECT last_status FROM blogs WHERE id = 2")
                  .find("newest 500 of 20000 entries: crawl.max_entries_per_feed"),
              std::string::npos);
  }
  Database ids(db());
  const std::string kept = ids.text("SELECT MIN(id) FROM articles WHERE blog_id = 2");
  ASSERT_EQ(run("keep " + kept).status, 0);

  for (int poll = 1; poll <= 5; ++poll) {
    write(dir_ / "www/churn.xml", rss("Churn", items("poll" + std::to_string(poll) + "-", 20000, false)));
    const auto crawl = run("crawl --all");
    ASSERT_EQ(crawl.status, 0) << crawl.err;
    Database after(db());
    EXPECT_LE(after.number("SELECT COUNT(*) FROM articles WHERE blog_id = 2"), 2000) << poll;
    EXPECT_EQ(after.number("SELECT COUNT(*) FROM articles WHERE blog_id = 2 AND guid LIKE 'poll" +
                           std::to_string(poll) + "-%'"),
              500)
        << poll;
    EXPECT_EQ(after.number("SELECT COUNT(*) FROM articles WHERE id = " + kept), 1) << poll;
    EXPECT_EQ(after.number("SELECT COUNT(*) FROM articles WHERE blog_id = 1"), 4) << poll;
  }
  Database last(db());
  EXPECT_EQ(last.number("SELECT COUNT(*) FROM articles WHERE blog_id = 2"), 2000);
  // The visible count the pages show agrees with the rows.
  EXPECT_EQ(last.number("SELECT visible_articles FROM blogs WHERE id = 2"),
            last.number("SELECT COUNT(*) FROM articles WHERE blog_id = 2 AND visible = 1"));
}

// A blog whose parse kills the crawler (here kill -9 while its 20,000-entry feed is parsed and curated):
// found at the next start, backed off; the third time quarantined and polled by no crawl until resumed.
TEST_F(HostileFeedTest, ABlogThatKillsTheCrawlerIsQuarantinedAfterThreeCrashes) {
  env_ += " LONGREAD_CRAWL_MAX_ENTRIES_PER_FEED=100000 LONGREAD_CRAWL_MAX_BODY_MB=64";
  write(dir_ / "www/small.xml", rss("Small", items("small-", 3, true)));
  write(dir_ / "www/big.xml", rss("Big", items("big-", 20000, true)));
  import({"/small.xml", "/slow/0.3/big.xml"});
  const int big = 2;
  for (int crash = 1; crash <= 3; ++crash) {
    const pid_t child = start_crawl();
    ASSERT_TRUE(wait_for_parsing_mark(big)) << "the crawl never started parsing the big feed";
    // The small blog is saved before the kill (on a slow build its save can still be queued when the big
    // feed's parse starts; a kill then would give it a strike too, which is not what this test is about).
    ASSERT_TRUE(wait_for_articles(1, 3)) << "the small blog was never saved";
    ASSERT_EQ(kill(child, SIGKILL), 0);
    int status = 0;
    waitpid(child, &status, 0);
    ASSERT_TRUE(WIFSIGNALED(status));
    ASSERT_NE(parse_mark_owners(big), "") << "killed after the parse";
    // The next start finds it: the crash is recorded, and this pass leaves the blog alone.
    server_->reset();
    const auto next = run("crawl --all");
    ASSERT_EQ(next.status, 0) << next.err;
    EXPECT_EQ(server_->requests_json().find("big.xml"), std::string::npos) << crash;
    Database after(db());
    EXPECT_EQ(after.number("SELECT crashes FROM blogs WHERE id = 2"), crash);
    EXPECT_EQ(parse_mark_owners(big), "");
    const std::string status_text = after.text("SELECT last_status FROM blogs WHERE id = 2");
    EXPECT_NE(status_text.find("crashed the crawler while parsing (" + std::to_string(crash) + " of 3)"),
              std::string::npos)
        << status_text;
    EXPECT_EQ(after.number("SELECT quarantined FROM blogs WHERE id = 2"), crash == 3 ? 1 : 0);
    EXPECT_EQ(after.number("SELECT COUNT(*) FROM articles WHERE blog_id = 1"), 3);
  }
  // What the operator sees.
  const auto table = run("blogs");
  EXPECT_NE(table.out.find("quarantined: crashed the crawler while parsing (3 of 3)"), std::string::npos)
      << table.out;
  // Quarantined: never polled, --all included.
  server_->reset();
  ASSERT_EQ(run("crawl --all").status, 0);
  EXPECT_EQ(server_->requests_json().find("big.xml"), std::string::npos);
  // `blogs resume` lifts it; the blog (now a small feed) is polled and read again.
  const auto resumed = run("blogs resume 2");
  ASSERT_EQ(resumed.status, 0) << resumed.err;
  EXPECT_NE(resumed.out.find("out of quarantine"), std::string::npos) << resumed.out;
  write(dir_ / "www/big.xml", rss("Big", items("big-", 2, true)));
  ASSERT_EQ(run("crawl").status, 0);
  Database resumed_db(db());
  EXPECT_EQ(resumed_db.number("SELECT crashes FROM blogs WHERE id = 2"), 0);
  EXPECT_EQ(resumed_db.number("SELECT quarantined FROM blogs WHERE id = 2"), 0);
  EXPECT_EQ(resumed_db.number("SELECT COUNT(*) FROM articles WHERE blog_id = 2"), 2);
}

TEST_F(HostileFeedTest, SigtermWhileABlogIsParsedIsAStopNotACrash) {
  env_ += " LONGREAD_CRAWL_MAX_ENTRIES_PER_FEED=100000 LONGREAD_CRAWL_MAX_BODY_MB=64";
  write(dir_ / "www/big.xml", rss("Big", items("big-", 20000, true)));
  import({"/slow/0.3/big.xml"});
  const pid_t child = start_crawl();
  ASSERT_TRUE(wait_for_parsing_mark(1));
  ASSERT_EQ(kill(child, SIGTERM), 0);
  int status = 0;
  waitpid(child, &status, 0);
  ASSERT_TRUE(WIFEXITED(status)) << "SIGTERM ended the crawl instead of stopping it";
  EXPECT_EQ(WEXITSTATUS(status), 0);
  EXPECT_EQ(parse_mark_owners(), "");
  ASSERT_EQ(run("crawl").status, 0);
  Database next(db());
  EXPECT_EQ(next.number("SELECT crashes FROM blogs WHERE id = 1"), 0);
  EXPECT_EQ(next.text("SELECT last_status FROM blogs WHERE id = 1").find("crashed"), std::string::npos);
}

}  // namespace
