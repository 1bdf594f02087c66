// Discovery for blog suggestions, off the site's request threads: the site only stores a pending
// suggestion (storage::SuggestionStore::add_suggestion) and wakes the worker; the worker claims pending
// suggestions with a lease, runs feed discovery (pipeline/discover.h) through its own fetch::HttpClient, and
// so under the outbound address policy, and saves what it found. A suggestion still pending when the process
// stops (or is killed) is claimed again by the next run once its lease has run out.
#pragma once

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>

#include "core/error.h"
#include "fetch/http_client.h"
#include "pipeline/article_builder.h"
#include "storage/roles/blog_store.h"
#include "storage/roles/suggestion_store.h"

namespace longread::pipeline {

struct SuggestionWorkerOptions {
  // How long a claim holds a suggestion: longer than one discovery can take (the page, then two rounds
  // of probes, each bounded by the client's 30 s total timeout).
  std::chrono::seconds lease{180};
  int max_attempts = 3;  // claims before a suggestion that never finishes is failed
  int batch = 4;         // suggestions claimed at a time
  // The longest the worker sleeps when nothing wakes it (a suggestion added by another process).
  std::chrono::seconds idle_check{60};
  std::size_t recent_posts = 5;  // posts kept per suggestion, with their verdicts
};

// The unit of work: discovery for one claimed suggestion, as the finding to save. A URL the outbound
// policy refused is kRefused; one without a feed, or that could not be fetched, kFailed; a feed that is
// already followed (under the URL found, after redirects, or normalized) kFollowed with its blog.
// nullopt when the client was cancelled mid-way (the process is stopping): nothing is saved, and the
// suggestion is discovered again after the restart.
[[nodiscard]] std::optional<storage::SuggestionFinding> discover_suggestion(
    fetch::HttpClient& client, storage::BlogStore& blogs, const storage::Suggestion& suggestion,
    const CurationContext& curation, std::size_t recent_posts = 5);

// The blog stored under any of these feed URLs (as given and normalized), if any.
[[nodiscard]] Result<std::optional<model::Blog>> followed_blog(storage::BlogStore& blogs,
                                                               const std::vector<std::string>& feed_urls);

// A thread that discovers pending suggestions as they come: woken by wake() (the site calls it after
// storing one), and every idle_check otherwise. Stops (cancelling a discovery in flight) on destruction.
class SuggestionWorker {
 public:
  // Claims and saves in `suggestions`; looks a found feed up in `blogs` (is it followed already?).
  SuggestionWorker(storage::BlogStore& blogs, storage::SuggestionStore& suggestions,
                   fetch::ClientOptions client, CurationContext curation,
                   SuggestionWorkerOptions options = {});
  ~SuggestionWorker();
  SuggestionWorker(const SuggestionWorker&) = delete;
  SuggestionWorker& operator=(const SuggestionWorker&) = delete;

  // Starts the thread; the first pass takes over whatever an earlier run left pending.
  void start();
  // A suggestion was stored: look now.
  void wake();
  // Stops the thread; a discovery in flight is cancelled and handed back, pending, for the next run.
  void stop();
  // One pass on the calling thread: claims and discovers every pending suggestion that is due; returns
  // how many findings were saved. Only while the thread is not started (the client is used by one thread).
  Result<int> run_once();

 private:
  void run();

  storage::BlogStore& blogs_;
  storage::SuggestionStore& suggestions_;
  fetch::HttpClient client_;
  CurationContext curation_;
  SuggestionWorkerOptions options_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool woken_ = false;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace longread::pipeline
