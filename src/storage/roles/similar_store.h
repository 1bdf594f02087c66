// The similar-articles role of the Store (migration 0027, docs/similar.md): the index, each article's
// picks, and the "for you" picks read from them. The store keeps them; the pipeline computes them
// (curate/similar.h, pipeline/similar.h).
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "core/error.h"
#include "core/time.h"
#include "storage/types.h"

namespace longread::storage {

// The similar-articles index and the picks read from it.
// Every method is safe to call from several threads; implementations serialise as needed.
class SimilarStore {
 public:
  virtual ~SimilarStore() = default;

  // The stored document frequency of each bucket (0 for one never counted), in the order asked, and the
  // number of articles counted. Reads only.
  virtual Result<SimilarTermStats> similar_term_frequencies(std::span<const std::uint32_t> buckets) = 0;
  // Adds counted articles to the stored frequencies, in one transaction: each entry's articles to its
  // bucket (buckets distinct and ascending, so two processes adding at once lock rows in the same order),
  // and `documents` to the number of articles counted.
  virtual Result<void> add_similar_terms(std::span<const SimilarTermCount> counts,
                                         std::int64_t documents) = 0;
  // The postings of each term, heaviest first, at most `per_term` of each.
  virtual Result<std::vector<SimilarPostingRow>> similar_postings(std::span<const std::uint64_t> terms,
                                                                  int per_term) = 0;
  // The articles among `ids` that still exist, with their blog, SimHash and visibility.
  virtual Result<std::vector<SimilarCandidateRow>> similar_candidates(std::span<const std::int64_t> ids) = 0;
  // Writes articles' postings, picks and offers (SimilarWrite), in order, in one transaction.
  virtual Result<void> save_similar_all(std::span<const SimilarWrite> writes) = 0;
  // One article's.
  Result<void> save_similar(const SimilarWrite& write) { return save_similar_all(std::span(&write, 1)); }
  // What index_similar's caller decides from the postings it is given: the writes, in order.
  using SimilarDecision =
      std::function<Result<std::vector<SimilarWrite>>(const std::vector<SimilarPostingRow>& postings)>;
  // A batch of the index in one step: reads the postings of `terms` (as similar_postings, at most
  // `per_term` of each), hands them to `decide`, and writes what it returns (as save_similar_all). Where
  // several processes write the index (PostgreSQL), the read and the writes are one transaction that no other
  // writer of the index enters, so the decisions are made on the postings the writes land on, read once;
  // `decide` may then run again if the transaction is retried, and must depend only on what it is given and
  // reads.
  virtual Result<void> index_similar(std::span<const std::uint64_t> terms, int per_term,
                                     const SimilarDecision& decide) = 0;
  // The article's stored picks that are visible now and of another blog, best first, at most `limit`.
  virtual Result<std::vector<SimilarArticle>> similar_articles(std::int64_t article_id, int limit) = 0;
  // Empties the index, every list and the queue (`longread similar rebuild` starts from nothing).
  virtual Result<void> clear_similar() = 0;
  // The queue of articles still to be indexed (docs/similar.md, "The back catalogue"): the crawl queues
  // the old articles it saves, the catch-up reads them oldest first and takes them off once indexed.
  // Queuing an article already queued changes nothing.
  virtual Result<void> queue_similar(std::span<const std::int64_t> ids) = 0;
  // The first `limit` queued ids, and those of them still visible with their text.
  virtual Result<SimilarBacklog> similar_backlog(int limit) = 0;
  virtual Result<void> unqueue_similar(std::span<const std::int64_t> ids) = 0;
  virtual Result<std::int64_t> similar_queue_size() = 0;
  // Visible articles after `after_id` by id, at most `limit`, with their text (for the rebuild).
  virtual Result<std::vector<ArticleView>> articles_for_similar(std::int64_t after_id, int limit) = 0;
  // A reader's "for you" picks (see ForYouQuery): visible articles only, never one the reader muted (blog
  // or category), read, saved or voted for.
  virtual Result<ForYou> for_you(const ForYouQuery& query) = 0;
};

}  // namespace longread::storage
