// The SQLite side of SuggestionStore; the SQL lives in sqlite/suggestions.cpp.
#include "storage/sqlite/sqlite_store.h"

#include <optional>
#include <vector>

#include "storage/sqlite/suggestions.h"

namespace longread::storage::sqlite {

Result<Suggestion> SqliteStore::add_suggestion(const NewSuggestion& suggestion) {
  return with_writer([&](Connection& db) { return sqlite::add_suggestion(db, suggestion); });
}

Result<std::vector<Suggestion>> SqliteStore::claim_suggestions(TimePoint now, TimePoint lease_until,
                                                               int limit, int max_attempts) {
  return with_writer(
      [&](Connection& db) { return sqlite::claim_suggestions(db, now, lease_until, limit, max_attempts); });
}

Result<void> SqliteStore::release_suggestion(std::int64_t id) {
  return with_writer([&](Connection& db) { return sqlite::release_suggestion(db, id); });
}

Result<void> SqliteStore::save_suggestion_finding(std::int64_t id, const SuggestionFinding& finding) {
  return with_writer([&](Connection& db) { return sqlite::save_suggestion_finding(db, id, finding); });
}

Result<Suggestion> SqliteStore::decide_suggestion(std::int64_t id, const SuggestionDecision& decision) {
  return with_writer([&](Connection& db) { return sqlite::decide_suggestion(db, id, decision); });
}

Result<std::optional<Suggestion>> SqliteStore::suggestion(std::int64_t id) {
  return with_reader([&](Connection& db) { return sqlite::suggestion(db, id); });
}

Result<std::vector<Suggestion>> SqliteStore::reader_suggestions(std::int64_t reader_id, int limit) {
  return with_reader([&](Connection& db) { return sqlite::reader_suggestions(db, reader_id, limit); });
}

Result<std::vector<Suggestion>> SqliteStore::suggestions(int limit) {
  return with_reader([&](Connection& db) { return sqlite::suggestions(db, limit); });
}

Result<std::optional<TimePoint>> SqliteStore::next_suggestion_due() {
  return with_reader([&](Connection& db) { return sqlite::next_suggestion_due(db); });
}

}  // namespace longread::storage::sqlite
