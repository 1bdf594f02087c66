// Tests of the Store on both backends (SQLite files in a temporary directory, PostgreSQL databases on the
// test server), and of what only the SQLite backend has.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/strings.h"
#include "storage/postgres/common_words.h"
#include "storage/postgres/pg.h"
#include "storage/postgres/phrase_filter.h"
#include "storage/postgres/search_run.h"
#include "storage/sqlite/article_body.h"
#include "storage/store.h"
#include "testing/store_test.h"

namespace longread::storage {
namespace {

namespace fs = std::filesystem;

// A fresh directory per test, removed afterwards.
class TempDir {
 public:
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "longread-storage-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  [[nodiscard]] std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  fs::path path_;
};

// `n` words of a small vocabulary in the order a seeded generator gives, a full stop now and then: texts
// alike enough for a zstd dictionary to learn from, different enough to be different articles.
std::string seeded_words(std::uint64_t& seed, int n) {
  static constexpr std::array<const char*, 12> kWords = {"lighthouse", "keeper", "compiler",  "garden",
                                                         "harbor",     "ledger", "cathedral", "river",
                                                         "lisp",       "queue",  "cache",     "tide"};
  std::string out;
  for (int i = 0; i < n; ++i) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    out += kWords[(seed >> 33) % kWords.size()];
    out += (seed >> 40) % 9 == 0 ? ". " : " ";
  }
  return out;
}

// Runs one SQL query on a separate raw connection and returns one column (the first unless told) of each
// row as text.
std::vector<std::string> raw_query(const std::string& path, const char* sql, int column = 0) {
  sqlite3* db = nullptr;
  std::vector<std::string> out;
  if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr) != SQLITE_OK) {
    sqlite3_close(db);
    ADD_FAILURE() << "cannot open " << path;
    return out;
  }
  // The store's SQL functions, as its own connections have them: the search index's view reads bodies.
  longread::storage::sqlite::register_body_functions(
      db, std::make_shared<longread::storage::sqlite::BodyDictionaries>());
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db, sql, -1, &stmt, nullptr) != SQLITE_OK) {
    ADD_FAILURE() << sqlite3_errmsg(db);
  } else {
    while (sqlite3_step(stmt) == SQLITE_ROW) {
      const auto* text = sqlite3_column_text(stmt, column);
      out.emplace_back(text != nullptr ? reinterpret_cast<const char*>(text) : "NULL");
    }
  }
  sqlite3_finalize(stmt);
  sqlite3_close(db);
  return out;
}

// Runs a statement that returns no rows on a separate raw connection; returns SQLite's error or "".
std::string raw_exec(const std::string& path, const char* sql) {
  sqlite3* db = nullptr;
  std::string error;
  if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr) != SQLITE_OK) {
    error = "cannot open";
  } else {
    longread::storage::sqlite::register_body_functions(
        db, std::make_shared<longread::storage::sqlite::BodyDictionaries>());
    char* message = nullptr;
    if (sqlite3_exec(db, sql, nullptr, nullptr, &message) != SQLITE_OK)
      error = message != nullptr ? message : "?";
    sqlite3_free(message);
  }
  sqlite3_close(db);
  return error;
}

TimePoint day(int n) {
  return from_unix(1'700'000'000 + static_cast<std::int64_t>(n) * 86'400);
}

model::Article make_article(const std::string& guid, const std::string& title,
                            std::optional<TimePoint> published) {
  model::Article a;
  a.guid = guid;
  a.title = title;
  a.link = "https://example.org/" + guid;
  a.published = published;
  a.content_html = "<p>" + title + " body</p>";
  a.text = title + " body text about compilers and gardens";
  a.excerpt = a.text;
  a.word_count = 1500;
  a.reading_minutes = 7;
  return a;
}

CrawlRecord ok_record(std::int64_t blog_id, TimePoint at, std::vector<model::Article> articles = {}) {
  CrawlRecord r;
  r.blog_id = blog_id;
  r.attempted_at = at;
  r.success = true;
  r.status = "ok";
  r.next_due_at = at + std::chrono::hours(1);
  r.articles = std::move(articles);
  return r;
}

// What every test of this file does to a store, on either kind of fixture.
template <typename Base>
class StoreHelpers : public Base {
 protected:
  using Base::Base;

  std::int64_t add_blog(const std::string& feed_url, const std::string& category = "programming",
                        const std::string& title = "A blog") {
    auto id = this->store_->upsert_blog(
        {.feed_url = feed_url, .site_url = "", .title = title, .category = category});
    EXPECT_TRUE(id) << id.error().message;
    return id.value_or(0);
  }

  SaveStats save(const CrawlRecord& record) {
    auto stats = this->store_->save_crawl(record);
    EXPECT_TRUE(stats) << stats.error().message;
    return stats.value_or(SaveStats{});
  }

  std::vector<ArticleView> list(const ArticleQuery& query) {
    auto views = this->store_->articles(query);
    EXPECT_TRUE(views) << views.error().message;
    return views.value_or(std::vector<ArticleView>{});
  }

  static std::vector<std::string> titles(const std::vector<ArticleView>& views) {
    std::vector<std::string> out;
    for (const auto& v : views) out.push_back(v.article.title);
    return out;
  }

  // Six articles of one blog, three of them hidden: two judged junk, one hidden by the operator.
  void save_three_hidden() {
    const auto blog = add_blog("https://a.example/feed", "programming");
    std::vector<model::Article> articles;
    for (int i = 0; i < 6; ++i) articles.push_back(make_article(fmt::format("g{}", i), "Kept", day(i)));
    for (const int junk : {1, 4}) {
      articles[junk].junk = true;
      articles[junk].junk_reason = "too short";
    }
    save(ok_record(blog, day(7), articles));
    const auto keys = this->store_->article_keys(blog).value();
    ASSERT_EQ(keys.size(), 6u);
    ASSERT_TRUE(this->store_->set_keep_override(keys[2].id, false));
  }

  // Three articles of one blog, the second marked a copy of the first: {original, copy}.
  std::pair<std::int64_t, std::int64_t> save_original_and_copy() {
    const auto blog = add_blog("https://a.example/feed", "programming");
    std::vector<model::Article> articles;
    for (int i = 0; i < 3; ++i) articles.push_back(make_article(fmt::format("g{}", i), "Kept", day(i)));
    save(ok_record(blog, day(7), articles));
    std::int64_t original = 0;
    std::int64_t copy = 0;
    const auto keys = this->store_->article_keys(blog).value();
    for (const auto& key : keys) {
      if (key.guid == "g0") original = key.id;
      if (key.guid == "g1") copy = key.id;
    }
    const std::pair<std::int64_t, std::int64_t> mark{copy, original};
    EXPECT_TRUE(this->store_->mark_duplicates(std::span(&mark, 1)));
    return {original, copy};
  }
};

// The Store's behaviour, on both backends.
class StoreTest : public StoreHelpers<longread::testing::StoreSuite> {
 protected:
  StoreTest() : StoreHelpers("longread-storage") {}
  void SetUp() override {
    StoreHelpers::SetUp();
    path_ = db();
  }

  // One column of each row of `sql`, run on a connection of its own, as text ("NULL" for NULL).
  std::vector<std::string> raw_query(const std::string& db, const char* sql, int column = 0) {
    if (backend_ == longread::testing::Backend::kSqlite) return storage::raw_query(db, sql, column);
    return longread::testing::query_column(db, sql, column);
  }
  // What is wrong with the search index ("" when nothing). SQLite's FTS5 index is a structure of its own
  // that the store keeps in step, so it is checked; PostgreSQL's is a generated column with a GIN index
  // the server maintains, which cannot disagree with the rows.
  std::string search_index_problem() {
    if (backend_ == longread::testing::Backend::kPostgres) return "";
    return storage::raw_exec(path_, "INSERT INTO articles_fts (articles_fts) VALUES ('integrity-check')");
  }
  // Rebuilds the search index from the rows ("" when done).
  std::string rebuild_search_index() {
    if (backend_ == longread::testing::Backend::kSqlite) {
      return storage::raw_exec(path_, "INSERT INTO articles_fts (articles_fts) VALUES ('rebuild')");
    }
    auto conn = postgres::Connection::open(path_);
    if (!conn) return conn.error().message;
    auto done = conn->exec_script("REINDEX INDEX articles_search");
    return done ? "" : done.error().message;
  }
  // Rows that point at a missing row. PostgreSQL refuses such a write outright, so finds none by
  // construction; SQLite is asked.
  std::vector<std::string> foreign_key_problems() {
    if (backend_ == longread::testing::Backend::kPostgres) return {};
    return storage::raw_query(path_, "PRAGMA foreign_key_check");
  }

  // What is wrong with the database's files ("" when nothing): SQLite's integrity check, or on PostgreSQL
  // amcheck's verification of every B-tree index of the articles against its table.
  std::string integrity_problem() {
    if (backend_ == longread::testing::Backend::kSqlite) {
      const auto result = storage::raw_query(path_, "PRAGMA integrity_check");
      return result == std::vector<std::string>{"ok"} ? "" : fmt::format("{}", fmt::join(result, "; "));
    }
    auto conn = postgres::Connection::open(path_);
    if (!conn) return conn.error().message;
    auto checked = conn->exec_script(
        "CREATE EXTENSION IF NOT EXISTS amcheck;"
        " SELECT bt_index_check(c.oid, true) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid"
        " JOIN pg_am am ON am.oid = c.relam WHERE am.amname = 'btree' AND i.indrelid = 'articles'::regclass");
    return checked ? "" : checked.error().message;
  }

  std::string path_;  // what open_store opens: the SQLite file or the PostgreSQL URL
};

// What only the SQLite backend has: its file, its WAL, its FTS5 index and the formula BM25 is computed with.
class SqliteStoreTest : public StoreHelpers<longread::testing::StoreTest> {
 protected:
  SqliteStoreTest() : StoreHelpers("longread-storage-sqlite") {}
  void SetUp() override {
    StoreHelpers::SetUp();
    path_ = db();
  }
  [[nodiscard]] std::string file(const std::string& name) const { return (dir_ / name).string(); }

  std::string path_;
};

TEST_F(SqliteStoreTest, MigrationsApplyOnceAndReopenIsANoOp) {
  const auto versions = raw_query(path_, "SELECT version FROM schema_migrations ORDER BY version");
  ASSERT_GE(versions.size(), 4u);
  for (std::size_t i = 0; i < versions.size(); ++i) EXPECT_EQ(versions[i], std::to_string(i + 1));
  store_.reset();
  for (int i = 0; i < 2; ++i) {
    auto again = open_sqlite_store(path_);
    ASSERT_TRUE(again) << again.error().message;
  }
  EXPECT_EQ(raw_query(path_, "SELECT version FROM schema_migrations ORDER BY version"), versions);
  EXPECT_EQ(raw_query(path_, "PRAGMA journal_mode"), std::vector<std::string>{"wal"});
}

