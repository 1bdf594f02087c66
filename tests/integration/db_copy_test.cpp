// `longread db copy` as an operator runs it: the real binary moves a SQLite site made through the store into
// a fresh database of the test PostgreSQL (testing/postgres_server.h), prints one line per table, and exits
// 0 when both hold the same; run again it adds nothing; stopped midway it completes on the next run; a row
// changed on PostgreSQL's side makes it exit 1 naming the table; bad arguments are refused with a message.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include <fmt/format.h>

#include "storage/postgres/pg.h"
#include "storage/store.h"
#include "testing/command.h"
#include "testing/postgres_database.h"
#include "testing/test_dir.h"

namespace {
namespace fs = std::filesystem;
using longread::testing::CommandOutcome;
using longread::testing::run_command;
using namespace std::chrono_literals;

const std::string kBinary = LONGREAD_BINARY_DIR "/src/app/longread";
constexpr int kArticles = 40;

class DbCopyCommandTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(pg_.url().empty());
    dir_ = longread::testing::fresh_test_dir("longread-db-copy-cmd");
    fs::create_directories(dir_);
    db_ = (dir_ / "data" / "longread.db").string();
    auto opened = longread::storage::open_sqlite_store(db_);
    ASSERT_TRUE(opened) << opened.error().message;
    auto& store = **opened;
    const auto now = std::chrono::time_point_cast<std::chrono::seconds>(std::chrono::system_clock::now());
    auto blog =
        store.upsert_blog({.feed_url = "https://blog.example/feed", .title = "Blog", .category = "history"});
    ASSERT_TRUE(blog) << blog.error().message;
    longread::storage::CrawlRecord record{
        .blog_id = *blog, .attempted_at = now, .success = true, .status = "ok"};
    for (int i = 0; i < kArticles; ++i) {
      longread::model::Article a;
      a.guid = fmt::format("g{}", i);
      a.title = fmt::format("Post {}", i);
      a.link = fmt::format("https://blog.example/{}", i);
      a.published = now - std::chrono::hours(i);
      a.first_seen = now;
      a.text = fmt::format("The harbor ledger of year {} tells of ships and their cargo. ", 1800 + i);
      a.content_html = "<p>" + a.text + "</p>";
      a.excerpt = a.text;
      a.word_count = 500;
      record.articles.push_back(std::move(a));
    }
    auto saved = store.save_crawl(record);
    ASSERT_TRUE(saved) << saved.error().message;
    auto reader = store.create_reader("ann@example.com", "hash", now, now);
    ASSERT_TRUE(reader) << reader.error().message;
    for (int id = 1; id <= 5; ++id) ASSERT_TRUE(store.set_vote(*reader, id, true, now));
    ASSERT_TRUE(store.secret("session_key", "fedcba9876543210"));
  }
  void TearDown() override { fs::remove_all(dir_); }

  CommandOutcome copy(const std::string& extra = "") {
    return run_command(fmt::format("{} db copy --from {} --to '{}' {}", kBinary, db_, pg_.url(), extra),
                       dir_ / "stderr.txt");
  }

  longread::testing::PostgresDatabase pg_;
  fs::path dir_;
  std::string db_;
};

