// The whole site on PostgreSQL: real `longread` processes over one database of the test server
// (testing/postgres_server.h). Two `crawl` processes started together poll each blog once; `serve
// --no-crawl` shows what they stored and finds it in search; and a crawl run later by another process
// shows on the running site without a restart (its page cache follows the database's change
// notifications).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "fixture_server/fixture_server.h"
#include "smtp/smtp_server.h"
#include "storage/store.h"
#include "testing/ports.h"
#include "testing/postgres_database.h"
#include "testing/serve_process.h"
#include "testing/test_dir.h"
#include "web/testing/client.h"

namespace {
namespace fs = std::filesystem;
using longread::web::testing::http_get;
using namespace std::chrono_literals;

constexpr int kBlogs = 6;
const std::string kBinary = LONGREAD_BINARY_DIR "/src/app/longread";

// Ordinary English whose words each post draws from a vocabulary of its own (a different 40 of 240 common
// nouns), so every post passes the junk rules and no two are near-duplicates (SimHash compares which words
// a text uses and how often).
std::string paragraph(int blog, int post) {
  static const char* const kNouns[] = {
      "time",        "year",       "people",    "way",        "day",          "man",       "thing",
      "woman",       "life",       "child",     "world",      "school",       "state",     "family",
      "student",     "group",      "country",   "problem",    "hand",         "part",      "place",
      "case",        "week",       "company",   "system",     "program",      "question",  "work",
      "government",  "number",     "night",     "point",      "home",         "water",     "room",
      "mother",      "area",       "money",     "story",      "fact",         "month",     "lot",
      "right",       "study",      "book",      "eye",        "job",          "word",      "business",
      "issue",       "side",       "kind",      "head",       "house",        "service",   "friend",
      "father",      "power",      "hour",      "game",       "line",         "end",       "member",
      "law",         "car",        "city",      "community",  "name",         "president", "team",
      "minute",      "idea",       "kid",       "body",       "information",  "back",      "parent",
      "face",        "others",     "level",     "office",     "door",         "health",    "person",
      "art",         "war",        "history",   "party",      "result",       "change",    "morning",
      "reason",      "research",   "girl",      "guy",        "moment",       "air",       "teacher",
      "force",       "education",  "foot",      "boy",        "age",          "policy",    "process",
      "music",       "market",     "sense",     "nation",     "plan",         "college",   "interest",
      "death",       "experience", "effect",    "class",      "control",      "care",      "field",
      "development", "role",       "effort",    "rate",       "heart",        "drug",      "show",
      "leader",      "light",      "voice",     "wife",       "police",       "mind",      "price",
      "report",      "decision",   "son",       "view",       "relationship", "town",      "road",
      "arm",         "difference", "value",     "building",   "action",       "model",     "season",
      "society",     "tax",        "director",  "position",   "player",       "record",    "paper",
      "space",       "ground",     "form",      "event",      "official",     "matter",    "center",
      "couple",      "site",       "project",   "activity",   "star",         "table",     "need",
      "court",       "oil",        "situation", "cost",       "industry",     "figure",    "street",
      "image",       "phone",      "data",      "picture",    "practice",     "piece",     "land",
      "product",     "doctor",     "wall",      "patient",    "worker",       "news",      "test",
      "movie",       "north",      "love",      "support",    "technology",   "step",      "baby",
      "computer",    "type",       "attention", "film",       "tree",         "source",    "organization",
      "hair",        "window",     "evidence",  "population", "truth",        "song",      "network",
      "garden",      "river",      "ledger",    "compiler",   "kernel",       "queue",     "cache",
      "telescope",   "glacier",    "harbour",   "violin",     "lantern",      "archive",   "mirror",
      "printer",     "library",    "allocator", "cathedral"};
  constexpr std::size_t kWords = sizeof(kNouns) / sizeof(kNouns[0]);
  unsigned state = static_cast<unsigned>(blog * 7919 + post * 104729 + 17);
  auto next = [&] {
    state = state * 1103515245u + 12345u;
    return (state >> 16) & 0x7fff;
  };
  std::vector<const char*> own;
  for (int i = 0; i < 40; ++i) own.push_back(kNouns[next() % kWords]);
  auto pick = [&] { return own[next() % own.size()]; };
  std::string text;
  // Mostly the post's own words: shared filler words would make every text alike to SimHash.
  for (int i = 0; i < 50; ++i) {
    text += std::string("The ") + pick() + " " + pick() + " " + pick() + " and " + pick() + " " + pick() +
            " " + pick() + ". ";
  }
  return text;
}

std::string item(int blog, int post, const std::string& title) {
  return "<item><title>" + title + "</title><link>https://blog" + std::to_string(blog) + ".example/" +
         std::to_string(post) + "</link><guid>b" + std::to_string(blog) + "-" + std::to_string(post) +
         "</guid><pubDate>Mon, 2" + std::to_string(post) +
         " Nov 2026 10:00:00 GMT</pubDate><description><![CDATA[<p>" + paragraph(blog, post) + "</p><p>" +
         paragraph(blog, post + 5) + "</p>]]></description></item>";
}

std::string feed(int blog, const std::vector<std::string>& items) {
  std::string out = "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>Blog " +
                    std::to_string(blog) + "</title><link>https://blog" + std::to_string(blog) +
                    ".example/</link>";
  for (const auto& i : items) out += i;
  return out + "</channel></rss>";
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

class PostgresSiteTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(pg_.url().empty());
    dir_ = longread::testing::fresh_test_dir("longread-postgres-site");
    fs::create_directories(dir_ / "www");
    for (int b = 0; b < kBlogs; ++b) {
      std::ofstream(dir_ / "www" / ("f" + std::to_string(b) + ".xml"))
          << feed(b, {item(b, 1, "Notes on topic " + std::to_string(b) + " part one"),
                      item(b, 2, "Notes on topic " + std::to_string(b) + " part two")});
    }
    auto server = longread::testing::FixtureServer::start(dir_ / "www");
    ASSERT_TRUE(server) << server.error().message;
    feeds_.emplace(std::move(*server));
    std::string opml = "<?xml version=\"1.0\"?><opml version=\"2.0\"><body><outline text=\"programming\">";
    for (int b = 0; b < kBlogs; ++b) {
      opml += "<outline type=\"rss\" text=\"Blog " + std::to_string(b) + "\" xmlUrl=\"" +
              feeds_->url("/slow/0.3/f" + std::to_string(b) + ".xml") + "\"/>";
    }
    std::ofstream(dir_ / "list.opml") << opml << "</outline></body></opml>";
  }
  void TearDown() override {
    if (serve_ && HasFailure()) std::cerr << "--- serve output ---\n" << serve_->log() << "---\n";
    serve_.reset();
    feeds_.reset();
    if (!dir_.empty()) fs::remove_all(dir_);
  }

