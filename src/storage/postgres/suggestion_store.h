// The SuggestionStore role (storage/roles/suggestion_store.h) on PostgreSQL.
#pragma once

#include "storage/postgres/database.h"
#include "storage/roles/suggestion_store.h"

namespace longread::storage::postgres {

class PgSuggestionStore : public virtual SuggestionStore {
 public:
  explicit PgSuggestionStore(Database& db) noexcept : db_(db) {}

  Result<Suggestion> add_suggestion(const NewSuggestion& suggestion) override;
  Result<std::vector<Suggestion>> claim_suggestions(TimePoint now, TimePoint lease_until, int limit,
                                                    int max_attempts) override;
  Result<void> release_suggestion(std::int64_t id) override;
  Result<void> save_suggestion_finding(std::int64_t id, const SuggestionFinding& finding) override;
  Result<Suggestion> decide_suggestion(std::int64_t id, const SuggestionDecision& decision) override;
  Result<std::optional<Suggestion>> suggestion(std::int64_t id) override;
  Result<std::vector<Suggestion>> reader_suggestions(std::int64_t reader_id, int limit) override;
  Result<std::vector<Suggestion>> suggestions(int limit) override;
  Result<std::optional<TimePoint>> next_suggestion_due() override;

 private:
  Database& db_;
};

}  // namespace longread::storage::postgres
