#include "storage/postgres/blog_store.h"

#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "storage/postgres/rows.h"
#include "storage/postgres/statement.h"
#include "storage/values.h"

namespace longread::storage::postgres {
namespace {

constexpr const char* kSelectBlogByIdForEdit =
    "SELECT " LONGREAD_PG_BLOG_COLUMNS " FROM blogs b WHERE b.id = :id";
constexpr const char* kSelectBlogByFeedUrl =
    "SELECT " LONGREAD_PG_BLOG_COLUMNS " FROM blogs b WHERE b.feed_url = :feed_url";
// Never-crawled blogs (no next_due_at) lead, then the longest due: the order of the index blogs_due
// (migration 0019), so a claim reads its batch from the index and stops. Paused blogs and quarantined ones
// are never due; a blog another crawler has claimed is not due until the claim lapses.
#define LONGREAD_DUE_BLOGS_WHERE                                                                   \
  " WHERE b.paused = 0 AND b.quarantined = 0 AND (b.next_due_at IS NULL OR b.next_due_at <= :now)" \
  " AND (b.claimed_until IS NULL OR b.claimed_until <= :now)"
#define LONGREAD_DUE_BLOGS_ORDER " ORDER BY b.next_due_at NULLS FIRST, b.id"
constexpr const char* kSelectDueBlogs =
    "SELECT " LONGREAD_PG_BLOG_COLUMNS " FROM blogs b" LONGREAD_DUE_BLOGS_WHERE LONGREAD_DUE_BLOGS_ORDER;
// The due blogs, claimed in one statement. SKIP LOCKED passes over the rows another crawler process is
// claiming at this moment, and a row it claimed and committed meanwhile is read again and no longer due, so
// two processes never get one blog. The claim leaves next_due_at alone, so the outer ORDER BY is the due
// order. A NULL limit is no limit.
constexpr const char* kClaimDueBlogs =
    "WITH due AS (SELECT b.id FROM blogs b" LONGREAD_DUE_BLOGS_WHERE LONGREAD_DUE_BLOGS_ORDER
    " LIMIT :limit FOR UPDATE SKIP LOCKED),"
    " claimed AS (UPDATE blogs SET claimed_by = :owner, claimed_until = :lease_until"
    "  WHERE id IN (SELECT id FROM due) RETURNING *)"
    " SELECT " LONGREAD_PG_BLOG_COLUMNS " FROM claimed b" LONGREAD_DUE_BLOGS_ORDER;
#undef LONGREAD_DUE_BLOGS_WHERE
#undef LONGREAD_DUE_BLOGS_ORDER
constexpr const char* kReleaseBlogClaims =
    "UPDATE blogs SET claimed_by = '', claimed_until = NULL WHERE claimed_by = :owner";
constexpr const char* kCountBlogs = "SELECT COUNT(*) FROM blogs";
// The per-blog subqueries read the (blog_id, display_at) index.
constexpr const char* kSelectBlogHealth =
    "SELECT " LONGREAD_PG_BLOG_COLUMNS
    ", b.created_at,"
    " (SELECT MAX(a.display_at) FROM articles a WHERE a.blog_id = b.id),"
    " (SELECT COUNT(*) FROM articles a WHERE a.blog_id = b.id AND a.display_at >= :since),"
    " (SELECT COUNT(*) FROM articles a WHERE a.blog_id = b.id)"
    " FROM blogs b ORDER BY LOWER(b.title) COLLATE \"C\", b.id";

// Articles that fell back to their blog's category follow the blog when it is re-filed.
constexpr const char* kRefileBlogArticles =
    "UPDATE articles SET category = :category WHERE blog_id = :blog_id AND category_from_blog = 1";
// An operator's edit (BlogEdit): NULL keeps a column. The row is locked for the rest of the edit, so two
// edits of one blog apply one after the other.
constexpr const char* kSelectBlogEditState = "SELECT category, paused FROM blogs WHERE id = :id FOR UPDATE";
constexpr const char* kSelectOtherBlogWithFeedUrl =
    "SELECT id FROM blogs WHERE feed_url = :feed_url AND id <> :id";
// Every right-hand side reads the row as it was, so "paused = 1 AND :paused = 0" is a resume, which makes
// the blog due at once.
constexpr const char* kEditBlog =
    "UPDATE blogs SET title = COALESCE(:title, title), category = COALESCE(:category, category),"
    " short_form = COALESCE(:short_form, short_form), feed_url = COALESCE(:feed_url, feed_url),"
    " paused = COALESCE(:paused, paused), allowed_hosts = COALESCE(:allowed_hosts, allowed_hosts),"
    // A resume also lifts a crash quarantine and starts its count again.
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

// Crash quarantine. A mark is one autocommitted UPDATE.
constexpr const char* kMarkParsing =
    "UPDATE blogs SET parsing_by = :owner, parsing_since = :since WHERE id = :blog_id";
constexpr const char* kSelectParsingMarks =
    "SELECT id, parsing_by, parsing_since FROM blogs WHERE parsing_by <> '' ORDER BY id";
constexpr const char* kClearParsingMarks =
    "UPDATE blogs SET parsing_by = '', parsing_since = NULL WHERE parsing_by = :owner";
// Only while the blog still carries the mark that was read: of two processes finding the same dead mark,
// one records the crash (the second's UPDATE waits for the first's row lock, then no longer matches).
constexpr const char* kRecordCrawlerCrash =
    "UPDATE blogs SET crashes = :crashes, quarantined = :quarantined, parsing_by = '', parsing_since = NULL,"
    " last_attempt_at = :now, last_status = :status, last_error = :status, last_error_at = :now,"
    " consecutive_failures = consecutive_failures + 1, next_due_at = :next_due_at"
    " WHERE id = :blog_id AND parsing_by = :owner AND parsing_since = :since";
constexpr const char* kDeleteBlog = "DELETE FROM blogs WHERE id = :id";

// Re-upserting a blog from its list updates what the list says; an empty title or site URL in the list
// keeps what the feed told us. Crawl state is never touched here, except that a list that un-pauses a
// paused blog makes it due at once, as `blogs resume` does. A NULL :paused (the list does not say) keeps it.
constexpr const char* kUpsertBlog =
    "INSERT INTO blogs (feed_url, site_url, title, category, short_form, paused, allowed_hosts, created_at)"
    " VALUES (:feed_url, :site_url, :title, :category, :short_form, COALESCE(:paused::integer, 0),"
    " COALESCE(:allowed_hosts::text, ''), :created_at)"
    " ON CONFLICT (feed_url) DO UPDATE SET"
    "  site_url = CASE WHEN excluded.site_url <> '' THEN excluded.site_url ELSE blogs.site_url END,"
    "  title = CASE WHEN excluded.title <> '' THEN excluded.title ELSE blogs.title END,"
    "  category = excluded.category,"
    "  short_form = excluded.short_form,"
    "  paused = COALESCE(:paused::integer, blogs.paused),"
    "  allowed_hosts = COALESCE(:allowed_hosts::text, blogs.allowed_hosts),"
    "  next_due_at = CASE WHEN blogs.paused = 1 AND :paused::integer = 0 THEN NULL ELSE blogs.next_due_at END"
    " RETURNING id";

// Blog lifecycle.
constexpr const char* kSelectBlogLifecycle =
    "SELECT id, retired_at, retired_reason, moved_from, moved_at FROM blogs ORDER BY id";
// Retired is paused too: every path that leaves paused blogs unpolled leaves it alone.
constexpr const char* kRetireBlog =
    "UPDATE blogs SET paused = 1, retired_at = :now, retired_reason = :reason"
    " WHERE id = :id AND retired_at IS NULL";
// Polled again from the next crawl, as `blogs resume` does: due at once, a crash quarantine lifted.
constexpr const char* kUnretireBlog =
    "UPDATE blogs SET paused = 0, quarantined = 0, crashes = 0, next_due_at = NULL, retired_at = NULL,"
    " retired_reason = '' WHERE id = :id AND retired_at IS NOT NULL";
constexpr const char* kClearBlogMove =
    "UPDATE blogs SET moved_from = '', moved_at = NULL WHERE id = :id AND moved_at IS NOT NULL";
constexpr const char* kBlogExists = "SELECT 1 FROM blogs WHERE id = :id";

std::optional<std::string> joined_hosts(const std::optional<std::vector<std::string>>& hosts) {
  if (!hosts) return std::nullopt;
  return fmt::format("{}", fmt::join(*hosts, " "));
}

// Every row of a statement that selects LONGREAD_PG_BLOG_COLUMNS first.
std::vector<model::Blog> read_blogs_of(const Rows& rows) {
  std::vector<model::Blog> out;
  out.reserve(static_cast<std::size_t>(rows.size()));
  for (int r = 0; r < rows.size(); ++r) out.push_back(read_blog(rows, r));
  return out;
}

// A lifecycle UPDATE of blog `blog_id`: true when it changed the row, false when the blog was already so,
// kNotFound when there is no such blog.
Result<bool> lifecycle_update(Pool& pool, const char* sql, std::int64_t blog_id, std::string_view what,
                              auto&& bind) {
  Pool::Lease lease = pool.acquire();
  auto rows = run_query(*lease, sql, what, [&](Query& q) {
    q.bind(":id", blog_id);
    bind(q);
  });
  if (!rows) return std::unexpected(rows.error());
  if (rows->affected() > 0) return true;
  auto exists = run_query(*lease, kBlogExists, what, [&](Query& q) { q.bind(":id", blog_id); });
  if (!exists) return std::unexpected(exists.error());
  if (exists->empty())
    return fail(ErrorKind::kNotFound, fmt::format("store: no blog {}", blog_id), "No such blog.");
  return false;
}

}  // namespace

Result<std::int64_t> PgBlogStore::upsert_blog(const BlogSeed& seed) {
  const std::string category = seed.category.empty() ? kDefaultCategory : seed.category;
  std::optional<std::string> allowed_hosts;
  if (seed.allowed_hosts) allowed_hosts = fmt::format("{}", fmt::join(*seed.allowed_hosts, " "));
  std::int64_t id = 0;
  auto done = in_transaction(db_.pool(), [&](Connection& c) -> Result<void> {
    // The row is locked first, so a concurrent edit cannot slip between reading the old category and
    // re-filing the blog's articles.
    Query old(c, "SELECT category FROM blogs WHERE feed_url = :feed_url FOR UPDATE");
    old.bind(":feed_url", seed.feed_url);
    auto old_rows = old.run();
    if (!old_rows) return std::unexpected(old_rows.error());
    std::optional<std::string> old_category;
    if (!old_rows->empty()) old_category = old_rows->string(0, 0);
    if (auto ok = ensure_category(c, category); !ok) return ok;
    Query q(c, kUpsertBlog);
    q.bind(":feed_url", seed.feed_url).bind(":site_url", seed.site_url).bind(":title", seed.title);
    q.bind(":category", category).bind(":short_form", seed.short_form);
    std::optional<std::int64_t> paused;
    if (seed.paused) paused = *seed.paused ? 1 : 0;
    q.bind(":paused", paused).bind(":allowed_hosts", allowed_hosts).bind(":created_at", now_seconds());
    auto row = q.run();
    if (!row) return std::unexpected(row.error());
    id = row->int64(0, 0);
    if (old_category && *old_category != category) {
      Query refile(
          c, "UPDATE articles SET category = :category WHERE blog_id = :blog_id AND category_from_blog = 1");
      refile.bind(":category", category).bind(":blog_id", id);
      if (auto ok = refile.run(); !ok) return std::unexpected(ok.error());
    }
    return {};
  });
  if (!done) return db_error("cannot upsert blog", done.error());
  return id;
}

Result<std::optional<model::Blog>> PgBlogStore::blog(std::int64_t id) {
  auto rows = db_.pool().with([&](Connection& c) {
    Query q(c, "SELECT " LONGREAD_PG_BLOG_COLUMNS " FROM blogs b WHERE b.id = :id");
    q.bind(":id", id);
    return q.run();
  });
  if (!rows) return db_error("cannot read blog", rows.error());
  if (rows->empty()) return std::optional<model::Blog>{};
  return std::optional<model::Blog>{read_blog(*rows, 0)};
}

Result<std::vector<model::Blog>> PgBlogStore::blogs() {
  auto rows = db_.pool().with([&](Connection& c) {
    return c.exec("SELECT " LONGREAD_PG_BLOG_COLUMNS
                  " FROM blogs b ORDER BY LOWER(b.title) COLLATE \"C\", b.id");
  });
  if (!rows) return db_error("cannot list blogs", rows.error());
  std::vector<model::Blog> out;
  out.reserve(static_cast<std::size_t>(rows->size()));
  for (int r = 0; r < rows->size(); ++r) out.push_back(read_blog(*rows, r));
  return out;
}

Result<std::vector<model::Blog>> PgBlogStore::due_blogs(TimePoint now) {
  auto rows =
      run_pooled(db_.pool(), kSelectDueBlogs, "cannot list blogs", [&](Query& q) { q.bind(":now", now); });
  if (!rows) return std::unexpected(rows.error());
  return read_blogs_of(*rows);
}

Result<std::vector<model::Blog>> PgBlogStore::claim_due_blogs(std::string_view owner, TimePoint now,
                                                              TimePoint lease_until, int limit) {
  auto rows = run_pooled(db_.pool(), kClaimDueBlogs, "cannot claim due blogs", [&](Query& q) {
    q.bind(":now", now).bind(":limit", limit > 0 ? std::optional<int>(limit) : std::nullopt);
    q.bind(":owner", owner).bind(":lease_until", lease_until);
  });
  if (!rows) return std::unexpected(rows.error());
  return read_blogs_of(*rows);
}

Result<void> PgBlogStore::release_blog_claims(std::string_view owner) {
  auto rows = run_pooled(db_.pool(), kReleaseBlogClaims, "cannot release blog claims",
                         [&](Query& q) { q.bind(":owner", owner); });
  if (!rows) return std::unexpected(rows.error());
  return {};
}

Result<std::int64_t> PgBlogStore::blog_count() {
  auto rows = run_pooled(db_.pool(), kCountBlogs, "cannot count blogs");
  if (!rows) return std::unexpected(rows.error());
  return rows->int64(0, 0);
}

Result<std::optional<model::Blog>> PgBlogStore::blog_by_feed_url(std::string_view feed_url) {
  auto rows = run_pooled(db_.pool(), kSelectBlogByFeedUrl, "cannot read blog",
                         [&](Query& q) { q.bind(":feed_url", feed_url); });
  if (!rows) return std::unexpected(rows.error());
  if (rows->empty()) return std::optional<model::Blog>{};
  return std::optional<model::Blog>{read_blog(*rows, 0)};
}

Result<model::Blog> PgBlogStore::edit_blog(std::int64_t blog_id, const BlogEdit& edit) {
  constexpr std::string_view kFailed = "cannot edit blog";
  std::optional<std::string> category = edit.category;
  if (category && category->empty()) category = kDefaultCategory;
  model::Blog after;
  auto done = in_transaction(db_.pool(), [&](Connection& c) -> Result<void> {
    auto state = run_query(c, kSelectBlogEditState, kFailed, [&](Query& q) { q.bind(":id", blog_id); });
    if (!state) return std::unexpected(state.error());
    if (state->empty()) return fail(ErrorKind::kNotFound, fmt::format("store: no blog {}", blog_id));
    const std::string old_category = state->string(0, 0);
    if (edit.feed_url) {
      auto other = run_query(c, kSelectOtherBlogWithFeedUrl, kFailed,
                             [&](Query& q) { q.bind(":feed_url", *edit.feed_url).bind(":id", blog_id); });
      if (!other) return std::unexpected(other.error());
      if (!other->empty()) {
        return fail(ErrorKind::kConflict, fmt::format("store: feed URL {} is already blog {}'s",
                                                      *edit.feed_url, other->int64(0, 0)));
      }
    }
    if (category) {
      if (auto ok = ensure_category(c, *category); !ok) return db_error(kFailed, ok.error());
    }
    auto edited = run_query(c, kEditBlog, kFailed, [&](Query& q) {
      q.bind(":title", edit.title).bind(":category", category).bind(":short_form", edit.short_form);
      q.bind(":feed_url", edit.feed_url).bind(":paused", edit.paused).bind(":id", blog_id);
      q.bind(":allowed_hosts", joined_hosts(edit.allowed_hosts));
    });
    if (!edited) return std::unexpected(edited.error());
    if (category && *category != old_category) {
      auto refiled = run_query(c, kRefileBlogArticles, kFailed,
                               [&](Query& q) { q.bind(":category", *category).bind(":blog_id", blog_id); });
      if (!refiled) return std::unexpected(refiled.error());
      auto dropped =
          run_query(c, kDropEmptyCategory, kFailed, [&](Query& q) { q.bind(":slug", old_category); });
      if (!dropped) return std::unexpected(dropped.error());
    }
    auto rows = run_query(c, kSelectBlogByIdForEdit, kFailed, [&](Query& q) { q.bind(":id", blog_id); });
    if (!rows) return std::unexpected(rows.error());
    after = read_blog(*rows, 0);
    return {};
  });
  if (!done) return std::unexpected(done.error());
  return after;
}

Result<void> PgBlogStore::mark_parsing(std::int64_t blog_id, std::string_view owner, TimePoint since) {
  auto rows = run_pooled(db_.pool(), kMarkParsing, "cannot mark blog", [&](Query& q) {
    q.prepared().bind(":owner", owner).bind(":since", since).bind(":blog_id", blog_id);
  });
  if (!rows) return std::unexpected(rows.error());
  return {};
}

Result<std::vector<ParsingMark>> PgBlogStore::parsing_marks() {
  auto rows = run_pooled(db_.pool(), kSelectParsingMarks, "cannot read parsing marks");
  if (!rows) return std::unexpected(rows.error());
  std::vector<ParsingMark> out;
  for (int r = 0; r < rows->size(); ++r) {
    out.push_back({.blog_id = rows->int64(r, 0),
                   .owner = rows->string(r, 1),
                   .since = rows->null(r, 2) ? TimePoint{} : rows->time(r, 2)});
  }
  return out;
}

Result<void> PgBlogStore::clear_parsing_marks(std::string_view owner) {
  auto rows = run_pooled(db_.pool(), kClearParsingMarks, "cannot clear parsing marks",
                         [&](Query& q) { q.bind(":owner", owner); });
  if (!rows) return std::unexpected(rows.error());
  return {};
}

Result<bool> PgBlogStore::record_crawler_crash(const CrawlerCrash& crash) {
  auto rows = run_pooled(db_.pool(), kRecordCrawlerCrash, "cannot record crash", [&](Query& q) {
    q.bind(":crashes", crash.crashes).bind(":quarantined", crash.quarantine);
    q.bind(":now", crash.now).bind(":status", crash.status);
    q.bind(":next_due_at", crash.next_due_at).bind(":blog_id", crash.mark.blog_id);
    q.bind(":owner", crash.mark.owner).bind(":since", crash.mark.since);
  });
  if (!rows) return std::unexpected(rows.error());
  return rows->affected() > 0;
}

Result<void> PgBlogStore::delete_blog(std::int64_t blog_id) {
  auto rows =
      run_pooled(db_.pool(), kDeleteBlog, "cannot delete blog", [&](Query& q) { q.bind(":id", blog_id); });
  if (!rows) return std::unexpected(rows.error());
  if (rows->affected() == 0) return fail(ErrorKind::kNotFound, fmt::format("store: no blog {}", blog_id));
  return {};
}

Result<std::vector<BlogHealth>> PgBlogStore::blog_health(TimePoint since) {
  auto rows = run_pooled(db_.pool(), kSelectBlogHealth, "cannot read blog health",
                         [&](Query& q) { q.bind(":since", since); });
  if (!rows) return std::unexpected(rows.error());
  std::vector<BlogHealth> out;
  for (int r = 0; r < rows->size(); ++r) {
    out.push_back(BlogHealth{.blog = read_blog(*rows, r),
                             .followed_at = rows->time(r, kBlogColumnCount),
                             .newest_article_at = rows->optional_time(r, kBlogColumnCount + 1),
                             .recent_articles = rows->int64(r, kBlogColumnCount + 2),
                             .stored_articles = rows->int64(r, kBlogColumnCount + 3)});
  }
  return out;
}

Result<std::vector<BlogLifecycle>> PgBlogStore::blog_lifecycle() {
  auto rows = run_pooled(db_.pool(), kSelectBlogLifecycle, "cannot read blog lifecycle");
  if (!rows) return std::unexpected(rows.error());
  std::vector<BlogLifecycle> out;
  for (int r = 0; r < rows->size(); ++r) {
    out.push_back(BlogLifecycle{.blog_id = rows->int64(r, 0),
                                .retired_at = rows->optional_time(r, 1),
                                .retired_reason = rows->string(r, 2),
                                .moved_from = rows->string(r, 3),
                                .moved_at = rows->optional_time(r, 4)});
  }
  return out;
}

Result<bool> PgBlogStore::retire_blog(std::int64_t blog_id, std::string_view reason, TimePoint now) {
  return lifecycle_update(db_.pool(), kRetireBlog, blog_id, "cannot retire blog",
                          [&](Query& q) { q.bind(":now", now).bind(":reason", reason); });
}

Result<bool> PgBlogStore::unretire_blog(std::int64_t blog_id) {
  return lifecycle_update(db_.pool(), kUnretireBlog, blog_id, "cannot un-retire blog", [](Query&) {});
}

Result<bool> PgBlogStore::clear_blog_move(std::int64_t blog_id) {
  return lifecycle_update(db_.pool(), kClearBlogMove, blog_id, "cannot accept blog move", [](Query&) {});
}

}  // namespace longread::storage::postgres
