#include "storage/postgres/blog_store.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "storage/postgres/rows.h"
#include "storage/values.h"

namespace longread::storage::postgres {
namespace {

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
  if (!done) return std::unexpected(with_context("cannot upsert blog", done.error()));
  return id;
}

Result<std::optional<model::Blog>> PgBlogStore::blog(std::int64_t id) {
  auto rows = db_.pool().with([&](Connection& c) {
    Query q(c, "SELECT " LONGREAD_PG_BLOG_COLUMNS " FROM blogs b WHERE b.id = :id");
    q.bind(":id", id);
    return q.run();
  });
  if (!rows) return std::unexpected(with_context("cannot read blog", rows.error()));
  if (rows->empty()) return std::optional<model::Blog>{};
  return std::optional<model::Blog>{read_blog(*rows, 0)};
}

Result<std::vector<model::Blog>> PgBlogStore::blogs() {
  auto rows = db_.pool().with([&](Connection& c) {
    return c.exec("SELECT " LONGREAD_PG_BLOG_COLUMNS
                  " FROM blogs b ORDER BY LOWER(b.title) COLLATE \"C\", b.id");
  });
  if (!rows) return std::unexpected(with_context("cannot list blogs", rows.error()));
  std::vector<model::Blog> out;
  out.reserve(static_cast<std::size_t>(rows->size()));
  for (int r = 0; r < rows->size(); ++r) out.push_back(read_blog(*rows, r));
  return out;
}

Result<std::vector<model::Blog>> PgBlogStore::due_blogs(TimePoint now) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL BlogStore::due_blogs is not written yet");
}

Result<std::vector<model::Blog>> PgBlogStore::claim_due_blogs(std::string_view owner, TimePoint now,
                                                              TimePoint lease_until, int limit) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL BlogStore::claim_due_blogs is not written yet");
}

Result<void> PgBlogStore::release_blog_claims(std::string_view owner) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL BlogStore::release_blog_claims is not written yet");
}

Result<std::int64_t> PgBlogStore::blog_count() {
  return fail(ErrorKind::kInternal, "store: PostgreSQL BlogStore::blog_count is not written yet");
}

Result<std::optional<model::Blog>> PgBlogStore::blog_by_feed_url(std::string_view feed_url) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL BlogStore::blog_by_feed_url is not written yet");
}

Result<model::Blog> PgBlogStore::edit_blog(std::int64_t blog_id, const BlogEdit& edit) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL BlogStore::edit_blog is not written yet");
}

Result<void> PgBlogStore::mark_parsing(std::int64_t blog_id, std::string_view owner, TimePoint since) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL BlogStore::mark_parsing is not written yet");
}

Result<std::vector<ParsingMark>> PgBlogStore::parsing_marks() {
  return fail(ErrorKind::kInternal, "store: PostgreSQL BlogStore::parsing_marks is not written yet");
}

Result<void> PgBlogStore::clear_parsing_marks(std::string_view owner) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL BlogStore::clear_parsing_marks is not written yet");
}

Result<bool> PgBlogStore::record_crawler_crash(const CrawlerCrash& crash) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL BlogStore::record_crawler_crash is not written yet");
}

Result<void> PgBlogStore::delete_blog(std::int64_t blog_id) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL BlogStore::delete_blog is not written yet");
}

Result<std::vector<BlogHealth>> PgBlogStore::blog_health(TimePoint since) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL BlogStore::blog_health is not written yet");
}

Result<std::vector<BlogLifecycle>> PgBlogStore::blog_lifecycle() {
  return fail(ErrorKind::kInternal, "store: PostgreSQL BlogStore::blog_lifecycle is not written yet");
}

Result<bool> PgBlogStore::retire_blog(std::int64_t blog_id, std::string_view reason, TimePoint now) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL BlogStore::retire_blog is not written yet");
}

Result<bool> PgBlogStore::unretire_blog(std::int64_t blog_id) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL BlogStore::unretire_blog is not written yet");
}

Result<bool> PgBlogStore::clear_blog_move(std::int64_t blog_id) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL BlogStore::clear_blog_move is not written yet");
}

}  // namespace longread::storage::postgres
