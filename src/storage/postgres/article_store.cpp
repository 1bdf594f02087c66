#include "storage/postgres/article_store.h"

#include <bit>

#include "storage/postgres/crawl_save.h"
#include "storage/postgres/rows.h"
#include "storage/values.h"

namespace longread::storage::postgres {

Result<std::vector<StoredArticleKey>> PgArticleStore::article_keys(std::int64_t blog_id) {
  auto rows = db_.pool().with([&](Connection& c) {
    Query q(c,
            "SELECT id, guid, content_hash, full_text_fetched, full_text_failures FROM articles"
            " WHERE blog_id = :blog_id");
    q.bind(":blog_id", blog_id);
    return q.run();
  });
  if (!rows) return std::unexpected(with_context("cannot read article keys", rows.error()));
  std::vector<StoredArticleKey> keys;
  keys.reserve(static_cast<std::size_t>(rows->size()));
  for (int r = 0; r < rows->size(); ++r) {
    keys.push_back({.id = rows->int64(r, 0),
                    .guid = rows->string(r, 1),
                    .content_hash = rows->string(r, 2),
                    .full_text_fetched = rows->flag(r, 3),
                    .full_text_failures = rows->int32(r, 4)});
  }
  return keys;
}

Result<SaveStats> PgArticleStore::save_crawl(const CrawlRecord& record) {
  auto results = save_crawls(std::span(&record, 1));
  if (!results) return std::unexpected(results.error());
  return std::move(results->front());
}

Result<std::vector<Result<SaveStats>>> PgArticleStore::save_crawls(std::span<const CrawlRecord> records) {
  std::vector<Result<SaveStats>> results;
  auto done = in_transaction(db_.pool(), [&](Connection& c) -> Result<void> {
    results.clear();
    VisibleCounts counts;
    for (const CrawlRecord& record : records) {
      // One record's failure undoes that record alone: the others of the group are still saved.
      if (auto ok = c.exec_script("SAVEPOINT record"); !ok) return ok;
      VisibleCounts record_counts;
      auto stats = save_record(c, record, record_counts);
      if (!stats) {
        if (auto ok = c.exec_script("ROLLBACK TO SAVEPOINT record"); !ok) return ok;
      } else {
        counts.add(record_counts);
      }
      if (auto ok = c.exec_script("RELEASE SAVEPOINT record"); !ok) return ok;
      results.push_back(std::move(stats));
    }
    return counts.write(c);
  });
  if (!done) return std::unexpected(with_context("cannot save crawl", done.error()));
  return results;
}

Result<std::int64_t> PgArticleStore::count_recent_articles(std::int64_t blog_id, TimePoint since) {
  // An undated article's date is when it was first seen, so the undated posts of the blog's first crawl
  // (its whole back catalogue) are not counted as recent: only those that appeared after it.
  auto rows = db_.pool().with([&](Connection& c) {
    Query q(c,
            "SELECT COUNT(*) FROM articles WHERE blog_id = :blog_id AND display_at >= :since"
            " AND (undated = 0 OR first_seen > (SELECT MIN(first_seen) FROM articles WHERE blog_id = :blog_id))");
    q.bind(":blog_id", blog_id).bind(":since", since);
    return q.run();
  });
  if (!rows) return std::unexpected(with_context("cannot count recent articles", rows.error()));
  return rows->int64(0, 0);
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
