// Near-duplicate detection across a crawl (issue 5): the SimHash of every stored original, checked for
// each new or changed article; the earliest copy is the original, whichever is crawled first.
#pragma once

#include <cstdint>
#include <mutex>
#include <string>
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

 private:
  // (guid in the record, id of a stored article that is a later copy of it)
  using LaterCopies = std::vector<std::pair<std::string, std::int64_t>>;
  LaterCopies mark_copies(storage::CrawlRecord& record) const;
  void index_saved(const storage::CrawlRecord& record, const LaterCopies& later_copies);

  storage::Store& store_;
  bool enabled_ = true;
  std::mutex mutex_;
  std::vector<storage::SimhashEntry> entries_;  // guarded by mutex_
};

}  // namespace longread::pipeline
