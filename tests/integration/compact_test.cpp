// `longread db compact` on a real database file whose articles are stored in the old, uncompressed form:
// killed with SIGKILL in the middle (inside a batch's transaction), the database is intact and half
// converted, every article still reads the same; run again, it finishes, and every article's summary,
// content and text, and every search's hits and snippets, are what they were before the conversion.
#include <gtest/gtest.h>
#include <signal.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "storage/sqlite/article_body.h"
#include "storage/store.h"

namespace {
namespace fs = std::filesystem;
using longread::storage::Store;

constexpr int kArticles = 1200;  // above the dictionary's minimum sample count, so one is trained

const std::vector<std::string> kWords = {
    "compiler", "kernel",  "garden",   "river",    "lattice",  "sparrow",  "quantum", "harbor",
    "meadow",   "scanner", "parser",   "lantern",  "orchard",  "granite",  "tundra",  "velvet",
    "cipher",   "beacon",  "glacier",  "thimble",  "mosaic",   "pendulum", "saffron", "tannery",
    "zeppelin", "walnut",  "obsidian", "marigold", "carousel", "fjord",    "quill",   "ember"};

std::string words(std::uint64_t& state, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    // Skewed choice, like real text: low indexes far more often.
    const std::size_t r = (state >> 33) % (kWords.size() * kWords.size());
    out += (i ? " " : "") + kWords[static_cast<std::size_t>(std::sqrt(static_cast<double>(r)))];
  }
  return out;
}

struct Snapshot {
  std::map<std::int64_t, std::vector<std::string>> articles;  // id -> summary, content, text, excerpt
  std::map<std::string, std::vector<std::string>> searches;   // query -> "id|snippet" per hit
};

Snapshot snapshot(Store& store) {
  Snapshot out;
  for (std::int64_t id = 1; id <= kArticles; ++id) {
    auto a = store.article(id);
    EXPECT_TRUE(a) << a.error().message;
    if (!a || !*a) continue;
    const auto& art = (*a)->article;
    out.articles[id] = {art.summary_html, art.content_html, art.text, art.excerpt};
  }
  for (const std::string q : {"compiler", "zeppelin", "\"garden river\"", "kernel lattice", "ember"}) {
    auto hits = store.search(q, 20, 0);
    EXPECT_TRUE(hits) << hits.error().message;
    if (!hits) continue;
    for (const auto& h : *hits)
      out.searches[q].push_back(std::to_string(h.view.article.id) + "|" + h.snippet);
  }
  return out;
}

std::string query_text(const std::string& path, const char* sql) {
  sqlite3* db = nullptr;
  std::string out;
  if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr) != SQLITE_OK) return "cannot open";
  longread::storage::sqlite::register_body_functions(
      db, std::make_shared<longread::storage::sqlite::BodyDictionaries>());
  sqlite3_busy_timeout(db, 5000);
  sqlite3_stmt* stmt = nullptr;
  if (sqlite3_prepare_v2(db, sql, -1, &stmt, nullptr) != SQLITE_OK) {
    out = std::string("error: ") + sqlite3_errmsg(db);
  } else {
    int rc = 0;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
      if (!out.empty()) out += "\n";
      const auto* text = sqlite3_column_text(stmt, 0);
      out += text ? reinterpret_cast<const char*>(text) : "NULL";
    }
    if (rc != SQLITE_DONE) out = std::string("error: ") + sqlite3_errmsg(db);
  }
  sqlite3_finalize(stmt);
  sqlite3_close(db);
  return out;
}

// Starts the converter with its stdout on a pipe.
pid_t start(const std::vector<std::string>& args, FILE** out) {
  int fds[2];
  if (pipe(fds) != 0) return -1;
  const pid_t pid = fork();
  if (pid == 0) {
    std::vector<char*> argv;
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    dup2(fds[1], STDOUT_FILENO);
    close(fds[0]);
    close(fds[1]);
    execv(argv[0], argv.data());
    _exit(127);
  }
  close(fds[1]);
  *out = fdopen(fds[0], "r");
  return pid;
}

class CompactTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("longread_compact_" + std::to_string(getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    path_ = (dir_ / "site.db").string();
  }
  void TearDown() override { fs::remove_all(dir_); }

  // kArticles articles in 4 blogs, through the store (so in the compressed form), then turned back into
  // the old form: the three columns whole, no body, as a database from before migration 0021 has them.
  void fill_old_form() {
    auto store = longread::storage::open_sqlite_store(path_);
    ASSERT_TRUE(store) << store.error().message;
    std::uint64_t state = 7;
    const auto now = std::chrono::time_point_cast<std::chrono::seconds>(std::chrono::system_clock::now());
    for (int b = 0; b < 4; ++b) {
      auto blog = (*store)->upsert_blog(
          {.feed_url = "https://blog" + std::to_string(b) + ".example/feed", .category = "programming"});
      ASSERT_TRUE(blog) << blog.error().message;
      longread::storage::CrawlRecord record{
          .blog_id = *blog, .attempted_at = now, .success = true, .status = "ok"};
      for (int i = 0; i < kArticles / 4; ++i) {
        longread::model::Article a;
        a.guid = "g" + std::to_string(b) + "-" + std::to_string(i);
        a.title = "Post " + words(state, 4);
        a.link = "https://blog" + std::to_string(b) + ".example/" + std::to_string(i);
        a.published = now - std::chrono::hours(i + b);
        std::string paragraphs;
        a.text.clear();
        for (int p = 0; p < 1 + i % 5; ++p) {
          const std::string para = words(state, 40 + (i * 7 + p * 13) % 120);
          paragraphs += "<p>" + para + "</p>\n";
          a.text += (p ? "\n\n" : "") + para;
        }
        a.content_html = paragraphs;
        // Some items have only a summary, some both, some a summary equal to the content.
        a.summary_html = i % 3 == 0 ? paragraphs : (i % 3 == 1 ? "<p>" + words(state, 20) + "</p>" : "");
        if (i % 7 == 0) a.content_html.clear();
        a.excerpt = a.text.substr(0, 200);
        a.word_count = 100;
        record.articles.push_back(std::move(a));
      }
      auto saved = (*store)->save_crawl(record);
      ASSERT_TRUE(saved) << saved.error().message;
    }
    store->reset();
    EXPECT_EQ(query_text(path_,
                         "UPDATE articles SET summary_html = longread_body_part(body, 0, summary_html),"
                         " content_html = longread_body_part(body, 1, content_html),"
                         " excerpt = longread_body_part(body, 3, excerpt), text = longread_body_part(body, "
                         "2, text), body = NULL"),
              "");
    ASSERT_EQ(query_text(path_, "SELECT count(*) FROM articles WHERE body IS NULL"),
              std::to_string(kArticles));
  }

  fs::path dir_;
  std::string path_;
};

