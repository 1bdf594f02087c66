#include "storage/sqlite/parse_marks.h"

#include <fmt/core.h>

#include "storage/sqlite/query_helpers.h"
#include "storage/values.h"

namespace longread::storage::sqlite {
namespace {

// WAL, as the main file: a mark commits without waiting for readers, and several crawler processes on one
// host share the file.
constexpr const char* kSetUp =
    "PRAGMA journal_mode = WAL;"
    "CREATE TABLE IF NOT EXISTS parse_marks ("
    " blog_id INTEGER PRIMARY KEY, owner TEXT NOT NULL, since INTEGER NOT NULL)";
constexpr const char* kMark =
    "INSERT INTO parse_marks (blog_id, owner, since) VALUES (:blog_id, :owner, :since)"
    " ON CONFLICT (blog_id) DO UPDATE SET owner = excluded.owner, since = excluded.since";
constexpr const char* kSelectMarks = "SELECT blog_id, owner, since FROM parse_marks ORDER BY blog_id";
constexpr const char* kClearOwner = "DELETE FROM parse_marks WHERE owner = :owner";
constexpr const char* kClearBlog = "DELETE FROM parse_marks WHERE blog_id = :blog_id";
constexpr const char* kTake =
    "DELETE FROM parse_marks WHERE blog_id = :blog_id AND owner = :owner AND since = :since";

}  // namespace

Result<std::unique_ptr<ParseMarks>> ParseMarks::open(const std::string& database_path) {
  const std::string path = database_path + "-parsing";
  auto db = Connection::open(path, true);
  if (!db) return std::unexpected(db.error());
  if (auto ok = (*db)->exec(kSetUp); !ok)
    return fail(ErrorKind::kStorage, fmt::format("store: cannot open {}: {}", path, ok.error().message));
  return std::make_unique<ParseMarks>(std::move(*db));
}

Result<void> ParseMarks::mark(std::int64_t blog_id, std::string_view owner, TimePoint since) {
  std::lock_guard lock(mutex_);
  return run(*db_, kMark, "cannot mark blog", [&](Query& q) {
    q.bind(":blog_id", blog_id).bind(":owner", owner).bind(":since", to_unix(since));
  });
}

Result<std::vector<ParsingMark>> ParseMarks::all() {
  std::lock_guard lock(mutex_);
  return read_rows(
      *db_, kSelectMarks, "cannot read parsing marks", [](Query&) {},
      [](const Query& q) {
        return ParsingMark{.blog_id = q.int64(0), .owner = q.text(1), .since = from_unix(q.int64(2))};
      });
}

Result<void> ParseMarks::clear_owner(std::string_view owner) {
  std::lock_guard lock(mutex_);
  return run(*db_, kClearOwner, "cannot clear parsing marks", [&](Query& q) { q.bind(":owner", owner); });
}

Result<void> ParseMarks::clear_blogs(std::span<const std::int64_t> blog_ids) {
  std::lock_guard lock(mutex_);
  return in_transaction(*db_, "cannot clear parsing marks", [&]() -> Result<void> {
    for (const std::int64_t id : blog_ids) {
      auto ok =
          run(*db_, kClearBlog, "cannot clear parsing marks", [&](Query& q) { q.bind(":blog_id", id); });
      if (!ok) return ok;
    }
    return {};
  });
}

Result<bool> ParseMarks::take(const ParsingMark& mark) {
  std::lock_guard lock(mutex_);
  auto taken = run_changes(*db_, kTake, "cannot record crash", [&](Query& q) {
    q.bind(":blog_id", mark.blog_id).bind(":owner", mark.owner).bind(":since", to_unix(mark.since));
  });
  if (!taken) return std::unexpected(taken.error());
  return *taken > 0;
}

}  // namespace longread::storage::sqlite
