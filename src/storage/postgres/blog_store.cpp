#include "storage/postgres/blog_store.h"

namespace longread::storage::postgres {

Result<std::int64_t> PgBlogStore::upsert_blog(const BlogSeed& seed) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL BlogStore::upsert_blog is not written yet");
}

Result<std::optional<model::Blog>> PgBlogStore::blog(std::int64_t id) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL BlogStore::blog is not written yet");
}

Result<std::vector<model::Blog>> PgBlogStore::blogs() {
  return fail(ErrorKind::kInternal, "store: PostgreSQL BlogStore::blogs is not written yet");
}

Result<std::vector<model::Blog>> PgBlogStore::due_blogs(TimePoint now) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL BlogStore::due_blogs is not written yet");
}

Result<std::vector<model::Blog>> PgBlogStore::claim_due_blogs(std::string_view owner, TimePoint now, TimePoint lease_until, int limit) {
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
