// `longread db compact`: converts stored article bodies to the compressed form in batches
// (docs/storage.md, "Article bodies"; docs/operating.md).
#include <fmt/format.h>

#include <chrono>
#include <filesystem>

#include "app/commands.h"
#include "app/store_setup.h"
#include "storage/store.h"

namespace longread::app {

int cmd_db_compact(const config::Config& config, const CompactCommandOptions& options) {
  auto store = open_store(config);
  if (!store) return 1;
  std::error_code ec;
  const auto size_before = std::filesystem::file_size(config.db_path, ec);
  storage::CompactOptions batch{.batch = options.batch,
                                .after_id = 0,
                                .retrain = options.retrain,
                                .hold_before_commit = std::chrono::milliseconds(options.hold_ms)};
  std::int64_t converted = 0;
  std::int64_t unreadable = 0;
  const auto started = std::chrono::steady_clock::now();
  for (;;) {
    auto done = store->compact_bodies(batch);
    if (!done) {
      fmt::print(stderr, "{}\n", done.error().message);
      fmt::print(stderr, "compact: stopped after {} articles; run it again to resume\n", converted);
      return 1;
    }
    if (done->trained_dictionary)
      fmt::print("compact: trained dictionary {} on the newest articles\n", *done->trained_dictionary);
    for (const std::int64_t id : done->unreadable)
      fmt::print(stderr, "store: article {}: stored body cannot be read; left as it is\n", id);
    converted += done->converted;
    unreadable += static_cast<std::int64_t>(done->unreadable.size());
    // One line per committed batch: what a kill would keep.
    fmt::print("compact: {} articles converted (up to id {})\n", converted, done->last_id);
    std::fflush(stdout);
    if (done->done) break;
    batch.after_id = done->last_id;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  fmt::print("compact: done, {} articles converted in {:.1f} s{}\n", converted, seconds,
             unreadable > 0 ? fmt::format(", {} unreadable (see above)", unreadable) : "");
  if (options.vacuum) {
    auto size = store->vacuum();
    if (!size) {
      fmt::print(stderr, "{}\n", size.error().message);
      return 1;
    }
    fmt::print("compact: vacuumed: {} -> {} bytes\n", ec ? 0 : size_before, *size);
  }
  return unreadable > 0 ? 1 : 0;
}

}  // namespace longread::app
