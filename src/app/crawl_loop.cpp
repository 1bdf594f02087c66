#include "app/crawl_loop.h"

#include <spdlog/spdlog.h>

#include <chrono>
#include <condition_variable>
#include <mutex>

#include "app/commands.h"
#include "app/progress.h"
#include "app/store_setup.h"
#include "curate/curate.h"
#include "fetch/http_client.h"
#include "pipeline/crawler.h"
#include "pipeline/similar.h"
#include "pipeline/similar_catch_up.h"

namespace longread::app {
namespace {

// How long the catch-up may run between two passes.
constexpr auto kCatchUpSlice = std::chrono::seconds{50};

// True when the queue has more for the next slice.
bool catch_up_slice(std::stop_token stop, storage::Store& store) {
  pipeline::SimilarIndexer indexer(store);
  const auto until = std::chrono::steady_clock::now() + kCatchUpSlice;
  auto done = pipeline::catch_up_similar(indexer, store, store, {}, [&] {
    return !stop.stop_requested() && std::chrono::steady_clock::now() < until;
  });
  if (!done) {
    spdlog::warn("similar: catch-up failed: {}", done.error().message);
    return false;
  }
  if (done->indexed + done->dropped > 0)
    spdlog::info("similar: caught up {} queued articles ({} no longer visible){}", done->indexed,
                 done->dropped, done->finished ? ", queue empty" : "");
  return !done->finished && !done->busy;
}

// The search index's upkeep between passes (a no-op most of the time), logged when it did something.
void keep_search_index(storage::Store& store) {
  auto report = store.maintain_search_index({});
  if (!report) {
    spdlog::warn("search index: {}", report.error().message);
  } else if (report->changed) {
    spdlog::info("search index: {}", report->summary);
  }
}

}  // namespace

void crawl_loop(std::stop_token stop, const config::Config& config, storage::Store& store, Metrics& metrics) {
  fetch::HttpClient client(client_options(config));
  const auto classifier = load_classifier(config);
  curate::JunkOptions junk{.languages = config.curate.languages, .min_words = config.curate.min_words};
  pipeline::Crawler crawler(store, client, crawl_options(config, false),
                            {.classifier = classifier ? &*classifier : nullptr,
                             .junk_options = &junk,
                             .category_threshold = config.curate.category_threshold});
  std::stop_callback on_stop(stop, [&crawler] { crawler.stop(); });
  auto log_observer = make_crawl_observer(false);
  MetricsCrawlObserver observer(metrics, log_observer.get());
  std::mutex mutex;
  std::condition_variable_any wake;
  while (!stop.stop_requested()) {
    auto summary = crawler.run(&observer);
    if (!summary) {
      spdlog::error("crawl: pass failed: {}", summary.error().message);
    } else if (summary->total > 0) {
      spdlog::info("crawl: {}", format_summary(*summary));
    }
    // The pass ends with the automatic retirement of dead / inactive blogs (off unless configured).
    if (!stop.stop_requested()) retire_after_crawl(config, store);
    // Then the first body dictionary, once there are enough articles to learn from.
    if (!stop.stop_requested()) pipeline::train_first_body_dictionary(store);
    // Then the search index, kept quick as the newest articles move on.
    if (!stop.stop_requested()) keep_search_index(store);
    // Then the similar articles of the back catalogue the passes queued, for a slice of time at most, so
    // that blogs falling due wait no longer than that; while the queue lasts, the next pass follows at once.
    if (!stop.stop_requested() && catch_up_slice(stop, store)) continue;
    std::unique_lock lock(mutex);
    wake.wait_for(lock, stop, std::chrono::seconds{60}, [] { return false; });
  }
}

}  // namespace longread::app
