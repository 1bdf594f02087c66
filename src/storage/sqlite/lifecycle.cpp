#include "storage/sqlite/lifecycle.h"

#include <fmt/core.h>

namespace longread::storage::sqlite {
namespace {

constexpr const char* kSelectBlogLifecycle =
    "SELECT id, retired_at, retired_reason, moved_from, moved_at FROM blogs ORDER BY id";
// Retired is paused too (migration 0026): every path that leaves paused blogs unpolled leaves it alone.
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

std::unexpected<Error> lifecycle_error(std::string_view what, const Error& cause) {
  return fail(ErrorKind::kStorage, fmt::format("store: {}: {}", what, cause.message));
}

// A statement's changes, or kNotFound when nothing changed because there is no such blog.
Result<bool> changed_or_missing(Connection& db, std::int64_t blog_id, std::string_view what) {
  if (db.changes() > 0) return true;
  auto q = db.query(kBlogExists);
  if (!q) return lifecycle_error(what, q.error());
  q->bind(":id", blog_id);
  auto row = q->step();
  if (!row) return lifecycle_error(what, row.error());
  if (!*row) return fail(ErrorKind::kNotFound, fmt::format("store: no blog {}", blog_id), "No such blog.");
  return false;
}

Result<bool> update(Connection& writer, const char* sql, std::int64_t blog_id, std::string_view what,
                    auto&& bind) {
  auto q = writer.query(sql);
  if (!q) return lifecycle_error(what, q.error());
  q->bind(":id", blog_id);
  bind(*q);
  if (auto ok = q->run(); !ok) return lifecycle_error(what, ok.error());
  return changed_or_missing(writer, blog_id, what);
}

}  // namespace

Result<std::vector<BlogLifecycle>> blog_lifecycle(Connection& db) {
  auto q = db.query(kSelectBlogLifecycle);
  if (!q) return lifecycle_error("cannot read blog lifecycle", q.error());
  std::vector<BlogLifecycle> out;
  while (true) {
    auto row = q->step();
    if (!row) return lifecycle_error("cannot read blog lifecycle", row.error());
    if (!*row) break;
    BlogLifecycle l{.blog_id = q->int64(0), .retired_reason = q->text(2), .moved_from = q->text(3)};
    if (const auto at = q->optional_int64(1)) l.retired_at = from_unix(*at);
    if (const auto at = q->optional_int64(4)) l.moved_at = from_unix(*at);
    out.push_back(std::move(l));
  }
  return out;
}

Result<bool> retire_blog(Connection& writer, std::int64_t blog_id, std::string_view reason, TimePoint now) {
  return update(writer, kRetireBlog, blog_id, "cannot retire blog",
                [&](Query& q) { q.bind(":now", to_unix(now)).bind(":reason", reason); });
}

Result<bool> unretire_blog(Connection& writer, std::int64_t blog_id) {
  return update(writer, kUnretireBlog, blog_id, "cannot un-retire blog", [](Query&) {});
}

Result<bool> clear_blog_move(Connection& writer, std::int64_t blog_id) {
  return update(writer, kClearBlogMove, blog_id, "cannot accept blog move", [](Query&) {});
}

}  // namespace longread::storage::sqlite
