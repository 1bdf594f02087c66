// `longread similar rebuild`: the similar-articles index and every article's picks made again from the
// stored articles (docs/similar.md), for a site that had articles before the index existed, or after the
// scoring changed. The crawl keeps them up to date afterwards. `longread similar catch-up`: the back
// catalogue the crawl queued, indexed now.
#include <fmt/format.h>

#include <chrono>

#include "app/commands.h"
#include "app/store_setup.h"
#include "pipeline/similar.h"
#include "pipeline/similar_catch_up.h"
#include "storage/store.h"

namespace longread::app {

int cmd_similar_rebuild(const config::Config& config) {
  auto store = open_store(config);
  if (!store) return 1;
  const auto started = std::chrono::steady_clock::now();
  pipeline::SimilarIndexer indexer(*store);
  auto rebuilt = indexer.rebuild([](int pass, std::int64_t done) {
    if (done % 10000 == 0)
      fmt::print("similar: {} {} articles\n", pass == 1 ? "counted terms of" : "picked for", done);
  });
  if (!rebuilt) return report_failure(rebuilt.error());
  const auto seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  fmt::print("similar: {} articles indexed, {} picks stored, in {:.1f} s\n", rebuilt->articles,
             rebuilt->picks, seconds);
  return 0;
}

// `longread similar catch-up`: the queued back catalogue indexed now, to the end of the queue (a crawl loop
// does it a slice at a time between passes).
int cmd_similar_catch_up(const config::Config& config) {
  auto store = open_store(config);
  if (!store) return 1;
  auto queued = store->similar_queue_size();
  if (!queued) return report_failure(queued.error());
  fmt::print("similar: {} articles queued\n", *queued);
  const auto started = std::chrono::steady_clock::now();
  pipeline::SimilarIndexer indexer(*store);
  pipeline::CatchUpOptions options;
  std::int64_t indexed = 0;
  std::int64_t dropped = 0;
  // 10,000 articles per call, to print progress between them.
  const int batches_per_report = 10000 / options.batch;
  for (;;) {
    int batches = 0;
    auto done = pipeline::catch_up_similar(indexer, *store, *store, options,
                                           [&] { return batches++ < batches_per_report; });
    if (!done) return report_failure(done.error());
    if (done->busy) {
      fmt::print("similar: another process is catching up; nothing done\n");
      return 0;
    }
    indexed += done->indexed;
    dropped += done->dropped;
    if (done->finished) break;
    fmt::print("similar: {} of {} done\n", indexed + dropped, *queued);
  }
  const auto seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  fmt::print("similar: {} queued articles indexed ({} no longer visible, dropped), in {:.1f} s\n", indexed,
             dropped, seconds);
  return 0;
}

}  // namespace longread::app
