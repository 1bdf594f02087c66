// The SQLite side of BlogStore: blogs, their crawl state, claims, parsing marks and crash quarantine.
#include "storage/sqlite/sqlite_store.h"

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include <fmt/core.h>
#include <fmt/ranges.h>

#include "storage/sqlite/lifecycle.h"
#include "storage/sqlite/query_helpers.h"
#include "storage/values.h"

namespace longread::storage::sqlite {
namespace {

// Re-upserting a blog from its list updates what the list says; an empty title or site URL in the list
// keeps what the feed told us. Crawl state is never touched here, except that a list that un-pauses a
// paused blog makes it due at once, as `blogs resume` does. A NULL :paused (the list does not say) keeps it.
constexpr const char* kUpsertBlog =
    "INSERT INTO blogs (feed_url, site_url, title, category, short_form, paused, allowed_hosts, created_at)"
    " VALUES (:feed_url, :site_url, :title, :category, :short_form, COALESCE(:paused, 0),"
    " COALESCE(:allowed_hosts, ''), :created_at)"
    " ON CONFLICT (feed_url) DO UPDATE SET"
    "  site_url = CASE WHEN excluded.site_url <> '' THEN excluded.site_url ELSE blogs.site_url END,"
    "  title = CASE WHEN excluded.title <> '' THEN excluded.title ELSE blogs.title END,"
    "  category = excluded.category,"
    "  short_form = excluded.short_form,"
    "  paused = COALESCE(:paused, blogs.paused),"
    "  allowed_hosts = COALESCE(:allowed_hosts, blogs.allowed_hosts),"
    "  next_due_at = CASE WHEN blogs.paused = 1 AND :paused = 0 THEN NULL ELSE blogs.next_due_at END"
    " RETURNING id";
constexpr const char* kSelectBlogCategoryByFeedUrl = "SELECT category FROM blogs WHERE feed_url = :feed_url";

// Articles that fell back to their blog's category follow the blog when it is re-filed.
constexpr const char* kRefileBlogArticles =
    "UPDATE articles SET category = :category WHERE blog_id = :blog_id AND category_from_blog = 1";
// An operator's edit (BlogEdit): NULL keeps a column. Every right-hand side reads the row as it was, so
// "paused = 1 AND :paused = 0" is a resume, which makes the blog due at once.
constexpr const char* kSelectBlogEditState = "SELECT category, paused FROM blogs WHERE id = :id";
constexpr const char* kSelectOtherBlogWithFeedUrl =
    "SELECT id FROM blogs WHERE feed_url = :feed_url AND id <> :id";
constexpr const char* kEditBlog =
    "UPDATE blogs SET title = COALESCE(:title, title), category = COALESCE(:category, category),"
    " short_form = COALESCE(:short_form, short_form), feed_url = COALESCE(:feed_url, feed_url),"
    " paused = COALESCE(:paused, paused), allowed_hosts = COALESCE(:allowed_hosts, allowed_hosts),"
    // A resume also lifts a crash quarantine (migration 0015) and starts its count again.
    " quarantined = CASE WHEN :paused = 0 THEN 0 ELSE quarantined END,"
    " crashes = CASE WHEN :paused = 0 THEN 0 ELSE crashes END,"
    // A new feed URL drops the old URL's validators (they belong to the other resource) and is read at once.
    " etag = CASE WHEN :feed_url IS NOT NULL AND :feed_url <> feed_url THEN '' ELSE etag END,"
    " last_modified = CASE WHEN :feed_url IS NOT NULL AND :feed_url <> feed_url THEN '' ELSE last_modified "
    "END,"
    " next_due_at = CASE WHEN ((paused = 1 OR quarantined = 1) AND :paused = 0) OR (:feed_url IS NOT NULL"
    " AND :feed_url <> feed_url)"
    " THEN NULL ELSE next_due_at END"
    " WHERE id = :id";
// A category an edit left without blogs and articles goes, so the site does not list it with 0 articles.
constexpr const char* kDropEmptyCategory =
    "DELETE FROM categories WHERE slug = :slug AND NOT EXISTS (SELECT 1 FROM blogs WHERE category = :slug)"
    " AND NOT EXISTS (SELECT 1 FROM articles WHERE category = :slug)";

// article_count is the trigger-kept count of visible articles (migration 0004).
#define LONGREAD_BLOG_COLUMNS                                                                           \
  "b.id, b.feed_url, b.site_url, b.title, b.author, b.category, b.short_form, b.etag, b.last_modified," \
  " b.last_attempt_at, b.last_success_at, b.next_due_at, b.consecutive_failures, b.last_status,"        \
  " b.last_error, b.last_error_at, b.visible_articles, b.feed_update_minutes, b.paused, b.crashes,"     \
  " b.quarantined, b.allowed_hosts"

constexpr const char* kSelectBlogById = "SELECT " LONGREAD_BLOG_COLUMNS " FROM blogs b WHERE b.id = :id";
constexpr const char* kSelectBlogByFeedUrl =
    "SELECT " LONGREAD_BLOG_COLUMNS " FROM blogs b WHERE b.feed_url = :feed_url";
constexpr const char* kSelectBlogs =
    "SELECT " LONGREAD_BLOG_COLUMNS " FROM blogs b ORDER BY LOWER(b.title), b.id";
// "IS NOT NULL" first: never-crawled blogs lead, whatever the engine's NULL ordering. Paused blogs
// (migration 0011) and quarantined ones (0015) are never due.
// A blog another crawler has claimed (migration 0030) is not due until the claim lapses.
#define LONGREAD_DUE_BLOGS                                                                                 \
  " FROM blogs b WHERE b.paused = 0 AND b.quarantined = 0 AND (b.next_due_at IS NULL OR b.next_due_at <= " \
  ":now) AND (b.claimed_until IS NULL OR b.claimed_until <= :now)"                                         \
  " ORDER BY b.next_due_at IS NOT NULL, b.next_due_at, b.id"
constexpr const char* kSelectDueBlogs = "SELECT " LONGREAD_BLOG_COLUMNS LONGREAD_DUE_BLOGS;
// LIMIT -1: no limit.
constexpr const char* kSelectDueBlogsToClaim =
    "SELECT " LONGREAD_BLOG_COLUMNS LONGREAD_DUE_BLOGS " LIMIT :limit";
constexpr const char* kClaimBlog =
    "UPDATE blogs SET claimed_by = :owner, claimed_until = :lease_until WHERE id = :blog_id";
constexpr const char* kReleaseBlogClaims =
    "UPDATE blogs SET claimed_by = '', claimed_until = NULL WHERE claimed_by = :owner";
// The per-blog subqueries read the (blog_id, display_at) index of migration 0012.
constexpr const char* kSelectBlogHealth =
    "SELECT " LONGREAD_BLOG_COLUMNS
    ", b.created_at,"
    " (SELECT MAX(a.display_at) FROM articles a WHERE a.blog_id = b.id),"
    " (SELECT COUNT(*) FROM articles a WHERE a.blog_id = b.id AND a.display_at >= :since),"
    " (SELECT COUNT(*) FROM articles a WHERE a.blog_id = b.id)"
    " FROM blogs b ORDER BY LOWER(b.title), b.id";
constexpr const char* kCountBlogs = "SELECT COUNT(*) FROM blogs";

// Crash quarantine (migration 0015). Marks are made in a companion file (parse_marks.h); a mark in the blogs
// table is one an older longread left there, still read, recorded and cleared.
constexpr const char* kSelectParsingMarks =
    "SELECT id, parsing_by, parsing_since FROM blogs WHERE parsing_by <> '' ORDER BY id";
constexpr const char* kClearParsingMarks =
    "UPDATE blogs SET parsing_by = '', parsing_since = NULL WHERE parsing_by = :owner";
// Only while the blog still carries the mark that was read: of two processes finding the same dead mark,
// one records the crash. LONGREAD_CRASH_SET is what recording does; kRecordCrawlerCrash also checks the
// mark in the blogs table, kRecordTakenCrash follows the taking of a companion file's mark.
#define LONGREAD_CRASH_SET                                                                                  \
  "UPDATE blogs SET crashes = :crashes, quarantined = :quarantined, parsing_by = '', parsing_since = NULL," \
  " last_attempt_at = :now, last_status = :status, last_error = :status, last_error_at = :now,"             \
  " consecutive_failures = consecutive_failures + 1, next_due_at = :next_due_at WHERE id = :blog_id"
constexpr const char* kRecordTakenCrash = LONGREAD_CRASH_SET;
constexpr const char* kRecordCrawlerCrash =
    LONGREAD_CRASH_SET " AND parsing_by = :owner AND parsing_since = :since";

// Articles go by ON DELETE CASCADE (migration 0001); their triggers keep the search index (0003) and the
// visible counts (0004) right, and votes and reading-list rows cascade from the articles (0005).
constexpr const char* kDeleteBlog = "DELETE FROM blogs WHERE id = :id";

model::Blog read_blog(const Query& q) {
  model::Blog b;
  b.id = q.int64(0);
  b.feed_url = q.text(1);
  b.site_url = q.text(2);
  b.title = q.text(3);
  b.author = q.text(4);
  b.category = q.text(5);
  b.short_form = q.int64(6) != 0;
  b.etag = q.text(7);
  b.last_modified = q.text(8);
  b.last_attempt_at = optional_time(q, 9);
  b.last_success_at = optional_time(q, 10);
  b.next_due_at = optional_time(q, 11);
  b.consecutive_failures = q.integer(12);
  b.last_status = q.text(13);
  b.last_error = q.text(14);
  b.last_error_at = optional_time(q, 15);
  b.article_count = q.int64(16);
  if (const auto minutes = q.optional_int64(17); minutes && *minutes > 0)
    b.feed_update_interval = std::chrono::minutes{*minutes};
  b.paused = q.int64(18) != 0;
  b.crashes = q.integer(19);
  b.quarantined = q.int64(20) != 0;
  b.allowed_hosts = split_words(q.text(21));
  return b;
}

constexpr std::string_view kReadFailed = "cannot read blog";
constexpr std::string_view kListFailed = "cannot list blogs";

// A blog's allowed hosts as the column keeps them, space-separated; none keeps the column as it is.
std::optional<std::string> joined_hosts(const std::optional<std::vector<std::string>>& hosts) {
  if (!hosts) return std::nullopt;
  return fmt::format("{}", fmt::join(*hosts, " "));
}

}  // namespace

Result<std::int64_t> SqliteStore::upsert_blog(const BlogSeed& seed) {
  constexpr std::string_view kFailed = "cannot upsert blog";
  const std::string category = seed.category.empty() ? kDefaultCategory : seed.category;
  return in_write_transaction(kFailed, [&](Connection& db) -> Result<std::int64_t> {
    std::optional<std::string> old_category;
    {
      auto q = db.query(kSelectBlogCategoryByFeedUrl);
      if (!q) return db_error(kFailed, q.error());
      q->bind(":feed_url", seed.feed_url);
      auto row = q->step();
      if (!row) return db_error(kFailed, row.error());
      if (*row) old_category = q->text(0);
    }
    if (auto ok = ensure_category(db, category); !ok) return db_error(kFailed, ok.error());

    auto upserted = read_one(
        db, kUpsertBlog, kFailed,
        [&](Query& q) {
          q.bind(":feed_url", seed.feed_url).bind(":site_url", seed.site_url).bind(":title", seed.title);
          q.bind(":category", category).bind(":short_form", seed.short_form).bind(":paused", seed.paused);
          q.bind(":allowed_hosts", joined_hosts(seed.allowed_hosts));
          q.bind(":created_at", to_unix(now_seconds()));
        },
        [](const Query& q) { return q.int64(0); });
    if (!upserted) return upserted;
    const std::int64_t id = *upserted;
    if (old_category && *old_category != category) {
      auto ok = run(db, kRefileBlogArticles, kFailed,
                    [&](Query& q) { q.bind(":category", category).bind(":blog_id", id); });
      if (!ok) return std::unexpected(ok.error());
    }
    return id;
  });
}

Result<model::Blog> SqliteStore::edit_blog(std::int64_t blog_id, const BlogEdit& edit) {
  constexpr std::string_view kFailed = "cannot edit blog";
  std::optional<std::string> category = edit.category;
  if (category && category->empty()) category = kDefaultCategory;
  return in_write_transaction(kFailed, [&](Connection& db) -> Result<model::Blog> {
    std::string old_category;
    {
      auto q = db.query(kSelectBlogEditState);
      if (!q) return db_error(kFailed, q.error());
      q->bind(":id", blog_id);
      auto row = q->step();
      if (!row) return db_error(kFailed, row.error());
      if (!*row) return fail(ErrorKind::kNotFound, fmt::format("store: no blog {}", blog_id));
      old_category = q->text(0);
    }
    if (edit.feed_url) {
      auto q = db.query(kSelectOtherBlogWithFeedUrl);
      if (!q) return db_error(kFailed, q.error());
      q->bind(":feed_url", *edit.feed_url).bind(":id", blog_id);
      auto row = q->step();
      if (!row) return db_error(kFailed, row.error());
      if (*row)
        return fail(ErrorKind::kConflict,
                    fmt::format("store: feed URL {} is already blog {}'s", *edit.feed_url, q->int64(0)));
    }
    if (category) {
      if (auto ok = ensure_category(db, *category); !ok) return db_error(kFailed, ok.error());
    }
    auto edited = run(db, kEditBlog, kFailed, [&](Query& q) {
      q.bind(":title", edit.title).bind(":category", category).bind(":short_form", edit.short_form);
      q.bind(":feed_url", edit.feed_url).bind(":paused", edit.paused).bind(":id", blog_id);
      q.bind(":allowed_hosts", joined_hosts(edit.allowed_hosts));
    });
    if (!edited) return std::unexpected(edited.error());
    if (category && *category != old_category) {
      auto refiled = run(db, kRefileBlogArticles, kFailed,
                         [&](Query& q) { q.bind(":category", *category).bind(":blog_id", blog_id); });
      if (!refiled) return std::unexpected(refiled.error());
      auto dropped = run(db, kDropEmptyCategory, kFailed, [&](Query& q) { q.bind(":slug", old_category); });
      if (!dropped) return std::unexpected(dropped.error());
    }
    return read_one(
        db, kSelectBlogById, kFailed, [&](Query& q) { q.bind(":id", blog_id); }, read_blog);
  });
}

Result<std::optional<model::Blog>> SqliteStore::blog(std::int64_t id) {
  return with_reader([&](Connection& db) {
    return read_optional(
        db, kSelectBlogById, kReadFailed, [&](Query& q) { q.bind(":id", id); }, read_blog);
  });
}

Result<std::optional<model::Blog>> SqliteStore::blog_by_feed_url(std::string_view feed_url) {
  return with_reader([&](Connection& db) {
    return read_optional(
        db, kSelectBlogByFeedUrl, kReadFailed, [&](Query& q) { q.bind(":feed_url", feed_url); }, read_blog);
  });
}

Result<std::vector<model::Blog>> SqliteStore::blogs() {
  return with_reader([&](Connection& db) {
    return read_rows(
        db, kSelectBlogs, kListFailed, [](Query&) {}, read_blog);
  });
}

Result<std::vector<model::Blog>> SqliteStore::due_blogs(TimePoint now) {
  return with_reader([&](Connection& db) {
    return read_rows(
        db, kSelectDueBlogs, kListFailed, [&](Query& q) { q.bind(":now", to_unix(now)); }, read_blog);
  });
}

Result<std::vector<model::Blog>> SqliteStore::claim_due_blogs(std::string_view owner, TimePoint now,
                                                              TimePoint lease_until, int limit) {
  constexpr std::string_view kFailed = "cannot claim due blogs";
  // BEGIN IMMEDIATE takes the database's write lock before the read, so two crawler processes claim one
  // after the other and the second sees the first one's claims.
  return in_write_transaction(kFailed, [&](Connection& db) -> Result<std::vector<model::Blog>> {
    auto claimed = read_rows(
        db, kSelectDueBlogsToClaim, kFailed,
        [&](Query& q) { q.bind(":now", to_unix(now)).bind(":limit", limit > 0 ? limit : -1); }, read_blog);
    if (!claimed) return claimed;
    for (const auto& blog : *claimed) {
      auto ok = run(db, kClaimBlog, kFailed, [&](Query& q) {
        q.bind(":owner", owner).bind(":lease_until", to_unix(lease_until)).bind(":blog_id", blog.id);
      });
      if (!ok) return std::unexpected(ok.error());
    }
    return claimed;
  });
}

Result<void> SqliteStore::release_blog_claims(std::string_view owner) {
  return write_one(kReleaseBlogClaims, "cannot release blog claims",
                   [&](Query& q) { q.bind(":owner", owner); });
}

Result<std::int64_t> SqliteStore::blog_count() {
  return read_count(kCountBlogs, "cannot count blogs");
}

Result<void> SqliteStore::mark_parsing(std::int64_t blog_id, std::string_view owner, TimePoint since) {
  return marks_->mark(blog_id, owner, since);
}

Result<std::vector<ParsingMark>> SqliteStore::parsing_marks() {
  auto marks = marks_->all();
  if (!marks) return marks;
  auto left = with_reader([&](Connection& db) {
    return read_rows(
        db, kSelectParsingMarks, "cannot read parsing marks", [](Query&) {},
        [](const Query& q) {
          return ParsingMark{.blog_id = q.int64(0),
                             .owner = q.text(1),
                             .since = q.is_null(2) ? TimePoint{} : from_unix(q.int64(2))};
        });
  });
  if (!left) return std::unexpected(left.error());
  marks->insert(marks->end(), left->begin(), left->end());
  return marks;
}

Result<void> SqliteStore::clear_parsing_marks(std::string_view owner) {
  if (auto ok = marks_->clear_owner(owner); !ok) return ok;
  return write_one(kClearParsingMarks, "cannot clear parsing marks",
                   [&](Query& q) { q.bind(":owner", owner); });
}

// A companion file's mark is taken first, then the crash recorded: a process killed between the two loses
// that one crash (the blog is polled again as usual), never counts it twice.
Result<bool> SqliteStore::record_crawler_crash(const CrawlerCrash& crash) {
  auto taken = marks_->take(crash.mark);
  if (!taken) return std::unexpected(taken.error());
  return write_changes(
      *taken ? kRecordTakenCrash : kRecordCrawlerCrash, "cannot record crash", [&](Query& q) {
        q.bind(":crashes", crash.crashes).bind(":quarantined", crash.quarantine);
        q.bind(":now", to_unix(crash.now)).bind(":status", crash.status);
        q.bind(":next_due_at", optional_unix(crash.next_due_at)).bind(":blog_id", crash.mark.blog_id);
        if (!*taken) q.bind(":owner", crash.mark.owner).bind(":since", to_unix(crash.mark.since));
      });
}

Result<void> SqliteStore::delete_blog(std::int64_t blog_id) {
  constexpr std::string_view kFailed = "cannot delete blog";
  return in_write_transaction(kFailed, [&](Connection& db) -> Result<void> {
    auto deleted = run_changes(db, kDeleteBlog, kFailed, [&](Query& q) { q.bind(":id", blog_id); });
    if (!deleted) return std::unexpected(deleted.error());
    if (*deleted == 0) return fail(ErrorKind::kNotFound, fmt::format("store: no blog {}", blog_id));
    return {};
  });
}

Result<std::vector<BlogHealth>> SqliteStore::blog_health(TimePoint since) {
  constexpr int kFirst = 22;  // the column after LONGREAD_BLOG_COLUMNS
  return with_reader([&](Connection& db) {
    return read_rows(
        db, kSelectBlogHealth, "cannot read blog health", [&](Query& q) { q.bind(":since", to_unix(since)); },
        [](const Query& q) {
          return BlogHealth{.blog = read_blog(q),
                            .followed_at = from_unix(q.int64(kFirst)),
                            .newest_article_at = optional_time(q, kFirst + 1),
                            .recent_articles = q.int64(kFirst + 2),
                            .stored_articles = q.int64(kFirst + 3)};
        });
  });
}

Result<std::vector<BlogLifecycle>> SqliteStore::blog_lifecycle() {
  return with_reader([](Connection& db) { return sqlite::blog_lifecycle(db); });
}

Result<bool> SqliteStore::retire_blog(std::int64_t blog_id, std::string_view reason, TimePoint now) {
  return with_writer([&](Connection& db) { return sqlite::retire_blog(db, blog_id, reason, now); });
}

Result<bool> SqliteStore::unretire_blog(std::int64_t blog_id) {
  return with_writer([&](Connection& db) { return sqlite::unretire_blog(db, blog_id); });
}

Result<bool> SqliteStore::clear_blog_move(std::int64_t blog_id) {
  return with_writer([&](Connection& db) { return sqlite::clear_blog_move(db, blog_id); });
}

}  // namespace longread::storage::sqlite
