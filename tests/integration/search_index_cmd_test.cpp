// `longread db search-index` as an operator runs it, on a real SQLite file and a real PostgreSQL database
// (testing/postgres_server.h): on PostgreSQL it builds the index of the newest articles (said on stdout,
// exit 0), then finds it up to date; while another session holds the upkeep's lock it does nothing and
// exits 1 saying why; a window larger than the table builds nothing. On SQLite it merges the FTS5
// segments a run of one-article crawls left, then has nothing to merge. Bad arguments are refused.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <string>

#include <fmt/format.h>

#include "storage/postgres/pg.h"
#include "storage/postgres/recent_search_index.h"
#include "storage/store.h"
#include "testing/command.h"
#include "testing/postgres_database.h"
#include "testing/test_dir.h"

namespace {
namespace fs = std::filesystem;
using longread::testing::CommandOutcome;
using longread::testing::run_command;

const std::string kBinary = LONGREAD_BINARY_DIR "/src/app/longread";
constexpr int kArticles = 30;

class SearchIndexCommandTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = longread::testing::fresh_test_dir("longread-search-index-cmd");
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // kArticles articles, one crawl (one commit) each.
  static void fill(const std::string& db) {
    auto opened = longread::storage::open_store(db);
    ASSERT_TRUE(opened) << opened.error().message;
    auto& store = **opened;
    const auto now = std::chrono::time_point_cast<std::chrono::seconds>(std::chrono::system_clock::now());
    auto blog =
        store.upsert_blog({.feed_url = "https://blog.example/feed", .title = "Blog", .category = "history"});
    ASSERT_TRUE(blog) << blog.error().message;
    for (int i = 0; i < kArticles; ++i) {
      longread::storage::CrawlRecord record{
          .blog_id = *blog, .attempted_at = now, .success = true, .status = "ok"};
      longread::model::Article a;
      a.guid = fmt::format("g{}", i);
      a.title = fmt::format("Post {}", i);
      a.link = fmt::format("https://blog.example/{}", i);
      a.published = now - std::chrono::hours(i);
      a.text = fmt::format("The harbor ledger of year {} tells of ships and their cargo.", 1800 + i);
      a.content_html = "<p>" + a.text + "</p>";
      a.excerpt = a.text;
      a.word_count = 500;
      record.articles.push_back(std::move(a));
      auto saved = store.save_crawl(record);
      ASSERT_TRUE(saved) << saved.error().message;
    }
  }

  CommandOutcome run(const std::string& db, const std::string& extra = "") {
    return run_command(fmt::format("{} --db '{}' db search-index {}", kBinary, db, extra),
                       dir_ / "stderr.txt");
  }

  fs::path dir_;
};

TEST_F(SearchIndexCommandTest, OnPostgresqlBuildsTheNewestArticlesIndexOnceAndStandsAsideForAnother) {
  longread::testing::PostgresDatabase pg;
  ASSERT_FALSE(pg.url().empty());
  fill(pg.url());

  const CommandOutcome small = run(pg.url(), "--recent-ids 100");
  EXPECT_EQ(small.status, 0) << small.out << small.err;
  EXPECT_NE(small.out.find("search index: no index of the newest articles: 30 ids, fewer than 200"),
            std::string::npos)
      << small.out;

  const CommandOutcome built = run(pg.url(), "--recent-ids 10");
  EXPECT_EQ(built.status, 0) << built.out << built.err;
  EXPECT_NE(built.out.find("search index: built articles_search_recent_20 over the ids above 20 in "),
            std::string::npos)
      << built.out;
  const CommandOutcome again = run(pg.url(), "--recent-ids 10");
  EXPECT_EQ(again.status, 0) << again.out << again.err;
  EXPECT_NE(again.out.find("articles_search_recent_20 serves the ids above 20 (10 newest ids, up to date)"),
            std::string::npos)
      << again.out;

  auto other = longread::storage::postgres::Connection::open(pg.url());
  ASSERT_TRUE(other) << other.error().message;
  ASSERT_TRUE(other->exec(
      fmt::format("SELECT pg_advisory_lock({})", longread::storage::postgres::kRecentSearchIndexLock)));
  const CommandOutcome busy = run(pg.url(), "--recent-ids 5");
  EXPECT_EQ(busy.status, 1) << busy.out << busy.err;
  EXPECT_NE(busy.out.find("another process is keeping the search index"), std::string::npos) << busy.out;
  auto names = other->exec("SELECT relname FROM pg_class WHERE relname LIKE 'articles\\_search\\_recent%'");
  ASSERT_TRUE(names) << names.error().message;
  ASSERT_EQ(names->size(), 1);
  EXPECT_EQ(names->string(0, 0), "articles_search_recent_20");
}

TEST_F(SearchIndexCommandTest, OnSqliteMergesTheSegmentsOfManySmallCrawlsOnce) {
  const std::string db = (dir_ / "data" / "longread.db").string();
  fill(db);
  const CommandOutcome merged = run(db);
  EXPECT_EQ(merged.status, 0) << merged.out << merged.err;
  EXPECT_NE(merged.out.find("search index: merged search index segments (up to 500 pages)"),
            std::string::npos)
      << merged.out;
  const CommandOutcome again = run(db);
  EXPECT_EQ(again.status, 0) << again.out << again.err;
  EXPECT_NE(again.out.find("search index: search index segments already merged"), std::string::npos)
      << again.out;
}

TEST_F(SearchIndexCommandTest, ABadWindowIsRefused) {
  const std::string db = (dir_ / "data" / "longread.db").string();
  const CommandOutcome zero = run(db, "--recent-ids 0");
  EXPECT_NE(zero.status, 0);
  EXPECT_NE((zero.out + zero.err).find("--recent-ids"), std::string::npos) << zero.out << zero.err;
  const CommandOutcome words = run(db, "--recent-ids many");
  EXPECT_NE(words.status, 0);
}

}  // namespace
