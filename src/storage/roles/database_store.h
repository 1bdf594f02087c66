// The database role of the Store: what concerns the database as a whole rather than one kind of row: a
// version that changes with every write (the page cache's key), the site's totals for /metrics, giving free
// pages back to the file system, keeping the search index in shape.
#pragma once

#include <cstdint>

#include "core/error.h"
#include "core/time.h"
#include "storage/types.h"

namespace longread::storage {

// The database as a whole.
// Every method is safe to call from several threads; implementations serialise as needed.
class DatabaseStore {
 public:
  virtual ~DatabaseStore() = default;

  // The site's totals at `now`, for the operator's metrics (/metrics). Cheap enough to read on every
  // scrape: counts come from indexes and the per-blog visible counts.
  virtual Result<SiteStats> site_stats(TimePoint now) = 0;
  // A number that changes whenever anything a page shows may have changed (any committed write, from this
  // process or another). The site caches rendered pages keyed by it, so it must be cheap (no table scan).
  virtual Result<std::int64_t> data_version() = 0;
  // Gives free pages back to the file system (VACUUM, then a WAL checkpoint); returns the file's size.
  virtual Result<std::int64_t> vacuum() = 0;
  // Keeps the search index quick to read as the articles grow (docs/storage.md, "The newest articles'
  // index"): on PostgreSQL, a GIN index of the newest articles only, beside the whole one, built again
  // as the newest ids move on (one process at a time; a build a kill left unfinished is dropped); on
  // SQLite, merging FTS5's index segments, as automerge does during writes. Safe while the site serves
  // and crawls; cheap when there is nothing to do.
  virtual Result<SearchIndexReport> maintain_search_index(const SearchIndexUpkeep& upkeep) = 0;
};

}  // namespace longread::storage
