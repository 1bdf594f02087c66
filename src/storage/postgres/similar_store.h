// The SimilarStore role (storage/roles/similar_store.h) on PostgreSQL.
#pragma once

#include "storage/postgres/database.h"
#include "storage/roles/similar_store.h"

namespace longread::storage::postgres {

class PgSimilarStore : public virtual SimilarStore {
 public:
  explicit PgSimilarStore(Database& db) noexcept : db_(db) {}

  Result<SimilarTermStats> similar_term_frequencies(std::span<const std::uint32_t> buckets) override;
  Result<void> add_similar_terms(std::span<const SimilarTermCount> counts, std::int64_t documents) override;
  Result<std::vector<SimilarPostingRow>> similar_postings(std::span<const std::uint64_t> terms,
                                                          int per_term) override;
  Result<std::vector<SimilarCandidateRow>> similar_candidates(std::span<const std::int64_t> ids) override;
  Result<void> save_similar_all(std::span<const SimilarWrite> writes) override;
  Result<void> index_similar(std::span<const std::uint64_t> terms, int per_term,
                             const SimilarDecision& decide) override;
  Result<std::vector<SimilarArticle>> similar_articles(std::int64_t article_id, int limit) override;
  Result<void> clear_similar() override;
  Result<std::vector<ArticleView>> articles_for_similar(std::int64_t after_id, int limit) override;
  Result<void> queue_similar(std::span<const std::int64_t> ids) override;
  Result<SimilarBacklog> similar_backlog(int limit) override;
  Result<void> unqueue_similar(std::span<const std::int64_t> ids) override;
  Result<std::int64_t> similar_queue_size() override;
  Result<ForYou> for_you(const ForYouQuery& query) override;

 private:
  ArticleView view_with_text(const Rows& rows, int row, const BodyDictionarySource& dictionaries);
  Database& db_;
};

}  // namespace longread::storage::postgres
