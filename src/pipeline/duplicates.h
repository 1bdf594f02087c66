// Near-duplicate detection across a crawl: the SimHash of every stored original, checked for
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
#include "curate/simhash_index.h"
#include "storage/roles/article_store.h"
#include "storage/roles/lock_store.h"

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
  // `owner` names this process in the database's lock (empty: parsing_owner(), host, pid and start),
  // taken in `locks`.
  DuplicateIndex(storage::ArticleStore& articles, storage::LockStore& locks, std::string owner = {});

  // Saves a group of crawl records in one transaction (ArticleStore::save_crawls), one result per record.
  // Before the save, articles that copy a stored original are marked duplicates of it. After it, the group's
  // new originals join the index, and two kinds of copies are marked in one more transaction
  // (ArticleStore::mark_duplicates): stored articles that turn out later than an article of the group, and
  // copies whose original is in the same group (it had no id before the commit). The whole sequence holds one
  // lock, so two copies crawled at once never both become originals; across processes over one database
  // it also holds the database's "near-duplicates" lock (LockStore::try_lock) and first reads what the others
  // stored since, so the earliest copy stays the original whichever process crawls it. Thread-safe. When
  // `originals` is given, it receives the group's new articles that are originals after all of it.
  [[nodiscard]] std::vector<Result<storage::SaveStats>> save_all(
      std::span<storage::CrawlRecord> records, std::vector<SavedOriginal>* originals = nullptr);

 private:
  // (guid in the record, id of a stored article that is a later copy of it)
  using LaterCopies = std::vector<std::pair<std::string, std::int64_t>>;
  LaterCopies mark_copies(storage::CrawlRecord& record) const;
  // Indexes a saved record's new originals, adds the marks for its later copies to `marks`, and returns
  // the ids of the record's articles by guid.
  std::unordered_map<std::string, std::int64_t> index_saved(
      const storage::CrawlRecord& record, const LaterCopies& later_copies,
      std::vector<std::pair<std::int64_t, std::int64_t>>& marks);

  // Takes the database's lock, waiting while another live process holds it; false when it could not be
  // had (the save then goes on without it, logged).
  bool lock_database();
  void unlock_database();
  // Adds the originals other processes stored since the index was last read.
  void catch_up();

  storage::ArticleStore& articles_;
  storage::LockStore& locks_;
  std::string owner_;
  bool enabled_ = true;
  std::mutex mutex_;
  // Adds a stored original to entries_ and index_.
  void remember(const storage::SimhashEntry& entry);

  // Every original known, in the order learnt; index_ finds the near ones by position. A later copy marked
  // a duplicate stays in place, flagged in removed_, so the positions index_ holds stay valid. Guarded by
  // mutex_.
  std::vector<storage::SimhashEntry> entries_;
  std::vector<bool> removed_;
  curate::SimhashIndex index_;
  std::int64_t newest_id_ = 0;  // the highest article id in entries_ or saved by this index
};

}  // namespace longread::pipeline
