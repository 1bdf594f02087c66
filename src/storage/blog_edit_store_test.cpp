// Store::edit_blog, paused blogs (migration 0011) and BlogSeed::paused, on both backends; the upgrade
// from an old SQLite file on SQLite alone.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "storage/store.h"
#include "testing/store_test.h"

namespace longread::storage {
namespace {

namespace fs = std::filesystem;

class TempDir {
 public:
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "longread-blog-edit-XXXXXX").string();
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

// Runs SQL that returns no rows on a separate raw connection; returns SQLite's error or "".
std::string raw_exec(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  std::string error;
  if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr) != SQLITE_OK) {
    error = "cannot open";
  } else {
    char* message = nullptr;
    if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &message) != SQLITE_OK)
      error = message != nullptr ? message : "?";
    sqlite3_free(message);
  }
  sqlite3_close(db);
  return error;
}

model::Article article(const std::string& guid, const std::string& category) {
  model::Article a;
  a.guid = guid;
  a.title = "Post " + guid;
  a.link = "https://example.org/" + guid;
  a.published = from_unix(1'700'000'000);
  a.content_html = "<p>body</p>";
  a.text = "body text";
  a.excerpt = a.text;
  a.word_count = 1500;
  a.reading_minutes = 7;
  a.category = category;  // empty or the blog's: took the blog's category; else the classifier's
  return a;
}

class BlogEditStoreTest : public longread::testing::StoreSuite {
 protected:
  BlogEditStoreTest() : StoreSuite("longread-blog-edit") {}

  std::int64_t add_blog(const std::string& feed_url, const std::string& category) {
    auto id = store_->upsert_blog({.feed_url = feed_url, .title = "Blog " + feed_url, .category = category});
    EXPECT_TRUE(id) << id.error().message;
    return id.value_or(0);
  }

  // A successful crawl with validators and a next due time an hour after `at`.
  void crawl(std::int64_t blog_id, TimePoint at, std::vector<model::Article> articles) {
    CrawlRecord r;
    r.blog_id = blog_id;
    r.attempted_at = at;
    r.success = true;
    r.status = "ok";
    r.next_due_at = at + std::chrono::hours(1);
    r.etag = "\"v1\"";
    r.last_modified = "Tue, 14 Nov 2023 22:13:20 GMT";
    r.articles = std::move(articles);
    auto saved = store_->save_crawl(r);
    ASSERT_TRUE(saved) << saved.error().message;
  }

  model::Blog blog(std::int64_t id) {
    auto b = store_->blog(id);
    EXPECT_TRUE(b && *b);
    return b && *b ? **b : model::Blog{};
  }

  std::vector<std::string> guids_in(const std::string& category) {
    auto views = store_->articles({.category = category});
    EXPECT_TRUE(views) << views.error().message;
    std::vector<std::string> out;
    for (const auto& v : views.value_or(std::vector<ArticleView>{})) out.push_back(v.article.guid);
    std::sort(out.begin(), out.end());
    return out;
  }

  std::optional<std::int64_t> category_count(const std::string& slug) {
    auto all = store_->categories();
    EXPECT_TRUE(all);
    for (const auto& c : all.value_or(std::vector<model::Category>{}))
      if (c.slug == slug) return c.article_count;
    return std::nullopt;  // not listed
  }

  std::vector<std::int64_t> due_ids(TimePoint now) {
    auto due = store_->due_blogs(now);
    EXPECT_TRUE(due) << due.error().message;
    std::vector<std::int64_t> out;
    for (const auto& b : due.value_or(std::vector<model::Blog>{})) out.push_back(b.id);
    return out;
  }
};

TEST_P(BlogEditStoreTest, EachFieldChangesAloneAndCrawlStateIsKept) {
  const auto id = add_blog("https://a.example/feed", "programming");
  const TimePoint at = from_unix(1'700'000'000);
  crawl(id, at, {article("a1", "")});
  const model::Blog before = blog(id);

  auto edited = store_->edit_blog(id, {.title = "New Title"});
  ASSERT_TRUE(edited) << edited.error().message;
  EXPECT_EQ(edited->title, "New Title");
  EXPECT_EQ(edited->category, "programming");
  edited = store_->edit_blog(id, {.short_form = true});
  ASSERT_TRUE(edited) << edited.error().message;
  EXPECT_TRUE(edited->short_form);
  EXPECT_EQ(edited->title, "New Title");
  // Title and short-form edits move nothing else: validators, crawl state, articles.
  const model::Blog mid = blog(id);
  EXPECT_EQ(mid.etag, "\"v1\"");
  EXPECT_EQ(mid.last_modified, before.last_modified);
  EXPECT_EQ(mid.next_due_at, before.next_due_at);
  ASSERT_TRUE(mid.next_due_at.has_value());

  edited = store_->edit_blog(id, {.feed_url = "https://a.example/atom.xml"});
  ASSERT_TRUE(edited) << edited.error().message;
  EXPECT_EQ(edited->feed_url, "https://a.example/atom.xml");
  EXPECT_TRUE(edited->short_form);

  const model::Blog after = blog(id);
  EXPECT_EQ(after.title, "New Title");
  EXPECT_EQ(after.feed_url, "https://a.example/atom.xml");
  EXPECT_FALSE(after.paused);
  // A new feed URL drops the old one's validators (a 304 for the old resource must not stand for the new
  // one) and makes the blog due at once; the crawl history and articles stay.
  EXPECT_EQ(after.etag, "");
  EXPECT_EQ(after.last_modified, "");
  EXPECT_FALSE(after.next_due_at.has_value());
  EXPECT_EQ(after.last_attempt_at, before.last_attempt_at);
  EXPECT_EQ(after.last_success_at, before.last_success_at);
  EXPECT_EQ(after.last_status, before.last_status);
  EXPECT_EQ(after.article_count, 1);
  EXPECT_FALSE(store_->blog_by_feed_url("https://a.example/feed").value().has_value());

  // Giving the same URL again is no change: validators and schedule are kept.
  crawl(id, at, {article("a1", "")});
  const model::Blog recrawled = blog(id);
  ASSERT_TRUE(recrawled.next_due_at.has_value());
  ASSERT_TRUE(store_->edit_blog(id, {.feed_url = "https://a.example/atom.xml"}));
  EXPECT_EQ(blog(id).etag, recrawled.etag);
  EXPECT_EQ(blog(id).next_due_at, recrawled.next_due_at);
}

// Articles that took the blog's category follow it; one the classifier filed elsewhere stays; the listing
// and counts the site reads (articles by category, categories()) agree at once.
TEST_P(BlogEditStoreTest, CategoryChangeRefilesArticlesThatTookTheBlogsCategory) {
  const auto id = add_blog("https://a.example/feed", "programming");
  const auto other = add_blog("https://b.example/feed", "systems");
  crawl(id, from_unix(1'700'000'000),
        {article("own1", ""), article("own2", "programming"), article("classified", "history")});
  crawl(other, from_unix(1'700'000'000), {article("b1", "")});
  ASSERT_EQ(guids_in("programming"), (std::vector<std::string>{"own1", "own2"}));
  ASSERT_EQ(category_count("programming"), 2);

  auto edited = store_->edit_blog(id, {.category = "essays"});
  ASSERT_TRUE(edited) << edited.error().message;
  EXPECT_EQ(edited->category, "essays");
  EXPECT_EQ(guids_in("essays"), (std::vector<std::string>{"own1", "own2"}));
  EXPECT_EQ(category_count("essays"), 2);
  EXPECT_EQ(guids_in("history"), (std::vector<std::string>{"classified"}));
  EXPECT_EQ(category_count("history"), 1);
  EXPECT_EQ(store_->count_articles({.category = "essays"}).value(), 2);
  // "programming" has no blog and no article left: it is no longer listed.
  EXPECT_EQ(category_count("programming"), std::nullopt);
  EXPECT_TRUE(guids_in("programming").empty());
  // The other blog's category is untouched.
  EXPECT_EQ(guids_in("systems"), (std::vector<std::string>{"b1"}));

  // Into an existing category that another blog keeps: both counted there; the left one stays while a
  // blog is in it.
  edited = store_->edit_blog(id, {.category = "systems"});
  ASSERT_TRUE(edited) << edited.error().message;
  EXPECT_EQ(guids_in("systems"), (std::vector<std::string>{"b1", "own1", "own2"}));
  EXPECT_EQ(category_count("systems"), 3);
  EXPECT_EQ(category_count("essays"), std::nullopt);
  ASSERT_TRUE(store_->edit_blog(other, {.category = "history"}));
  EXPECT_EQ(category_count("systems"), 2);  // kept: blog `id` is still in it
  EXPECT_EQ(category_count("history"), 2);

  // A later crawl of an unchanged article does not undo the re-filing.
  crawl(id, from_unix(1'700'010'000), {article("own1", "systems")});
  EXPECT_EQ(guids_in("systems"), (std::vector<std::string>{"own1", "own2"}));
}

TEST_P(BlogEditStoreTest, UnknownBlogAndTakenFeedUrlAreRefusedWithoutChange) {
  const auto a = add_blog("https://a.example/feed", "programming");
  const auto b = add_blog("https://b.example/feed", "programming");
  auto missing = store_->edit_blog(a + b + 100, {.title = "x"});
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().kind, ErrorKind::kNotFound);

  auto taken = store_->edit_blog(b, {.title = "Changed", .feed_url = "https://a.example/feed"});
  ASSERT_FALSE(taken);
  EXPECT_EQ(taken.error().kind, ErrorKind::kConflict);
  EXPECT_NE(taken.error().message.find("already blog " + std::to_string(a)), std::string::npos)
      << taken.error().message;
  EXPECT_EQ(blog(b).title, "Blog https://b.example/feed");  // the whole edit was refused
  EXPECT_EQ(blog(b).feed_url, "https://b.example/feed");

  // Its own feed URL is not a conflict.
  EXPECT_TRUE(store_->edit_blog(b, {.feed_url = "https://b.example/feed"}));
}

TEST_P(BlogEditStoreTest, PausedBlogIsNeverDueAndResumeMakesItDueAtOnce) {
  const auto a = add_blog("https://a.example/feed", "programming");
  const auto b = add_blog("https://b.example/feed", "programming");
  const TimePoint at = from_unix(1'700'000'000);
  crawl(a, at, {article("a1", "")});
  crawl(b, at, {});
  const TimePoint later = at + std::chrono::hours(2);
  EXPECT_EQ(due_ids(later), (std::vector<std::int64_t>{a, b}));

  auto paused = store_->edit_blog(a, {.paused = true});
  ASSERT_TRUE(paused) << paused.error().message;
  EXPECT_TRUE(paused->paused);
  EXPECT_EQ(paused->next_due_at, at + std::chrono::hours(1));  // kept while paused
  EXPECT_EQ(due_ids(later), (std::vector<std::int64_t>{b}));
  EXPECT_EQ(paused->article_count, 1);  // articles stay listed
  EXPECT_EQ(store_->count_articles({.blog_id = a}).value(), 1);

  auto resumed = store_->edit_blog(a, {.paused = false});
  ASSERT_TRUE(resumed) << resumed.error().message;
  EXPECT_FALSE(resumed->paused);
  EXPECT_FALSE(resumed->next_due_at.has_value());  // due now
  EXPECT_EQ(due_ids(at), (std::vector<std::int64_t>{a}));
  EXPECT_EQ(resumed->etag, "\"v1\"");

  // Resuming a blog that is not paused keeps its schedule.
  auto again = store_->edit_blog(b, {.paused = false});
  ASSERT_TRUE(again);
  EXPECT_EQ(again->next_due_at, at + std::chrono::hours(1));
}

// An OPML re-import: an outline without longread:paused keeps the state; an explicit "false" resumes.
TEST_P(BlogEditStoreTest, UpsertKeepsPausedUnlessTheListSays) {
  const auto a = add_blog("https://a.example/feed", "programming");
  crawl(a, from_unix(1'700'000'000), {});
  ASSERT_TRUE(store_->edit_blog(a, {.paused = true}));
  ASSERT_TRUE(store_->upsert_blog({.feed_url = "https://a.example/feed", .category = "programming"}));
  EXPECT_TRUE(blog(a).paused);
  ASSERT_TRUE(store_->upsert_blog(
      {.feed_url = "https://a.example/feed", .category = "programming", .paused = false}));
  EXPECT_FALSE(blog(a).paused);
  EXPECT_FALSE(blog(a).next_due_at.has_value());

  auto added = store_->upsert_blog({.feed_url = "https://new.example/feed", .paused = true});
  ASSERT_TRUE(added);
  EXPECT_TRUE(blog(*added).paused);
  EXPECT_FALSE(blog(add_blog("https://third.example/feed", "")).paused);
}

LONGREAD_STORE_BACKENDS(BlogEditStoreTest);

// SQLite only: migration 0011 on a database longread left at version 10: its blogs are not paused and stay
// due.
TEST(BlogPausedMigrationTest, UpgradeFromVersionTenLeavesBlogsUnpaused) {
  TempDir dir;
  const std::string path = dir.file("v10.db");
  const fs::path folder = fs::path(LONGREAD_SOURCE_DIR) / "src/storage/migrations";
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(folder))
    if (entry.path().extension() == ".sql" && std::stoi(entry.path().filename().string()) <= 10)
      files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  ASSERT_EQ(files.size(), 10u);
  std::string sql =
      "BEGIN; CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
      " applied_at BIGINT NOT NULL);";
  for (const auto& file : files) {
    std::ifstream in(file);
    sql += std::string(std::istreambuf_iterator<char>(in), {});
    const std::string stem = file.stem().string();
    sql += "INSERT INTO schema_migrations VALUES (" + std::to_string(std::stoi(stem)) + ", '" +
           stem.substr(5) + "', 0);";
  }
  sql +=
      "INSERT INTO categories (slug, name) VALUES ('history', 'History');"
      "INSERT INTO blogs (id, feed_url, title, category, created_at, next_due_at)"
      " VALUES (7, 'https://old.example/feed', 'Old', 'history', 1700000000, 1700003600); COMMIT;";
  std::ofstream{path};
  ASSERT_EQ(raw_exec(path, sql), "");

  auto store = open_sqlite_store(path);
  ASSERT_TRUE(store) << store.error().message;
  auto old = (*store)->blog(7);
  ASSERT_TRUE(old && *old);
  EXPECT_FALSE((*old)->paused);
  auto due = (*store)->due_blogs(from_unix(1'700'003'600));
  ASSERT_TRUE(due);
  ASSERT_EQ(due->size(), 1u);
  auto paused = (*store)->edit_blog(7, {.paused = true});
  ASSERT_TRUE(paused) << paused.error().message;
  EXPECT_TRUE((*store)->due_blogs(from_unix(1'700'003'600)).value().empty());
}

}  // namespace
}  // namespace longread::storage
