// Near-duplicate detection across a crawl (issue 5): the SimHash of every stored original, checked for
// each new or changed article; the earliest copy is the original, whichever is crawled first.
#pragma once

#include <cstdint>
#include <mutex>
#include <span>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/error.h"
#include "storage/store.h"

namespace longread::pipeline {

class DuplicateIndex {
 public:
  // Loads the index; when the store cannot give one, detection is off (logged) and save() just saves.
  explicit DuplicateIndex(storage::Store& store);

  // Marks the record's later copies of stored originals as duplicates, saves the record, then indexes its
  // new originals and marks stored copies that turned out later than an article of this record. The whole
  // sequence holds one lock, so two copies crawled at once never both become originals. Thread-safe.
  [[nodiscard]] Result<storage::SaveStats> save(storage::CrawlRecord& record);

  // The same for a group of records saved in one transaction (Store::save_crawls), one result per record.
  // Copies within the group are found too: their originals have no id until the commit, so such a copy is
  // saved as it is and marked a duplicate right after (Store::mark_duplicate), exactly as a stored article
  // found to be a later copy is.
  [[nodiscard]] std::vector<Result<storage::SaveStats>> save_all(std::span<storage::CrawlRecord> records);

 private:
  // (guid in the record, id of a stored article that is a later copy of it)
  using LaterCopies = std::vector<std::pair<std::string, std::int64_t>>;
  LaterCopies mark_copies(storage::CrawlRecord& record) const;
  // Returns the ids of the record's articles by guid.
  std::unordered_map<std::string, std::int64_t> index_saved(const storage::CrawlRecord& record,
                                                            const LaterCopies& later_copies);

  storage::Store& store_;
  bool enabled_ = true;
  std::mutex mutex_;
  std::vector<storage::SimhashEntry> entries_;  // guarded by mutex_
};

}  // namespace longread::pipeline
