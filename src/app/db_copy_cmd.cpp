// `longread db copy --from data/longread.db --to postgresql://…`: a stopped site's SQLite database into
// PostgreSQL, then both compared (storage/copy/db_copy.h; docs/operating.md, "Moving to PostgreSQL").
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <chrono>
#include <cstdio>

#include "app/commands.h"
#include "storage/copy/db_copy.h"

namespace longread::app {

int cmd_db_copy(const DbCopyCommandOptions& options) {
  storage::CopyOptions copy{.batch_rows = options.batch, .stop_after_batches = options.stop_after_batches};
  // A line per table when it is done, and one every few seconds inside a long one.
  auto last = std::chrono::steady_clock::now();
  auto progress = [&](const storage::CopyProgress& p) {
    const auto now = std::chrono::steady_clock::now();
    if (!p.table_done && now - last < std::chrono::seconds(5)) return;
    last = now;
    if (p.table_done) {
      fmt::print("copy: copied {} ({} rows read, {} new)\n", p.table, p.rows_read, p.inserted);
    } else {
      fmt::print("copy: copying {}: {} of {} rows read, {} new\n", p.table, p.rows_read, p.rows_total,
                 p.inserted);
    }
    std::fflush(stdout);
  };
  auto report = storage::copy_sqlite_to_postgres(options.from, options.to, copy, progress);
  if (!report) {
    fmt::print(stderr, "{}\n", report.error().message);
    if (report.error().kind != ErrorKind::kInvalidInput)
      fmt::print(stderr, "db copy: stopped; run it again to copy what is missing\n");
    return 1;
  }
  std::vector<std::string> differing;
  for (const auto& table : report->tables) {
    fmt::print("copy: {}\n", table.summary());
    if (!table.equal()) differing.push_back(table.table);
  }
  std::fflush(stdout);
  if (!differing.empty()) {
    for (const auto& table : report->tables)
      for (const auto& difference : table.differences) fmt::print(stderr, "db copy: {}\n", difference);
    fmt::print(stderr, "db copy: PostgreSQL differs from SQLite in {}\n", fmt::join(differing, ", "));
    return 1;
  }
  fmt::print("copy: done, {} tables equal\n", report->tables.size());
  return 0;
}

}  // namespace longread::app