TEST_F(CompactTest, KilledMidwayLosesNothingAndResumesToTheSameArticlesAndSearches) {
  fill_old_form();
  Snapshot before;
  {
    auto store = longread::storage::open_sqlite_store(path_);
    ASSERT_TRUE(store) << store.error().message;
    before = snapshot(**store);
  }
  ASSERT_EQ(before.articles.size(), static_cast<std::size_t>(kArticles));
  ASSERT_FALSE(before.searches["zeppelin"].empty());
  ASSERT_FALSE(before.searches["\"garden river\""].empty());

  const std::string bin = LONGREAD_BINARY_DIR "/src/app/longread";
  // Batches of 40, each held 300 ms inside its transaction: after the third committed batch is reported,
  // the kill lands inside a later batch, before its commit.
  FILE* out = nullptr;
  const pid_t child = start({bin, "--db", path_, "db", "compact", "--batch", "40", "--hold-ms", "300"}, &out);
  ASSERT_GT(child, 0);
  int batches = 0;
  char line[512];
  while (batches < 3 && std::fgets(line, sizeof line, out) != nullptr) {
    if (std::string(line).find("articles converted (up to id") != std::string::npos) ++batches;
  }
  ASSERT_EQ(batches, 3) << "the converter ended before three batches";
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  ASSERT_EQ(kill(child, SIGKILL), 0);
  int status = 0;
  waitpid(child, &status, 0);
  std::fclose(out);
  ASSERT_TRUE(WIFSIGNALED(status)) << "the converter finished before it could be killed";

  EXPECT_EQ(query_text(path_, "PRAGMA integrity_check"), "ok");
  const int converted = std::stoi(query_text(path_, "SELECT count(*) FROM articles WHERE body IS NOT NULL"));
  EXPECT_GE(converted, 120) << "the three reported batches were not all committed";
  EXPECT_LT(converted, kArticles) << "everything was converted before the kill";
  // Whole batches only: a batch is one transaction.
  EXPECT_EQ(converted % 40, 0) << converted << " articles converted: a batch was committed in part";
  EXPECT_EQ(query_text(path_, "SELECT count(*) FROM body_dictionaries"), "1");
  {
    auto store = longread::storage::open_sqlite_store(path_);
    ASSERT_TRUE(store) << store.error().message;
    const Snapshot mixed = snapshot(**store);  // half in each form
    EXPECT_EQ(mixed.articles, before.articles);
    EXPECT_EQ(mixed.searches, before.searches);
  }

  // Run again: it resumes and finishes.
  FILE* out2 = nullptr;
  const pid_t again = start({bin, "--db", path_, "db", "compact", "--batch", "40", "--vacuum"}, &out2);
  ASSERT_GT(again, 0);
  std::string printed;
  while (std::fgets(line, sizeof line, out2) != nullptr) printed += line;
  std::fclose(out2);
  waitpid(again, &status, 0);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << printed;
  EXPECT_NE(printed.find("compact: done, " + std::to_string(kArticles - converted) + " articles converted"),
            std::string::npos)
      << printed;
  EXPECT_NE(printed.find("vacuumed"), std::string::npos) << printed;
  EXPECT_EQ(query_text(path_, "SELECT count(*) FROM articles WHERE body IS NULL"), "0");
  EXPECT_EQ(
      query_text(path_,
                 "SELECT count(*) FROM articles WHERE text <> '' OR content_html <> '' OR excerpt <> ''"),
      "0");
  // Every body names the one dictionary.
  EXPECT_EQ(query_text(path_, "SELECT count(DISTINCT longread_body_dictionary(body)) FROM articles"), "1");
  EXPECT_EQ(query_text(path_, "PRAGMA integrity_check"), "ok");
  // The search index agrees with its content (the view over the bodies).
  EXPECT_EQ(query_text(path_, "INSERT INTO articles_fts (articles_fts, rank) VALUES ('integrity-check', 1)"),
            "");
  {
    auto store = longread::storage::open_sqlite_store(path_);
    ASSERT_TRUE(store) << store.error().message;
    const Snapshot after = snapshot(**store);
    EXPECT_EQ(after.articles, before.articles);
    EXPECT_EQ(after.searches, before.searches);
  }
}

}  // namespace
