// The SQLite side of SuggestionStore; the SQL lives in sqlite/suggestions.cpp.
#include "storage/sqlite/sqlite_store.h"

#include <mutex>
#include <optional>
#include <vector>

#include "storage/sqlite/suggestions.h"

namespace longread::storage::sqlite {

Result<Suggestion> SqliteStore::add_suggestion(const NewSuggestion& suggestion) {
  std::lock_guard lock(writer_mutex_);
  return sqlite::add_suggestion(*writer_, suggestion);
}

Result<std::vector<Suggestion>> SqliteStore::claim_suggestions(TimePoint now, TimePoint lease_until,
                                                               int limit, int max_attempts) {
  std::lock_guard lock(writer_mutex_);
  return sqlite::claim_suggestions(*writer_, now, lease_until, limit, max_attempts);
}

Result<void> SqliteStore::release_suggestion(std::int64_t id) {
  std::lock_guard lock(writer_mutex_);
  return sqlite::release_suggestion(*writer_, id);
}

Result<void> SqliteStore::save_suggestion_finding(std::int64_t id, const SuggestionFinding& finding) {
  std::lock_guard lock(writer_mutex_);
  return sqlite::save_suggestion_finding(*writer_, id, finding);
}

Result<Suggestion> SqliteStore::decide_suggestion(std::int64_t id, const SuggestionDecision& decision) {
  std::lock_guard lock(writer_mutex_);
  return sqlite::decide_suggestion(*writer_, id, decision);
}

Result<std::optional<Suggestion>> SqliteStore::suggestion(std::int64_t id) {
  auto db = readers_.acquire();
  if (!db) return std::unexpected(db.error());
  return sqlite::suggestion(**db, id);
}

Result<std::vector<Suggestion>> SqliteStore::reader_suggestions(std::int64_t reader_id, int limit) {
  auto db = readers_.acquire();
  if (!db) return std::unexpected(db.error());
  return sqlite::reader_suggestions(**db, reader_id, limit);
}

Result<std::vector<Suggestion>> SqliteStore::suggestions(int limit) {
  auto db = readers_.acquire();
  if (!db) return std::unexpected(db.error());
  return sqlite::suggestions(**db, limit);
}

Result<std::optional<TimePoint>> SqliteStore::next_suggestion_due() {
  auto db = readers_.acquire();
  if (!db) return std::unexpected(db.error());
  return sqlite::next_suggestion_due(**db);
}

}  // namespace longread::storage::sqlite
