// Saving a crawl's records on a thread of its own, in the order blogs finish. The store takes one writer
// at a time, so a worker that has curated a blog hands it over and goes on with the next feed instead of
// waiting for the database. The writer saves everything that queued up while it was busy as one group (one
// transaction, Store::save_crawls through DuplicateIndex::save_all): when curation outpaces the database,
// groups grow and each commit carries more blogs.
// A saved group's new originals then get their similar articles on a second thread, in the order the groups
// were saved, while the writer goes on with the next group: on PostgreSQL the two run on two connections at
// once, where one thread doing both spent about half of a later pass waiting on the similar articles'
// statements (docs/perf.md, "Similar articles beside the saves").
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
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
// Most the records waiting for the writer may hold (their articles' text and HTML, roughly): past it, push
// waits for the writer. A list's first crawl parses faster than one writer saves, and without a bound the
// queue took everything the parsers made (391 MB peak at 10,000 blogs against 210 with the writer ahead);
// 64 MB is a few hundred blogs, many groups' worth, so the writer never waits for work.
inline constexpr std::size_t kMaxQueuedBytes = 64u << 20;
// Most the saved articles waiting for their similar articles may hold (their titles and texts): past it, the
// writer waits before it hands over another group. A few thousand articles, many groups' worth.
inline constexpr std::size_t kMaxSimilarQueuedBytes = 16u << 20;

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
            std::optional<TimePoint> fresh_since = std::nullopt,
            std::size_t max_queued_bytes = kMaxQueuedBytes);
  // Saves what is still queued first.
  ~SaveQueue() = default;
  SaveQueue(const SaveQueue&) = delete;
  SaveQueue& operator=(const SaveQueue&) = delete;

  // Thread-safe: queues one blog's record; `started` is when work on the blog began (its feed's fetch).
  // `first_crawl`: the blog had never been read before, so every article of the record is its back
  // catalogue, however recent (a list's first crawl brings tens of thousands of such blogs at once).
  // Waits first while the records not yet saved hold max_queued_bytes or more (never when there are none,
  // so a record larger than the bound is saved too). Never call it from on_saved.
  void push(storage::CrawlRecord record, BlogResult result, Clock::time_point started,
            bool first_crawl = false);
  // Blocks until everything pushed so far is saved and reported, and its new originals have their similar
  // articles (or are queued for the catch-up).
  void wait_idle();

 private:
  struct Job {
    storage::CrawlRecord record;
    BlogResult result;
    Clock::time_point started;
    bool first_crawl = false;
    std::size_t bytes = 0;  // the record's size as counted against max_queued_bytes
  };
  // A saved group's new originals, owning their titles and texts: indexed now (`now`) or queued for the
  // catch-up (`later`).
  struct SimilarWork {
    struct Article {
      std::int64_t id = 0;
      std::int64_t blog_id = 0;
      std::uint64_t simhash = 0;
      std::string title;
      std::string text;
    };
    std::vector<Article> now;
    std::vector<std::int64_t> later;
    std::size_t bytes = 0;
  };
  // Takes up to kMaxSaveGroup queued jobs and saves them as one group.
  void save_queued();
  // Hands a saved group's originals to the similar thread, waiting first while it holds its bound.
  void hand_over_similar(SimilarWork work);
  // On the similar thread: indexes or queues them. A failure costs their picks, never the crawl.
  void index_similar(const SimilarWork& work);

  DuplicateIndex& duplicates_;
  SimilarIndexer* similar_;
  OnSaved on_saved_;
  std::optional<TimePoint> fresh_since_;
  std::size_t max_queued_bytes_;
  std::mutex mutex_;
  std::condition_variable room_;  // signalled when a group is saved and its bytes released
  std::vector<Job> queue_;        // guarded by mutex_
  std::size_t held_bytes_ = 0;    // guarded by mutex_: the records pushed and not yet saved and reported
  std::condition_variable similar_room_;  // signalled when the similar thread is done with a group
  std::size_t similar_bytes_ = 0;         // guarded by mutex_: the groups handed over and not yet indexed
  // The writer's threads stop (saving what is queued, handing over its originals) before the similar
  // thread's, which stop (indexing what was handed over) before the members above go.
  TaskPool similar_thread_{1};
  TaskPool writer_{1};
};

}  // namespace longread::pipeline
