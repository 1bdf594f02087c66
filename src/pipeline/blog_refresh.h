// Refreshing one blog, the crawl's unit of work: the response to its feed's fetch becomes the blog's
// curated crawl record and its BlogResult; when summary-only entries need their pages, it asks for them
// (page_requests) and the responses to those complete the record. It fetches nothing itself: the caller
// fetches the feed and the pages and hands over their responses (a test can hand it responses it built).
// Through the store it is given, it reads what is stored of the blog (to tell new, changed and unchanged
// entries apart, to learn the blog's template, to count its recent posts) and marks the blog before its feed
// is parsed (the crash quarantine, Crawler::run); saving the record is the caller's (SaveQueue).
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "core/error.h"
#include "core/time.h"
#include "fetch/http_client.h"
#include "model/model.h"
#include "pipeline/crawler.h"
#include "storage/store.h"

namespace longread::html {
struct FeedTemplate;
}

namespace longread::pipeline {

// What refreshing a blog works with besides the blog and the responses; outlives the BlogRefresh.
struct BlogRefreshContext {
  storage::Store& store;
  const CrawlOptions& options;
  const CurationContext& curation;
  TimePoint now;  // the pass's time: the record's attempted_at and the base of its next due date
  // Set by the pass's stop(): a feed fetch that stop() cancelled is a stop, not a failure, and once it is set
  // no page is asked for (the blog is saved with what its feed gave). Null: never stopped.
  const std::atomic<bool>* stop_requested = nullptr;
};

class BlogRefresh {
 public:
  using Clock = std::chrono::steady_clock;

  enum class State {
    kWaitingForFeed,   // read_feed not called yet
    kWaitingForPages,  // page_requests() are to be fetched, each answered with read_page
    kDone,             // record() and result() are final, to be saved (a failure record included)
    kStopped,          // a fetch was cut short by stop(): nothing is to be saved; result() says "stopped"
  };

  BlogRefresh(model::Blog blog, BlogRefreshContext context);
  BlogRefresh(const BlogRefresh&) = delete;
  BlogRefresh& operator=(const BlogRefresh&) = delete;

  // Reads the response to the feed's fetch: a fetch error or a feed that cannot be parsed is a failure
  // record (kept nothing, backed off), a 304 is "not modified", a 200 is parsed, budgeted and curated into
  // the record. Any exception while doing so (std::bad_alloc included) fails the blog with its reason.
  // Returns kDone, kStopped, or kWaitingForPages when summary-only entries want their pages.
  State read_feed(const fetch::Response& response);

  // The full-text pages the blog waits for, each restricted to the blog's site; a request's tag is the
  // page's index, for read_page.
  [[nodiscard]] const std::vector<fetch::Request>& page_requests() const { return page_requests_; }

  // Reads the response to page_requests()[page]. Thread-safe for different pages of the blog. The page's
  // text replaces its article's summary when it has more words; a failure that may pass (timeout, network,
  // 429, 5xx) is tried again at a later poll. Returns true for the last page of the blog, which completes
  // it: the state is then kDone, or kStopped when the pass's stop() cancelled the fetch of one of them.
  bool read_page(std::size_t page, const fetch::Response& response);

  // The pass ended before the pages it waits for were fetched: nothing is to be recorded, so that the next
  // pass polls the blog again and fetches them (saved with its summaries, its unchanged entries would never
  // get them).
  void stop();

  [[nodiscard]] State state() const;
  [[nodiscard]] const model::Blog& blog() const { return blog_; }
  // The record to save and the blog's result; final once the state is kDone (the caller may move them).
  [[nodiscard]] storage::CrawlRecord& record() { return record_; }
  [[nodiscard]] BlogResult& result() { return result_; }
  // When work on the blog began: its feed's fetch.
  [[nodiscard]] Clock::time_point started() const { return started_; }

 private:
  State read_feed_unguarded(const fetch::Response& response);
  // Turns the record into the blog's failure record: stored with its reason, backed off like any failed
  // poll (no sooner than `retry_at`), keeping no articles.
  void fail(const Error& error, std::optional<TimePoint> retry_at);
  void mark_stopped();
  // Sets the next due date after a 200 or 304 (see the definition).
  void schedule_success(PollHints hints);
  [[nodiscard]] bool stopping() const;

  model::Blog blog_;
  BlogRefreshContext context_;
  storage::CrawlRecord record_;
  BlogResult result_;
  Clock::time_point started_{};
  std::optional<double> posts_per_month_;  // the blog's rate, for the prior of an article whose page is read
  std::shared_ptr<const html::FeedTemplate> feed_template_;  // removed from the pages' text too
  std::vector<fetch::Request> page_requests_;
  std::vector<std::size_t>
      page_articles_;  // the article of each page request, by index into record_.articles

  mutable std::mutex mutex_;  // guards what read_page calls share: the members below and result_
  State state_ = State::kWaitingForFeed;
  int pages_outstanding_ = 0;
  bool cancelled_ = false;        // a page fetch was cut short by stop(): the blog is not recorded
  std::optional<Error> error_{};  // extracting or curating a page threw: the blog fails with this
};

}  // namespace longread::pipeline
