// The SQLite backend's blog suggestions (migration 0022): the Store methods of that role as functions
// over a connection, so sqlite_store.cpp only locks and forwards. Writers take the writer connection
// (under the store's writer mutex), readers a pooled reader connection.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "storage/sqlite/handles.h"
#include "storage/store.h"

namespace longread::storage::sqlite {

Result<Suggestion> add_suggestion(Connection& writer, const NewSuggestion& suggestion);
Result<std::vector<Suggestion>> claim_suggestions(Connection& writer, TimePoint now, TimePoint lease_until,
                                                  int limit, int max_attempts);
Result<void> release_suggestion(Connection& writer, std::int64_t id);
Result<void> save_suggestion_finding(Connection& writer, std::int64_t id, const SuggestionFinding& finding);
Result<Suggestion> decide_suggestion(Connection& writer, std::int64_t id, const SuggestionDecision& decision);
Result<std::optional<Suggestion>> suggestion(Connection& db, std::int64_t id);
Result<std::vector<Suggestion>> reader_suggestions(Connection& db, std::int64_t reader_id, int limit);
Result<std::vector<Suggestion>> suggestions(Connection& db, int limit);
Result<std::optional<TimePoint>> next_suggestion_due(Connection& db);

}  // namespace longread::storage::sqlite
