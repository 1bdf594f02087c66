// A crawl pass's totals: what happened to each blog (BlogResult), the pass's counts so far (CrawlSummary),
// and PassSummary, which adds each blog's result as it is done and tells the CrawlObserver.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>

#include "core/error.h"

namespace longread::pipeline {

// How one blog's poll ended, for the pass's totals and the metrics (the status text is for people).
enum class PollOutcome {
  kFetched,      // 200, parsed and saved
  kNotModified,  // 304
  kFailed,       // fetch, parse or save failed: error_kind says which
  kStopped,      // the pass was stopped before its fetch finished; nothing recorded
};

// What happened to one blog in this pass.
struct BlogResult {
  std::int64_t blog_id = 0;
  std::string feed_url;
  PollOutcome outcome = PollOutcome::kFetched;
  std::string status;                   // "ok", "not modified", "HTTP 404", "timed out after 30 s", ...
  std::optional<ErrorKind> error_kind;  // set when outcome is kFailed
  int entries = 0;
  int new_articles = 0;
  int updated_articles = 0;
  int full_text_fetched = 0;
  int entries_dropped = 0;    // past crawl.max_entries_per_feed (the oldest)
  int entries_truncated = 0;  // cut to crawl.max_entry_kb
  int articles_deleted = 0;   // to keep the blog within crawl.max_articles_per_blog
  std::chrono::milliseconds elapsed{0};
  std::chrono::milliseconds fetch_elapsed{0};  // the feed's fetch alone (0: not fetched)
};

// Totals of a pass so far / at its end.
struct CrawlSummary {
  int total = 0;
  int done = 0;
  int fetched = 0;       // 200 and parsed
  int not_modified = 0;  // 304
  int failed = 0;
  int stopped = 0;  // not polled: the pass was stopped before their fetch finished; nothing recorded
  std::map<std::string, int> failures_by_kind;  // "http_status" -> 3, ...
  int new_articles = 0;
  int updated_articles = 0;
  std::chrono::milliseconds elapsed{0};
};

// Receives progress; the CLI draws a progress bar or logs a line per blog.
class CrawlObserver {
 public:
  virtual ~CrawlObserver() = default;
  virtual void on_start(int /*total*/) {}
  virtual void on_blog_done(const BlogResult& /*result*/, const CrawlSummary& /*so_far*/) {}
  virtual void on_finish(const CrawlSummary& /*summary*/) {}
};

// Adds one finished blog to the totals: one more done, counted under its outcome (a failure also under
// its error kind, kInternal when none is given), and its new and updated articles.
void add_blog_result(CrawlSummary& summary, const BlogResult& result);

// The totals of one pass as its blogs finish, on whatever thread each finishes; each blog is passed on
// to the observer with the totals that include it.
class PassSummary {
 public:
  using Clock = std::chrono::steady_clock;

  // Tells the observer (may be null) that `total` blogs are to be polled.
  PassSummary(int total, CrawlObserver* observer, Clock::time_point pass_start = Clock::now());

  // Thread-safe: `more` blogs are to be polled too (a pass that claims its blogs in batches).
  void add_total(int more);
  // Thread-safe: counts a finished blog and reports it with the totals so far.
  void add(const BlogResult& result);
  // The pass's totals, reported to the observer as its end.
  CrawlSummary finish();

 private:
  std::chrono::milliseconds elapsed() const;

  CrawlObserver* observer_;
  Clock::time_point pass_start_;
  std::mutex mutex_;
  CrawlSummary summary_;  // guarded by mutex_
};

}  // namespace longread::pipeline
