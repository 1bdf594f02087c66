// Similar articles at crawl time (docs/similar.md): each new article's picks are computed once, from its
// text, and stored; the article page only reads them. The scoring is curate/similar.h's; this joins it to
// the store's index.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/error.h"
#include "curate/similar.h"
#include "storage/types.h"

namespace longread::storage {
class SimilarStore;
}

namespace longread::pipeline {

struct SimilarOptions {
  int picks_kept = 8;           // stored per article; the page shows the best 5 still visible
  int postings_per_term = 128;  // the heaviest articles kept under each term
  int candidates = 64;          // the best-scored candidates looked up (blog, SimHash, visibility)
  int offers = 16;              // older articles whose lists the new one may join
  // Document frequencies are counted in the process and written once this many articles' counts are held
  // (and by flush()): one upsert of the distinct buckets of many articles, where a write per batch upserted
  // every bucket of every batch.
  std::int64_t counts_written_every = 1000;
};

// The article being indexed.
struct SimilarSource {
  std::int64_t id = 0;
  std::int64_t blog_id = 0;
  std::uint64_t simhash = 0;
  std::string_view title;
  std::string_view text;
};

struct SimilarRebuild {
  std::int64_t articles = 0;  // indexed
  std::int64_t picks = 0;     // stored for them (offers to older lists not counted)
};

// Not thread-safe: one thread at a time calls it (a crawl's similar thread, then the pass's end).
class SimilarIndexer {
 public:
  explicit SimilarIndexer(storage::SimilarStore& store, SimilarOptions options = {});
  // Writes the counts still held (flush()); a failure is logged.
  ~SimilarIndexer();
  SimilarIndexer(const SimilarIndexer&) = delete;
  SimilarIndexer& operator=(const SimilarIndexer&) = delete;

  // Indexes one new article, bounded work whatever the site's size: counts its terms' document
  // frequencies (unless `count_terms` is false: the rebuild counted them first), makes its signature,
  // reads at most postings_per_term postings for each of its signature terms, scores those candidates,
  // and in one transaction stores its picks, posts it under its terms, and offers it to the lists of its
  // `offers` best candidates (it joins one whose lowest pick it beats). Returns how many picks it got.
  [[nodiscard]] Result<int> add(const SimilarSource& article, bool count_terms = true);
  // Indexes several new articles, oldest first, as add() would one after another (each counted after the
  // ones before it, and finding them among its candidates), with one transaction to count the batch's terms
  // and one to store its picks: a crawl's save group at once, 200 articles at a time (each 200 its own two
  // transactions). Picks per article, in order.
  [[nodiscard]] Result<std::vector<int>> add_all(std::span<const SimilarSource> articles,
                                                 bool count_terms = true);

  // Writes the document frequencies counted since the last write (add_all writes them once
  // options.counts_written_every articles' are held; a crawl pass and a catch-up write theirs when they
  // end). Until then, this indexer weighs terms with them and other processes do not see them; a process
  // killed before the write loses them (`longread similar rebuild` counts every article again). Kept for the
  // next call when the write fails.
  [[nodiscard]] Result<void> flush();

  // Leaves new articles to the catch-up (pipeline/similar_catch_up.h): queues them, uncounted and unposted.
  [[nodiscard]] Result<void> defer(std::span<const std::int64_t> ids);

  // `longread similar rebuild`: empties the index, counts every visible article's terms, then adds every
  // visible article oldest first (so each is offered to older lists as at crawl time). `progress` is
  // called after each batch with the articles done in that pass (1: counting, 2: picks).
  [[nodiscard]] Result<SimilarRebuild> rebuild(
      const std::function<void(int pass, std::int64_t done)>& progress = nullptr);

 private:
  // The writes of a batch, decided from its articles' signatures and the stored postings of their terms
  // (each term's heaviest first); `out` gets each article's number of picks.
  [[nodiscard]] Result<std::vector<storage::SimilarWrite>> decide_batch(
      std::span<const SimilarSource> articles, const std::vector<curate::Signature>& signatures,
      const std::vector<storage::SimilarPostingRow>& stored, std::vector<int>& out);
  // Holds one article's distinct buckets as counted, to be written by flush().
  void count(std::span<const std::uint32_t> buckets);
  // Writes the held counts once options.counts_written_every articles' or too many buckets are held, so
  // that neither the other processes' view nor this process's memory falls too far behind.
  [[nodiscard]] Result<void> flush_when_full();

  storage::SimilarStore& store_;
  SimilarOptions options_;
  std::unordered_map<std::uint32_t, std::int64_t> pending_;  // bucket -> articles counted, not yet written
  std::int64_t pending_documents_ = 0;
};

}  // namespace longread::pipeline
