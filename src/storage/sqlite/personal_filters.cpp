#include "storage/sqlite/personal_filters.h"

#include <fmt/format.h>

#include <algorithm>

namespace longread::storage::sqlite {
namespace {

constexpr const char* kBlogExists = "SELECT 1 FROM blogs WHERE id = :blog_id";
constexpr const char* kCategoryExists = "SELECT 1 FROM categories WHERE slug = :category";
// The partial unique indexes of migration 0028 make a second mute of the same thing a no-op.
constexpr const char* kMuteBlog =
    "INSERT INTO reader_mutes (reader_id, blog_id, created_at) VALUES (:reader_id, :blog_id, :now)"
    " ON CONFLICT DO NOTHING";
constexpr const char* kUnmuteBlog =
    "DELETE FROM reader_mutes WHERE reader_id = :reader_id AND blog_id = :blog_id";
constexpr const char* kMuteCategory =
    "INSERT INTO reader_mutes (reader_id, category, created_at) VALUES (:reader_id, :category, :now)"
    " ON CONFLICT DO NOTHING";
constexpr const char* kUnmuteCategory =
    "DELETE FROM reader_mutes WHERE reader_id = :reader_id AND category = :category";
constexpr const char* kSelectMutedBlogs =
    "SELECT b.id, b.title, b.site_url, m.created_at FROM reader_mutes m JOIN blogs b ON b.id = m.blog_id"
    " WHERE m.reader_id = :reader_id ORDER BY m.created_at DESC, m.id DESC";
constexpr const char* kSelectMutedCategories =
    "SELECT c.slug, c.name, m.created_at FROM reader_mutes m JOIN categories c ON c.slug = m.category"
    " WHERE m.reader_id = :reader_id ORDER BY m.created_at DESC, m.id DESC";
constexpr const char* kSelectPreferences =
    "SELECT hide_read, mark_read_on_scroll FROM reader_preferences WHERE reader_id = :reader_id";
constexpr const char* kSelectNewsletterCategories =
    "SELECT category FROM reader_newsletter_categories WHERE reader_id = :reader_id ORDER BY category";
constexpr const char* kUpsertPreferences =
    "INSERT INTO reader_preferences (reader_id, hide_read, mark_read_on_scroll) VALUES (:reader_id, "
    ":hide_read, :mark_read_on_scroll) ON CONFLICT (reader_id) DO UPDATE SET hide_read = "
    "excluded.hide_read, mark_read_on_scroll = excluded.mark_read_on_scroll";
constexpr const char* kClearNewsletterCategories =
    "DELETE FROM reader_newsletter_categories WHERE reader_id = :reader_id";
constexpr const char* kInsertNewsletterCategory =
    "INSERT INTO reader_newsletter_categories (reader_id, category) VALUES (:reader_id, :category)"
    " ON CONFLICT DO NOTHING";

// Whether the reader has read the article row X: an explicit mark wins; else it is read when dated before
// the "mark all as read" horizon of its blog or of every blog (migration 0025, as reader_api.cpp reads it).
std::string read_expression(std::string_view x) {
  return fmt::format(
      "COALESCE((SELECT r.is_read FROM article_reads r WHERE r.reader_id = :filter_reader AND r.article_id = "
      "{0}.id), {0}.display_at < MAX(COALESCE((SELECT h.read_before FROM read_horizons h WHERE h.reader_id = "
      ":filter_reader AND h.blog_id = 0), 0), COALESCE((SELECT h.read_before FROM read_horizons h WHERE "
      "h.reader_id = :filter_reader AND h.blog_id = {0}.blog_id), 0)))",
      x);
}

Result<bool> exists(Connection& db, const char* sql, const char* name, auto value, std::string_view what) {
  auto q = db.query(sql);
  if (!q) return db_error(what, q.error());
  q->bind(name, value);
  auto row = q->step();
  if (!row) return db_error(what, row.error());
  return *row;
}

}  // namespace

std::string reader_filter_sql(const ReaderFilter& filter, std::string_view alias) {
  // Each NOT EXISTS is one probe of a partial unique index of reader_mutes (migration 0028).
  std::string sql = fmt::format(
      " AND NOT EXISTS (SELECT 1 FROM reader_mutes m WHERE m.reader_id = :filter_reader AND m.blog_id = "
      "{0}.blog_id) AND NOT EXISTS (SELECT 1 FROM reader_mutes m WHERE m.reader_id = :filter_reader AND "
      "m.category = {0}.category)",
      alias);
  if (filter.hide_read) sql += " AND NOT " + read_expression(alias);
  if (filter.newsletter_categories) {
    sql += fmt::format(
        " AND (NOT EXISTS (SELECT 1 FROM reader_newsletter_categories n WHERE n.reader_id = :filter_reader)"
        " OR EXISTS (SELECT 1 FROM reader_newsletter_categories n WHERE n.reader_id = :filter_reader AND "
        "n.category = {}.category))",
        alias);
  }
  return sql;
}

void bind_reader_filter(Query& q, const ReaderFilter& filter) {
  q.bind(":filter_reader", filter.reader_id);
}

// One mute or un-mute of `key` (bound as `key_name` in every statement) in a transaction: kNotFound with
// nothing stored when `exists_sql` finds no such blog or category.
Result<bool> set_muted(Connection& writer, const char* exists_sql, const char* mute_sql,
                       const char* unmute_sql, const char* key_name, auto key, std::int64_t reader_id,
                       bool muted, TimePoint now, std::string_view what, Error not_found) {
  const std::string failed = fmt::format("cannot mute {}", what);
  auto tx = Transaction::begin(writer);
  if (!tx) return db_error(failed, tx.error());
  auto known = exists(writer, exists_sql, key_name, key, failed);
  if (!known) return std::unexpected(known.error());
  if (!*known) return std::unexpected(std::move(not_found));
  auto q = writer.query(muted ? mute_sql : unmute_sql);
  if (!q) return db_error(failed, q.error());
  q->bind(":reader_id", reader_id).bind(key_name, key);
  if (muted) q->bind(":now", to_unix(now));
  if (auto ok = q->run(); !ok) return db_error(failed, ok.error());
  const bool changed = writer.changes() > 0;
  if (auto ok = tx->commit(); !ok) return db_error(failed, ok.error());
  return changed;
}

Result<bool> set_blog_muted(Connection& writer, std::int64_t reader_id, std::int64_t blog_id, bool muted,
                            TimePoint now) {
  return set_muted(
      writer, kBlogExists, kMuteBlog, kUnmuteBlog, ":blog_id", blog_id, reader_id, muted, now, "blog",
      fail(ErrorKind::kNotFound, fmt::format("store: no blog {}", blog_id), "No such blog.").error());
}

Result<bool> set_category_muted(Connection& writer, std::int64_t reader_id, std::string_view category,
                                bool muted, TimePoint now) {
  return set_muted(
      writer, kCategoryExists, kMuteCategory, kUnmuteCategory, ":category", category, reader_id, muted, now,
      "category",
      fail(ErrorKind::kNotFound, fmt::format("store: no category \"{}\"", category), "No such category.")
          .error());
}

Result<ReaderMutes> reader_mutes(Connection& db, std::int64_t reader_id) {
  ReaderMutes out;
  {
    auto q = db.query(kSelectMutedBlogs);
    if (!q) return db_error("cannot read mutes", q.error());
    q->bind(":reader_id", reader_id);
    for (;;) {
      auto row = q->step();
      if (!row) return db_error("cannot read mutes", row.error());
      if (!*row) break;
      out.blogs.push_back({.blog_id = q->int64(0),
                           .title = q->text(1),
                           .site_url = q->text(2),
                           .muted_at = from_unix(q->int64(3))});
    }
  }
  auto q = db.query(kSelectMutedCategories);
  if (!q) return db_error("cannot read mutes", q.error());
  q->bind(":reader_id", reader_id);
  for (;;) {
    auto row = q->step();
    if (!row) return db_error("cannot read mutes", row.error());
    if (!*row) break;
    out.categories.push_back({.slug = q->text(0), .name = q->text(1), .muted_at = from_unix(q->int64(2))});
  }
  return out;
}

Result<ReaderPreferences> reader_preferences(Connection& db, std::int64_t reader_id) {
  ReaderPreferences out;
  {
    auto q = db.query(kSelectPreferences);
    if (!q) return db_error("cannot read preferences", q.error());
    q->bind(":reader_id", reader_id);
    auto row = q->step();
    if (!row) return db_error("cannot read preferences", row.error());
    if (*row) {
      out.hide_read = q->int64(0) != 0;
      out.mark_read_on_scroll = q->int64(1) != 0;
    }
  }
  auto q = db.query(kSelectNewsletterCategories);
  if (!q) return db_error("cannot read preferences", q.error());
  q->bind(":reader_id", reader_id);
  for (;;) {
    auto row = q->step();
    if (!row) return db_error("cannot read preferences", row.error());
    if (!*row) break;
    out.newsletter_categories.push_back(q->text(0));
  }
  return out;
}

Result<void> set_reader_preferences(Connection& writer, std::int64_t reader_id,
                                    const ReaderPreferences& preferences) {
  auto tx = Transaction::begin(writer);
  if (!tx) return db_error("cannot save preferences", tx.error());
  for (const std::string& slug : preferences.newsletter_categories) {
    auto known =
        exists(writer, kCategoryExists, ":category", std::string_view(slug), "cannot save preferences");
    if (!known) return std::unexpected(known.error());
    if (!*known)
      return fail(ErrorKind::kNotFound, fmt::format("store: no category \"{}\"", slug), "No such category.");
  }
  auto q = writer.query(kUpsertPreferences);
  if (!q) return db_error("cannot save preferences", q.error());
  q->bind(":reader_id", reader_id)
      .bind(":hide_read", preferences.hide_read)
      .bind(":mark_read_on_scroll", preferences.mark_read_on_scroll);
  if (auto ok = q->run(); !ok) return db_error("cannot save preferences", ok.error());
  auto clear = writer.query(kClearNewsletterCategories);
  if (!clear) return db_error("cannot save preferences", clear.error());
  clear->bind(":reader_id", reader_id);
  if (auto ok = clear->run(); !ok) return db_error("cannot save preferences", ok.error());
  for (const std::string& slug : preferences.newsletter_categories) {
    auto add = writer.query(kInsertNewsletterCategory);
    if (!add) return db_error("cannot save preferences", add.error());
    add->bind(":reader_id", reader_id).bind(":category", slug);
    if (auto ok = add->run(); !ok) return db_error("cannot save preferences", ok.error());
  }
  if (auto ok = tx->commit(); !ok) return db_error("cannot save preferences", ok.error());
  return {};
}

Result<std::vector<std::int64_t>> read_among(Connection& db, std::int64_t reader_id,
                                             std::string_view article_ids_json) {
  auto q = db.query("SELECT a.id FROM articles a WHERE a.id IN (SELECT value FROM json_each(:ids)) AND " +
                    read_expression("a"));
  if (!q) return db_error("cannot read read marks", q.error());
  q->bind(":ids", article_ids_json).bind(":filter_reader", reader_id);
  std::vector<std::int64_t> out;
  for (;;) {
    auto row = q->step();
    if (!row) return db_error("cannot read read marks", row.error());
    if (!*row) break;
    out.push_back(q->int64(0));
  }
  return out;
}

}  // namespace longread::storage::sqlite
