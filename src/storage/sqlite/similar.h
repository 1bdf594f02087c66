// Similar articles (migration 0027): the SQLite side of the Store's similar-articles methods, as functions
// over a connection the store hands in (its writer under its lock, or a pooled reader). Internal to the
// SQLite backend.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/error.h"
#include "storage/sqlite/handles.h"
#include "storage/store.h"

namespace longread::storage::sqlite {

Result<SimilarTermStats> similar_term_frequencies(Connection& db, std::span<const std::uint32_t> buckets);
Result<void> add_similar_terms(Connection& writer, std::span<const SimilarTermCount> counts,
                               std::int64_t documents);
Result<std::vector<SimilarPostingRow>> similar_postings(Connection& db, std::span<const std::uint64_t> terms,
                                                        int per_term);
Result<std::vector<SimilarCandidateRow>> similar_candidates(Connection& db,
                                                            std::span<const std::int64_t> ids);
Result<void> save_similar_all(Connection& writer, std::span<const SimilarWrite> writes);
Result<std::vector<SimilarArticle>> similar_articles(Connection& db, std::int64_t article_id, int limit);
Result<void> clear_similar(Connection& writer);
Result<std::vector<ArticleView>> articles_for_similar(Connection& db, std::int64_t after_id, int limit);
Result<void> queue_similar(Connection& writer, std::span<const std::int64_t> ids);
Result<SimilarBacklog> similar_backlog(Connection& db, int limit);
Result<void> unqueue_similar(Connection& writer, std::span<const std::int64_t> ids);
Result<std::int64_t> similar_queue_size(Connection& db);

}  // namespace longread::storage::sqlite
