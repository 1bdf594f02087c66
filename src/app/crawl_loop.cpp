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

namespace longread::app {

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
    std::unique_lock lock(mutex);
    wake.wait_for(lock, stop, std::chrono::seconds{60}, [] { return false; });
  }
}

}  // namespace longread::app
