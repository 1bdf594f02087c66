// The SQLite side of SimilarStore; the SQL lives in sqlite/similar.cpp and sqlite/for_you.cpp.
#include "storage/sqlite/sqlite_store.h"

#include <span>
#include <vector>

#include "storage/sqlite/for_you.h"
#include "storage/sqlite/similar.h"

namespace longread::storage::sqlite {

Result<SimilarTermStats> SqliteStore::similar_term_frequencies(std::span<const std::uint32_t> buckets) {
  return with_reader([&](Connection& db) { return sqlite::similar_term_frequencies(db, buckets); });
}

Result<void> SqliteStore::add_similar_terms(std::span<const SimilarTermCount> counts,
                                            std::int64_t documents) {
  return with_writer([&](Connection& db) { return sqlite::add_similar_terms(db, counts, documents); });
}

Result<std::vector<SimilarPostingRow>> SqliteStore::similar_postings(std::span<const std::uint64_t> terms,
                                                                     int per_term) {
  return with_reader([&](Connection& db) { return sqlite::similar_postings(db, terms, per_term); });
}

Result<std::vector<SimilarCandidateRow>> SqliteStore::similar_candidates(std::span<const std::int64_t> ids) {
  return with_reader([&](Connection& db) { return sqlite::similar_candidates(db, ids); });
}

Result<void> SqliteStore::save_similar_all(std::span<const SimilarWrite> writes) {
  return with_writer([&](Connection& db) { return sqlite::save_similar_all(db, writes); });
}

// One writer saves the index, and save_similar_all keeps each term's cap by the table as it finds it then:
// the postings are read by a reader, as similar_postings reads them, and the writer is not held while the
// batch is decided.
Result<void> SqliteStore::index_similar(std::span<const std::uint64_t> terms, int per_term,
                                        const SimilarDecision& decide) {
  auto postings = similar_postings(terms, per_term);
  if (!postings) return std::unexpected(postings.error());
  auto writes = decide(*postings);
  if (!writes) return std::unexpected(writes.error());
  return save_similar_all(*writes);
}

Result<std::vector<SimilarArticle>> SqliteStore::similar_articles(std::int64_t article_id, int limit) {
  return with_reader([&](Connection& db) { return sqlite::similar_articles(db, article_id, limit); });
}

Result<void> SqliteStore::clear_similar() {
  return with_writer([&](Connection& db) { return sqlite::clear_similar(db); });
}

Result<std::vector<ArticleView>> SqliteStore::articles_for_similar(std::int64_t after_id, int limit) {
  return with_reader([&](Connection& db) { return sqlite::articles_for_similar(db, after_id, limit); });
}

Result<void> SqliteStore::queue_similar(std::span<const std::int64_t> ids) {
  return with_writer([&](Connection& db) { return sqlite::queue_similar(db, ids); });
}

Result<SimilarBacklog> SqliteStore::similar_backlog(int limit) {
  return with_reader([&](Connection& db) { return sqlite::similar_backlog(db, limit); });
}

Result<void> SqliteStore::unqueue_similar(std::span<const std::int64_t> ids) {
  return with_writer([&](Connection& db) { return sqlite::unqueue_similar(db, ids); });
}

Result<std::int64_t> SqliteStore::similar_queue_size() {
  return with_reader([&](Connection& db) { return sqlite::similar_queue_size(db); });
}

Result<ForYou> SqliteStore::for_you(const ForYouQuery& query) {
  return with_reader([&](Connection& db) { return sqlite::for_you(db, query); });
}

}  // namespace longread::storage::sqlite