TEST_F(DbCopyCommandTest, CopiesPrintsATableALineAndAddsNothingTheSecondTime) {
  const CommandOutcome first = copy();
  ASSERT_EQ(first.status, 0) << first.out << first.err;
  EXPECT_NE(first.out.find(fmt::format(
                "copy: articles {0} rows ({0} new), counts equal, 25 sampled rows equal\n", kArticles)),
            std::string::npos)
      << first.out;
  EXPECT_NE(first.out.find("copy: votes 5 rows (5 new), counts equal, 5 sampled rows equal\n"),
            std::string::npos)
      << first.out;
  EXPECT_NE(first.out.find("copy: secrets 1 rows (1 new), counts equal, 1 sampled rows equal\n"),
            std::string::npos)
      << first.out;
  EXPECT_NE(first.out.find(" tables equal\n"), std::string::npos) << first.out;

  const CommandOutcome second = copy();
  ASSERT_EQ(second.status, 0) << second.out << second.err;
  EXPECT_NE(second.out.find(fmt::format("copy: articles {} rows (0 new), counts equal", kArticles)),
            std::string::npos)
      << second.out;
  EXPECT_EQ(second.out.find("new), counts differ"), std::string::npos) << second.out;
  for (std::size_t at = second.out.find(" rows ("); at != std::string::npos;
       at = second.out.find(" rows (", at + 1))
    EXPECT_EQ(second.out.compare(at, 14, " rows (0 new),"), 0) << second.out.substr(at, 40);

  // The site runs on the copy.
  const CommandOutcome blogs =
      run_command(fmt::format("{} --db '{}' blogs", kBinary, pg_.url()), dir_ / "stderr.txt");
  EXPECT_EQ(blogs.status, 0) << blogs.err;
  EXPECT_NE(blogs.out.find("https://blog.example/feed"), std::string::npos) << blogs.out;
}

TEST_F(DbCopyCommandTest, StoppedMidwayItCompletesWhenRunAgain) {
  const CommandOutcome stopped = copy("--batch 4 --stop-after-batches 5");
  EXPECT_EQ(stopped.status, 1);
  EXPECT_NE(stopped.err.find("db copy: stopped; run it again to copy what is missing"), std::string::npos)
      << stopped.err;
  const CommandOutcome resumed = copy("--batch 4");
  ASSERT_EQ(resumed.status, 0) << resumed.out << resumed.err;
  EXPECT_NE(resumed.out.find("copy: votes 5 rows (5 new), counts equal, 5 sampled rows equal\n"),
            std::string::npos)
      << resumed.out;
}

TEST_F(DbCopyCommandTest, ADifferenceIsNamedAndExitsOne) {
  ASSERT_EQ(copy().status, 0);
  auto conn = longread::storage::postgres::Connection::open(pg_.url());
  ASSERT_TRUE(conn) << conn.error().message;
  ASSERT_TRUE(conn->exec("UPDATE articles SET title = 'Changed' WHERE id = 1"));
  const CommandOutcome checked = copy();
  EXPECT_EQ(checked.status, 1);
  EXPECT_NE(checked.out.find("copy: articles 40 rows (0 new), counts equal, 1 of 25 sampled rows differ\n"),
            std::string::npos)
      << checked.out;
  EXPECT_NE(
      checked.err.find("db copy: articles id=1: title is \"Post 0\" in SQLite, \"Changed\" in PostgreSQL\n"),
      std::string::npos)
      << checked.err;
  EXPECT_NE(checked.err.find("db copy: PostgreSQL differs from SQLite in articles\n"), std::string::npos)
      << checked.err;
}

TEST_F(DbCopyCommandTest, BadArgumentsAreRefused) {
  const CommandOutcome not_url =
      run_command(fmt::format("{} db copy --from {} --to {}", kBinary, db_, (dir_ / "other.db").string()),
                  dir_ / "stderr.txt");
  EXPECT_EQ(not_url.status, 1);
  EXPECT_NE(not_url.err.find("db copy: --to must be a PostgreSQL URL (postgresql://user@host/database), not"),
            std::string::npos)
      << not_url.err;
  EXPECT_EQ(not_url.err.find("run it again"), std::string::npos) << not_url.err;

  const std::string missing = (dir_ / "missing.db").string();
  const CommandOutcome no_file = run_command(
      fmt::format("{} db copy --from {} --to '{}'", kBinary, missing, pg_.url()), dir_ / "stderr.txt");
  EXPECT_EQ(no_file.status, 1);
  EXPECT_NE(no_file.err.find("db copy: --from " + missing + ": no such file"), std::string::npos)
      << no_file.err;

  const CommandOutcome no_to =
      run_command(fmt::format("{} db copy --from {}", kBinary, db_), dir_ / "stderr.txt");
  EXPECT_NE(no_to.status, 0);
  EXPECT_NE(no_to.err.find("--to is required"), std::string::npos) << no_to.err;
}

}  // namespace