  // `longread --db URL ARGS`, run to its end; its exit status.
  int run(const std::vector<std::string>& args, const std::string& log) {
    std::vector<std::string> argv{kBinary, "--db", pg_.url()};
    argv.insert(argv.end(), args.begin(), args.end());
    longread::testing::Child child(argv, {.environment = env_, .output = dir_ / log});
    return child.wait_exit();
  }

  std::map<std::string, int> feed_requests() const {
    std::map<std::string, int> out;
    for (const auto& r : nlohmann::json::parse(feeds_->requests_json())) {
      const std::string path = r["path"];
      if (path.ends_with(".xml")) ++out[path];
    }
    return out;
  }

  std::string get(const std::string& target) {
    auto res = http_get(static_cast<std::uint16_t>(port_), target);
    if (!res || res->status != 200) return {};
    return res->body;
  }

  longread::testing::PostgresDatabase pg_;
  // The crawlers may fetch only from the fixture server, which stands for the internet.
  std::map<std::string, std::string> env_{{"LONGREAD_FETCH_ALLOW_NETWORKS", "127.0.0.1/32"},
                                          {"LONGREAD_CRAWL_FETCH_FULL_TEXT", "false"},
                                          {"LONGREAD_CRAWL_MAX_BLOGS_PER_PASS", "3"},
                                          {"LONGREAD_CRAWL_PER_HOST", "8"}};
  fs::path dir_;
  std::optional<longread::testing::FixtureServer> feeds_;
  std::optional<longread::testing::ServeProcess> serve_;
  int port_ = 0;
};

