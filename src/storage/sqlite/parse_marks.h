// Crash quarantine's parse marks (BlogStore::mark_parsing, docs/fetch.md "Quarantine") for the SQLite store,
// kept in a companion database file of their own: "<database>-parsing". A mark must be on disk before the
// parse it covers starts. In the main file that commit waited for the one write lock, which the crawl's save
// queue holds for a whole group of blogs, so the parsing threads spent most of a list's first crawl waiting
// (a quarter of its time: docs/perf.md, "The crawl writer's time, measured"). The companion file has a lock
// of its own, taken for one small statement at a time. Internal to the SQLite backend.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "core/time.h"
#include "storage/sqlite/handles.h"
#include "storage/types.h"

namespace longread::storage::sqlite {

class ParseMarks {
 public:
  // Opens (creating) the companion of the database at `database_path`.
  static Result<std::unique_ptr<ParseMarks>> open(const std::string& database_path);
  explicit ParseMarks(std::unique_ptr<Connection> db) : db_(std::move(db)) {}

  // Marks `blog_id` as being parsed by `owner` since `since`, replacing any mark of the blog.
  Result<void> mark(std::int64_t blog_id, std::string_view owner, TimePoint since);
  // Every mark, by blog.
  Result<std::vector<ParsingMark>> all();
  // Removes every mark of `owner`.
  Result<void> clear_owner(std::string_view owner);
  // Removes the marks of `blog_ids` (their results are saved).
  Result<void> clear_blogs(std::span<const std::int64_t> blog_ids);
  // Removes exactly `mark` (same blog, owner and time): true when it was there, so that of two processes
  // finding one dead mark, one records the crash.
  Result<bool> take(const ParsingMark& mark);

 private:
  std::mutex mutex_;
  std::unique_ptr<Connection> db_;  // guarded by mutex_
};

}  // namespace longread::storage::sqlite
