// One crawl pass: fetch every due blog's feed concurrently, parse, curate, fetch full text for
// summary-only entries (once), and store each blog's result in one transaction.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <exception>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>

#include "core/error.h"
#include "pipeline/article_builder.h"
#include "pipeline/pass_summary.h"
#include "pipeline/ranking.h"
#include "pipeline/schedule.h"

namespace longread::storage {
class Store;
}
namespace longread::fetch {
class HttpClient;
}

namespace longread::pipeline {

struct CrawlOptions {
  ScheduleOptions schedule;
  bool all = false;             // ignore schedules: crawl every blog
  bool fetch_full_text = true;  // fetch the page of summary-only entries (once per article)
  int max_full_text_per_blog = 10;
  // Budgets against hostile or runaway feeds (docs/feed.md, "Budgets"): the newest entries taken per crawl,
  // HTML bytes kept per entry (cut beyond, Article::truncated), rows kept per blog (0: no cap; the prune
  // order is in storage::CrawlRecord), and days a hidden (junk) article keeps its bodies (0: forever).
  std::size_t max_entries_per_feed = 500;
  std::size_t max_entry_bytes = 256 * 1024;
  std::int64_t max_articles_per_blog = 2000;
  std::chrono::days junk_retention{30};
  RankingOptions ranking;  // the prior of each stored article (docs/ranking.md)
  // Compute and store each new article's similar articles as it is saved (docs/similar.md): at once for
  // an article dated within `similar_fresh_days` of the pass of a blog read before (0: every article at
  // once), queued for the catch-up (pipeline/similar_catch_up.h) otherwise, so a new blog's back catalogue
  // (all of its first crawl) does not hold up the crawl.
  bool similar_articles = true;
  std::chrono::days similar_fresh_days{14};
  // A pass claims the due blogs it polls (Store::claim_due_blogs) for this long, so that several crawler
  // processes over one database never poll one blog twice; a crashed crawler's blogs are due again after
  // it. At most max_blogs_per_pass blogs are claimed per pass (0: every due blog), which leaves the rest to
  // the other crawlers.
  std::chrono::seconds lease{std::chrono::hours(1)};
  int max_blogs_per_pass = 0;
  // The pass claims its blogs this many at a time, the next batch while the last one's feeds are still being
  // fetched, so that crawlers started together share the due blogs instead of the first taking them all.
  int claim_batch = 250;
};

// Crawler processes in a row that may die while parsing a blog's feed before it is quarantined.
inline constexpr int kQuarantineAfterCrashes = 3;

class Crawler {
 public:
  Crawler(storage::Store& store, fetch::HttpClient& client, CrawlOptions options, CurationContext curation);

  // Runs one pass. Fails only when the store cannot list blogs; per-blog failures are recorded and the
  // pass goes on, whatever they are: an exception (std::bad_alloc included) while parsing, curating,
  // extracting a page or saving fails that blog alone, with the reason stored.
  //
  // Crash quarantine: each blog is marked in the store (mark_parsing) before its feed body is parsed, and the
  // mark goes with its saved result. A pass first looks for marks left by a crawler process that is gone (it
  // died parsing that blog: out of memory, abort, kill -9) and records the crash: the blog backs off, and
  // after kQuarantineAfterCrashes in a row it is quarantined. stop() is not a crash: the pass ends normally
  // and removes its marks.
  [[nodiscard]] Result<CrawlSummary> run(CrawlObserver* observer = nullptr);

  // Thread-safe: asks a running pass to finish early (remaining transfers are cancelled, nothing
  // half-written: each blog's result is one transaction).
  void stop();

 private:
  storage::Store& store_;
  fetch::HttpClient& client_;
  CrawlOptions options_;
  CurationContext curation_;
  // Records the crashes of crawler processes that died while parsing a blog (marks they left behind);
  // returns those blogs, which this pass leaves alone (they back off), --all included.
  std::unordered_set<std::int64_t> record_crashes(TimePoint now);

  std::atomic<bool> stop_requested_{false};
};

// Whether the crawler process `owner` ("host:pid:nonce", as it marks blogs) may still be running: this
// process; another live pid on this host; on another host, a mark younger than an hour (a parse takes
// seconds, so an older one is a process that is gone).
bool parsing_owner_alive(std::string_view owner, TimePoint since, TimePoint now);
// This process's owner string.
const std::string& parsing_owner();

// The database's first body dictionary, once it holds enough articles to train one
// (Store::train_first_body_dictionary): logged when trained; a failure is logged and changes nothing else.
void train_first_body_dictionary(storage::Store& store);

// "fetch: timed out after 30 s" -> "timed out after 30 s": the stored, operator-facing form (the
// technical message without its module prefix; it names the cause precisely).
std::string status_text(const Error& error);

// An exception thrown while working on one blog, as that blog's error: out of memory is a resource the
// feed exhausted (kTooLarge); anything else is a bug (kInternal). Either way only that blog fails.
// `stage` says what was being done ("reading the feed", "saving").
Error exception_error(std::string_view stage, std::exception_ptr thrown);

}  // namespace longread::pipeline
