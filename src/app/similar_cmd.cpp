// `longread similar rebuild`: the similar-articles index and every article's picks made again from the
// stored articles (docs/similar.md), for a site that had articles before the index existed, or after the
// scoring changed. The crawl keeps them up to date afterwards.
#include <fmt/format.h>

#include <chrono>

#include "app/commands.h"
#include "app/store_setup.h"
#include "pipeline/similar.h"
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

}  // namespace longread::app
