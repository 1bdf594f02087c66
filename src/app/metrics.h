// The process's Prometheus metrics (docs/operating.md, "Metrics"), on prometheus-cpp's registry and text
// serializer: what the crawler did (polls by outcome, failures by kind, new and updated articles, feed
// fetch times), what the site answered (requests by route and status, latency), and the stored totals
// (blogs due, articles visible and junk, readers, subscribers, outbox depth, the last newsletter) read
// from the store at each scrape. Counters count since the process started, as Prometheus expects.
#pragma once
#include <memory>
#include <string>
#include <string_view>

#include "core/time.h"
#include "pipeline/crawler.h"
#include "storage/roles/database_store.h"

namespace longread::app {

class Metrics {
 public:
  Metrics();
  ~Metrics();
  Metrics(const Metrics&) = delete;
  Metrics& operator=(const Metrics&) = delete;

  // One blog's poll as the crawler reports it. A blog whose poll a stop cut short counts nowhere.
  void blog_polled(const pipeline::BlogResult& result);
  // One answered request: its route pattern (never the raw path), status and duration.
  void http_response(std::string_view route, int status, double seconds);
  // The exposition text (format 0.0.4), with the store's totals read at `now`. A store that cannot answer
  // leaves its gauges out and sets longread_store_up to 0, so the scrape itself still succeeds.
  [[nodiscard]] std::string render(storage::DatabaseStore& store, TimePoint now);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Passes each event on to `next` (the log or progress bar) and counts finished blogs in `metrics`.
class MetricsCrawlObserver : public pipeline::CrawlObserver {
 public:
  MetricsCrawlObserver(Metrics& metrics, pipeline::CrawlObserver* next) : metrics_(metrics), next_(next) {}
  void on_start(int total) override;
  void on_blog_done(const pipeline::BlogResult& result, const pipeline::CrawlSummary& so_far) override;
  void on_finish(const pipeline::CrawlSummary& summary) override;

 private:
  Metrics& metrics_;
  pipeline::CrawlObserver* next_;
};

}  // namespace longread::app
