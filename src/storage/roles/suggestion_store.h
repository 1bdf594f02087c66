// The blog-suggestions role of the Store (migration 0022, docs/readers.md "Suggest a blog"): readers'
// suggestions and operators' "Add a blog", discovery's claims with a lease, what it found, and the
// operator's decision.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "core/error.h"
#include "core/time.h"
#include "storage/types.h"

namespace longread::storage {

// Blog suggestions and their discovery.
// Every method is safe to call from several threads; implementations serialise as needed.
class SuggestionStore {
 public:
  virtual ~SuggestionStore() = default;

  // Stores a pending suggestion and returns it; kRateLimited when the reader is at NewSuggestion::per_day
  // (counted and inserted in one transaction, so two requests at once cannot both pass).
  virtual Result<Suggestion> add_suggestion(const NewSuggestion& suggestion) = 0;
  // Takes up to `limit` pending suggestions whose lease has run out (or that were never claimed), oldest
  // first, in one transaction: each one's attempts is counted and its lease moved to `lease_until`, so no
  // other worker takes it meanwhile and one whose process died mid-discovery is taken again afterwards. A
  // pending suggestion already claimed `max_attempts` times ends as failed ("discovery did not finish
  // after N attempts") instead: a URL that kills the process cannot loop forever.
  virtual Result<std::vector<Suggestion>> claim_suggestions(TimePoint now, TimePoint lease_until, int limit,
                                                            int max_attempts) = 0;
  // Hands a claimed suggestion back at once (a discovery cut short because the process is stopping): its
  // lease is cleared and the claim not counted as an attempt, so the next run takes it up immediately.
  // Nothing happens to a suggestion that is no longer pending.
  virtual Result<void> release_suggestion(std::int64_t id) = 0;
  // Saves what discovery found for a pending suggestion. kNotFound for an unknown id; kConflict when it is
  // no longer pending (an operator rejected it meanwhile).
  virtual Result<void> save_suggestion_finding(std::int64_t id, const SuggestionFinding& finding) = 0;
  // Records an operator's decision and returns the suggestion as it is afterwards. Approving needs status
  // found; rejecting any status but approved and rejected. kNotFound, or kConflict when not allowed now.
  virtual Result<Suggestion> decide_suggestion(std::int64_t id, const SuggestionDecision& decision) = 0;
  virtual Result<std::optional<Suggestion>> suggestion(std::int64_t id) = 0;
  // A reader's suggestions, newest first.
  virtual Result<std::vector<Suggestion>> reader_suggestions(std::int64_t reader_id, int limit) = 0;
  // Every suggestion for the admin area: open ones (pending, found, failed, refused) first, then the
  // rest; newest first within each.
  virtual Result<std::vector<Suggestion>> suggestions(int limit) = 0;
  // A pending suggestion waiting for discovery (for the worker's wake-up), nullopt when none.
  virtual Result<std::optional<TimePoint>> next_suggestion_due() = 0;
};

}  // namespace longread::storage
