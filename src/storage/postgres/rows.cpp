#include "storage/postgres/rows.h"

#include <fmt/format.h>

#include "storage/values.h"

namespace longread::storage::postgres {

model::Blog read_blog(const Rows& rows, int row, int first) {
  const int c = first;
  model::Blog b;
  b.id = rows.int64(row, c + 0);
  b.feed_url = rows.string(row, c + 1);
  b.site_url = rows.string(row, c + 2);
  b.title = rows.string(row, c + 3);
  b.author = rows.string(row, c + 4);
  b.category = rows.string(row, c + 5);
  b.short_form = rows.flag(row, c + 6);
  b.etag = rows.string(row, c + 7);
  b.last_modified = rows.string(row, c + 8);
  b.last_attempt_at = rows.optional_time(row, c + 9);
  b.last_success_at = rows.optional_time(row, c + 10);
  b.next_due_at = rows.optional_time(row, c + 11);
  b.consecutive_failures = rows.int32(row, c + 12);
  b.last_status = rows.string(row, c + 13);
  b.last_error = rows.string(row, c + 14);
  b.last_error_at = rows.optional_time(row, c + 15);
  b.article_count = rows.int64(row, c + 16);
  if (const auto minutes = rows.optional_int64(row, c + 17); minutes && *minutes > 0)
    b.feed_update_interval = std::chrono::minutes{*minutes};
  b.paused = rows.flag(row, c + 18);
  b.crashes = rows.int32(row, c + 19);
  b.quarantined = rows.flag(row, c + 20);
  b.allowed_hosts = split_words(rows.text(row, c + 21));
  return b;
}

Result<void> ensure_category(Connection& conn, std::string_view slug) {
  Query q(conn, "INSERT INTO categories (slug, name) VALUES (:slug, :name) ON CONFLICT (slug) DO NOTHING");
  q.bind(":slug", slug).bind(":name", category_name(slug));
  auto r = q.run();
  if (!r) return std::unexpected(r.error());
  return {};
}

Error with_context(std::string_view what, const Error& error) {
  std::string_view message = error.message;
  if (message.starts_with("store: ")) message.remove_prefix(7);
  return Error{error.kind, fmt::format("store: {}: {}", what, message), error.user_message};
}

}  // namespace longread::storage::postgres
