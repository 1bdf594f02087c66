// Similar articles for the back catalogue (docs/similar.md, "The back catalogue"). A crawl indexes a fresh
// article as it saves it and queues an older one (SaveQueue, CrawlOptions::similar_fresh_days): a new blog's
// first crawl brings tens of old posts, and a first crawl of a long list hundreds of thousands, which the
// index would otherwise hold the crawl up for. The catch-up indexes the queue, oldest first, a batch at a
// time, when there is time for it: a crawl loop between its passes, or `longread similar catch-up`.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>

#include "core/error.h"
#include "core/time.h"

namespace longread::storage {
class LockStore;
class SimilarStore;
}  // namespace longread::storage

namespace longread::pipeline {

class SimilarIndexer;

// The lock that lets one process at a time run the catch-up: two would post an article twice and count
// its terms twice.
inline constexpr const char* kSimilarCatchUpLock = "similar-catch-up";

struct CatchUpOptions {
  int batch = 200;                     // articles indexed per round (two transactions)
  std::string owner;                   // this process, as the lock's holder (empty: parsing_owner())
  std::chrono::seconds lease{300};     // the lock's lease, renewed every batch; a dead holder's lapses
  std::function<TimePoint()> clock{};  // now_seconds when empty
};

struct CatchUpResult {
  std::int64_t indexed = 0;  // queued articles given their similar articles
  std::int64_t dropped = 0;  // queued articles no longer visible, taken off the queue unindexed
  bool finished = false;     // the queue is empty
  bool busy = false;         // another process holds the catch-up; nothing was done
};

// Indexes queued articles, a batch at a time (SimilarIndexer::add_all: each counted, then picked, as at crawl
// time), taking each batch off the queue once stored, until the queue is empty or `keep_going` (asked before
// every batch; empty: always) says to stop. Holds kSimilarCatchUpLock while it works and gives it back at the
// end. A process killed mid-batch leaves that batch queued: the next catch-up indexes it again (its terms
// are then counted twice, which only nudges their weights).
Result<CatchUpResult> catch_up_similar(SimilarIndexer& indexer, storage::SimilarStore& store,
                                       storage::LockStore& locks, const CatchUpOptions& options,
                                       const std::function<bool()>& keep_going = nullptr);

}  // namespace longread::pipeline
