#include "storage/postgres/suggestion_store.h"

namespace longread::storage::postgres {

Result<Suggestion> PgSuggestionStore::add_suggestion(const NewSuggestion& suggestion) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL SuggestionStore::add_suggestion is not written yet");
}

Result<std::vector<Suggestion>> PgSuggestionStore::claim_suggestions(TimePoint now, TimePoint lease_until,
                                                                     int limit, int max_attempts) {
  return fail(ErrorKind::kInternal,
              "store: PostgreSQL SuggestionStore::claim_suggestions is not written yet");
}

Result<void> PgSuggestionStore::release_suggestion(std::int64_t id) {
  return fail(ErrorKind::kInternal,
              "store: PostgreSQL SuggestionStore::release_suggestion is not written yet");
}

Result<void> PgSuggestionStore::save_suggestion_finding(std::int64_t id, const SuggestionFinding& finding) {
  return fail(ErrorKind::kInternal,
              "store: PostgreSQL SuggestionStore::save_suggestion_finding is not written yet");
}

Result<Suggestion> PgSuggestionStore::decide_suggestion(std::int64_t id, const SuggestionDecision& decision) {
  return fail(ErrorKind::kInternal,
              "store: PostgreSQL SuggestionStore::decide_suggestion is not written yet");
}

Result<std::optional<Suggestion>> PgSuggestionStore::suggestion(std::int64_t id) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL SuggestionStore::suggestion is not written yet");
}

Result<std::vector<Suggestion>> PgSuggestionStore::reader_suggestions(std::int64_t reader_id, int limit) {
  return fail(ErrorKind::kInternal,
              "store: PostgreSQL SuggestionStore::reader_suggestions is not written yet");
}

Result<std::vector<Suggestion>> PgSuggestionStore::suggestions(int limit) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL SuggestionStore::suggestions is not written yet");
}

Result<std::optional<TimePoint>> PgSuggestionStore::next_suggestion_due() {
  return fail(ErrorKind::kInternal,
              "store: PostgreSQL SuggestionStore::next_suggestion_due is not written yet");
}

}  // namespace longread::storage::postgres
