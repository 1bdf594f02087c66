// Row mappings and small statements several PostgreSQL role classes share.
#pragma once

#include <string_view>

#include "core/error.h"
#include "model/model.h"
#include "storage/postgres/pg.h"

namespace longread::storage::postgres {

// The columns read_blog reads, in its order, from `blogs b`. article_count is the kept count of visible
// articles.
#define LONGREAD_PG_BLOG_COLUMNS                                                                        \
  "b.id, b.feed_url, b.site_url, b.title, b.author, b.category, b.short_form, b.etag, b.last_modified," \
  " b.last_attempt_at, b.last_success_at, b.next_due_at, b.consecutive_failures, b.last_status,"        \
  " b.last_error, b.last_error_at, b.visible_articles, b.feed_update_minutes, b.paused, b.crashes,"     \
  " b.quarantined, b.allowed_hosts"
inline constexpr int kBlogColumnCount = 22;

// Row `row` of `rows`, selected with LONGREAD_PG_BLOG_COLUMNS from column `first` on.
model::Blog read_blog(const Rows& rows, int row, int first = 0);

// Adds category `slug` (named from the slug) unless it exists.
Result<void> ensure_category(Connection& conn, std::string_view slug);

// `error` with what was being done put in front: "store: cannot save crawl: <the server's words>".
Error with_context(std::string_view what, const Error& error);

}  // namespace longread::storage::postgres
