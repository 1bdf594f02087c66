#include "storage/postgres/similar_store.h"

namespace longread::storage::postgres {

Result<SimilarTermStats> PgSimilarStore::count_similar_terms(std::span<const std::uint32_t> buckets,
                                                             bool count) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL SimilarStore::count_similar_terms is not written yet");
}

Result<std::vector<SimilarPostingRow>> PgSimilarStore::similar_postings(std::span<const std::uint64_t> terms,
                                                                        int per_term) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL SimilarStore::similar_postings is not written yet");
}

Result<std::vector<SimilarCandidateRow>> PgSimilarStore::similar_candidates(
    std::span<const std::int64_t> ids) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL SimilarStore::similar_candidates is not written yet");
}

Result<void> PgSimilarStore::save_similar(const SimilarWrite& write) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL SimilarStore::save_similar is not written yet");
}

Result<std::vector<SimilarArticle>> PgSimilarStore::similar_articles(std::int64_t article_id, int limit) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL SimilarStore::similar_articles is not written yet");
}

Result<void> PgSimilarStore::clear_similar() {
  return fail(ErrorKind::kInternal, "store: PostgreSQL SimilarStore::clear_similar is not written yet");
}

Result<std::vector<ArticleView>> PgSimilarStore::articles_for_similar(std::int64_t after_id, int limit) {
  return fail(ErrorKind::kInternal,
              "store: PostgreSQL SimilarStore::articles_for_similar is not written yet");
}

Result<ForYou> PgSimilarStore::for_you(const ForYouQuery& query) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL SimilarStore::for_you is not written yet");
}

}  // namespace longread::storage::postgres
