#include "storage/postgres/rows.h"

#include <bit>

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

ArticleView read_article_fields(const Rows& rows, int r) {
  ArticleView v;
  model::Article& a = v.article;
  a.id = rows.int64(r, 0);
  a.blog_id = rows.int64(r, 1);
  a.guid = rows.string(r, 2);
  a.title = rows.string(r, 3);
  a.link = rows.string(r, 4);
  a.author = rows.string(r, 5);
  a.published = rows.optional_time(r, 6);
  a.updated = rows.optional_time(r, 7);
  a.undated = rows.flag(r, 8);
  a.summary_html = rows.string(r, 9);
  a.content_html = rows.string(r, 10);
  a.text = rows.string(r, 11);
  a.first_seen = rows.time(r, 12);
  a.content_hash = rows.string(r, 13);
  a.excerpt = rows.string(r, 14);
  a.word_count = rows.int32(r, 15);
  a.reading_minutes = rows.int32(r, 16);
  a.category = rows.string(r, 17);
  a.junk = rows.flag(r, 18);
  a.junk_reason = rows.string(r, 19);
  a.duplicate_of = rows.optional_int64(r, 20);
  if (!rows.null(r, 21)) a.keep_override = rows.flag(r, 21);
  a.full_text_fetched = rows.flag(r, 22);
  a.simhash = std::bit_cast<std::uint64_t>(rows.int64(r, 23));
  a.votes = rows.int32(r, 24);
  a.score = rows.real(r, 25);
  a.truncated = rows.flag(r, 26);
  a.rank_prior = rows.real(r, 27);
  v.blog_title = rows.string(r, 28);
  v.blog_site_url = rows.string(r, 29);
  v.blog_category = rows.string(r, 30);
  a.full_text_error = rows.string(r, 31);
  return v;
}

ArticleView read_article_view(const Rows& rows, int r, BodyDictionaries& bodies,
                              const BodyDictionarySource& source) {
  ArticleView v = read_article_fields(rows, r);
  if (v.article.excerpt.empty() && !rows.null(r, kArticleFrameColumn)) {
    if (auto body = bodies.unpack(source, rows.bytes(r, kArticleFrameColumn)))
      v.article.excerpt = std::move(body->excerpt);
  }
  return v;
}

Result<void> ensure_category(Connection& conn, std::string_view slug) {
  Query q(conn, "INSERT INTO categories (slug, name) VALUES (:slug, :name) ON CONFLICT (slug) DO NOTHING");
  q.bind(":slug", slug).bind(":name", category_name(slug));
  auto r = q.run();
  if (!r) return std::unexpected(r.error());
  return {};
}

}  // namespace longread::storage::postgres
