// Near-duplicate detection across a crawl: the SimHash of every stored original, checked for
// each new or changed article; the earliest copy is the original, whichever is crawled first.
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "core/error.h"
#include "curate/simhash_index.h"
#include "storage/roles/article_store.h"

namespace longread::pipeline {

// A new article that a save stored as an original (not junk, not a copy), for the similar-articles index.
struct SavedOriginal {
  std::size_t record = 0;   // index into the records saved
  std::size_t article = 0;  // index into that record's articles
  std::int64_t id = 0;
};

class DuplicateIndex {
 public:
  // Loads the index; when the store cannot give one, detection is off (logged) and save_all() just saves.
  explicit DuplicateIndex(storage::ArticleStore& articles);

  // Saves a group of crawl records in one transaction (ArticleStore::save_crawls), one result per record,
  // and decides at its end, under the store's near-duplicate lock (storage::DuplicateDecision), which of
  // the group's new or changed articles are copies: first it reads what other processes logged since it
  // last looked, then marks an article a duplicate of the earliest stored original it is near, or marks a
  // stored original that turns out later than it, or a copy within the group, and logs the group's new
  // originals for the others. So the earliest copy stays the original whichever process crawls it first,
  // and only the decision, not the inserts, waits for other processes. When the decision fails, nothing of
  // the group is saved. Thread-safe. When `originals` is given, it receives the group's new articles that
  // are originals after all of it.
  [[nodiscard]] std::vector<Result<storage::SaveStats>> save_all(
      std::span<const storage::CrawlRecord> records, std::vector<SavedOriginal>* originals = nullptr);

 private:
  // What a group's decision found, kept out of the index until its transaction commits.
  struct Decision {
    std::vector<std::int64_t> deleted;                         // rows the saves deleted (caps)
    std::vector<std::pair<std::int64_t, std::int64_t>> marks;  // (copy, original)
    std::unordered_set<std::int64_t> copies;                   // the first of each mark
    std::vector<storage::SimhashEntry> originals;              // the group's new originals, logged
    std::int64_t first_place = 0;                              // in the log, of originals[0]
  };

  // Reads the whole index and the log's place it is current at; false (logged) when the store cannot.
  bool load();
  // Adds the originals other processes logged since this copy last read the log.
  Result<void> catch_up(storage::DuplicateDecision& decision);
  Result<void> decide(storage::DuplicateDecision& decision, std::span<const storage::CrawlRecord> records,
                      std::span<const Result<storage::SaveStats>> results, Decision& out) const;
  void apply(const Decision& decision);
  // Adds a stored original to entries_ and index_.
  void remember(const storage::SimhashEntry& entry);

  storage::ArticleStore& articles_;
  bool enabled_ = true;
  std::mutex mutex_;

  // Every original known, in the order learnt; index_ finds the near ones by position. A later copy marked
  // a duplicate stays in place, flagged in removed_, so the positions index_ holds stay valid. Guarded by
  // mutex_, as are the log's places below.
  std::vector<storage::SimhashEntry> entries_;
  std::vector<bool> removed_;
  curate::SimhashIndex index_;
  std::int64_t log_read_ = 0;  // the newest place of the near-duplicate log this copy has read
  // The places this process's last group logged (first, last): known already, skipped when read back.
  std::optional<std::pair<std::int64_t, std::int64_t>> own_places_;
};

}  // namespace longread::pipeline
