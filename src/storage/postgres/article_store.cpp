#include "storage/postgres/article_store.h"

namespace longread::storage::postgres {

Result<std::vector<StoredArticleKey>> PgArticleStore::article_keys(std::int64_t blog_id) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL ArticleStore::article_keys is not written yet");
}

Result<SaveStats> PgArticleStore::save_crawl(const CrawlRecord& record) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL ArticleStore::save_crawl is not written yet");
}

Result<std::vector<Result<SaveStats>>> PgArticleStore::save_crawls(std::span<const CrawlRecord> records) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL ArticleStore::save_crawls is not written yet");
}

Result<std::int64_t> PgArticleStore::count_recent_articles(std::int64_t blog_id, TimePoint since) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL ArticleStore::count_recent_articles is not written yet");
}

Result<std::optional<ArticleView>> PgArticleStore::article(std::int64_t id) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL ArticleStore::article is not written yet");
}

Result<std::vector<ArticleView>> PgArticleStore::articles(const ArticleQuery& query) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL ArticleStore::articles is not written yet");
}

Result<std::int64_t> PgArticleStore::count_articles(const ArticleQuery& query) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL ArticleStore::count_articles is not written yet");
}

Result<ArticlePage> PgArticleStore::article_page(const ArticleQuery& query) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL ArticleStore::article_page is not written yet");
}

Result<HotPage> PgArticleStore::hot_page(const HotPageQuery& query) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL ArticleStore::hot_page is not written yet");
}

Result<std::vector<SearchHit>> PgArticleStore::search(std::string_view query, int limit, int offset, const std::optional<ReaderFilter>& reader) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL ArticleStore::search is not written yet");
}

Result<std::vector<model::Category>> PgArticleStore::categories() {
  return fail(ErrorKind::kInternal, "store: PostgreSQL ArticleStore::categories is not written yet");
}

Result<std::int64_t> PgArticleStore::article_count() {
  return fail(ErrorKind::kInternal, "store: PostgreSQL ArticleStore::article_count is not written yet");
}

Result<void> PgArticleStore::set_keep_override(std::int64_t article_id, std::optional<bool> keep) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL ArticleStore::set_keep_override is not written yet");
}

Result<std::int64_t> PgArticleStore::set_verdicts(std::span<const VerdictUpdate> updates) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL ArticleStore::set_verdicts is not written yet");
}

Result<std::int64_t> PgArticleStore::set_texts(std::span<const TextUpdate> updates) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL ArticleStore::set_texts is not written yet");
}

Result<CompactBatch> PgArticleStore::compact_bodies(const CompactOptions& options) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL ArticleStore::compact_bodies is not written yet");
}

Result<std::vector<SimhashEntry>> PgArticleStore::simhash_index(std::int64_t after_id) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL ArticleStore::simhash_index is not written yet");
}

Result<void> PgArticleStore::mark_duplicates(std::span<const std::pair<std::int64_t, std::int64_t>> marks) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL ArticleStore::mark_duplicates is not written yet");
}

Result<std::vector<ArticleView>> PgArticleStore::recent_junk(int limit) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL ArticleStore::recent_junk is not written yet");
}

Result<std::vector<ArticleView>> PgArticleStore::near_misses(TimePoint since, int limit) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL ArticleStore::near_misses is not written yet");
}

}  // namespace longread::storage::postgres