// A database made by an older longread (schema version 2, with data) is upgraded in place: the later
// migrations backfill what they add.
TEST(StoreUpgradeTest, UpgradeFromVersionTwoKeepsDataAndBackfills) {
  TempDir dir;
  const std::string path = dir.file("old.db");
  const fs::path migrations = fs::path(LONGREAD_SOURCE_DIR) / "src/storage/migrations";
  for (const char* file : {"0001_initial.sql", "0002_search_fts5.sql"}) {
    std::ifstream in(migrations / file);
    ASSERT_TRUE(in) << file;
    const std::string sql((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (auto* db = static_cast<sqlite3*>(nullptr); sqlite3_open(path.c_str(), &db) == SQLITE_OK) {
      EXPECT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
      sqlite3_close(db);
    }
  }
  ASSERT_EQ(
      raw_exec(
          path,
          "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
          " applied_at BIGINT NOT NULL);"
          "INSERT INTO schema_migrations VALUES (1, 'initial', 0), (2, 'search_fts5', 0);"
          "INSERT INTO categories (slug, name) VALUES ('history', 'History');"
          "INSERT INTO blogs (id, feed_url, category, created_at) VALUES (1, 'https://a/feed', 'history', 0);"
          "INSERT INTO articles (blog_id, guid, title, text, first_seen, display_at, category, junk, visible)"
          " VALUES (1, 'g1', 'Byzantine bureaucracy', 'Ledgers of Byzantium', 0, 0, 'history', 0, 1),"
          " (1, 'g2', 'Spam', 'Byzantine spam', 0, 0, 'history', 1, 0);"),
      "");
  auto store = open_sqlite_store(path);
  ASSERT_TRUE(store) << store.error().message;
  // Every version once, none skipped.
  EXPECT_EQ(raw_query(path,
                      "SELECT COUNT(DISTINCT version) = MAX(version) AND COUNT(*) = MAX(version) "
                      "AND MAX(version) >= 4 FROM schema_migrations"),
            std::vector<std::string>{"1"});
  EXPECT_EQ((*store)->blog(1).value()->article_count, 1);
  EXPECT_EQ((*store)->categories().value().at(0).article_count, 1);
  const auto hits = (*store)->search("byzantine", 10, 0);
  ASSERT_TRUE(hits) << hits.error().message;
  ASSERT_EQ(hits->size(), 1u);
  EXPECT_EQ(hits->at(0).view.article.guid, "g1");
  EXPECT_EQ(raw_exec(path, "INSERT INTO articles_fts (articles_fts) VALUES ('integrity-check')"), "");
}

// Builds a database as longread at schema version `version` left it: migrations 0001..version run from
// their files, each recorded in schema_migrations.
void create_database_at_version(const std::string& path, int version) {
  const fs::path folder = fs::path(LONGREAD_SOURCE_DIR) / "src/storage/migrations";
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(folder)) {
    if (entry.path().extension() == ".sql" && std::stoi(entry.path().filename().string()) <= version)
      files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  ASSERT_EQ(files.size(), static_cast<std::size_t>(version));
  std::string sql =
      "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
      " applied_at BIGINT NOT NULL);";
  for (const auto& file : files) {
    std::ifstream in(file);
    ASSERT_TRUE(in) << file;
    sql += std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::string stem = file.stem().string();  // "0005_readers"
    sql += "INSERT INTO schema_migrations VALUES (" + std::to_string(std::stoi(stem)) + ", '" +
           stem.substr(5) + "', 0);";
  }
  std::ofstream{path};  // an empty file is an empty database
  ASSERT_EQ(raw_exec(path, ("BEGIN;" + sql + "COMMIT;").c_str()), "");
}

// Migration 0009 adds confirmation by mail: readers who signed up before it (without mail) count as
// confirmed, so they keep logging in.
TEST(StoreUpgradeTest, UpgradeFromVersionEightConfirmsExistingReaders) {
  TempDir dir;
  const std::string path = dir.file("v8.db");
  create_database_at_version(path, 8);
  ASSERT_EQ(raw_exec(path,
                     "INSERT INTO readers (id, email, email_key, password_hash, created_at)"
                     " VALUES (1, 'Old@Example.org', 'old@example.org', '$argon2id$h', 1700000000);"),
            "");
  auto store = open_sqlite_store(path);
  ASSERT_TRUE(store) << store.error().message;
  auto old = (*store)->reader_by_email("old@example.org");
  ASSERT_TRUE(old && *old) << (old ? "no reader" : old.error().message);
  ASSERT_TRUE((*old)->confirmed_at);
  EXPECT_EQ(*(*old)->confirmed_at, from_unix(1700000000));
  EXPECT_EQ((*old)->password_hash, "$argon2id$h");
}

// Migration 0006 turns the stored hot score (kept by 0005's triggers) into a generated column. A
// database at version 5 with articles and votes keeps every score to the last bit and the same hot order,
// and the score still follows votes and dates afterwards.
TEST(StoreUpgradeTest, UpgradeFromVersionFiveKeepsHotScoresAndOrder) {
  TempDir dir;
  const std::string path = dir.file("v5.db");
  create_database_at_version(path, 5);
  std::string data =
      "INSERT INTO categories (slug, name) VALUES ('history', 'History');"
      "INSERT INTO blogs (id, feed_url, category, created_at) VALUES (1, 'https://a/feed', 'history', 0);"
      "INSERT INTO readers (id, email, email_key, password_hash, created_at) VALUES (1, 'r@x', 'r@x', 'h', "
      "0);";
  // 60 articles: dates spread over two years (some published after they were first seen, some undated
  // with published NULL), votes 0..9 set through the votes column as set_vote does, every 7th one junk.
  for (int i = 0; i < 60; ++i) {
    const std::int64_t first_seen = 1'650'000'000 + static_cast<std::int64_t>(i) * 997'331 % 63'000'000;
    const std::string published = i % 5 == 0 ? "NULL" : std::to_string(first_seen + (i % 3 - 1) * 86'400);
    const int votes = i * 7 % 10;
    data +=
        "INSERT INTO articles (id, blog_id, guid, title, text, published, first_seen, display_at,"
        " category, junk, visible, votes, score) VALUES (" +
        std::to_string(i + 1) + ", 1, 'g" + std::to_string(i) + "', 'Title " + std::to_string(i) +
        "', 'Text', " + published + ", " + std::to_string(first_seen) + ", COALESCE(" + published + ", " +
        std::to_string(first_seen) + "), 'history', " + (i % 7 == 0 ? "1, 0" : "0, 1") + ", 0, 12345.0);";
    if (votes > 0) {
      data += "INSERT INTO votes (reader_id, article_id, created_at) VALUES (1, " + std::to_string(i + 1) +
              ", 0);UPDATE articles SET votes = " + std::to_string(votes) +
              " WHERE id = " + std::to_string(i + 1) + ";";
    }
  }
  ASSERT_EQ(raw_exec(path, data.c_str()), "");
  const char* kScores = "SELECT id || ' ' || printf('%!.17g', score) FROM articles ORDER BY id";
  const char* kHotOrder =
      "SELECT id FROM articles WHERE visible = 1 ORDER BY score DESC, display_at DESC, id DESC";
  const auto scores_before = raw_query(path, kScores);
  const auto hot_before = raw_query(path, kHotOrder);
  ASSERT_EQ(scores_before.size(), 60u);
  // 0005's insert trigger replaced the 12345.0 given on insert.
  EXPECT_EQ(raw_query(path, "SELECT COUNT(*) FROM articles WHERE score = 12345.0"),
            std::vector<std::string>{"0"});

  {
    auto store = open_sqlite_store(path);
    ASSERT_TRUE(store) << store.error().message;
    EXPECT_EQ(raw_query(path, kScores), scores_before);
    EXPECT_EQ(raw_query(path, kHotOrder), hot_before);
    // The store's own hot listing walks the rebuilt index in the same order.
    auto hot = (*store)->articles({.order = ArticleOrder::kHot, .limit = 100});
    ASSERT_TRUE(hot) << hot.error().message;
    std::vector<std::string> listed;
    for (const auto& v : *hot) listed.push_back(std::to_string(v.article.id));
    EXPECT_EQ(listed, hot_before);
    // ... without sorting: the plan is one walk of articles_hot (the detail column of EXPLAIN QUERY PLAN).
    EXPECT_EQ(raw_query(path,
                        "EXPLAIN QUERY PLAN SELECT id FROM articles WHERE visible = 1"
                        " ORDER BY score DESC, display_at DESC, id DESC LIMIT 30",
                        3),
              std::vector<std::string>{"SEARCH articles USING INDEX articles_hot (visible=?)"});

    // After the upgrade the score still follows votes (article 2 had 7 votes, now 8).
    auto vote = (*store)->set_vote(1, 2, false, from_unix(0));
    ASSERT_TRUE(vote) << vote.error().message;
    auto view = (*store)->article(2).value();
    ASSERT_TRUE(view);
    EXPECT_EQ(view->article.votes, 6);
    EXPECT_DOUBLE_EQ(
        view->article.score,
        std::log10(7.0) +
            static_cast<double>(to_unix(view->article.display_date()) - 1'577'836'800) / 86'400.0);
  }
  EXPECT_EQ(raw_query(path, "PRAGMA integrity_check"), std::vector<std::string>{"ok"});
  EXPECT_EQ(raw_exec(path, "INSERT INTO articles_fts (articles_fts) VALUES ('integrity-check')"), "");
}

// On SQLite, prepare_crawl does the compression itself: one frame per article (none for an article with no
// body), and the row holds that very frame, so the writer did not compress it again.
TEST_F(SqliteStoreTest, PrepareCrawlCompressesEachBodyAndTheSaveStoresThatFrame) {
  const auto blog = add_blog("https://a.example/feed");
  auto bare = make_article("bare", "Nothing but a title", day(-1));
  bare.content_html.clear();
  bare.text.clear();
  bare.excerpt.clear();
  auto record = ok_record(blog, day(0), {bare, make_article("rich", "Ring buffers", day(-2))});
  ASSERT_TRUE(store_->prepare_crawl(record));
  ASSERT_EQ(record.prepared_bodies.size(), 2u);
  EXPECT_TRUE(record.prepared_bodies[0].empty());
  ASSERT_GE(record.prepared_bodies[1].size(), 4u);
  EXPECT_EQ(record.prepared_bodies[1].substr(0, 4), std::string("\x28\xb5\x2f\xfd")) << "a zstd frame";
  std::string hex = "X'";
  for (const char c : record.prepared_bodies[1]) hex += fmt::format("{:02X}", static_cast<unsigned char>(c));
  hex += "'";
  save(record);
  EXPECT_EQ(raw_query(path_, "SELECT quote(body) FROM articles ORDER BY guid"),
            (std::vector<std::string>{"NULL", hex}));
}

// Crash quarantine's marks are kept in a companion file with a lock of its own (parse_marks.h): a mark is
// made while another connection holds the database's write lock, as the crawl's save queue holds it for a
// whole group of blogs, instead of waiting for it (and failing after the busy timeout).
TEST_F(SqliteStoreTest, AParseMarkIsMadeWhileTheDatabaseIsLockedForWriting) {
  const auto blog = add_blog("https://a.example/feed");
  sqlite3* other = nullptr;
  ASSERT_EQ(sqlite3_open_v2(path_.c_str(), &other, SQLITE_OPEN_READWRITE, nullptr), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(other, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr), SQLITE_OK);
  const TimePoint since = now_seconds();
  auto marked = store_->mark_parsing(blog, "host:1:abc", since);
  sqlite3_exec(other, "ROLLBACK", nullptr, nullptr, nullptr);
  sqlite3_close(other);
  ASSERT_TRUE(marked) << marked.error().message;
  const auto marks = store_->parsing_marks().value();
  ASSERT_EQ(marks.size(), 1u);
  EXPECT_EQ(marks[0].blog_id, blog);
  EXPECT_EQ(marks[0].owner, "host:1:abc");
  EXPECT_EQ(marks[0].since, since);
  EXPECT_TRUE(std::filesystem::exists(path_ + "-parsing"));
  // Taken once: of two processes finding this dead mark, one records the crash.
  const storage::CrawlerCrash crash{.mark = marks[0], .crashes = 1, .status = "crashed", .now = since};
  EXPECT_TRUE(store_->record_crawler_crash(crash).value());
  EXPECT_FALSE(store_->record_crawler_crash(crash).value());
  EXPECT_TRUE(store_->parsing_marks().value().empty());
}

// A mark covers a parse, and a record handed to the save was parsed to the end: its mark is gone before the
// save can commit. A process killed just after the commit then leaves no mark of a blog it saved, for the
// next pass to count as a crash (on PostgreSQL the save's own UPDATE clears the mark, in the same
// transaction). Looked at from the duplicate decision, which runs last inside the save's transaction.
TEST_F(SqliteStoreTest, ASavedBlogsParseMarkIsGoneBeforeTheSaveCommits) {
  const auto blog = add_blog("https://a.example/feed");
  const auto other = add_blog("https://b.example/feed");
  ASSERT_TRUE(store_->mark_parsing(blog, "host:1:abc", now_seconds()));
  ASSERT_TRUE(store_->mark_parsing(other, "host:1:abc", now_seconds()));
  const CrawlRecord record = ok_record(blog, day(0), {make_article("1", "One", day(-1))});
  std::vector<ParsingMark> inside;
  bool decided = false;
  auto saved = store_->save_crawls(
      std::span(&record, 1), [&](DuplicateDecision&, std::span<const Result<SaveStats>>) -> Result<void> {
        decided = true;
        auto marks = store_->parsing_marks();
        if (!marks) return std::unexpected(marks.error());
        inside = std::move(*marks);
        return {};
      });
  ASSERT_TRUE(saved) << saved.error().message;
  ASSERT_TRUE(decided);
  ASSERT_EQ(inside.size(), 1u) << "the saved blog's mark was still there inside the save's transaction";
  EXPECT_EQ(inside[0].blog_id, other) << "a mark of a blog not in the save stays";
  EXPECT_EQ(store_->parsing_marks().value().size(), 1u);
  EXPECT_EQ(store_->blog(blog).value()->crashes, 0);
}

// A mark an older longread left in the blogs table is still found and recorded.
TEST_F(SqliteStoreTest, AParseMarkLeftInTheBlogsTableIsStillACrash) {
  const auto blog = add_blog("https://a.example/feed");
  raw_query(path_,
            fmt::format("UPDATE blogs SET parsing_by = 'old:1:x', parsing_since = 1000 WHERE id = {}", blog)
                .c_str());
  const auto marks = store_->parsing_marks().value();
  ASSERT_EQ(marks.size(), 1u);
  EXPECT_EQ(marks[0].owner, "old:1:x");
  const storage::CrawlerCrash crash{
      .mark = marks[0], .crashes = 1, .status = "crashed", .now = now_seconds()};
  EXPECT_TRUE(store_->record_crawler_crash(crash).value());
  EXPECT_FALSE(store_->record_crawler_crash(crash).value());
  EXPECT_TRUE(store_->parsing_marks().value().empty());
  EXPECT_EQ(store_->blog(blog).value()->crashes, 1);
}

TEST_F(SqliteStoreTest, OpeningAFileThatIsNotADatabaseIsAClearError) {
  const std::string bogus = file("bogus.db");
  std::ofstream(bogus) << std::string(8192, 'x');
  auto store = open_sqlite_store(bogus);
  ASSERT_FALSE(store);
  EXPECT_EQ(store.error().kind, ErrorKind::kStorage);
  EXPECT_EQ(store.error().message, "store: cannot open " + bogus + ": file is not a database");
}

// The moderation list and the site's count of junk read a partial index of the hidden articles alone
// (migration 0034); the list used to read the whole table, since an index that began with `junk` could not
// serve its OR.
TEST_F(SqliteStoreTest, JunkIsListedAndCountedFromAnIndexOfTheHiddenArticlesAlone) {
  save_three_hidden();

  EXPECT_EQ(raw_query(path_,
                      "EXPLAIN QUERY PLAN SELECT a.id FROM articles a WHERE a.junk = 1 OR a.keep_override = 0"
                      " ORDER BY a.first_seen DESC, a.id DESC LIMIT 10",
                      3),
            std::vector<std::string>{"SCAN a USING INDEX articles_junk"});
  EXPECT_EQ(raw_query(path_, "EXPLAIN QUERY PLAN SELECT COUNT(*) FROM articles WHERE junk = 1", 3),
            std::vector<std::string>{"SCAN articles USING COVERING INDEX articles_junk"});
  // The index's first statistic is its number of entries: the three hidden rows.
  raw_exec(path_, "ANALYZE");
  EXPECT_EQ(raw_query(path_,
                      "SELECT substr(stat, 1, instr(stat, ' ') - 1) FROM sqlite_stat1"
                      " WHERE idx = 'articles_junk'"),
            std::vector<std::string>{"3"});
  EXPECT_EQ(store_->recent_junk(10).value().size(), 3u);
  EXPECT_EQ(store_->site_stats(day(8)).value().articles_junk, 2);
}

// The index of copies holds the copies alone (migration 0035): the foreign key that frees a copy when its
// original is deleted asks for `duplicate_of = ?`, which that index still serves, while an original, every
// other row, writes no entry.
TEST_F(SqliteStoreTest, OnlyCopiesAreInTheIndexOfCopiesAndDeletingAnOriginalStillFreesItsCopy) {
  const auto [original, copy] = save_original_and_copy();

  raw_exec(path_, "ANALYZE");
  EXPECT_EQ(raw_query(path_,
                      "SELECT substr(stat, 1, instr(stat, ' ') - 1) FROM sqlite_stat1"
                      " WHERE idx = 'articles_duplicate_of'"),
            std::vector<std::string>{"1"});
  EXPECT_EQ(raw_query(path_,
                      "EXPLAIN QUERY PLAN UPDATE articles SET duplicate_of = NULL WHERE duplicate_of = 5", 3),
            std::vector<std::string>{"SEARCH articles USING INDEX articles_duplicate_of (duplicate_of=?)"});
  const std::string remove =
      fmt::format("PRAGMA foreign_keys = ON; DELETE FROM articles WHERE id = {}", original);
  ASSERT_EQ(raw_exec(path_, remove.c_str()), "");
  EXPECT_EQ(store_->article(copy).value()->article.duplicate_of, std::nullopt);
}

TEST_F(SqliteStoreTest, OpenCreatesTheDirectory) {
  auto store = open_sqlite_store(file("nested/data/longread.db"));
  ASSERT_TRUE(store) << store.error().message;
}

TEST_P(StoreTest, UpsertBlogIsIdempotentByFeedUrl) {
  const auto a = add_blog("https://a.example/feed", "programming", "A");
  const auto again = add_blog("https://a.example/feed", "history", "A renamed");
  const auto b = add_blog("https://b.example/feed");
  EXPECT_EQ(a, again);
  EXPECT_NE(a, b);
  EXPECT_EQ(store_->blog_count().value(), 2);
  auto blog = store_->blog(a).value();
  ASSERT_TRUE(blog);
  EXPECT_EQ(blog->title, "A renamed");
  EXPECT_EQ(blog->category, "history");
  EXPECT_FALSE(blog->next_due_at);
  auto by_url = store_->blog_by_feed_url("https://b.example/feed").value();
  ASSERT_TRUE(by_url);
  EXPECT_EQ(by_url->id, b);
  EXPECT_FALSE(store_->blog_by_feed_url("https://nope.example/").value());
  EXPECT_FALSE(store_->blog(9999).value());
}

TEST_P(StoreTest, UpsertBlogCreatesItsCategoryWithATitleCasedName) {
  add_blog("https://a.example/feed", "machine-learning");
  add_blog("https://b.example/feed", "");
  auto categories = store_->categories().value();
  ASSERT_EQ(categories.size(), 2u);
  EXPECT_EQ(categories[0].slug, "machine-learning");
  EXPECT_EQ(categories[0].name, "Machine Learning");
  EXPECT_EQ(categories[1].slug, "uncategorized");
  EXPECT_EQ(categories[1].name, "Uncategorized");
}

TEST_P(StoreTest, SaveCrawlCountsInsertedUpdatedUnchanged) {
  const auto blog = add_blog("https://a.example/feed");
  auto first =
      save(ok_record(blog, day(0), {make_article("1", "One", day(-1)), make_article("2", "Two", day(-2))}));
  EXPECT_EQ(first.inserted, 2);
  EXPECT_EQ(first.updated, 0);
  EXPECT_EQ(first.unchanged, 0);

  auto changed = make_article("2", "Two, revised", day(-2));
  auto second = save(ok_record(
      blog, day(1), {make_article("1", "One", day(-1)), changed, make_article("3", "Three", day(0))}));
  EXPECT_EQ(second.inserted, 1);
  EXPECT_EQ(second.updated, 1);
  EXPECT_EQ(second.unchanged, 1);
  EXPECT_EQ(store_->article_count().value(), 3);
  EXPECT_EQ(store_->count_articles({}).value(), 3);
}

// A save tells the row of each of its articles, in the record's order, whether it inserted, updated or left
// it, and the rows the blog's cap deleted: the near-duplicate decision reads them there instead of reading
// the blog's rows again.
TEST_P(StoreTest, ASaveTellsEachArticlesRowAndTheRowsItsCapDeleted) {
  const auto blog = add_blog("https://a.example/feed");
  const auto first =
      save(ok_record(blog, day(0), {make_article("1", "One", day(-3)), make_article("2", "Two", day(-2))}));
  auto row_of = [&] {
    std::map<std::string, std::int64_t> out;
    const auto keys = store_->article_keys(blog).value();
    for (const auto& key : keys) out[key.guid] = key.id;
    return out;
  };
  auto rows = row_of();
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(first.ids, (std::vector<std::int64_t>{rows.at("1"), rows.at("2")}));
  EXPECT_TRUE(first.deleted_ids.empty());

  // Two new posts, one of them first; the feed holds them alone, and the blog may keep three.
  auto capped = ok_record(blog, day(1),
                          {make_article("4", "Four", day(0)), make_article("2", "Two, revised", day(-2)),
                           make_article("3", "Three", day(-1))});
  capped.max_articles = 3;
  capped.feed_guids = {"4", "2", "3"};
  const auto second = save(capped);
  EXPECT_EQ(second.inserted, 2);
  EXPECT_EQ(second.updated, 1);
  EXPECT_EQ(second.deleted, 1);
  const auto before = rows;
  rows = row_of();
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(second.ids, (std::vector<std::int64_t>{rows.at("4"), before.at("2"), rows.at("3")}));
  EXPECT_EQ(second.deleted_ids, (std::vector<std::int64_t>{before.at("1")}))
      << "the one the feed no longer holds";
  EXPECT_FALSE(rows.contains("1"));
}

TEST_P(StoreTest, UpdateKeepsIdVotesFirstSeenAndKeepOverride) {
  const auto blog = add_blog("https://a.example/feed");
  auto original = make_article("g", "Original", std::nullopt);
  original.votes = 5;
  original.score = 2.5;
  original.junk = true;
  original.junk_reason = "too short";
  save(ok_record(blog, day(0), {original}));
  auto keys = store_->article_keys(blog).value();
  ASSERT_EQ(keys.size(), 1u);
  const auto id = keys[0].id;
  auto kept = store_->set_keep_override(id, true);
  ASSERT_TRUE(kept) << kept.error().message;

  auto revised = make_article("g", "Revised", std::nullopt);
  revised.junk = true;
  revised.junk_reason = "still short";
  revised.first_seen = day(3);  // a later first_seen from the pipeline must not move the stored one
  auto stats = save(ok_record(blog, day(3), {revised}));
  EXPECT_EQ(stats.updated, 1);

  auto view = store_->article(id).value();
  ASSERT_TRUE(view);
  const auto& a = view->article;
  EXPECT_EQ(a.id, id);
  EXPECT_EQ(a.title, "Revised");
  EXPECT_EQ(a.votes, 5);
  // The store owns the hot score (migration 0005): log10(1 + votes) + days since 2020 of the date.
  EXPECT_DOUBLE_EQ(a.score,
                   std::log10(6.0) + static_cast<double>(to_unix(day(0)) - 1'577'836'800) / 86'400.0);
  EXPECT_EQ(a.first_seen, day(0));
  EXPECT_EQ(a.display_date(), day(0));
  EXPECT_TRUE(a.undated == false);
  EXPECT_EQ(a.keep_override, std::optional<bool>(true));
  EXPECT_EQ(a.junk_reason, "still short");
  // Junk, but the operator kept it: visible.
  EXPECT_EQ(titles(list({})), std::vector<std::string>{"Revised"});

  ASSERT_TRUE(store_->set_keep_override(id, std::nullopt));
  EXPECT_TRUE(list({}).empty());
  EXPECT_EQ(titles(list({.include_junk = true})), std::vector<std::string>{"Revised"});
  ASSERT_TRUE(store_->set_keep_override(id, false));
  EXPECT_EQ(store_->recent_junk(10).value().size(), 1u);
  auto missing = store_->set_keep_override(424242, true);
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().kind, ErrorKind::kNotFound);
}

// A feed may give any link and guid, of any length: a link of 10,000 varied characters (past the 2,704
// bytes a PostgreSQL B-tree entry may hold, which the link's index was until it became a hash) is stored,
// and listed like any other, beside a plain article of the same crawl.
TEST_P(StoreTest, AnArticleWithAVeryLongLinkIsStoredAndListed) {
  const auto blog = add_blog("https://a.example/feed");
  std::string link = "https://a.example/";
  for (int i = 0; link.size() < 10'000; ++i) link += fmt::format("{:x}-", (i * 2654435761u) % 1000003);
  auto long_one = make_article("long", "Long link", day(1));
  long_one.link = link;
  const auto stats = save(ok_record(blog, day(2), {long_one, make_article("plain", "Plain", day(1))}));
  EXPECT_EQ(stats.inserted, 2);
  const auto listed = list({});
  ASSERT_EQ(listed.size(), 2u);
  EXPECT_EQ(listed.at(0).article.link.size() + listed.at(1).article.link.size(),
            link.size() + std::string("https://example.org/plain").size());
}

TEST_P(StoreTest, ContentHashFromThePipelineDecidesUnchanged) {
  const auto blog = add_blog("https://a.example/feed");
  auto a = make_article("g", "Title", day(0));
  a.content_hash = "feedhash1";
  save(ok_record(blog, day(0), {a}));
  EXPECT_EQ(store_->article_keys(blog).value().at(0).content_hash, "feedhash1");
  a.content_html = "<p>full text fetched from the page</p>";  // same feed hash: unchanged
  a.full_text_fetched = true;
  a.text = "full text fetched from the page";
  auto stats = save(ok_record(blog, day(1), {a}));
  EXPECT_EQ(stats.unchanged, 1);
  auto keys = store_->article_keys(blog).value();
  EXPECT_TRUE(keys.at(0).full_text_fetched);  // curation refreshed
  EXPECT_EQ(store_->article(keys.at(0).id).value()->article.text, "full text fetched from the page");
}

TEST_P(StoreTest, StoreComputesTheContentHashWhenNotGiven) {
  const auto blog = add_blog("https://a.example/feed");
  auto a = make_article("g", "Title", day(0));
  save(ok_record(blog, day(0), {a}));
  EXPECT_EQ(store_->article_keys(blog).value().at(0).content_hash,
            stable_hash_hex(a.title + "\x1f" + a.summary_html + "\x1f" + a.content_html));
}

TEST_P(StoreTest, FailedCrawlKeepsArticlesAndRecordsTheError) {
  const auto blog = add_blog("https://a.example/feed");
  auto ok = ok_record(blog, day(0), {make_article("1", "One", day(0))});
  ok.etag = "\"v1\"";
  ok.last_modified = "Tue, 14 Nov 2023 22:13:20 GMT";
  save(ok);

  CrawlRecord failed;
  failed.blog_id = blog;
  failed.attempted_at = day(1);
  failed.success = false;
  failed.status = "HTTP 503";
  failed.error = "HTTP 503 Service Unavailable";
  failed.consecutive_failures = 3;
  failed.next_due_at = day(2);
  save(failed);

  auto b = store_->blog(blog).value();
  ASSERT_TRUE(b);
  EXPECT_EQ(b->last_status, "HTTP 503");
  EXPECT_EQ(b->last_error, "HTTP 503 Service Unavailable");
  EXPECT_EQ(b->last_error_at, day(1));
  EXPECT_EQ(b->last_attempt_at, day(1));
  EXPECT_EQ(b->last_success_at, day(0));
  EXPECT_EQ(b->consecutive_failures, 3);
  EXPECT_EQ(b->next_due_at, day(2));
  EXPECT_EQ(b->etag, "\"v1\"");  // not given: kept
  EXPECT_EQ(b->last_modified, "Tue, 14 Nov 2023 22:13:20 GMT");
  EXPECT_EQ(b->article_count, 1);

  save(ok_record(blog, day(2)));
  b = store_->blog(blog).value();
  EXPECT_EQ(b->last_error, "");
  EXPECT_EQ(b->last_error_at, day(1));
  EXPECT_EQ(b->consecutive_failures, 0);
}

TEST_P(StoreTest, SaveCrawlForAMissingBlogIsNotFound) {
  auto stats = store_->save_crawl(ok_record(77, day(0), {make_article("1", "One", day(0))}));
  ASSERT_FALSE(stats);
  EXPECT_EQ(stats.error().kind, ErrorKind::kNotFound);
  EXPECT_EQ(store_->article_count().value(), 0);
}

TEST_P(StoreTest, PermanentRedirectUpdatesFeedUrlAndFeedMetadataFillsBlanks) {
  const auto blog = add_blog("http://a.example/feed", "programming", "");
  const auto other = add_blog("https://taken.example/feed");
  auto r = ok_record(blog, day(0));
  r.new_feed_url = "https://a.example/feed.xml";
  r.feed_title = "Feed Title";
  r.site_url = "https://a.example/";
  r.author = "Ada";
  save(r);
  auto b = store_->blog(blog).value();
  EXPECT_EQ(b->feed_url, "https://a.example/feed.xml");
  EXPECT_EQ(b->title, "Feed Title");
  EXPECT_EQ(b->site_url, "https://a.example/");
  EXPECT_EQ(b->author, "Ada");

  // The list's title wins over the feed's; a redirect onto another blog's feed URL is not applied.
  auto r2 = ok_record(other, day(1));
  r2.feed_title = "Other feed title";
  r2.new_feed_url = "https://a.example/feed.xml";
  save(r2);
  auto o = store_->blog(other).value();
  EXPECT_EQ(o->title, "A blog");
  EXPECT_EQ(o->feed_url, "https://taken.example/feed");
}

TEST_P(StoreTest, DueBlogsAreOrderedByNextDueNeverCrawledFirst) {
  const auto never = add_blog("https://never.example/feed");
  const auto later = add_blog("https://later.example/feed");
  const auto sooner = add_blog("https://sooner.example/feed");
  const auto future = add_blog("https://future.example/feed");
  auto r = ok_record(later, day(0));
  r.next_due_at = day(2);
  save(r);
  r = ok_record(sooner, day(0));
  r.next_due_at = day(1);
  save(r);
  r = ok_record(future, day(0));
  r.next_due_at = day(10);
  save(r);
  auto due = store_->due_blogs(day(3)).value();
  std::vector<std::int64_t> ids;
  for (const auto& b : due) ids.push_back(b.id);
  EXPECT_EQ(ids, (std::vector<std::int64_t>{never, sooner, later}));
  EXPECT_EQ(store_->due_blogs(day(-1)).value().size(), 1u);
}

TEST_P(StoreTest, ListingsOrderFilterAndPaginate) {
  const auto prog = add_blog("https://p.example/feed", "programming", "Prog");
  const auto hist = add_blog("https://h.example/feed", "history", "Hist");
  auto old_one = make_article("old", "Old", day(-10));
  old_one.votes = 10;
  old_one.score = 0.5;
  auto mid = make_article("mid", "Mid", day(-5));
  mid.votes = 3;
  mid.score = 9.0;
  auto undated = make_article("undated", "Undated", std::nullopt);  // first seen at day(0): newest
  undated.undated = true;
  auto junk = make_article("junk", "Junk", day(-1));
  junk.junk = true;
  auto filed = make_article("filed", "Filed under history", day(-3));
  filed.category = "history";
  save(ok_record(prog, day(0), {old_one, mid, undated, junk, filed}));
  save(ok_record(hist, day(0), {make_article("h1", "Hist one", day(-2))}));

  EXPECT_EQ(titles(list({})),
            (std::vector<std::string>{"Undated", "Hist one", "Filed under history", "Mid", "Old"}));
  EXPECT_EQ(titles(list({.order = ArticleOrder::kTop})).front(), "Old");
  // Hot (migration 0005): Mid's 3 votes are worth log10(4) = 0.6 days of newness; Undated is 5 days newer.
  EXPECT_EQ(titles(list({.order = ArticleOrder::kHot})),
            (std::vector<std::string>{"Undated", "Hist one", "Filed under history", "Mid", "Old"}));
  EXPECT_EQ(titles(list({.blog_id = hist})), std::vector<std::string>{"Hist one"});
  EXPECT_EQ(titles(list({.category = "history"})),
            (std::vector<std::string>{"Hist one", "Filed under history"}));
  EXPECT_EQ(titles(list({.since = day(-4)})),
            (std::vector<std::string>{"Undated", "Hist one", "Filed under history"}));
  // `until` is exclusive: Hist one, dated exactly day(-2), is not in [day(-6), day(-2)).
  EXPECT_EQ(titles(list({.since = day(-6), .until = day(-2)})),
            (std::vector<std::string>{"Filed under history", "Mid"}));
  EXPECT_EQ(titles(list({.until = day(-2), .order = ArticleOrder::kTop})),
            (std::vector<std::string>{"Old", "Mid", "Filed under history"}));
  EXPECT_EQ(store_->count_articles({.since = day(-6), .until = day(-2)}).value(), 2);
  EXPECT_EQ(titles(list({.exclude_blog_id = prog})), std::vector<std::string>{"Hist one"});
  EXPECT_EQ(titles(list({.limit = 2, .offset = 2})),
            (std::vector<std::string>{"Filed under history", "Mid"}));
  EXPECT_EQ(list({.include_junk = true}).size(), 6u);
  EXPECT_EQ(store_->count_articles({.category = "programming"}).value(), 3);
  EXPECT_EQ(store_->count_articles({.include_junk = true}).value(), 6);

  const auto views = list({.blog_id = hist});
  ASSERT_EQ(views.size(), 1u);
  EXPECT_EQ(views[0].blog_title, "Hist");
  EXPECT_EQ(views[0].blog_category, "history");
  EXPECT_EQ(views[0].article.category, "history");
  auto first = list({.limit = 1}).at(0).article.id;
  auto rest = list({.exclude_article_id = first});
  EXPECT_EQ(rest.size(), 4u);
}

TEST_P(StoreTest, CategoriesCountVisibleArticlesAndFollowTheBlog) {
  const auto blog = add_blog("https://p.example/feed", "programming");
  auto junk = make_article("j", "Junk", day(0));
  junk.junk = true;
  auto science = make_article("s", "Science", day(0));
  science.category = "science";
  save(ok_record(blog, day(0), {make_article("a", "A", day(0)), junk, science}));
  auto categories = store_->categories().value();
  ASSERT_EQ(categories.size(), 2u);
  EXPECT_EQ(categories[0].slug, "programming");
  EXPECT_EQ(categories[0].article_count, 1);
  EXPECT_EQ(categories[1].slug, "science");
  EXPECT_EQ(categories[1].article_count, 1);

  // Re-filing the blog moves the articles that fell back to its category, not the classified one.
  add_blog("https://p.example/feed", "history");
  EXPECT_EQ(store_->count_articles({.category = "history"}).value(), 1);
  EXPECT_EQ(store_->count_articles({.category = "science"}).value(), 1);
  EXPECT_EQ(store_->count_articles({.category = "programming"}).value(), 0);
}

TEST_P(StoreTest, TextWithSqlAndHtmlIsStoredVerbatim) {
  const auto blog = add_blog("https://a.example/feed");
  auto a = make_article("'; DROP TABLE articles; --", "Robert'); DROP TABLE blogs;-- <script>", day(0));
  a.content_html = "<p onclick=\"x()\">It's \"quoted\" \\ and NUL-free ユニコード</p>";
  a.text = "SELECT * FROM articles WHERE 1=1; -- 'quote' \"dq\"";
  save(ok_record(blog, day(0), {a}));
  auto keys = store_->article_keys(blog).value();
  ASSERT_EQ(keys.size(), 1u);
  auto view = store_->article(keys[0].id).value();
  ASSERT_TRUE(view);
  EXPECT_EQ(view->article.guid, a.guid);
  EXPECT_EQ(view->article.title, a.title);
  EXPECT_EQ(view->article.content_html, a.content_html);
  EXPECT_EQ(view->article.text, a.text);
  EXPECT_EQ(store_->blog_count().value(), 1);
}

TEST_P(StoreTest, SimhashRoundTripsAllSixtyFourBits) {
  const auto blog = add_blog("https://a.example/feed");
  auto a = make_article("g", "T", day(0));
  a.simhash = 0xFEDCBA9876543210ULL;
  save(ok_record(blog, day(0), {a}));
  EXPECT_EQ(list({}).at(0).article.simhash, 0xFEDCBA9876543210ULL);
}

TEST_P(StoreTest, SearchRanksMatchesWithSnippetMarkersAndSkipsJunk) {
  const auto blog = add_blog("https://a.example/feed", "programming", "Blog");
  auto lisp = make_article("lisp", "Garbage collection in Lisp", day(0));
  lisp.text = "A long essay about garbage collection. Mark and sweep, generational collectors and more.";
  auto rust = make_article("rust", "Ownership in Rust", day(0));
  rust.text = "Ownership replaces garbage collection in Rust; the borrow checker enforces it.";
  auto junk = make_article("junk", "Garbage collection giveaway", day(0));
  junk.text = "Win garbage collection stickers";
  junk.junk = true;
  auto accents = make_article("cafe", "Café culture", day(0));
  accents.text = "Notes from a café in Zürich.";
  save(ok_record(blog, day(0), {lisp, rust, junk, accents}));

  auto hits = store_->search("garbage collection", 10, 0);
  ASSERT_TRUE(hits) << hits.error().message;
  ASSERT_EQ(hits->size(), 2u);
  // The title match ranks first (title weighs 10x the text).
  EXPECT_EQ(hits->at(0).view.article.title, "Garbage collection in Lisp");
  EXPECT_EQ(hits->at(0).view.blog_title, "Blog");
  EXPECT_NE(hits->at(1).snippet.find("\x01garbage\x02 \x01"
                                     "collection\x02"),
            std::string::npos)
      << hits->at(1).snippet;
  EXPECT_EQ(store_->search("garbage collection", 10, 1).value().size(), 1u);
  // Diacritics are folded: "cafe" finds "café".
  EXPECT_EQ(store_->search("cafe zurich", 10, 0).value().size(), 1u);
  EXPECT_TRUE(store_->search("nonexistentword", 10, 0).value().empty());

  // Later edits are indexed by the triggers.
  rust.title = "Ownership in Rust, revised";
  rust.text = "Now about lifetimes only.";
  save(ok_record(blog, day(1), {rust}));
  EXPECT_EQ(store_->search("garbage", 10, 0).value().size(), 1u);
  EXPECT_EQ(store_->search("lifetimes", 10, 0).value().size(), 1u);
}

// Migration 0007: save_crawl writes the index entries of new articles itself, after the crawl's rows. After
// crawls that insert, edit, junk, keep and repeat a guid, every search gives what an index rebuilt from the
// visible articles gives (same hits, order and snippets), and FTS5's integrity check passes.
TEST_F(SqliteStoreTest, SearchIndexEqualsARebuiltIndexAfterCrawls) {
  const std::vector<std::string> words = {"lisp",   "garbage",   "ledger", "cathedral", "compiler", "river",
                                          "Zürich", "telescope", "borrow", "checker",   "garden",   "tide"};
  auto text_of = [&](int seed, int length) {
    std::string text;
    for (int w = 0; w < length; ++w) {
      text += (w > 0 ? " " : "") + words[static_cast<std::size_t>((seed * 31 + w * w * 7 + w) % 12)];
    }
    return text;
  };
  std::vector<std::int64_t> blogs;
  for (int b = 0; b < 3; ++b) blogs.push_back(add_blog("https://" + std::to_string(b) + ".example/feed"));
  for (int crawl = 0; crawl < 3; ++crawl) {
    for (std::size_t b = 0; b < blogs.size(); ++b) {
      std::vector<model::Article> articles;
      for (int i = 0; i < 30; ++i) {
        const int seed = static_cast<int>(b) * 100 + i;
        // Crawl 1 edits every 4th article; crawl 2 adds ten more.
        if (crawl == 2 && i < 20) continue;
        auto a = make_article("g" + std::to_string(i + (crawl == 2 ? 10 : 0)), text_of(seed, 3), day(i));
        a.text = text_of(seed + (crawl == 1 && i % 4 == 0 ? 7 : 0), 20 + i);
        a.junk = i % 9 == 0;
        articles.push_back(a);
      }
      // A feed that repeats a guid with other content: inserted, then updated, in one transaction.
      if (crawl == 0) {
        auto again = articles.at(3);
        again.title = "Repeated guid, second version";
        again.text = "Nothing but the tide and a telescope";
        articles.push_back(again);
      }
      save(ok_record(blogs[b], day(crawl), articles));
    }
    if (crawl == 0) {
      // The repeated guid's second version is indexed, and its first version's entry was removed cleanly.
      EXPECT_EQ(store_->search("repeated guid", 10, 0).value().size(), 3u);
      EXPECT_EQ(raw_exec(path_, "INSERT INTO articles_fts (articles_fts) VALUES ('integrity-check')"), "");
    }
  }
  auto some = store_->article_keys(blogs[1]).value();
  ASSERT_GE(some.size(), 3u);
  ASSERT_TRUE(store_->set_keep_override(some[0].id, true));
  ASSERT_TRUE(store_->set_keep_override(some[1].id, false));

  EXPECT_EQ(raw_exec(path_, "INSERT INTO articles_fts (articles_fts) VALUES ('integrity-check')"), "");
  const std::vector<std::string> queries = {"garbage",        "ledger cathedral", "zurich",
                                            "tide telescope", "repeated guid",    "lisp compiler river",
                                            "second version"};
  auto results = [&] {
    std::vector<std::string> out;
    for (const auto& query : queries) {
      auto hits = store_->search(query, 1000, 0);
      EXPECT_TRUE(hits) << hits.error().message;
      out.push_back("query " + query);
      for (const auto& hit : hits.value_or(std::vector<SearchHit>{}))
        out.push_back(std::to_string(hit.view.article.id) + " " + hit.snippet);
    }
    return out;
  };
  const auto before = results();
  EXPECT_GT(before.size(), queries.size() + 100);
  ASSERT_EQ(raw_exec(path_, "INSERT INTO articles_fts (articles_fts) VALUES ('rebuild')"), "");
  EXPECT_EQ(results(), before);
}

TEST_P(StoreTest, DeletingABlogTakesItsArticlesAndLeavesEverythingElseConsistent) {
  const auto gone = add_blog("https://gone.example/feed", "history");
  const auto kept = add_blog("https://kept.example/feed", "history");
  auto gone_a = make_article("g1", "Zeppelins over the Channel", day(1));
  gone_a.text = "zeppelin airship history";
  auto gone_junk = make_article("g2", "Short", day(2));
  gone_junk.junk = true;
  auto kept_a = make_article("k1", "Ledgers of Byzantium", day(3));
  kept_a.text = "zeppelin ledger history";
  save(ok_record(gone, day(4), {gone_a, gone_junk}));
  save(ok_record(kept, day(4), {kept_a}));
  auto id_of = [&](std::int64_t blog, const std::string& guid) {
    const auto keys = store_->article_keys(blog).value();
    for (const auto& key : keys) {
      if (key.guid == guid) return key.id;
    }
    ADD_FAILURE() << "no article " << guid;
    return std::int64_t{0};
  };
  const auto gone_id = id_of(gone, "g1");
  const auto kept_id = id_of(kept, "k1");
  // A reader voted for and saved the article that goes; a copy on the other blog points at it.
  const auto reader = store_->create_reader("r@example.org", "h", day(5), day(5)).value();
  ASSERT_TRUE(store_->set_vote(reader, gone_id, true, day(5)));
  ASSERT_TRUE(store_->set_saved(reader, gone_id, true, day(5)));
  ASSERT_TRUE(store_->set_saved(reader, kept_id, true, day(5)));
  auto copy = make_article("k2", "Zeppelins over the Channel (copy)", day(6));
  save(ok_record(kept, day(6), {copy}));
  const std::pair<std::int64_t, std::int64_t> mark{id_of(kept, "k2"), gone_id};
  ASSERT_TRUE(store_->mark_duplicates(std::span(&mark, 1)));
  ASSERT_EQ(store_->search("zeppelin", 10, 0).value().size(), 2u);

  ASSERT_TRUE(store_->delete_blog(gone));
  EXPECT_FALSE(store_->blog(gone).value());
  EXPECT_FALSE(store_->article(gone_id).value());
  EXPECT_TRUE(store_->article_keys(gone).value().empty());
  const auto hits = store_->search("zeppelin", 10, 0).value();
  ASSERT_EQ(hits.size(), 1u);
  EXPECT_EQ(hits[0].view.article.id, kept_id);
  EXPECT_EQ(search_index_problem(), "");
  EXPECT_EQ(raw_query(path_, "SELECT COUNT(*) FROM votes"), std::vector<std::string>{"0"});
  EXPECT_EQ(store_->reading_list(reader, 10, 0).value().size(), 1u);
  EXPECT_EQ(store_->categories().value().at(0).article_count, 1);  // history: only the kept article
  EXPECT_EQ(store_->blog(kept).value()->article_count, 1);
  // The copy stays hidden: its original is gone, not its verdict.
  const auto copy_view = store_->article(mark.first).value();
  ASSERT_TRUE(copy_view);
  EXPECT_TRUE(copy_view->article.junk);
  EXPECT_FALSE(copy_view->article.duplicate_of);  // ON DELETE SET NULL
  EXPECT_EQ(store_->articles({.blog_id = kept}).value().size(), 1u);
  EXPECT_EQ(foreign_key_problems(), std::vector<std::string>{});

  EXPECT_EQ(store_->delete_blog(gone).error().kind, ErrorKind::kNotFound);
}

TEST_P(StoreTest, HostileSearchQueriesNeverError) {
  const auto blog = add_blog("https://a.example/feed");
  auto a = make_article("a", "Tables and drops", day(0));
  a.text = "DROP TABLE articles is what an injection tries; AND OR NOT NEAR are FTS5 operators.";
  save(ok_record(blog, day(0), {a}));
  for (const char* query : {"\"",
                            "*",
                            "AND",
                            "AND OR (",
                            "NEAR(",
                            "'; DROP TABLE articles; --",
                            "title:tables",
                            "-drop",
                            "^tables",
                            "tab*",
                            "\"unbalanced",
                            "(((",
                            ")",
                            "",
                            "   ",
                            "NOT",
                            "a\"b",
                            "{title}: x",
                            "\x01\x02",
                            "\"\"",
                            "\" \"",
                            "\"AND\" OR \"NEAR(\"",
                            "\"tables\" \"",
                            "😀"}) {
    auto hits = store_->search(query, 10, 0);
    EXPECT_TRUE(hits) << query << ": " << hits.error().message;
  }
  EXPECT_EQ(store_->search("'; DROP TABLE articles; --", 10, 0).value().size(), 1u);
  EXPECT_EQ(store_->search("AND", 10, 0).value().size(), 1u);  // a word, not an operator
  EXPECT_EQ(store_->article_count().value(), 1);
  EXPECT_EQ(search_index_problem(), "");
}

TEST_P(StoreTest, SearchFollowsKeepOverrides) {
  const auto blog = add_blog("https://a.example/feed");
  auto a = make_article("a", "Sourdough starter", day(0));
  a.junk = true;
  save(ok_record(blog, day(0), {a}));
  EXPECT_TRUE(store_->search("sourdough", 10, 0).value().empty());
  const auto id = store_->article_keys(blog).value().at(0).id;
  ASSERT_TRUE(store_->set_keep_override(id, true));
  EXPECT_EQ(store_->search("sourdough", 10, 0).value().size(), 1u);
  ASSERT_TRUE(store_->set_keep_override(id, false));
  EXPECT_TRUE(store_->search("sourdough", 10, 0).value().empty());
  EXPECT_EQ(search_index_problem(), "");
}

// Search ranks by BM25 relevance (title weighted 10x the text) halved for every kSearchHalfLifeDays of age
// (docs/storage.md, "Search"): score = ln(-bm25) + display_at * ln(2) / (half-life in seconds). An old
// article that matches strongly (in its title) and a newer one that matches weakly (once in its text) rank
// by that score: relevance wins when they are days apart, recency when they are decades apart. Before,
// BM25 alone ranked, so the strong match came first in both cases.
TEST_F(SqliteStoreTest, SearchBlendsRelevanceWithRecencyAsDocumented) {
  const auto blog = add_blog("https://a.example/feed");
  struct Case {
    std::string word;
    int days_apart;
  };
  const std::vector<Case> cases = {{"zeppelin", 10}, {"dirigible", 40 * 365}};
  std::vector<model::Article> articles;
  for (const auto& c : cases) {
    auto strong = make_article("strong-" + c.word, "The " + c.word + " and its engines", day(0));
    strong.text =
        "A history of the " + c.word + ": every " + c.word + " built, and why the " + c.word + " failed.";
    auto weak = make_article("weak-" + c.word, "Notes from a week", day(c.days_apart));
    weak.text = "Trains, boats, a museum, a " + c.word +
                " in a picture, bridges, harbours, ferries, canals, locks, tunnels and roads.";
    articles.push_back(strong);
    articles.push_back(weak);
  }
  save(ok_record(blog, day(0), articles));

  constexpr double kLn2 = 0.6931471805599453;
  std::vector<std::string> first_titles;
  for (const auto& c : cases) {
    // What the documented formula says, from FTS5's own bm25() and each row's display_at.
    const std::string match = "'\"" + c.word + "\"'";
    const auto ids =
        raw_query(path_, ("SELECT rowid FROM articles_fts WHERE articles_fts MATCH " + match).c_str());
    const auto bm25 = raw_query(
        path_,
        ("SELECT bm25(articles_fts, 10.0, 1.0) FROM articles_fts WHERE articles_fts MATCH " + match).c_str());
    ASSERT_EQ(ids.size(), 2u);
    std::vector<std::pair<double, std::string>> expected;
    for (std::size_t i = 0; i < ids.size(); ++i) {
      const auto display_at =
          std::stod(raw_query(path_, ("SELECT display_at FROM articles WHERE id = " + ids[i]).c_str()).at(0));
      const double score =
          std::log(-std::stod(bm25[i])) + display_at * kLn2 / (kSearchHalfLifeDays * 86'400.0);
      expected.emplace_back(score, ids[i]);
    }
    std::sort(expected.rbegin(), expected.rend());
    // Relevance alone puts the title match first.
    const auto by_relevance = raw_query(path_, ("SELECT rowid FROM articles_fts WHERE articles_fts MATCH " +
                                                match + " ORDER BY bm25(articles_fts, 10.0, 1.0)")
                                                   .c_str());

    const auto hits = store_->search(c.word, 10, 0).value();
    ASSERT_EQ(hits.size(), 2u);
    EXPECT_EQ(std::to_string(hits[0].view.article.id), expected[0].second) << c.word;
    EXPECT_EQ(std::to_string(hits[1].view.article.id), expected[1].second) << c.word;
    EXPECT_EQ(raw_query(path_, ("SELECT title FROM articles WHERE id = " + by_relevance.at(0)).c_str()).at(0),
              "The " + c.word + " and its engines");
    first_titles.push_back(hits[0].view.article.title);
  }
  // Days apart, the strong old match leads; decades apart, the weak new one does.
  EXPECT_EQ(first_titles, (std::vector<std::string>{"The zeppelin and its engines", "Notes from a week"}));
}

// Only the newest kSearchCandidates matches of a query are ranked (by article id, the order articles were
// stored in). A word in more articles than that finds only the newest of them, however well an older one
// matches; a rare word, or a rare word ANDed with the common one, still finds its oldest match, because
// FTS5 walks only the rows that match the whole query.
TEST_P(StoreTest, SearchRanksTheNewestCandidatesAndKeepsARareWordsOldMatch) {
  const auto blog = add_blog("https://a.example/feed");
  constexpr int kOlder = 40;
  std::vector<model::Article> articles;
  for (int i = 0; i < kSearchCandidates + kOlder; ++i) {
    // The oldest match best: "ordinary" in the title and three times in the text.
    auto a = make_article("g" + std::to_string(i),
                          i < kOlder ? "Ordinary ordinary" : "Item " + std::to_string(i), day(i / 100));
    a.text = i < kOlder ? "ordinary ordinary ordinary" : "an ordinary day number " + std::to_string(i);
    if (i == 0) a.text += " and a quasar";
    articles.push_back(a);
  }
  save(ok_record(blog, day(30), articles));
  std::map<std::string, std::int64_t> id_of;
  const auto keys = store_->article_keys(blog).value();
  for (const auto& key : keys) id_of[key.guid] = key.id;
  std::int64_t newest_old = 0;
  for (int i = 0; i < kOlder; ++i) newest_old = std::max(newest_old, id_of.at("g" + std::to_string(i)));

  const auto all = store_->search("ordinary", kSearchCandidates * 2, 0).value();
  EXPECT_EQ(all.size(), static_cast<std::size_t>(kSearchCandidates));
  for (const auto& hit : all) ASSERT_GT(hit.view.article.id, newest_old) << "an older match was ranked";
  EXPECT_TRUE(store_->search("ordinary", 20, kSearchCandidates).value().empty());  // pages end there

  for (const char* query : {"quasar", "ordinary quasar", "quasar ordinary"}) {
    const auto hits = store_->search(query, 10, 0).value();
    ASSERT_EQ(hits.size(), 1u) << query;
    EXPECT_EQ(hits[0].view.article.id, id_of.at("g0")) << query;
    EXPECT_NE(hits[0].snippet.find("\x01quasar\x02"), std::string::npos) << hits[0].snippet;
  }
}

// PostgreSQL looks for the newest candidates in slices of ids, newest first, each wider than the last
// (docs/storage.md, "Search"): candidates on both sides of a wide gap in the ids are the newest
// kSearchCandidates all the same, and a rare word's match far below the first slices is still found. (On
// SQLite, which takes the ids as they come, the same searches must give the same answers.)
TEST_P(StoreTest, SearchCandidatesOnBothSidesOfAWideIdGapAreTheNewest) {
  const auto blog = add_blog("https://a.example/feed");
  constexpr int kEach = 600;  // before and after the gap: more than kSearchCandidates together
  static_assert(2 * kEach > kSearchCandidates && kEach < kSearchCandidates);
  auto batch = [&](const std::string& prefix, int day_offset) {
    std::vector<model::Article> articles;
    for (int i = 0; i < kEach; ++i) {
      // Titles and texts differ between the batches, so none is a duplicate of another (and hidden).
      auto a = make_article(prefix + std::to_string(i), prefix + " item " + std::to_string(i),
                            day(day_offset + i / 100));
      a.text = "an ordinary " + prefix + " day number " + std::to_string(i);
      if (prefix == "old" && i == 0) a.text += " and a quasar";
      articles.push_back(a);
    }
    save(ok_record(blog, day(30), articles));
  };
  batch("old", 0);
  if (backend_ == longread::testing::Backend::kPostgres) {
    // Ids jump by two million: past the first four slices (5,000 ids, then 4, 16 and 64 times that).
    auto conn = postgres::Connection::open(path_);
    ASSERT_TRUE(conn) << conn.error().message;
    ASSERT_TRUE(
        conn->exec("SELECT setval(pg_get_serial_sequence('articles', 'id'),"
                   " (SELECT MAX(id) FROM articles) + 2000000)"));
  }
  batch("new", 10);
  std::vector<std::int64_t> ids;
  const auto keys = store_->article_keys(blog).value();  // kept: a range-for over .value() would dangle
  for (const auto& key : keys) ids.push_back(key.id);
  std::ranges::sort(ids, std::greater<>());
  ids.resize(kSearchCandidates);
  const std::set<std::int64_t> newest(ids.begin(), ids.end());

  const auto all = store_->search("ordinary", kSearchCandidates * 2, 0).value();
  std::set<std::int64_t> found;
  for (const auto& hit : all) found.insert(hit.view.article.id);
  EXPECT_EQ(all.size(), static_cast<std::size_t>(kSearchCandidates));
  EXPECT_EQ(found, newest);

  for (const char* query : {"quasar", "ordinary quasar", "\"and a quasar\""}) {
    const auto hits = store_->search(query, 10, 0).value();
    ASSERT_EQ(hits.size(), 1u) << query;
    EXPECT_EQ(hits[0].view.article.guid, "old0") << query;
  }
}

// A hostile blog's article of one word said 200,000 times: searching that word answers, with a snippet of
// 32 words. SQLite's own snippet() scores every match against every other (40,000 took it 7 s, inside one
// call that the search's budget cannot interrupt); this one took minutes before snippets were made by
// longread (search_snippet.h).
TEST_P(StoreTest, SearchOfAWordATextRepeatsEndsWithAShortSnippet) {
  const auto blog = add_blog("https://a.example/feed");
  auto a = make_article("a", "Tins", day(0));
  a.text.clear();
  for (int i = 0; i < 200'000; ++i) a.text += "spam ";
  save(ok_record(blog, day(0), {a}));
  const auto hits = store_->search("spam", 10, 0);
  ASSERT_TRUE(hits) << hits.error().message;
  ASSERT_EQ(hits->size(), 1u);
  const std::string& snippet = hits->at(0).snippet;
  EXPECT_EQ(snippet.rfind("\x01spam\x02 \x01spam\x02", 0), 0u) << snippet.substr(0, 80);
  EXPECT_LT(snippet.size(), 400u) << "32 words, their marks and an ellipsis";
}

// Words between a pair of double quotes are a phrase: they must follow each other in that order. Without
// quotes the words may be anywhere in the article.
TEST_P(StoreTest, SearchTreatsQuotedWordsAsAPhrase) {
  const auto blog = add_blog("https://a.example/feed");
  auto a = make_article("a", "Browsers", day(0));
  a.text = "Garbage collection in the browser is incremental.";
  auto b = make_article("b", "Collections", day(0));
  b.text = "A collection of garbage, sorted.";
  save(ok_record(blog, day(0), {a, b}));
  EXPECT_EQ(store_->search("garbage collection", 10, 0).value().size(), 2u);
  const auto phrase = store_->search("\"garbage collection\"", 10, 0).value();
  ASSERT_EQ(phrase.size(), 1u);
  EXPECT_EQ(phrase[0].view.article.title, "Browsers");
  EXPECT_NE(phrase[0].snippet.find("\x01Garbage collection\x02"), std::string::npos) << phrase[0].snippet;
  EXPECT_TRUE(store_->search("\"collection garbage\"", 10, 0).value().empty());
  EXPECT_EQ(store_->search("\"garbage collection\" browser", 10, 0).value().size(), 1u);
  EXPECT_EQ(store_->search("sorted \"collection of\"", 10, 0).value().size(), 1u);
  // A quote without a partner is part of its word, as before.
  EXPECT_EQ(store_->search("\"garbage collection", 10, 0).value().size(), 2u);
}

// A phrase's hits page like any search's: pages of ten are, in order, the one page of thirty, and hold only
// articles with the phrase, though newer ones hold its words apart. When the newest articles with its words
// (more than kSearchCandidates) hold each pair of a three-word phrase but never the phrase, older articles
// that hold it are still found. (PostgreSQL checks a phrase's candidates from the top of the ranking only as
// far as a page needs, and checks older ones when the newest hold too few: docs/storage.md, "Phrases".)
TEST_P(StoreTest, APhrasesHitsPageLikeAnySearchAndOlderHoldersAreFoundBelowNewerNearMisses) {
  const auto blog = add_blog("https://a.example/feed");
  std::vector<model::Article> articles;
  for (int i = 0; i < 30; ++i) {
    auto a = make_article("hold" + std::to_string(i), "Collector " + std::to_string(i), day(i % 7));
    a.text = "Notes " + std::to_string(i) + " on garbage collection pauses, day " + std::to_string(i);
    articles.push_back(a);
  }
  for (int i = 0; i < 20; ++i) {
    auto a = make_article("apart" + std::to_string(i), "Sweeper " + std::to_string(i), day(i % 5));
    a.text = "Collection of garbage " + std::to_string(i) + ", swept daily.";
    articles.push_back(a);
  }
  save(ok_record(blog, day(10), articles));
  auto guids = [&](const std::string& query, int limit, int offset) {
    std::vector<std::string> out;
    auto hits = store_->search(query, limit, offset);
    EXPECT_TRUE(hits) << hits.error().message;
    for (const auto& hit : hits.value_or(std::vector<SearchHit>{})) out.push_back(hit.view.article.guid);
    return out;
  };
  const auto whole = guids("\"garbage collection\"", 30, 0);
  ASSERT_EQ(whole.size(), 30u);
  for (const auto& guid : whole) EXPECT_EQ(guid.rfind("hold", 0), 0u) << guid;
  std::vector<std::string> paged;
  for (int page = 0; page < 4; ++page) {
    const auto part = guids("\"garbage collection\"", 10, page * 10);
    EXPECT_EQ(part.size(), page < 3 ? 10u : 0u) << "page " << page;
    paged.insert(paged.end(), part.begin(), part.end());
  }
  EXPECT_EQ(paged, whole);

  // Older articles that hold "lock free queue", below more than kSearchCandidates newer ones that hold
  // "lock free" and "free queue" apart.
  std::vector<model::Article> older;
  for (int i = 0; i < 3; ++i) {
    auto a = make_article("queue" + std::to_string(i), "Queues " + std::to_string(i), day(20 + i));
    a.text = "A lock free queue, take " + std::to_string(i) + ".";
    older.push_back(a);
  }
  save(ok_record(blog, day(30), older));
  std::vector<model::Article> newer;
  for (int i = 0; i < kSearchCandidates + 100; ++i) {
    auto a = make_article("near" + std::to_string(i), "Near miss " + std::to_string(i), day(40 + i / 100));
    a.text = "Lock free at last, and free queue " + std::to_string(i) + " for all.";
    newer.push_back(a);
  }
  save(ok_record(blog, day(60), newer));
  auto found = guids("\"lock free queue\"", 10, 0);
  std::ranges::sort(found);
  EXPECT_EQ(found, (std::vector<std::string>{"queue0", "queue1", "queue2"}));
  EXPECT_EQ(guids("\"lock free queue\"", 10, 1).size(), 2u);
}

// Both backends split, fold and unaccent words alike (FTS5's unicode61 makes PostgreSQL's vectors and
// queries too): a hyphenated word is a phrase of its parts, "3.14" one of two numbers, "C++" the word "c",
// accents and case do not matter, and a query of no word at all finds nothing.
TEST_P(StoreTest, SearchSplitsAndFoldsWordsAlikeOnEveryBackend) {
  const auto blog = add_blog("https://a.example/feed");
  auto a = make_article("a", "Lock-free queues in Zürich", day(0));
  a.text = "The CAFÉ's C++ code, version 3.14, at example.com.";
  auto b = make_article("b", "Free locks", day(0));
  b.text = "A lock that is free to take.";
  save(ok_record(blog, day(0), {a, b}));
  auto count = [&](const char* query) {
    auto hits = store_->search(query, 10, 0);
    EXPECT_TRUE(hits) << query << ": " << hits.error().message;
    return hits ? hits->size() : 99u;
  };
  EXPECT_EQ(count("lock-free"), 1u);
  EXPECT_EQ(count("\"free lock\""), 0u);
  EXPECT_EQ(count("lock free"), 2u);
  EXPECT_EQ(count("lockfree"), 0u);
  EXPECT_EQ(count("ZURICH"), 1u);
  EXPECT_EQ(count("zürich"), 1u);
  EXPECT_EQ(count("cafe"), 1u);
  EXPECT_EQ(count("3.14"), 1u);
  EXPECT_EQ(count("\"version 3\""), 1u);
  EXPECT_EQ(count("example.com"), 1u);
  EXPECT_EQ(count("c++ code"), 1u);
  EXPECT_EQ(count("😀"), 0u);
  EXPECT_EQ(count("... !!!"), 0u);
}

// A pasted page as a query: only the first kMaxSearchTerms words and phrases count, so it costs no more
// than a long question and never errors.
TEST_P(StoreTest, SearchUsesTheFirstWordsOfAHugeQuery) {
  const auto blog = add_blog("https://a.example/feed");
  auto a = make_article("a", "Tables and drops", day(0));
  a.text = "Tables, drops and more tables.";
  save(ok_record(blog, day(0), {a}));
  std::string query;
  for (int i = 0; i < kMaxSearchTerms; ++i) query += i % 2 == 0 ? "tables " : "drops ";
  EXPECT_EQ(store_->search(query + "absentword", 10, 0).value().size(), 1u);  // past the cap: ignored
  EXPECT_TRUE(store_->search("absentword " + query, 10, 0).value().empty());
  std::string huge;
  for (int i = 0; i < 100'000; ++i) huge += "word" + std::to_string(i) + (i % 7 == 0 ? " \"" : " ");
  auto hits = store_->search(huge, 10, 0);
  ASSERT_TRUE(hits) << hits.error().message;
  EXPECT_TRUE(hits->empty());
  auto long_word = store_->search(std::string(1'000'000, 'x'), 10, 0);
  ASSERT_TRUE(long_word) << long_word.error().message;
}

// The per-blog and per-category counts are kept by triggers; they must equal a recount after every kind
// of change: inserts, content updates that flip junk, operator overrides, re-filing a blog.
TEST_P(StoreTest, VisibleCountsMatchARecountAfterEveryKindOfChange) {
  const auto a = add_blog("https://a.example/feed", "programming");
  const auto b = add_blog("https://b.example/feed", "history");
  auto check = [&](const char* when) {
    SCOPED_TRACE(when);
    const auto blogs = store_->blogs().value();
    for (const auto& blog : blogs) {
      const auto recount = raw_query(
          path_, ("SELECT COUNT(*) FROM articles WHERE visible = 1 AND blog_id = " + std::to_string(blog.id))
                     .c_str());
      EXPECT_EQ(std::to_string(blog.article_count), recount.at(0)) << blog.feed_url;
      EXPECT_EQ(store_->count_articles({.blog_id = blog.id}).value(), blog.article_count);
    }
    const auto categories = store_->categories().value();
    for (const auto& category : categories) {
      const auto recount = raw_query(
          path_,
          ("SELECT COUNT(*) FROM articles WHERE visible = 1 AND category = '" + category.slug + "'").c_str());
      EXPECT_EQ(std::to_string(category.article_count), recount.at(0)) << category.slug;
      EXPECT_EQ(store_->count_articles({.category = category.slug}).value(), category.article_count);
    }
    EXPECT_EQ(std::to_string(store_->count_articles({}).value()),
              raw_query(path_, "SELECT COUNT(*) FROM articles WHERE visible = 1").at(0));
    EXPECT_EQ(store_->count_articles({}).value(), static_cast<std::int64_t>(list({.limit = 1000}).size()));
  };
  std::vector<model::Article> batch;
  for (int i = 0; i < 12; ++i) {
    auto art = make_article(std::to_string(i), "Article " + std::to_string(i), day(i));
    art.junk = i % 4 == 0;
    if (i % 3 == 0) art.category = "science";
    batch.push_back(art);
  }
  save(ok_record(a, day(0), batch));
  save(ok_record(b, day(0), {make_article("b1", "B one", day(1)), make_article("b2", "B two", day(2))}));
  check("after inserts");

  batch[1].title = "Now junk";
  batch[1].junk = true;
  batch[0].title = "No longer junk";
  batch[0].junk = false;
  batch[3].category = "";  // back to the blog's category
  save(ok_record(a, day(1), batch));
  check("after updates");

  const auto keys = store_->article_keys(a).value();
  ASSERT_TRUE(store_->set_keep_override(keys.at(4).id, false));
  ASSERT_TRUE(store_->set_keep_override(keys.at(8).id, true));
  ASSERT_TRUE(store_->set_keep_override(keys.at(8).id, true));
  check("after overrides");

  // The store counts a crawl's new articles at the end of the crawl (migration 0008). A feed that repeats
  // a guid inserts and then edits one article in the same crawl: hidden as junk, or moved to a category.
  auto twice = make_article("twice", "Twice", day(5));
  auto hidden = twice;
  hidden.title = "Twice, now junk";
  hidden.junk = true;
  auto moved_first = make_article("moved", "Moved", day(6));
  moved_first.category = "science";
  auto moved = moved_first;
  moved.title = "Moved, re-filed";
  moved.category = "art";
  const auto stats = save(ok_record(a, day(2), {twice, hidden, moved_first, moved}));
  EXPECT_EQ(stats.inserted, 2);
  EXPECT_EQ(stats.updated, 2);
  check("after a guid repeated in one crawl");

  add_blog("https://a.example/feed", "history");
  check("after re-filing");
}

// A crawl looks up all its guids at once (on PostgreSQL, as one text array): a guid with quotes, commas,
// braces, backslashes, spaces or the word NULL is still one guid, found again on the next crawl. New
// articles get ids in feed order.
TEST_P(StoreTest, GuidsOfAnyTextAreFoundAgainAndNewArticlesTakeIdsInFeedOrder) {
  const auto a = add_blog("https://a.example/feed", "programming");
  const std::vector<std::string> guids = {
      "plain",     "with \"quotes\"", "a,b,c",    "{braces}", "back\\slash\\", "NULL", "  spaced ",
      "tab\there", "ends with \\",    "'single'", "",         "ünï©ødé"};
  std::vector<model::Article> articles;
  for (std::size_t i = 0; i < guids.size(); ++i) {
    articles.push_back(make_article(guids[i], "Post " + std::to_string(i), day(static_cast<int>(i))));
  }
  auto stats = save(ok_record(a, day(20), articles));
  EXPECT_EQ(stats.inserted, static_cast<int>(guids.size()));
  EXPECT_EQ(raw_query(path_, "SELECT guid FROM articles ORDER BY id"), guids);

  stats = save(ok_record(a, day(21), articles));
  EXPECT_EQ(stats.inserted, 0);
  EXPECT_EQ(stats.unchanged, static_cast<int>(guids.size()));

  articles[3].title = "Braces, edited";
  articles[4].title = "Backslash, edited";
  stats = save(ok_record(a, day(22), articles));
  EXPECT_EQ(stats.updated, 2);
  EXPECT_EQ(stats.unchanged, static_cast<int>(guids.size()) - 2);
  EXPECT_EQ(raw_query(path_, "SELECT title FROM articles WHERE title LIKE '%edited' ORDER BY id"),
            (std::vector<std::string>{"Braces, edited", "Backslash, edited"}));
}

// A record with more new articles than one INSERT statement takes on PostgreSQL (1,000 rows) is saved
// whole, ids in feed order, and found again on the next crawl; a guid it repeats across the boundary
// updates the article the first sighting inserted.
TEST_P(StoreTest, ARecordOfManyNewArticlesIsSavedWholeInFeedOrder) {
  const auto a = add_blog("https://a.example/feed", "programming");
  std::vector<model::Article> articles;
  for (int i = 0; i < 1500; ++i) {
    articles.push_back(make_article(fmt::format("g{:04}", i), fmt::format("Post {}", i), day(1)));
  }
  auto repeated = articles[10];
  repeated.title = "Post 10, again";
  articles.push_back(repeated);
  auto stats = save(ok_record(a, day(2), articles));
  EXPECT_EQ(stats.inserted, 1500);
  EXPECT_EQ(stats.updated, 1);
  const auto guids = raw_query(path_, "SELECT guid FROM articles ORDER BY id");
  ASSERT_EQ(guids.size(), 1500u);
  EXPECT_TRUE(std::ranges::is_sorted(guids));
  EXPECT_EQ(raw_query(path_, "SELECT title FROM articles WHERE guid = 'g0010'"),
            (std::vector<std::string>{"Post 10, again"}));
  EXPECT_EQ(raw_query(path_, "SELECT visible_articles FROM blogs")[0], "1500");
  stats = save(ok_record(a, day(3), articles));
  // The feed still lists "g0010" twice: each sighting differs from what the one before it wrote.
  EXPECT_EQ(stats.inserted, 0);
  EXPECT_EQ(stats.updated, 2);
  EXPECT_EQ(stats.unchanged, 1499);
}

// A new article's duplicate_of names the original the crawler's index knew, which its blog's cap or the
// operator may have deleted since: that one is stored as no duplicate, while the others in the same INSERT
// keep theirs, and the crawl is saved.
TEST_P(StoreTest, ANewArticleNamingADeletedOriginalIsStoredAsNoDuplicate) {
  const auto a = add_blog("https://a.example/feed", "programming");
  save(ok_record(a, day(1), {make_article("original", "Original", day(1))}));
  const auto original = raw_query(path_, "SELECT id FROM articles WHERE guid = 'original'");
  ASSERT_EQ(original.size(), 1u);
  const std::int64_t original_id = std::stoll(original[0]);
  auto copy = make_article("copy", "Copy", day(2));
  copy.duplicate_of = original_id;
  copy.junk = true;
  auto orphan = make_article("orphan", "Orphan", day(2));
  orphan.duplicate_of = original_id + 1'000'000;
  orphan.junk = true;
  const auto plain = make_article("plain", "Plain", day(2));
  auto stats =
      save(ok_record(a, day(2), {make_article("original", "Original", day(1)), copy, orphan, plain}));
  EXPECT_EQ(stats.inserted, 3);
  EXPECT_EQ(raw_query(path_,
                      "SELECT guid || ':' || COALESCE(CAST(duplicate_of AS TEXT), '-') FROM articles"
                      " ORDER BY id"),
            (std::vector<std::string>{"original:-", "copy:" + original[0], "orphan:-", "plain:-"}));
}

// The same helpers for behaviour of PostgreSQL's alone, run on PostgreSQL only.
class PostgresStoreTest : public StoreTest {
 protected:
  // A connection whose plans show the indexes the planner would use on a large table: statistics fresh, and
  // sequential scans turned off, as a table this small would otherwise be read whole.
  Result<postgres::Connection> planning_connection() {
    auto conn = postgres::Connection::open(path_);
    if (!conn) return conn;
    // VACUUM cannot share a script with another statement: it refuses to run inside a transaction block.
    for (const char* sql : {"VACUUM ANALYZE articles", "SET enable_seqscan = off"})
      if (auto done = conn->exec_script(sql); !done) return std::unexpected(done.error());
    return conn;
  }
  // The entries of index `name` that the last VACUUM counted.
  static std::int64_t index_entries(postgres::Connection& conn, const std::string& name) {
    auto rows = conn.exec("SELECT reltuples::bigint FROM pg_class WHERE relname = '" + name + "'");
    EXPECT_TRUE(rows && rows->size() == 1) << name;
    return rows && rows->size() == 1 ? rows->int64(0, 0) : -1;
  }
  // The plan EXPLAIN gives `sql` on `conn`, a line each ("" when the server refuses the statement).
  static std::string explained(postgres::Connection& conn, const std::string& sql) {
    auto rows = conn.exec("EXPLAIN " + sql);
    std::string text;
    if (rows)
      for (int r = 0; r < rows->size(); ++r) text += rows->string(r, 0) + "\n";
    return text;
  }
  // The guids a search finds (at most ten), in byte order.
  std::vector<std::string> found(const char* query,
                                 const std::optional<ReaderFilter>& reader = std::nullopt) {
    std::vector<std::string> guids;
    auto hits = store_->search(query, 10, 0, reader);
    EXPECT_TRUE(hits) << query << ": " << hits.error().message;
    for (const auto& hit : hits.value_or(std::vector<SearchHit>{})) guids.push_back(hit.view.article.guid);
    std::ranges::sort(guids);
    return guids;
  }
  // The ids this database gives `words` (postgres::CommonWords::word_id, under its own key), as an int4[]
  // literal: what a row's search_words holds for them.
  std::string word_ids(const std::vector<std::string>& words) {
    const std::string hex = raw_query(path_, "SELECT encode(key, 'hex') FROM search_word_key").at(0);
    std::string key;
    for (std::size_t i = 0; i + 1 < hex.size(); i += 2)
      key += static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16));
    const postgres::CommonWords keyed({}, key);
    std::vector<std::int32_t> ids;
    for (const std::string& word : words) ids.push_back(keyed.word_id(word));
    return fmt::format("'{{{}}}'::int4[]", fmt::join(ids, ","));
  }
  // The guids of the rows whose search_words hold every one of `words`, in byte order.
  std::vector<std::string> holding(const std::vector<std::string>& words) {
    const std::string sql =
        "SELECT guid FROM articles WHERE search_words @> " + word_ids(words) + " ORDER BY guid";
    return raw_query(path_, sql.c_str());
  }
};

// Bodies on PostgreSQL are packed (migration 0009, postgres/article_bodies.h): summary, content, text and
// excerpt in one zstd frame, the four columns empty. A row in an older form reads the same, on its page and
// in listings: its parts in their columns (stored before migration 0009, or copied by `db copy`), or a
// frame beside a plain excerpt (packed before the frame held the excerpt). `db compact` packs such rows in
// batches and can stop and go on; rejudge's new texts and the full-text retry's refreshed curation keep the
// stored summary (and content), and search follows every change.
TEST_P(PostgresStoreTest, BodiesArePackedAndOldRowsReadTheSameUntilCompactPacksThem) {
  const auto blog = add_blog("https://a.example/feed", "programming");
  std::vector<model::Article> articles;
  for (const char* guid : {"a", "b", "c"}) {
    auto x = make_article(guid, std::string("Notes ") + guid, day(1));
    x.summary_html = std::string("<p>summary of ") + guid + "</p>";
    x.text = std::string("words of ") + guid + " about a lighthouse keeper";
    x.content_html = "<p>" + x.text + "</p>";
    x.excerpt = x.text.substr(0, 12);
    x.content_hash = std::string("h-") + guid;
    articles.push_back(x);
  }
  auto c_without_excerpt = articles[2];
  c_without_excerpt.excerpt.clear();  // c's frame is packed without it, as before the frame held it
  save(ok_record(blog, day(1), {articles[0], articles[1], c_without_excerpt}));
  EXPECT_EQ(raw_query(path_,
                      "SELECT COUNT(*) FROM articles WHERE body IS NOT NULL AND summary_html = ''"
                      " AND content_html = '' AND text = '' AND excerpt = ''"),
            (std::vector<std::string>{"3"}));
  auto id_of = [&](const std::string& guid) {
    return std::stoll(
        raw_query(path_, ("SELECT id FROM articles WHERE guid = '" + guid + "'").c_str()).at(0));
  };
  auto expect_parts = [&](const model::Article& want, const std::string& text) {
    auto read = store_->article(id_of(want.guid));
    ASSERT_TRUE(read && *read) << (read ? "none" : read.error().message);
    EXPECT_EQ((*read)->article.summary_html, want.summary_html);
    EXPECT_EQ((*read)->article.content_html, want.content_html);
    EXPECT_EQ((*read)->article.text, text);
    EXPECT_EQ((*read)->article.excerpt, want.excerpt);
  };
  auto expect_listed_excerpts = [&](std::vector<std::string> want) {
    auto listed = store_->articles({.blog_id = blog});
    ASSERT_TRUE(listed) << listed.error().message;
    std::vector<std::string> excerpts;
    for (const auto& v : *listed) excerpts.push_back(v.article.excerpt);
    std::ranges::sort(excerpts);
    std::ranges::sort(want);
    EXPECT_EQ(excerpts, want);
  };
  for (const auto& x : {articles[0], articles[1]}) expect_parts(x, x.text);
  expect_listed_excerpts({articles[0].excerpt, articles[1].excerpt, ""});

  // b goes back to the oldest form, its four parts in their columns; c gets its excerpt in its column beside
  // a frame without it.
  raw_query(path_, fmt::format("UPDATE articles SET body = NULL, summary_html = $t${}$t$, content_html = "
                               "$t${}$t$, text = $t${}$t$, excerpt = $t${}$t$ WHERE guid = 'b' RETURNING id",
                               articles[1].summary_html, articles[1].content_html, articles[1].text,
                               articles[1].excerpt)
                       .c_str());
  raw_query(path_, fmt::format("UPDATE articles SET excerpt = $t${}$t$ WHERE guid = 'c' RETURNING id",
                               articles[2].excerpt)
                       .c_str());
  EXPECT_EQ(raw_query(path_, "SELECT guid FROM articles WHERE body IS NULL ORDER BY guid"),
            (std::vector<std::string>{"b"}));
  for (const auto& x : articles) expect_parts(x, x.text);
  expect_listed_excerpts({articles[0].excerpt, articles[1].excerpt, articles[2].excerpt});
  auto hits = store_->search("lighthouse", 10, 0);
  ASSERT_TRUE(hits) << hits.error().message;
  ASSERT_EQ(hits->size(), 3u);
  for (const auto& hit : *hits) EXPECT_NE(hit.snippet.find("lighthouse"), std::string::npos) << hit.snippet;

  // One row a batch: each batch packs what it read and says where to go on from.
  std::int64_t after = 0;
  std::int64_t converted = 0;
  for (int batches = 0; batches < 10; ++batches) {
    auto batch = store_->compact_bodies({.batch = 1, .after_id = after});
    ASSERT_TRUE(batch) << batch.error().message;
    EXPECT_FALSE(batch->trained_dictionary) << "three articles are too few to train on";
    EXPECT_TRUE(batch->unreadable.empty());
    converted += batch->converted;
    after = batch->last_id;
    if (batch->done) break;
  }
  EXPECT_EQ(converted, 2);
  EXPECT_EQ(raw_query(path_,
                      "SELECT COUNT(*) FROM articles WHERE body IS NULL OR octet_length(text) > 0"
                      " OR excerpt <> ''"),
            (std::vector<std::string>{"0"}));
  for (const auto& x : articles) expect_parts(x, x.text);
  expect_listed_excerpts({articles[0].excerpt, articles[1].excerpt, articles[2].excerpt});
  auto again = store_->compact_bodies({.batch = 10});
  ASSERT_TRUE(again) << again.error().message;
  EXPECT_EQ(again->converted, 0);

  // rejudge --text: a new text, packed with the stored summary and content.
  std::vector<TextUpdate> updates{
      {.article_id = id_of("a"), .text = "words of a about a zeppelin", .excerpt = "words of a"}};
  auto changed = store_->set_texts(updates);
  ASSERT_TRUE(changed) << changed.error().message;
  EXPECT_EQ(*changed, 1);
  auto rejudged = articles[0];
  rejudged.excerpt = "words of a";
  expect_parts(rejudged, "words of a about a zeppelin");
  expect_listed_excerpts({"words of a", articles[1].excerpt, articles[2].excerpt});
  changed = store_->set_texts(updates);
  ASSERT_TRUE(changed) << changed.error().message;
  EXPECT_EQ(*changed, 0) << "the same text again changes nothing";

  // The full-text retry of an unchanged item: the page's HTML and text, the stored summary.
  auto retried = articles[1];
  retried.summary_html = "<p>the feed's summary, not stored again</p>";
  retried.content_html = "<article><p>the full page about a zeppelin</p></article>";
  retried.text = "the full page about a zeppelin";
  retried.full_text_fetched = true;
  auto stats = save(ok_record(blog, day(2), {retried}));
  EXPECT_EQ(stats.unchanged, 1);
  auto expected = retried;
  expected.summary_html = articles[1].summary_html;
  expect_parts(expected, retried.text);

  std::vector<std::string> found;
  for (const auto& hit : store_->search("zeppelin", 10, 0).value_or(std::vector<SearchHit>{}))
    found.push_back(hit.view.article.guid);
  std::ranges::sort(found);
  EXPECT_EQ(found, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(store_->search("\"full page\"", 10, 0).value_or(std::vector<SearchHit>{}).size(), 1u);
  // Both wrote their new lead's filter, which relevance reads.
  std::string in_lead = "SELECT guid FROM articles a WHERE true";
  for (const std::uint32_t p : postgres::lead_word_probes("zeppelin"))
    in_lead += " AND " + postgres::filter_bit_sql("lead_filter", p) + " = 1";
  EXPECT_EQ(raw_query(path_, (in_lead + " ORDER BY guid").c_str()), (std::vector<std::string>{"a", "b"}));
}

// A long excerpt goes into the frame, and a listing reads it back unchanged. In a row whose parts are in
// their own columns (`db copy` writes them so), the server compresses the excerpt once the row is over 2 KB,
// with lz4 rather than pglz, which gave up on the excerpts of varied text and stored them whole.
TEST_P(PostgresStoreTest, ALongExcerptIsPackedOrCompressedWithLz4AndListsUnchanged) {
  const auto blog = add_blog("https://a.example/feed", "programming");
  auto x = make_article("long", "A long lead", day(1));
  std::string excerpt;
  for (int i = 0; excerpt.size() < 3000; ++i) excerpt += fmt::format("the keeper's lamp, night {}. ", i % 7);
  x.text = excerpt + "and the rest of the article";
  x.content_html = "<p>" + x.text + "</p>";
  x.excerpt = excerpt;
  x.content_hash = "h-long";
  save(ok_record(blog, day(1), {x}));
  EXPECT_EQ(raw_query(path_, "SELECT excerpt = '' AND body IS NOT NULL FROM articles WHERE guid = 'long'"),
            (std::vector<std::string>{"t"}));
  auto listed = store_->articles({.blog_id = blog});
  ASSERT_TRUE(listed) << listed.error().message;
  ASSERT_EQ(listed->size(), 1u);
  EXPECT_EQ(listed->front().article.excerpt, excerpt);

  raw_query(path_, fmt::format("UPDATE articles SET body = NULL, content_html = $t${}$t$, text = $t${}$t$,"
                               " excerpt = $t${}$t$ WHERE guid = 'long' RETURNING id",
                               x.content_html, x.text, excerpt)
                       .c_str());
  EXPECT_EQ(raw_query(path_, "SELECT pg_column_compression(excerpt) FROM articles WHERE guid = 'long'"),
            (std::vector<std::string>{"lz4"}));
  listed = store_->articles({.blog_id = blog});
  ASSERT_TRUE(listed) << listed.error().message;
  ASSERT_EQ(listed->size(), 1u);
  EXPECT_EQ(listed->front().article.excerpt, excerpt);
}

// `db compact` on PostgreSQL trains a dictionary once the site holds 1,000 articles and packs every body
// again with it, in batches; new bodies are packed with it (their frame header and `body_dictionary` name
// it). After `--retrain`, the bodies not yet packed again with the new one still read.
TEST_P(PostgresStoreTest, CompactTrainsADictionaryAndPacksEveryBodyWithIt) {
  const auto blog = add_blog("https://a.example/feed", "programming");
  std::uint64_t seed = 42;
  auto words = [&](int n) { return seeded_words(seed, n); };
  auto articles_from = [&](int first, int count, int words_each) {
    std::vector<model::Article> out;
    for (int i = first; i < first + count; ++i) {
      auto x = make_article(fmt::format("g{}", i), fmt::format("Notes {}", i), day(1));
      x.text = words(words_each);
      x.content_html = "<p>" + x.text + "</p>";
      x.summary_html = "<p>" + x.text.substr(0, 80) + "</p>";
      out.push_back(std::move(x));
    }
    return out;
  };
  const std::vector<model::Article> articles = articles_from(0, 1200, 120);
  save(ok_record(blog, day(1), articles));
  EXPECT_EQ(raw_query(path_, "SELECT DISTINCT body_dictionary FROM articles"),
            (std::vector<std::string>{"0"}));
  auto compact_all = [&](int batch_size, bool retrain) {
    CompactBatch total;
    std::int64_t after = 0;
    for (int batches = 0; batches < 100; ++batches) {
      auto batch = store_->compact_bodies({.batch = batch_size, .after_id = after, .retrain = retrain});
      EXPECT_TRUE(batch) << batch.error().message;
      if (!batch) break;
      if (batch->trained_dictionary) total.trained_dictionary = batch->trained_dictionary;
      total.converted += batch->converted;
      after = batch->last_id;
      if (batch->done) break;
    }
    return total;
  };
  const CompactBatch first = compact_all(500, false);
  ASSERT_TRUE(first.trained_dictionary);
  const std::string first_id = std::to_string(*first.trained_dictionary);
  EXPECT_EQ(raw_query(path_, "SELECT dict_id FROM body_dictionaries"), (std::vector<std::string>{first_id}));
  EXPECT_EQ(first.converted, 1200) << "every body packed again with the dictionary";
  EXPECT_EQ(raw_query(path_, "SELECT DISTINCT body_dictionary FROM articles"),
            (std::vector<std::string>{first_id}));
  EXPECT_EQ(compact_all(500, false).converted, 0) << "nothing left to pack";

  auto later = make_article("later", "Later", day(2));
  later.text = words(200);
  later.content_html = "<p>" + later.text + "</p>";
  save(ok_record(blog, day(2), {later}));
  auto frame_dictionary = [&](const std::string& guid) {
    const std::string sql = "SELECT encode(body, 'hex') FROM articles WHERE guid = '" + guid + "'";
    const std::string hex = raw_query(path_, sql.c_str()).at(0);
    std::string bytes;
    for (std::size_t i = 0; i + 1 < hex.size(); i += 2)
      bytes += static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16));
    return std::to_string(body_dictionary_id(bytes));
  };
  EXPECT_EQ(frame_dictionary("later"), first_id);
  EXPECT_EQ(frame_dictionary("g0"), first_id);

  // A new dictionary, on other texts; one batch packs the oldest 100 again, and the rest, still in the
  // first dictionary, read as before.
  save(ok_record(blog, day(3), articles_from(2000, 1200, 90)));
  auto retrained = store_->compact_bodies({.batch = 100, .retrain = true});
  ASSERT_TRUE(retrained) << retrained.error().message;
  ASSERT_TRUE(retrained->trained_dictionary);
  EXPECT_NE(*retrained->trained_dictionary, *first.trained_dictionary);
  EXPECT_EQ(retrained->converted, 100);
  EXPECT_EQ(frame_dictionary("g0"), std::to_string(*retrained->trained_dictionary));
  EXPECT_EQ(frame_dictionary("g1199"), first_id);
  for (const auto& [guid, text] : {std::pair{std::string("later"), later.text},
                                   {"g0", articles[0].text},
                                   {"g1199", articles[1199].text}}) {
    const std::string sql = "SELECT id FROM articles WHERE guid = '" + guid + "'";
    auto read = store_->article(std::stoll(raw_query(path_, sql.c_str()).at(0)));
    ASSERT_TRUE(read && *read) << (read ? "none" : read.error().message);
    EXPECT_EQ((*read)->article.text, text);
  }
}

// A packed body whose bytes were damaged (a disk, a bad copy) fails the read of that article alone, with a
// "store: " error; it is listed with no excerpt (its frame holds the excerpt), as on SQLite, the other
// articles are unharmed, and search gives it an empty snippet instead of failing the page.
TEST_P(PostgresStoreTest, ADamagedPackedBodyFailsOnlyItsOwnArticle) {
  const auto blog = add_blog("https://a.example/feed", "programming");
  auto good = make_article("good", "Good", day(1));
  good.text = "a garden of words about a compiler";
  auto bad = make_article("bad", "Bad", day(1));
  bad.text = "another text about a compiler, long enough to damage in the middle";
  save(ok_record(blog, day(1), {good, bad}));
  raw_query(path_,
            "UPDATE articles SET body = overlay(body placing '\\xa5a5a5a5a5a5a5a5a5a5'::bytea from 7)"
            " WHERE guid = 'bad' RETURNING id");
  const std::string bad_id = raw_query(path_, "SELECT id FROM articles WHERE guid = 'bad'").at(0);
  auto read = store_->article(std::stoll(bad_id));
  ASSERT_FALSE(read);
  EXPECT_EQ(read.error().message.rfind("store: cannot read article " + bad_id + ": ", 0), 0u)
      << read.error().message;
  EXPECT_NE(read.error().message.find("corrupt"), std::string::npos) << read.error().message;
  const std::string good_id = raw_query(path_, "SELECT id FROM articles WHERE guid = 'good'").at(0);
  auto other = store_->article(std::stoll(good_id));
  ASSERT_TRUE(other && *other);
  EXPECT_EQ((*other)->article.text, good.text);
  auto listed = store_->articles({});
  ASSERT_TRUE(listed) << listed.error().message;
  ASSERT_EQ(listed->size(), 2u);
  for (const auto& v : *listed)
    EXPECT_EQ(v.article.excerpt, v.article.guid == "bad" ? "" : good.excerpt) << v.article.guid;
  auto hits = store_->search("compiler", 10, 0);
  ASSERT_TRUE(hits) << hits.error().message;
  ASSERT_EQ(hits->size(), 2u);
  for (const auto& hit : *hits)
    EXPECT_EQ(hit.snippet.empty(), hit.view.article.guid == "bad") << hit.view.article.guid << hit.snippet;
}

// PostgreSQL text cannot hold a NUL byte, so the store drops it (SQLite keeps it): the guid is stored
// without it and found again under it, and a feed listing both spellings has one article.
TEST_P(PostgresStoreTest, ANulInAGuidIsDroppedAndTheArticleFoundAgain) {
  const auto a = add_blog("https://a.example/feed", "programming");
  const std::string with_nul("nul\0guid", 8);
  auto stats = save(ok_record(a, day(1), {make_article(with_nul, "Nul", day(1))}));
  EXPECT_EQ(stats.inserted, 1);
  EXPECT_EQ(raw_query(path_, "SELECT guid FROM articles"), (std::vector<std::string>{"nulguid"}));
  stats = save(ok_record(a, day(2), {make_article(with_nul, "Nul", day(1))}));
  EXPECT_EQ(stats.unchanged, 1);
  stats = save(ok_record(
      a, day(3),
      {make_article("nulguid", "Nul, edited", day(1)), make_article(with_nul, "Nul, edited", day(1))}));
  EXPECT_EQ(stats.inserted, 0);
  EXPECT_EQ(stats.updated, 1);
  EXPECT_EQ(stats.unchanged, 1);
  EXPECT_EQ(raw_query(path_, "SELECT title FROM articles"), (std::vector<std::string>{"Nul, edited"}));
}

// The moderation list and the site's count of junk read a partial index of the hidden articles alone, and
// the reading-list import finds a link through a hash of it (migration 0014): neither index holds what its
// queries never ask for. The plans are read with sequential scans turned off, as a table this small would
// otherwise be read whole.
TEST_P(PostgresStoreTest, JunkAndLinksAreFoundThroughIndexesOfWhatTheirQueriesAsk) {
  save_three_hidden();

  auto conn = planning_connection();
  ASSERT_TRUE(conn) << conn.error().message;
  // Only the three hidden rows are in the list's index.
  EXPECT_EQ(index_entries(*conn, "articles_junk"), 3);
  const auto plan = [&](const char* sql) { return explained(*conn, sql); };
  EXPECT_THAT(plan("SELECT a.id FROM articles a WHERE a.junk = 1 OR a.keep_override = 0"
                   " ORDER BY a.first_seen DESC, a.id DESC LIMIT 10"),
              ::testing::HasSubstr("Index Only Scan using articles_junk"));
  EXPECT_THAT(plan("SELECT COUNT(*) FROM articles WHERE junk = 1"),
              ::testing::HasSubstr("Index Only Scan using articles_junk"));
  EXPECT_THAT(plan("SELECT a.id FROM articles a WHERE a.link IN ('https://a.example/g1', 'x')"),
              ::testing::HasSubstr("articles_link"));
  EXPECT_EQ(raw_query(path_,
                      "SELECT indexdef LIKE '%USING hash (link)' FROM pg_indexes"
                      " WHERE indexname = 'articles_link'"),
            (std::vector<std::string>{"t"}));
  // What the store answers through them.
  EXPECT_EQ(store_->recent_junk(10).value().size(), 3u);
  EXPECT_EQ(store_->site_stats(day(8)).value().articles_junk, 2);
}

// The index of copies holds the copies alone (migration 0017), and is still the way to a deleted original's
// copies (the foreign key's ON DELETE SET NULL asks `$1 = duplicate_of`). It held every original too, and the
// near-duplicate decision's read of the originals logged since its last one (`id = ANY(…) AND duplicate_of
// IS NULL`) read all of them through it on statistics a crawl had outgrown; now it is read by its ids,
// through the primary key or the originals' index (migration 0020, whose key is the id too and which holds
// every column the read asks for). The plans are read with sequential scans turned off, as a table this small
// would otherwise be read whole.
TEST_P(PostgresStoreTest, OnlyCopiesAreInTheIndexOfCopiesAndTheLoggedOriginalsAreReadByTheirIds) {
  const auto [original, copy] = save_original_and_copy();

  auto conn = planning_connection();
  ASSERT_TRUE(conn) << conn.error().message;
  EXPECT_EQ(index_entries(*conn, "articles_duplicate_of"), 1);
  const auto plan = [&](const std::string& sql) { return explained(*conn, sql); };
  EXPECT_THAT(
      plan(fmt::format("UPDATE ONLY articles SET duplicate_of = NULL WHERE {} = duplicate_of", original)),
      ::testing::HasSubstr("Index Scan using articles_duplicate_of"));
  const std::string logged = plan(fmt::format(
      "SELECT id, blog_id, simhash, display_at FROM articles WHERE id = ANY('{{{},{}}}'::bigint[])"
      " AND duplicate_of IS NULL AND simhash <> 0",
      original, copy));
  EXPECT_THAT(logged, ::testing::AnyOf(::testing::HasSubstr("articles_pkey"),
                                       ::testing::HasSubstr("Index Only Scan using articles_originals")));
  EXPECT_THAT(logged, ::testing::HasSubstr("Index Cond: (id = ANY"));
  EXPECT_THAT(logged, ::testing::Not(::testing::HasSubstr("articles_duplicate_of")));
  ASSERT_TRUE(conn->exec_script(fmt::format("DELETE FROM articles WHERE id = {}", original)));
  EXPECT_EQ(store_->article(copy).value()->article.duplicate_of, std::nullopt);
}

// The GIN index of tsvectors holds only the rows that have one (migration 0018): rows stored before word ids,
// or written by another tool (the trigger gives them a vector). A crawler's row, whose vector is NULL, put
// a NULL entry in it before. A search still reads it for the rows that have one.
TEST_P(PostgresStoreTest, TheIndexOfOldVectorsHoldsOnlyRowsWithOneAndSearchesStillUseIt) {
  const auto blog = add_blog("https://a.example/feed", "programming");
  save(ok_record(blog, day(7), {make_article("crawled", "Kept", day(1))}));
  const std::string by_hand = fmt::format(
      "INSERT INTO articles (blog_id, guid, title, text, first_seen, display_at, category, visible)"
      " VALUES ({}, 'by-hand', 'Written by hand', 'Marginalia', 0, 0, 'programming', 1) RETURNING id",
      blog);
  raw_query(path_, by_hand.c_str());
  EXPECT_EQ(raw_query(path_, "SELECT guid FROM articles WHERE search_vector IS NOT NULL"),
            (std::vector<std::string>{"by-hand"}));
  EXPECT_THAT(
      raw_query(path_, "SELECT indexdef FROM pg_indexes WHERE indexname = 'articles_search'"),
      ::testing::ElementsAre(::testing::HasSubstr("WHERE ((visible = 1) AND (search_vector IS NOT NULL))")));

  auto conn = planning_connection();
  ASSERT_TRUE(conn) << conn.error().message;
  EXPECT_THAT(
      explained(
          *conn,
          "SELECT a.id FROM articles a WHERE a.visible = 1 AND a.search_vector @@ 'marginalia'::tsquery"),
      ::testing::HasSubstr("Bitmap Index Scan on articles_search "));
  EXPECT_EQ(found("marginalia"), (std::vector<std::string>{"by-hand"}));
}

// A claim takes the due blogs in due order (never crawled, then the longest due) from the index of followed
// blogs in that order, rather than reading and sorting the whole table; paused, quarantined, not-yet-due and
// claimed blogs are left.
TEST_P(PostgresStoreTest, DueBlogsAreClaimedInDueOrderThroughTheirIndex) {
  std::vector<std::int64_t> ids;
  for (const char* name : {"a", "b", "c", "d", "e", "f", "g"})
    ids.push_back(add_blog(fmt::format("https://{}.example/feed", name), "programming"));
  const auto now = to_unix(day(10));
  const std::string due = fmt::format(
      "UPDATE blogs SET next_due_at = CASE id WHEN {0} THEN {7} WHEN {1} THEN {8} WHEN {2} THEN NULL"
      " WHEN {3} THEN {9} WHEN {4} THEN {8} WHEN {5} THEN {8} ELSE NULL END,"
      " paused = CASE id WHEN {4} THEN 1 ELSE 0 END, quarantined = CASE id WHEN {5} THEN 1 ELSE 0 END,"
      " claimed_by = CASE id WHEN {6} THEN 'other:1:1' ELSE '' END,"
      " claimed_until = CASE id WHEN {6} THEN {10} ELSE NULL END RETURNING id",
      ids[0], ids[1], ids[2], ids[3], ids[4], ids[5], ids[6], now - 60, now - 3600, now + 60, now + 600);
  raw_query(path_, due.c_str());
  auto claimed = store_->claim_due_blogs("me:1:1", day(10), day(11), 10);
  ASSERT_TRUE(claimed) << claimed.error().message;
  std::vector<std::int64_t> order;
  for (const auto& b : *claimed) order.push_back(b.id);
  EXPECT_EQ(order, (std::vector<std::int64_t>{ids[2], ids[1], ids[0]}))
      << "never crawled, then the longest due; not the paused, the quarantined, the not yet due, the claimed";

  auto conn = planning_connection();
  ASSERT_TRUE(conn) << conn.error().message;
  ASSERT_TRUE(conn->exec_script("ANALYZE blogs"));
  const std::string claim = fmt::format(
      "SELECT b.id FROM blogs b WHERE b.paused = 0 AND b.quarantined = 0 AND (b.next_due_at IS NULL OR "
      "b.next_due_at <= {0}) AND (b.claimed_until IS NULL OR b.claimed_until <= {0})"
      " ORDER BY b.next_due_at NULLS FIRST, b.id LIMIT 250 FOR UPDATE SKIP LOCKED",
      now);
  const auto plan = explained(*conn, claim);
  EXPECT_THAT(plan, ::testing::HasSubstr("Index Scan using blogs_due on blogs"));
  EXPECT_THAT(plan, ::testing::Not(::testing::HasSubstr("Sort"))) << "the index gives the due order";
}

// The search columns are written with the title or the text, and left alone by every other update: a vote
// does not re-parse the article's text (as a STORED generated column made PostgreSQL do on any UPDATE). The
// word ids are overwritten by hand first, so that only a recomputation could change them back.
TEST_P(PostgresStoreTest, AVoteLeavesTheSearchColumnAndAnEditRecomputesIt) {
  const auto a = add_blog("https://a.example/feed", "programming");
  save(ok_record(a, day(1), {make_article("a1", "Lisp ledger", day(1))}));
  EXPECT_EQ(store_->search("ledger", 10, 0).value().size(), 1u);
  const std::string placeholder =
      "UPDATE articles SET search_words = " + word_ids({"placeholder"}) + " RETURNING id";
  raw_query(path_, placeholder.c_str());
  const auto id = std::stoll(raw_query(path_, "SELECT id FROM articles")[0]);
  const auto reader = store_->create_reader("r@example.org", "h", day(2), day(2)).value();
  ASSERT_TRUE(store_->set_vote(reader, id, true, day(2)));
  EXPECT_EQ(raw_query(path_, "SELECT votes FROM articles"), (std::vector<std::string>{"1"}));
  EXPECT_EQ(holding({"placeholder"}), (std::vector<std::string>{"a1"}));
  EXPECT_EQ(store_->search("ledger", 10, 0).value().size(), 0u);
  EXPECT_EQ(store_->search("placeholder", 10, 0).value().size(), 1u) << "found by its ids alone";

  save(ok_record(a, day(3), {make_article("a1", "Lisp journal", day(1))}));
  EXPECT_EQ(store_->search("journal", 10, 0).value().size(), 1u);
  EXPECT_EQ(store_->search("placeholder", 10, 0).value().size(), 0u);
}

// Search ranks a match by the article's rank vector, its title and the text's first 600 characters (kept in
// the row, migration 0004), never the whole text's vector: of three articles of one day holding "ledger",
// the one with it in the title comes first, then the one with it in the lead, then the one with it only
// far into the text. A row stored before the migration (its text in its own column, its rank vector NULL)
// ranks the same, and `db compact` packs its body and fills its vector in with the value an insert gets.
TEST_P(PostgresStoreTest, SearchRanksByTitleAndLeadAndOldRowsRankTheSame) {
  const auto a = add_blog("https://a.example/feed", "programming");
  std::string filler;
  while (filler.size() < 800) filler += "river garden tide ";
  auto title = make_article("title", "The ledger of a cathedral", day(1));
  title.text = filler + "ledger";
  auto lead = make_article("lead", "A cathedral", day(1));
  lead.text = "A ledger, kept for a cathedral. " + filler;
  auto deep = make_article("deep", "Another cathedral", day(1));
  deep.text = filler + "and at last a ledger.";
  // "lead" is saved before "deep", so only its lead puts it above "deep" (the same age, a lower id).
  save(ok_record(a, day(1), {lead, deep, title}));
  auto order = [&] {
    std::vector<std::string> guids;
    auto hits = store_->search("ledger", 10, 0);
    EXPECT_TRUE(hits) << hits.error().message;
    for (const auto& hit : hits.value_or(std::vector<SearchHit>{})) guids.push_back(hit.view.article.guid);
    return guids;
  };
  const std::vector<std::string> expected = {"title", "lead", "deep"};
  EXPECT_EQ(order(), expected);
  // The crawler's rank vector is the server's of the title alone; the lead's words are in the lead filter.
  auto ranked_by_title = [&] {
    return raw_query(path_,
                     "SELECT guid FROM articles WHERE rank_vector IS NOT DISTINCT FROM "
                     "longread_rank_vector(title, '') ORDER BY guid");
  };
  EXPECT_EQ(ranked_by_title(), (std::vector<std::string>{"deep", "lead", "title"}));
  EXPECT_EQ(raw_query(path_, "SELECT guid FROM articles WHERE rank_vector @@ 'ledger'::tsquery"),
            (std::vector<std::string>{"title"}));
  auto compact_all = [&](int expected_rows) {
    auto batch = store_->compact_bodies({.batch = 2});
    ASSERT_TRUE(batch) << batch.error().message;
    int converted = batch->converted;
    while (!batch->done) {
      batch = store_->compact_bodies({.batch = 2, .after_id = batch->last_id});
      ASSERT_TRUE(batch) << batch.error().message;
      converted += batch->converted;
    }
    EXPECT_EQ(converted, expected_rows);
  };

  // Rows stored before the lead left the rank vector (migration 0013): theirs holds the lead (weight D),
  // and they have no lead filter. They rank the same, and `db compact` finds and remakes them.
  for (const auto* x : {&title, &lead, &deep}) {
    const std::string sql = fmt::format(
        "UPDATE articles SET rank_vector = longread_rank_vector(title, $t${}$t$), lead_filter = NULL"
        " WHERE guid = '{}' RETURNING id",
        x->text, x->guid);
    raw_query(path_, sql.c_str());
  }
  EXPECT_EQ(
      raw_query(path_, "SELECT guid FROM articles WHERE rank_vector @@ 'ledger'::tsquery ORDER BY guid"),
      (std::vector<std::string>{"lead", "title"}))
      << "the lead ends at 600 characters: deep's is before its ledger";
  EXPECT_EQ(order(), expected);
  compact_all(3);
  EXPECT_EQ(ranked_by_title(), (std::vector<std::string>{"deep", "lead", "title"}));
  EXPECT_EQ(raw_query(path_, "SELECT COUNT(*) FROM articles WHERE lead_filter IS NULL"),
            (std::vector<std::string>{"0"}));
  EXPECT_EQ(order(), expected);

  // Older rows: the texts back in their column and no body (the trigger makes the server's vectors, the
  // lead in the rank vector, no filters), then no rank vector.
  for (const auto* x : {&title, &lead, &deep}) {
    const std::string sql = fmt::format(
        "UPDATE articles SET body = NULL, text = $t${}$t$ WHERE guid = '{}' RETURNING id", x->text, x->guid);
    raw_query(path_, sql.c_str());
  }
  EXPECT_EQ(
      raw_query(path_, "SELECT COUNT(*) FROM articles WHERE phrase_filter IS NULL AND lead_filter IS NULL"),
      (std::vector<std::string>{"3"}));
  EXPECT_EQ(order(), expected);
  raw_query(path_, "UPDATE articles SET rank_vector = NULL RETURNING id");
  EXPECT_EQ(raw_query(path_, "SELECT COUNT(*) FROM articles WHERE body IS NULL AND rank_vector IS NULL"),
            (std::vector<std::string>{"3"}));
  EXPECT_EQ(order(), expected);
  compact_all(3);
  EXPECT_EQ(raw_query(path_, "SELECT COUNT(*) FROM articles WHERE body IS NULL OR octet_length(text) > 0"),
            (std::vector<std::string>{"0"}));
  EXPECT_EQ(ranked_by_title(), (std::vector<std::string>{"deep", "lead", "title"}));
  EXPECT_EQ(order(), expected);
  compact_all(0);
}

// The crawler makes each article's search vectors (search_vectors.h); the server accepts them for a hostile
// text too (a 3,000-byte word, 20,000 repeats, quotes and backslashes), and search finds its words. A row
// written by hand without vectors gets them from the server's trigger; rewriting a body with the same
// value (`db compact`) keeps the vectors the crawler made; a new text by hand makes the server's again.
TEST_P(PostgresStoreTest, TheCrawlersVectorsAreStoredAndTheTriggerCoversOtherWriters) {
  const auto a = add_blog("https://a.example/feed", "programming");
  auto hostile = make_article("hostile", "It's a \\ back'slash", day(1));
  hostile.text = "start " + std::string(3000, 'x') + " ";
  for (int i = 0; i < 20'000; ++i) hostile.text += "echo ";
  hostile.text += "Zürich omega";
  auto plain = make_article("plain", "Cathedral ledger", day(1));
  plain.text = "Lock-free queues, version 3.14.";
  save(ok_record(a, day(1), {hostile, plain}));
  for (const char* query : {"echo", "back", "slash", "start", "\"lock-free\"", "3.14"}) {
    auto hits = store_->search(query, 10, 0);
    ASSERT_TRUE(hits) << query << ": " << hits.error().message;
    EXPECT_EQ(hits->size(), 1u) << query;
  }
  // The FTS5 split, not the server parser's: "lock-free" and "3.14" are words of their own there.
  EXPECT_EQ(holding({"3", "14"}), (std::vector<std::string>{"plain"}));
  EXPECT_EQ(holding({"queues", "cathedral"}), (std::vector<std::string>{"plain"}));
  EXPECT_EQ(holding({"lock-free"}), (std::vector<std::string>{}));
  EXPECT_EQ(holding({"echo", "omega", "zurich"}), (std::vector<std::string>{"hostile"}));
  EXPECT_EQ(holding({std::string(3000, 'x')}), (std::vector<std::string>{}))
      << "a word over 2,047 bytes is left out, as PostgreSQL's parser leaves it";
  EXPECT_EQ(raw_query(path_, "SELECT COUNT(*) FROM articles WHERE search_vector IS NOT NULL"),
            (std::vector<std::string>{"0"}))
      << "the crawler's rows keep their words as ids only";

  raw_query(
      path_,
      "INSERT INTO articles (blog_id, guid, title, text, first_seen, display_at, category)"
      " SELECT id, 'by-hand', 'Written by hand', 'Marginalia', 0, 0, 'programming' FROM blogs RETURNING id");
  EXPECT_EQ(raw_query(path_,
                      "SELECT search_vector::text || ' / ' || rank_vector::text FROM articles"
                      " WHERE guid = 'by-hand'"),
            (std::vector<std::string>{"'by' 'hand' 'marginalia' 'written' / "
                                      "'by':2A 'hand':3A 'marginalia':4 'written':1A"}));
  EXPECT_EQ(raw_query(path_, "SELECT COUNT(*) FROM articles WHERE guid = 'by-hand' AND search_words IS NULL"),
            (std::vector<std::string>{"1"}))
      << "the trigger cannot make ids: it has no key";
  EXPECT_EQ(found("marginalia"), (std::vector<std::string>{"by-hand"}));
  raw_query(path_, "UPDATE articles SET text = text || '' WHERE guid = 'plain' RETURNING id");
  EXPECT_EQ(holding({"queues"}), (std::vector<std::string>{"plain"})) << "the same text: kept";
  // A new text by hand (its packed body cleared with it): the server's vector of every word, and no ids,
  // whose old words would still find it.
  raw_query(path_, "UPDATE articles SET text = 'Vellum', body = NULL WHERE guid = 'plain' RETURNING id");
  EXPECT_EQ(raw_query(path_, "SELECT search_vector::text FROM articles WHERE guid = 'plain'"),
            (std::vector<std::string>{"'cathedral' 'ledger' 'vellum'"}));
  EXPECT_EQ(raw_query(path_, "SELECT COUNT(*) FROM articles WHERE guid = 'plain' AND search_words IS NULL"),
            (std::vector<std::string>{"1"}));
  EXPECT_EQ(found("vellum"), (std::vector<std::string>{"plain"}));
  EXPECT_EQ(found("\"lock-free\""), (std::vector<std::string>{}));
}

// A quoted phrase on PostgreSQL: the GIN index finds the articles holding its words, each one's phrase
// filter (phrase_filter.h) turns away most of those where they are never neighbours, and the text decides
// the rest, within the title or within the text as on SQLite. The filter is consulted (an article whose
// filter lacks the pair is not found, though its text holds the phrase), a filter that lets everything
// through still finds only real phrases, a row without one (NULL: stored before the filter existed; empty:
// too long a text) is checked by its text alone, a text edited by hand loses its filter, and `db compact`
// makes the missing filters, and vectors without positions for rows stored with them, as the crawler does.
TEST_P(PostgresStoreTest, APhraseIsCheckedByTheFilterThenTheTextAndOldRowsStillMatch) {
  const auto a = add_blog("https://a.example/feed", "programming");
  auto adjacent = make_article("adjacent", "Notes", day(1));
  adjacent.text = "A tour of garbage collection in a small Lisp.";
  auto apart = make_article("apart", "More notes", day(2));
  apart.text = "The collection of garbage, sorted by hand.";
  auto titled = make_article("titled", "On garbage collection", day(3));
  titled.text = "Nothing more to add here.";
  auto across = make_article("across", "On garbage", day(4));
  across.text = "collection, the title's last word and the text's first.";
  save(ok_record(a, day(4), {adjacent, apart, titled, across}));
  const std::vector<std::string> phrase = {"adjacent", "titled"};
  EXPECT_EQ(found("\"garbage collection\""), phrase);
  EXPECT_EQ(found("\"collection of garbage\" sorted"), (std::vector<std::string>{"apart"}));
  EXPECT_EQ(found("garbage collection"), (std::vector<std::string>{"across", "adjacent", "apart", "titled"}));
  const std::vector<std::string> none = {"0"};
  EXPECT_EQ(raw_query(path_, "SELECT COUNT(*) FROM articles WHERE phrase_filter IS NULL"), none);

  // A filter of zeros holds no pair: the article is no longer found by the phrase, only by its words.
  raw_query(path_,
            "UPDATE articles SET phrase_filter = '\\x0000000000000000' WHERE guid = 'adjacent' RETURNING id");
  EXPECT_EQ(found("\"garbage collection\""), (std::vector<std::string>{"titled"}));
  EXPECT_EQ(found("garbage lisp"), (std::vector<std::string>{"adjacent"}));
  // A filter of ones holds every pair: the text still decides.
  raw_query(path_,
            "UPDATE articles SET phrase_filter = '\\xffffffffffffffff' WHERE guid IN ('apart', 'across')"
            " RETURNING id");
  EXPECT_EQ(found("\"garbage collection\""), (std::vector<std::string>{"titled"}));
  // No filter, or an empty one: the text alone decides.
  raw_query(path_, "UPDATE articles SET phrase_filter = NULL WHERE guid = 'adjacent' RETURNING id");
  raw_query(path_,
            "UPDATE articles SET phrase_filter = '\\x' WHERE guid IN ('titled', 'across') RETURNING id");
  EXPECT_EQ(found("\"garbage collection\""), phrase);
  EXPECT_EQ(found("\"collection of garbage\""), (std::vector<std::string>{"apart"}));

  // A new text written by hand (the packed body cleared with it, since a row's parts are in one place or the
  // other): the trigger makes the vectors, and the filter, which it cannot make, goes.
  raw_query(
      path_,
      "UPDATE articles SET text = 'Now about garbage collection pauses.', body = NULL WHERE guid = 'apart'"
      " RETURNING id");
  EXPECT_EQ(raw_query(path_, "SELECT guid FROM articles WHERE phrase_filter IS NULL ORDER BY guid"),
            (std::vector<std::string>{"adjacent", "apart"}));
  EXPECT_EQ(found("\"garbage collection\""), (std::vector<std::string>{"adjacent", "apart", "titled"}));
  // A vector with positions, as rows stored before migration 0008 have them (with a filter that holds every
  // pair, and no word ids: those came with migration 0015).
  raw_query(path_,
            "UPDATE articles SET search_vector = to_tsvector('longread_search', title || ' ' || text),"
            " search_words = NULL, phrase_filter = '\\xff' WHERE guid = 'titled' RETURNING id");
  EXPECT_EQ(raw_query(path_, "SELECT COUNT(*) FROM articles WHERE search_vector <> strip(search_vector)"),
            (std::vector<std::string>{"1"}));
  EXPECT_EQ(found("\"garbage collection\""), (std::vector<std::string>{"adjacent", "apart", "titled"}));

  auto batch = store_->compact_bodies({.batch = 10});
  ASSERT_TRUE(batch) << batch.error().message;
  EXPECT_EQ(batch->converted, 3) << "the two rows without a filter (one of them unpacked) and the one with"
                                    " positions";
  EXPECT_TRUE(batch->done);
  EXPECT_EQ(raw_query(path_, "SELECT COUNT(*) FROM articles WHERE phrase_filter IS NULL"), none);
  EXPECT_EQ(
      raw_query(path_,
                "SELECT COUNT(*) FROM articles WHERE search_vector IS NOT NULL OR search_words IS NULL"),
      none);
  EXPECT_EQ(raw_query(path_, "SELECT guid FROM articles WHERE octet_length(phrase_filter) > 1 ORDER BY guid"),
            (std::vector<std::string>{"adjacent", "apart", "titled"}));
  EXPECT_EQ(found("\"garbage collection\""), (std::vector<std::string>{"adjacent", "apart", "titled"}));
  EXPECT_EQ(found("\"collection pauses\""), (std::vector<std::string>{"apart"}));
  batch = store_->compact_bodies({.batch = 10});
  ASSERT_TRUE(batch) << batch.error().message;
  EXPECT_EQ(batch->converted, 0) << "nothing left to make";
}

// The common words on PostgreSQL (storage/postgres/common_words.h): an article's search vector leaves out the
// words of the list (migration 0011) and its bitmap holds them. Search finds them from the bitmap: alone
// (the walk of articles_common_words), beside words of the index, in phrases and through a reader's
// filter. A row written by hand gets its vector from the trigger (every word, no bitmap) and is still found
// by the same searches; `db compact` then makes its vector and bitmap as the crawler does.
TEST_P(PostgresStoreTest, CommonWordsAreFoundFromTheBitmapAndRowsWithoutOneFromTheirVector) {
  const auto a = add_blog("https://a.example/feed", "programming");
  auto one = make_article("one", "Notes", day(1));
  one.text = "The river and the garden.";
  auto two = make_article("two", "Stones", day(2));
  two.text = "A garden of stones.";
  auto three = make_article("three", "Ledger", day(3));
  three.text = "Nothing about rivers here.";
  save(ok_record(a, day(3), {one, two, three}));
  using Guids = std::vector<std::string>;
  const Guids none = {"0"};
  EXPECT_EQ(raw_query(path_, "SELECT COUNT(*) FROM articles WHERE common_words IS NULL"), none);
  const std::string common_held =
      "SELECT COUNT(*) FROM articles WHERE search_words && " + word_ids({"the", "and", "of", "a"});
  EXPECT_EQ(raw_query(path_, common_held.c_str()), none) << "no row's ids hold a common word";
  EXPECT_EQ(holding({"garden"}), (Guids{"one", "two"}));
  EXPECT_EQ(found("the"), Guids{"one"});
  EXPECT_EQ(found("the and"), Guids{"one"});
  EXPECT_EQ(found("of"), Guids{"two"});
  EXPECT_EQ(found("the of"), Guids{});
  EXPECT_EQ(found("nothing about"), Guids{"three"});
  EXPECT_EQ(found("garden the"), Guids{"one"});
  EXPECT_EQ(found("garden a"), Guids{"two"});
  EXPECT_EQ(found("\"and the\""), Guids{"one"});
  EXPECT_EQ(found("\"the garden\""), Guids{"one"});
  EXPECT_EQ(found("\"garden the\""), Guids{});
  EXPECT_EQ(found("the", ReaderFilter{.reader_id = 1}), Guids{"one"});
  EXPECT_EQ(found("\"and the\"", ReaderFilter{.reader_id = 1}), Guids{"one"});

  // Written by hand (the packed body cleared with it): the trigger's vector holds every word, and the row
  // has no bitmap.
  raw_query(
      path_,
      "UPDATE articles SET text = 'The stones of the river.', body = NULL WHERE guid = 'three' RETURNING id");
  EXPECT_EQ(raw_query(path_, "SELECT guid FROM articles WHERE common_words IS NULL"), Guids{"three"});
  auto searches = [&] {
    EXPECT_EQ(found("the"), (Guids{"one", "three"}));
    EXPECT_EQ(found("the of"), Guids{"three"});
    EXPECT_EQ(found("of stones"), (Guids{"three", "two"}));
    EXPECT_EQ(found("the river"), (Guids{"one", "three"}));
    EXPECT_EQ(found("\"of the\""), Guids{"three"});
    EXPECT_EQ(found("\"of stones\""), Guids{"two"});
    EXPECT_EQ(found("the", ReaderFilter{.reader_id = 1}), (Guids{"one", "three"}));
  };
  searches();

  auto batch = store_->compact_bodies({.batch = 10});
  ASSERT_TRUE(batch) << batch.error().message;
  EXPECT_EQ(raw_query(path_, "SELECT COUNT(*) FROM articles WHERE common_words IS NULL"), none);
  EXPECT_EQ(raw_query(path_, "SELECT COUNT(*) FROM articles WHERE search_words IS NULL"), none);
  EXPECT_EQ(raw_query(path_, common_held.c_str()), none);
  EXPECT_EQ(holding({"stones", "river"}), Guids{"three"});
  searches();
}

// The bitmap of common words stays in its article's row (migration 0012), where search tests it without
// reading the TOAST table, even in a row too big for the page, from which PostgreSQL moves values out of
// line. A bitmap stored out of line before (as PostgreSQL's default storage put it) is brought back by
// `db compact`, and search finds the same articles throughout.
TEST_P(PostgresStoreTest, TheBitmapOfCommonWordsStaysInItsRowAndCompactBringsBackOneStoredOutside) {
  const auto a = add_blog("https://a.example/feed", "programming");
  // About 1,500 distinct pairs of words: a phrase filter (kept in the row) of 2 KB, too big for the row
  // to fit in 2 KB. About half the common words, picked by a hash: a bitmap that does not compress (a
  // compressed one of a few bytes stays in any row).
  std::string text = "The garden of the lighthouse keeper.";
  for (const std::string& word : raw_query(path_,
                                           "SELECT lexeme FROM search_common_words"
                                           " WHERE substr(md5(lexeme), 1, 1) < '8' ORDER BY bit"))
    text += ' ' + word;
  for (int i = 0; i < 1500; ++i) {
    text += ' ';
    for (int n = i, k = 0; k < 3; ++k, n /= 26) text += static_cast<char>('a' + n % 26);
    text += "ing";
  }
  // A long title, for a rank vector of about a kilobyte beside the filter.
  std::string title = "Keeper";
  for (int i = 0; i < 80; ++i) {
    title += " title";
    for (int n = i, k = 0; k < 2; ++k, n /= 26) title += static_cast<char>('a' + n % 26);
  }
  auto big = make_article("big", title, day(1));
  big.text = text;
  auto small = make_article("small", "Stones", day(2));
  small.text = "A garden of stones.";
  save(ok_record(a, day(2), {big, small}));
  using Guids = std::vector<std::string>;
  const char* out_of_line =
      "SELECT guid FROM articles WHERE pg_column_size(common_words) = octet_length(common_words) ORDER BY "
      "guid";
  EXPECT_EQ(raw_query(path_, out_of_line), Guids{});
  EXPECT_EQ(raw_query(path_,
                      "SELECT guid FROM articles"
                      " WHERE pg_column_size(rank_vector) + pg_column_size(phrase_filter) > 2100"),
            Guids{"big"})
      << "the row is too big for the page";
  auto searches = [&] {
    EXPECT_EQ(found("garden the"), Guids{"big"});
    EXPECT_EQ(found("garden of"), (Guids{"big", "small"}));
    EXPECT_EQ(found("the"), Guids{"big"});
  };
  searches();

  // The bitmap written again under the default storage, as before migration 0012: out of line.
  raw_query(path_, "ALTER TABLE articles ALTER COLUMN common_words SET STORAGE EXTENDED");
  raw_query(path_, "UPDATE articles SET common_words = common_words || ''::bytea RETURNING id");
  raw_query(path_, "ALTER TABLE articles ALTER COLUMN common_words SET STORAGE MAIN");
  EXPECT_EQ(raw_query(path_, out_of_line), Guids{"big"});
  searches();

  auto batch = store_->compact_bodies({.batch = 10});
  ASSERT_TRUE(batch) << batch.error().message;
  EXPECT_EQ(batch->converted, 1) << "the row whose bitmap is out of line";
  EXPECT_EQ(raw_query(path_, out_of_line), Guids{});
  searches();
  batch = store_->compact_bodies({.batch = 10});
  ASSERT_TRUE(batch) << batch.error().message;
  EXPECT_EQ(batch->converted, 0) << "nothing left to bring back";
}

// Two records of one blog in one group (two passes' results saved together): the second updates an article
// the first inserted. Both are saved, search finds the update's words, and the index stays whole.
// prepare_crawl does a record's body work before the save, off the writer thread (SQLite: compression;
// PostgreSQL: nothing). A prepared record is stored exactly as the same record saved unprepared: inserted,
// updated, and an article with no body at all.
TEST_P(StoreTest, APreparedCrawlIsStoredAsTheSameCrawlUnprepared) {
  const auto plain = add_blog("https://plain.example/feed");
  const auto prepared = add_blog("https://prepared.example/feed");
  auto bare = make_article("bare", "Nothing but a title", day(-1));
  bare.summary_html.clear();
  bare.content_html.clear();
  bare.text.clear();
  bare.excerpt.clear();
  auto rich = make_article("rich", "Ring buffers", day(-2));
  rich.summary_html = "<p>A <em>ring</em> buffer &amp; two cursors.</p>";
  rich.content_html = "<p>A <em>ring</em> buffer &amp; two cursors, wrapping at a power of two.</p>";
  rich.text = "A ring buffer & two cursors, wrapping at a power of two.";
  rich.excerpt = "A ring buffer & two cursors";
  auto revised = rich;
  revised.title = "Ring buffers, revised";
  revised.content_html = "<p>Cursors that never wrap: indexes masked at each read.</p>";
  revised.text = "Cursors that never wrap: indexes masked at each read.";
  for (const auto& articles :
       {std::vector<model::Article>{bare, rich}, std::vector<model::Article>{revised}}) {
    const auto at = articles.size() == 2 ? day(0) : day(1);
    save(ok_record(plain, at, articles));
    auto record = ok_record(prepared, at, articles);
    auto ready = store_->prepare_crawl(record);
    ASSERT_TRUE(ready) << ready.error().message;
    EXPECT_TRUE(record.prepared_bodies.empty() || record.prepared_bodies.size() == articles.size());
    EXPECT_EQ(record.articles.size(), articles.size()) << "preparing keeps the articles";
    const auto stats = save(record);
    EXPECT_EQ(stats.inserted + stats.updated, static_cast<int>(articles.size()));
  }
  auto stored = [&](std::int64_t blog) {
    std::vector<std::vector<std::string>> out;
    auto keys = store_->article_keys(blog).value();
    std::ranges::sort(keys, {}, &StoredArticleKey::guid);
    for (const auto& key : keys) {
      const auto a = store_->article(key.id).value().value().article;
      out.push_back({a.guid, a.title, a.summary_html, a.content_html, a.text, a.excerpt});
    }
    return out;
  };
  const auto expected = std::vector<std::vector<std::string>>{
      {"bare", "Nothing but a title", "", "", "", ""},
      {"rich", "Ring buffers, revised", rich.summary_html, revised.content_html, revised.text, rich.excerpt}};
  EXPECT_EQ(stored(plain), expected);
  EXPECT_EQ(stored(prepared), expected);
  EXPECT_EQ(store_->search("masked", 10, 0).value().size(), 2u);
  EXPECT_EQ(store_->search("power", 10, 0).value().size(), 0u) << "the old text left the index";
  EXPECT_EQ(search_index_problem(), "");
}

TEST_P(StoreTest, SaveCrawlsTakesTwoRecordsOfOneBlogInOneGroup) {
  const auto a = add_blog("https://a.example/feed", "programming");
  auto first = ok_record(a, day(1), {make_article("a1", "Lisp ledger", day(1))});
  auto second = ok_record(a, day(2), {make_article("a1", "Lisp journal", day(1))});
  const std::vector<CrawlRecord> group = {first, second};
  auto results = store_->save_crawls(group);
  ASSERT_TRUE(results) << results.error().message;
  ASSERT_TRUE((*results)[0]) << (*results)[0].error().message;
  ASSERT_TRUE((*results)[1]) << (*results)[1].error().message;
  EXPECT_EQ((*results)[0]->inserted, 1);
  EXPECT_EQ((*results)[1]->updated, 1);
  EXPECT_EQ(store_->search("journal", 10, 0).value().size(), 1u);
  EXPECT_EQ(store_->search("ledger", 10, 0).value().size(), 0u);
  EXPECT_EQ(search_index_problem(), "");
}

// Group commit (save_crawls): several blogs' records in one transaction, a savepoint each. A record that
// cannot be saved (here: its blog does not exist) is rolled back alone; the rest is saved exactly as
// save_crawl would have saved it, search entries, counters and blog state included.
TEST_P(StoreTest, SaveCrawlsSavesAGroupAndRollsBackOnlyTheFailingRecord) {
  const auto a = add_blog("https://a.example/feed", "programming");
  const auto b = add_blog("https://b.example/feed", "history");
  auto record_a = ok_record(
      a, day(1),
      {make_article("a1", "Lisp ledger", day(1)), make_article("a2", "Cathedral compiler", day(2))});
  auto missing = ok_record(9999, day(1), {make_article("m1", "Orphan telescope", day(1))});
  auto record_b = ok_record(b, day(1), {make_article("b1", "River tide", day(3))});
  record_b.articles[0].junk = true;  // not searchable, not counted
  record_b.articles.push_back(make_article("b2", "Garden borrow", day(4)));
  const std::vector<CrawlRecord> group = {record_a, missing, record_b};

  auto results = store_->save_crawls(group);
  ASSERT_TRUE(results) << results.error().message;
  ASSERT_EQ(results->size(), 3u);
  ASSERT_TRUE((*results)[0]);
  EXPECT_EQ((*results)[0]->inserted, 2);
  ASSERT_FALSE((*results)[1]);
  EXPECT_EQ((*results)[1].error().kind, ErrorKind::kNotFound);
  ASSERT_TRUE((*results)[2]);
  EXPECT_EQ((*results)[2]->inserted, 2);

  EXPECT_EQ(raw_query(path_, "SELECT COUNT(*) FROM articles").at(0), "4");
  EXPECT_EQ(store_->search("telescope", 10, 0).value().size(), 0u);
  EXPECT_EQ(store_->search("ledger", 10, 0).value().size(), 1u);
  EXPECT_EQ(store_->search("garden", 10, 0).value().size(), 1u);
  EXPECT_EQ(store_->search("river", 10, 0).value().size(), 0u);  // junk
  EXPECT_EQ(search_index_problem(), "");
  const auto blogs = store_->blogs().value();
  ASSERT_EQ(blogs.size(), 2u);
  for (const auto& blog : blogs) {
    EXPECT_EQ(blog.article_count, blog.id == a ? 2 : 1) << blog.feed_url;
    EXPECT_EQ(blog.last_status, "ok");
    EXPECT_TRUE(blog.last_success_at);
  }

  // Saving the same group again changes nothing, and the index still equals a rebuilt one.
  auto again = store_->save_crawls(group);
  ASSERT_TRUE(again);
  EXPECT_EQ((*again)[0]->unchanged, 2);
  EXPECT_EQ((*again)[2]->unchanged, 2);
  EXPECT_EQ(raw_query(path_, "SELECT COUNT(*) FROM articles").at(0), "4");
  auto hits = [&] {
    std::size_t n = 0;
    for (const char* word : {"compiler", "garden", "ledger", "lisp", "borrow"})
      n += store_->search(word, 10, 0).value().size();
    return n;
  };
  const auto before = hits();
  EXPECT_EQ(before, 5u);
  ASSERT_EQ(rebuild_search_index(), "");
  EXPECT_EQ(hits(), before);

  // An empty group is a valid no-op.
  auto none = store_->save_crawls({});
  ASSERT_TRUE(none);
  EXPECT_TRUE(none->empty());
}

// Most records of an hourly pass bring no articles: a 304 or a failed poll writes its blog's state and
// prunes its old hidden bodies. A group of them is saved with what each record says, in the group's order of
// results; a record of a blog that does not exist gets kNotFound and changes nothing, and the others are
// saved all the same.
TEST_P(StoreTest, SaveCrawlsSavesAGroupOfPollsThatBroughtNoArticles) {
  const auto a = add_blog("https://a.example/feed", "programming");
  const auto b = add_blog("https://b.example/feed", "history");
  const auto c = add_blog("https://c.example/feed", "design");
  auto hidden = make_article("a1", "Lottery spam", day(1));
  hidden.junk = true;
  auto first = ok_record(a, day(1), {hidden, make_article("a2", "Cathedral compiler", day(1))});
  ASSERT_TRUE(store_->save_crawl(first));

  auto not_modified = ok_record(a, day(10));
  not_modified.status = "not modified";
  not_modified.prune_hidden_before = day(5);
  auto missing = ok_record(9999, day(10));
  missing.prune_hidden_before = day(5);
  CrawlRecord failed = ok_record(b, day(10));
  failed.success = false;
  failed.status = "HTTP 500";
  failed.consecutive_failures = 3;
  auto changed = ok_record(c, day(10));
  changed.etag = "\"v2\"";
  const std::vector<CrawlRecord> group = {not_modified, missing, failed, changed};

  auto results = store_->save_crawls(group);
  ASSERT_TRUE(results) << results.error().message;
  ASSERT_EQ(results->size(), 4u);
  ASSERT_TRUE((*results)[0]) << (*results)[0].error().message;
  EXPECT_EQ((*results)[0]->bodies_pruned, 1);
  EXPECT_EQ((*results)[0]->inserted, 0);
  ASSERT_FALSE((*results)[1]);
  EXPECT_EQ((*results)[1].error().kind, ErrorKind::kNotFound);
  ASSERT_TRUE((*results)[2]) << (*results)[2].error().message;
  EXPECT_EQ((*results)[2]->bodies_pruned, 0);
  ASSERT_TRUE((*results)[3]) << (*results)[3].error().message;

  auto listed = store_->blogs();
  ASSERT_TRUE(listed) << listed.error().message;
  std::map<std::int64_t, model::Blog> blogs;
  for (auto& blog : *listed) blogs.emplace(blog.id, blog);
  ASSERT_EQ(blogs.size(), 3u);
  EXPECT_EQ(blogs.at(a).last_status, "not modified");
  EXPECT_EQ(blogs.at(a).last_attempt_at, day(10));
  EXPECT_EQ(blogs.at(a).next_due_at, day(10) + std::chrono::hours(1));
  EXPECT_EQ(blogs.at(b).last_status, "HTTP 500");
  EXPECT_EQ(blogs.at(b).last_error, "HTTP 500");
  EXPECT_EQ(blogs.at(b).consecutive_failures, 3);
  EXPECT_FALSE(blogs.at(b).last_success_at);
  EXPECT_EQ(blogs.at(c).etag, "\"v2\"");
  EXPECT_EQ(blogs.at(c).last_success_at, day(10));

  // The junk's body is pruned, the visible article's kept.
  const auto ids = raw_query(path_, "SELECT id FROM articles ORDER BY guid");
  ASSERT_EQ(ids.size(), 2u);
  auto text_of = [&](const std::string& id) {
    auto view = store_->article(std::stoll(id));
    EXPECT_TRUE(view && *view);
    return view && *view ? (*view)->article.text : std::string("(none)");
  };
  EXPECT_EQ(text_of(ids[0]), "");
  EXPECT_EQ(text_of(ids[1]), first.articles[1].text) << "the visible article keeps its body";
  EXPECT_EQ(search_index_problem(), "");
}

// The writer never checkpoints the WAL itself (BackgroundCheckpointer): a commit that takes the WAL past
// 1000 pages wakes a thread that copies the pages into the database file while the store stays open. Were
// that thread missing, the file would keep its size until the store closed, and this test would time out.
TEST_F(SqliteStoreTest, WalIsCheckpointedInTheBackgroundWhileTheStoreIsOpen) {
  const auto blog = add_blog("https://big.example/feed");
  const auto before = fs::file_size(path_);
  std::vector<model::Article> articles;
  // Bodies are stored compressed (migration 0021), so the content is pseudo-random over 64 symbols: zstd
  // keeps ~6 of each 8 bits, ~6 MB in all, > 1000 pages.
  std::uint64_t state = 88172645463325252ull;
  const std::string symbols = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .";
  for (int i = 0; i < 250; ++i) {
    auto a = make_article("big" + std::to_string(i), "Big post " + std::to_string(i), day(i));
    a.content_html.clear();
    for (int c = 0; c < 32000; ++c) {
      state ^= state << 13;
      state ^= state >> 7;
      state ^= state << 17;
      a.content_html += symbols[state % symbols.size()];
    }
    articles.push_back(std::move(a));
  }
  save(ok_record(blog, day(0), articles));
  const auto wal = fs::path(path_ + "-wal");
  ASSERT_TRUE(fs::exists(wal));
  bool checkpointed = false;
  for (int tries = 0; tries < 600 && !checkpointed; ++tries) {
    checkpointed = fs::file_size(path_) > before + 4'000'000;
    if (!checkpointed) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_TRUE(checkpointed) << "database file " << fs::file_size(path_) << " bytes, WAL "
                            << fs::file_size(wal);
  EXPECT_EQ(list({.limit = 1000}).size(), 250u);
}

TEST_P(StoreTest, TwoStoresOnOneFileSeeEachOther) {
  auto second = open_store(path_);
  ASSERT_TRUE(second) << second.error().message;
  const auto blog = add_blog("https://a.example/feed");
  save(ok_record(blog, day(0), {make_article("1", "One", day(0))}));
  EXPECT_EQ((*second)->count_articles({}).value(), 1);
  auto stats = (*second)->save_crawl(ok_record(blog, day(1), {make_article("2", "Two", day(1))}));
  ASSERT_TRUE(stats) << stats.error().message;
  EXPECT_EQ(store_->count_articles({}).value(), 2);
}

// Readers run while a writer commits crawls of kPerRecord articles each: every read must see whole
// crawls only (a multiple of kPerRecord), never fewer than before.
TEST_P(StoreTest, ConcurrentReadersSeeOnlyWholeCommits) {
  constexpr int kRecords = 60;
  constexpr int kPerRecord = 10;
  const auto blog = add_blog("https://a.example/feed");
  std::atomic<bool> done{false};
  std::atomic<int> reads{0};

  std::thread writer([&] {
    for (int r = 0; r < kRecords; ++r) {
      std::vector<model::Article> batch;
      for (int i = 0; i < kPerRecord; ++i) {
        const auto guid = std::to_string(r) + "-" + std::to_string(i);
        batch.push_back(make_article(guid, "Article " + guid, day(r)));
      }
      auto stats = store_->save_crawl(ok_record(blog, day(r), std::move(batch)));
      EXPECT_TRUE(stats) << stats.error().message;
    }
    done = true;
  });
  auto reader = [&] {
    std::int64_t last = 0;
    while (!done) {
      auto count = store_->count_articles({.blog_id = blog});
      ASSERT_TRUE(count) << count.error().message;
      EXPECT_EQ(*count % kPerRecord, 0);
      EXPECT_GE(*count, last);
      last = *count;
      auto listed = store_->articles({.blog_id = blog, .limit = 10'000});
      ASSERT_TRUE(listed) << listed.error().message;
      EXPECT_EQ(listed->size() % kPerRecord, 0u);
      auto b = store_->blog(blog);
      ASSERT_TRUE(b && *b);
      EXPECT_EQ((*b)->article_count % kPerRecord, 0);
      ++reads;
    }
  };
  std::thread reader1(reader);
  std::thread reader2(reader);
  writer.join();
  reader1.join();
  reader2.join();
  EXPECT_EQ(store_->count_articles({.blog_id = blog}).value(), kRecords * kPerRecord);
  EXPECT_GT(reads.load(), 0);
}

// kill -9 safety: a child process saves crawls in a loop (one transaction each) and reports each
// committed crawl through a pipe; the parent SIGKILLs it mid-way, then checks the file's integrity and
// that every reported crawl is there, whole.
TEST_P(StoreTest, KillNineDuringWritesLosesNoCommittedCrawl) {
  constexpr int kPerRecord = 20;
  constexpr int kReportsBeforeKill = 40;
  const auto blog = add_blog("https://a.example/feed");
  store_.reset();  // no SQLite connection may cross fork()

  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    close(fds[0]);
    auto store = open_store(path_);
    if (!store) _exit(2);
    for (std::int32_t r = 0;; ++r) {
      std::vector<model::Article> batch;
      for (int i = 0; i < kPerRecord; ++i) {
        const auto guid = std::to_string(r) + "-" + std::to_string(i);
        auto a = make_article(guid, "Article " + guid, day(r % 300));
        a.text.append(2000, 'x');
        batch.push_back(std::move(a));
      }
      if (!(*store)->save_crawl(ok_record(blog, day(r % 300), std::move(batch)))) _exit(3);
      if (write(fds[1], &r, sizeof r) != sizeof r) _exit(4);
    }
  }
  close(fds[1]);
  std::vector<std::int32_t> reported;
  std::int32_t r = 0;
  while (reported.size() < kReportsBeforeKill && read(fds[0], &r, sizeof r) == sizeof r)
    reported.push_back(r);
  kill(child, SIGKILL);
  int status = 0;
  waitpid(child, &status, 0);
  while (read(fds[0], &r, sizeof r) == sizeof r) reported.push_back(r);  // reports still in the pipe
  close(fds[0]);
  ASSERT_TRUE(WIFSIGNALED(status)) << "child exited early with " << WEXITSTATUS(status);
  ASSERT_GE(reported.size(), static_cast<std::size_t>(kReportsBeforeKill));

  EXPECT_EQ(integrity_problem(), "");
  auto store = open_store(path_);
  ASSERT_TRUE(store) << store.error().message;
  EXPECT_EQ(search_index_problem(), "");
  std::set<std::string> guids;
  const auto keys = (*store)->article_keys(blog);
  ASSERT_TRUE(keys) << keys.error().message;
  for (const auto& key : *keys) guids.insert(key.guid);
  for (const auto committed : reported) {
    for (int i = 0; i < kPerRecord; ++i) {
      EXPECT_TRUE(guids.contains(std::to_string(committed) + "-" + std::to_string(i))) << committed;
    }
  }
  EXPECT_EQ(guids.size() % kPerRecord, 0u);  // no half-written crawl
  EXPECT_GE(guids.size(), reported.size() * kPerRecord);
}

// The totals /metrics reads: each count follows the rows it counts (a paused blog is never due, a junk
// article is not visible, a pending subscriber is not counted), and the last newsletter time is absent
// until a delivery is sent.
TEST_P(StoreTest, SiteStatsCountWhatEachMetricSays) {
  auto empty = store_->site_stats(day(0));
  ASSERT_TRUE(empty) << empty.error().message;
  EXPECT_EQ(empty->blogs, 0);
  EXPECT_EQ(empty->articles_visible, 0);
  EXPECT_FALSE(empty->last_newsletter_sent.has_value());

  const auto polled = add_blog("https://a.example/feed");
  const auto failing = add_blog("https://b.example/feed");
  add_blog("https://c.example/feed");  // never polled: due at once
  ASSERT_TRUE(store_->upsert_blog({.feed_url = "https://d.example/feed", .paused = true}));
  auto junk = make_article("2", "Junk", day(0));
  junk.junk = true;
  junk.junk_reason = "too short";
  save(ok_record(polled, day(0),
                 {make_article("1", "One", day(0)), junk, make_article("3", "Three", day(0))}));
  CrawlRecord failed{.blog_id = failing, .attempted_at = day(0)};
  failed.status = "HTTP 503";
  failed.error = "HTTP 503 Service Unavailable";
  failed.consecutive_failures = 1;
  failed.next_due_at = day(0) + std::chrono::hours(2);
  save(failed);
  ASSERT_TRUE(store_->create_reader("kim@example.org", "$argon2id$x", day(0), day(0)));
  ASSERT_TRUE(store_->add_subscriber("pending@example.org", day(0)));
  ASSERT_TRUE(store_->add_subscriber("sub@example.org", day(0)));
  ASSERT_TRUE(store_->confirm_subscriber("sub@example.org", day(0)));
  ASSERT_TRUE(store_->enqueue_mail({.kind = "reset",
                                    .recipient = "kim@example.org",
                                    .message = "m",
                                    .created_at = day(0),
                                    .not_after = day(1),
                                    .next_attempt_at = day(0)}));

  auto stats = store_->site_stats(day(0) + std::chrono::minutes(30));
  ASSERT_TRUE(stats) << stats.error().message;
  EXPECT_EQ(stats->blogs, 4);
  EXPECT_EQ(stats->blogs_due, 1) << "only the never-polled one; the paused one is never due";
  EXPECT_EQ(stats->blogs_paused, 1);
  EXPECT_EQ(stats->blogs_quarantined, 0);
  EXPECT_EQ(stats->blogs_failing, 1);
  EXPECT_EQ(stats->articles_visible, 2);
  EXPECT_EQ(stats->articles_junk, 1);
  EXPECT_EQ(stats->readers, 1);
  EXPECT_EQ(stats->subscribers, 1);
  EXPECT_EQ(stats->outbox_queued, 1);
  EXPECT_FALSE(stats->last_newsletter_sent.has_value());

  auto later = store_->site_stats(day(1));
  ASSERT_TRUE(later);
  EXPECT_EQ(later->blogs_due, 3) << "the polled and the failing blog are due again a day later";
}

// A site compresses its bodies with a dictionary of its own from its first thousand articles on, without an
// operator's `db compact`: the crawl asks for the first one after each pass (and once during a pass that
// stores that many). Below the threshold nothing is trained; once a dictionary exists, none other is.
// Bodies stored before it keep their plain frames and still read.
TEST_P(StoreTest, TheFirstBodyDictionaryIsTrainedOnceTheSiteHoldsEnoughArticles) {
  const auto blog = add_blog("https://a.example/feed", "programming");
  std::uint64_t seed = 7;
  auto words = [&](int n) { return seeded_words(seed, n); };
  auto articles_from = [&](int first, int count) {
    std::vector<model::Article> out;
    for (int i = first; i < first + count; ++i) {
      auto x = make_article(fmt::format("g{}", i), fmt::format("Notes {}", i), day(1));
      x.text = words(120);
      x.content_html = "<p>" + x.text + "</p>";
      x.summary_html = "<p>" + x.text.substr(0, 80) + "</p>";
      out.push_back(std::move(x));
    }
    return out;
  };
  const bool sqlite = backend_ == longread::testing::Backend::kSqlite;
  auto frame_dictionary = [&](const std::string& guid) {
    const std::string sql = fmt::format("SELECT {} FROM articles WHERE guid = '{}'",
                                        sqlite ? "hex(body)" : "encode(body, 'hex')", guid);
    const std::string hex = raw_query(path_, sql.c_str()).at(0);
    std::string bytes;
    for (std::size_t i = 0; i + 1 < hex.size(); i += 2)
      bytes += static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16));
    return body_dictionary_id(bytes);
  };

  const std::vector<model::Article> first = articles_from(0, kMinBodyDictionarySamples - 1);
  save(ok_record(blog, day(1), first));
  auto none = store_->train_first_body_dictionary();
  ASSERT_TRUE(none) << none.error().message;
  EXPECT_FALSE(*none) << "999 articles are too few to learn from";
  EXPECT_EQ(raw_query(path_, "SELECT count(*) FROM body_dictionaries"), (std::vector<std::string>{"0"}));

  save(ok_record(blog, day(2), articles_from(kMinBodyDictionarySamples - 1, 1)));
  auto trained = store_->train_first_body_dictionary();
  ASSERT_TRUE(trained) << trained.error().message;
  ASSERT_TRUE(*trained) << "a thousand articles are enough";
  EXPECT_EQ(raw_query(path_, "SELECT dict_id FROM body_dictionaries"),
            (std::vector<std::string>{std::to_string(**trained)}));
  auto again = store_->train_first_body_dictionary();
  ASSERT_TRUE(again) << again.error().message;
  EXPECT_FALSE(*again) << "the first dictionary is trained once";
  EXPECT_EQ(raw_query(path_, "SELECT count(*) FROM body_dictionaries"), (std::vector<std::string>{"1"}));

  auto later = make_article("later", "Later", day(3));
  later.text = words(200);
  later.content_html = "<p>" + later.text + "</p>";
  save(ok_record(blog, day(3), {later}));
  EXPECT_EQ(frame_dictionary("later"), **trained) << "a body stored after it is compressed with it";
  EXPECT_EQ(frame_dictionary("g0"), 0u) << "one stored before keeps its frame until db compact";
  for (const auto& [guid, text] : {std::pair{std::string("later"), later.text}, {"g0", first[0].text}}) {
    const std::string sql = "SELECT id FROM articles WHERE guid = '" + guid + "'";
    auto read = store_->article(std::stoll(raw_query(path_, sql.c_str()).at(0)));
    ASSERT_TRUE(read && *read) << (read ? "none" : read.error().message);
    EXPECT_EQ((*read)->article.text, text);
    EXPECT_EQ((*read)->article.content_html, "<p>" + text + "</p>");
  }
}

LONGREAD_STORE_BACKENDS(StoreTest);
INSTANTIATE_TEST_SUITE_P(Postgres, PostgresStoreTest,
                         ::testing::Values(longread::testing::Backend::kPostgres),
                         longread::testing::backend_name);

}  // namespace
}  // namespace longread::storage
