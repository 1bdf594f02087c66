// One crawl pass: fetch every due blog's feed concurrently, parse, curate, fetch full text for
// summary-only entries (once), and store each blog's result in one transaction.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "core/error.h"
#include "pipeline/article_builder.h"
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
};

// What happened to one blog in this pass.
struct BlogResult {
  std::int64_t blog_id = 0;
  std::string feed_url;
  std::string status;  // "ok", "not modified", "HTTP 404", "timed out after 30 s", ...
  std::optional<ErrorKind> error_kind;
  int entries = 0;
  int new_articles = 0;
  int updated_articles = 0;
  int full_text_fetched = 0;
  std::chrono::milliseconds elapsed{0};
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

class Crawler {
 public:
  Crawler(storage::Store& store, fetch::HttpClient& client, CrawlOptions options, CurationContext curation);

  // Runs one pass. Fails only when the store cannot list blogs; per-blog failures are recorded and the
  // pass goes on.
  [[nodiscard]] Result<CrawlSummary> run(CrawlObserver* observer = nullptr);

  // Thread-safe: asks a running pass to finish early (remaining transfers are cancelled, nothing
  // half-written: each blog's result is one transaction).
  void stop();

 private:
  storage::Store& store_;
  fetch::HttpClient& client_;
  CrawlOptions options_;
  CurationContext curation_;
  std::atomic<bool> stop_requested_{false};
};

// "fetch: timed out after 30 s" -> "timed out after 30 s": the stored, operator-facing form (the
// technical message without its module prefix; it names the cause precisely).
std::string status_text(const Error& error);

}  // namespace longread::pipeline