TEST_F(PostgresSiteTest, CrawlersShareTheBlogsAndTheSiteShowsAndSearchesWhatTheyStored) {
  ASSERT_EQ(run({"import", (dir_ / "list.opml").string()}, "import.log"), 0);

  // Two crawlers at once, each pass claiming at most 3 of the due blogs (SKIP LOCKED): together they poll
  // all six, each once.
  {
    std::vector<std::string> args{kBinary, "--db", pg_.url(), "crawl"};
    longread::testing::Child a(args, {.environment = env_, .output = dir_ / "a.log"});
    longread::testing::Child b(args, {.environment = env_, .output = dir_ / "b.log"});
    ASSERT_EQ(a.wait_exit(), 0);
    ASSERT_EQ(b.wait_exit(), 0);
  }
  auto requests = feed_requests();
  EXPECT_EQ(requests.size(), static_cast<std::size_t>(kBlogs));
  for (const auto& [path, count] : requests)
    EXPECT_EQ(count, 1) << path << " was polled " << count << " times";

  port_ = longread::testing::unused_loopback_port();
  ASSERT_NE(port_, 0);
  serve_.emplace(dir_, port_);
  ASSERT_TRUE(serve_->start({{"LONGREAD_DB", pg_.url()}})) << serve_->log();

  const std::string front = get("/");
  for (int b = 0; b < kBlogs; ++b) {
    EXPECT_NE(front.find("Notes on topic " + std::to_string(b) + " part"), std::string::npos) << b;
  }
  // The site logs where its database is, never the URL's password.
  EXPECT_NE(serve_->log().find("database postgresql://"), std::string::npos) << serve_->log();

  const std::string found = get("/search?q=topic+part");
  EXPECT_NE(found.find("Notes on topic"), std::string::npos);
  EXPECT_NE(found.find("\xe2\x80\xa6"), std::string::npos);  // snippets are cut with an ellipsis

  // Another process stores a new post; the running site shows it (first on Newest) without a restart.
  ASSERT_EQ(get("/newest").find("A brand new essay on ledgers"), std::string::npos);
  std::ofstream(dir_ / "www" / "f0.xml")
      << feed(0, {item(0, 1, "Notes on topic 0 part one"), item(0, 2, "Notes on topic 0 part two"),
                  item(0, 3, "A brand new essay on ledgers")});
  ASSERT_EQ(run({"crawl", "--all"}, "again.log"), 0);
  {
    auto store = longread::storage::open_store(pg_.url());
    ASSERT_TRUE(store) << store.error().message;
    auto newest = (*store)->articles({.limit = 1});
    ASSERT_TRUE(newest && newest->size() == 1u);
    ASSERT_EQ(newest->front().article.title, "A brand new essay on ledgers") << "stored, visible and newest";
  }
  bool shown = false;
  for (int i = 0; i < 100 && !shown; ++i) {
    shown = get("/newest").find("A brand new essay on ledgers") != std::string::npos;
    if (!shown) std::this_thread::sleep_for(100ms);
  }
  EXPECT_TRUE(shown) << "the site kept showing its cached page; the crawl said:\n"
                     << read_file(dir_ / "again.log");

  EXPECT_EQ(serve_->stop(), 0);
}

}  // namespace
