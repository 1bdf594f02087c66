// `longread db search-index`: keeps the search index in shape once, now (docs/operating.md); the crawl loop
// does the same after each pass.
#include <fmt/format.h>

#include "app/commands.h"
#include "app/store_setup.h"
#include "storage/store.h"

namespace longread::app {

int cmd_db_search_index(const config::Config& config, const SearchIndexCommandOptions& options) {
  auto store = open_store(config);
  if (!store) return 1;
  storage::SearchIndexUpkeep upkeep;
  if (options.recent_ids > 0) upkeep.recent_ids = options.recent_ids;
  auto report = store->maintain_search_index(upkeep);
  if (!report) {
    fmt::print(stderr, "{}\n", report.error().message);
    return 1;
  }
  fmt::print("search index: {}\n", report->summary);
  return report->busy ? 1 : 0;
}

}  // namespace longread::app
