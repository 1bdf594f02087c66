// Saving a crawl's records on a thread of its own, in the order blogs finish. The store takes one writer
// at a time, so a worker that has curated a blog hands it over and goes on with the next feed instead of
// waiting for the database. The writer saves everything that queued up while it was busy as one group (one
// transaction, Store::save_crawls through DuplicateIndex::save_all): when curation outpaces the database,
// groups grow and each commit carries more blogs.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <mutex>
#include <optional>
#include <vector>

#include "core/time.h"
#include "pipeline/pass_summary.h"
#include "pipeline/task_pool.h"
#include "storage/store.h"

namespace longread::pipeline {

class DuplicateIndex;
class SimilarIndexer;

// Largest group of blogs saved in one transaction, so that other writers (votes, sign-ups) never wait long.
inline constexpr std::size_t kMaxSaveGroup = 32;

class SaveQueue {
 public:
  using Clock = std::chrono::steady_clock;
  // Called on the writer thread once per queued blog, in queue order, after its group was saved: the
  // result then holds the save's counts, or the failure (kFailed, "not saved: ...") when it was not saved,
  // and the time since the blog was started.
  using OnSaved = std::function<void(BlogResult&)>;

  // `similar` (may be null: no similar articles) gets each new original of a saved group: indexed at once
  // when it is dated at or after `fresh_since` (or has no date) and its blog was read before, queued for the
  // catch-up otherwise; no `fresh_since`: every one at once.
  SaveQueue(DuplicateIndex& duplicates, SimilarIndexer* similar, OnSaved on_saved,
            std::optional<TimePoint> fresh_since = std::nullopt);
  // Saves what is still queued first.
  ~SaveQueue() = default;
  SaveQueue(const SaveQueue&) = delete;
  SaveQueue& operator=(const SaveQueue&) = delete;

  // Thread-safe: queues one blog's record; `started` is when work on the blog began (its feed's fetch).
  // `first_crawl`: the blog had never been read before, so every article of the record is its back
  // catalogue, however recent (a list's first crawl brings tens of thousands of such blogs at once).
  void push(storage::CrawlRecord record, BlogResult result, Clock::time_point started,
            bool first_crawl = false);
  // Blocks until everything pushed so far is saved and reported.
  void wait_idle();

 private:
  struct Job {
    storage::CrawlRecord record;
    BlogResult result;
    Clock::time_point started;
    bool first_crawl = false;
  };
  // Takes up to kMaxSaveGroup queued jobs and saves them as one group.
  void save_queued();

  DuplicateIndex& duplicates_;
  SimilarIndexer* similar_;
  OnSaved on_saved_;
  std::optional<TimePoint> fresh_since_;
  std::mutex mutex_;
  std::vector<Job> queue_;  // guarded by mutex_
  TaskPool writer_{1};      // last: its threads stop (saving what is queued) before the members above go
};

}  // namespace longread::pipeline
