// `longread db copy --from data/longread.db --to postgresql://…`: moves a stopped site from its SQLite
// database to PostgreSQL (docs/operating.md, "Moving to PostgreSQL"), then checks that both hold the same.
//
// Every table both databases have is copied, parents before children, in batches of multi-row INSERTs,
// each batch its own transaction with ON CONFLICT DO NOTHING: a copy that was stopped (killed, a lost
// connection) is run again and adds only what is missing. Afterwards each identity sequence continues after
// the largest copied id, and every table is checked: the same number of rows, and a sample of rows spread
// over the table equal column by column.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"

namespace longread::storage {

struct CopyOptions {
  int batch_rows = 500;                // rows per INSERT (fewer when a row has many columns)
  std::size_t batch_bytes = 8u << 20;  // and at most about this many bytes of values
  int samples = 25;                    // rows compared column by column per table
  // Tests only: return an error after this many committed batches (0: never), as a kill would stop it.
  int stop_after_batches = 0;
};

// Where the copy is, after each committed batch and at the end of each table.
struct CopyProgress {
  std::string_view table;
  std::int64_t rows_read = 0;   // of this table, so far
  std::int64_t rows_total = 0;  // in the SQLite table
  std::int64_t inserted = 0;    // rows of this table this run added so far
  bool table_done = false;
};
using CopyProgressFn = std::function<void(const CopyProgress&)>;

// One table's outcome.
struct TableReport {
  std::string table;
  std::int64_t sqlite_rows = 0;
  std::int64_t postgres_rows = 0;
  std::int64_t inserted = 0;   // rows this run wrote (0 when an earlier run had copied everything)
  int sampled = 0;             // rows compared column by column
  int sample_differences = 0;  // of those, how many differ
  std::vector<std::string> differences{};  // what differs, one sentence each; empty: equal

  [[nodiscard]] bool equal() const noexcept { return differences.empty(); }
  // "articles 12345 rows (12345 new), counts equal, 25 sampled rows equal", or what differs.
  [[nodiscard]] std::string summary() const;
};

struct CopyReport {
  std::vector<TableReport> tables;  // in the order copied
  [[nodiscard]] bool equal() const noexcept;
};

// Copies the SQLite database at `sqlite_path` into the PostgreSQL database at `pg_url` (its migrations are
// applied first) and checks the result. An error (kInvalidInput for a --to that is not a postgresql:// URL or
// a --from that is not an existing longread SQLite file) means the copy did not finish; differences found
// by the check are in the report. The SQLite file is only read (though an older one is first migrated, as
// any longread command would).
Result<CopyReport> copy_sqlite_to_postgres(const std::string& sqlite_path, const std::string& pg_url,
                                           const CopyOptions& options = {},
                                           const CopyProgressFn& progress = {});

}  // namespace longread::storage
