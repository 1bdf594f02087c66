// The index of the newest articles on PostgreSQL (docs/storage.md, "The newest articles' index"): a GIN
// index over the search keys (word ids and blocks of ids) of the visible articles whose id is above a
// threshold, beside the whole table's articles_search_keys.
//
// A search reads the newest matches slice by slice of ids, and a GIN scan reads a word's whole posting
// list whatever the slice: for a word in a fifth of a million articles that was 200,000 entries (60–110
// ms) to find the 1,000 newest. When a slice lies above the threshold, the planner proves the partial
// index's predicate from the slice's bounds (`visible = 1 AND id > T`) and reads that index instead, whose
// lists are a tenth as long or less. The search itself does not change: which index serves is the
// planner's choice, and either gives the same rows.
//
// The threshold moves with the newest ids, so the index is built again now and then
// (maintain_recent_search_index): CREATE INDEX CONCURRENTLY, which neither blocks writers nor is seen by
// the planner before it is complete, ANALYZE (for the planner's count of its rows), then DROP INDEX
// CONCURRENTLY of the one before. The threshold is in
// the index's name (articles_search_recent_<T>), so no table records it.
#pragma once

#include <cstdint>

#include "core/error.h"
#include "storage/postgres/pg.h"
#include "storage/types.h"

namespace longread::storage::postgres {

// Any fixed number: the key of the session advisory lock that lets one process at a time build or drop
// these indexes.
inline constexpr std::int64_t kRecentSearchIndexLock = 4'518'230'771'602'311'953;

// The threshold of an index over the newest `recent_ids` of the ids up to `newest`: where a block of ids
// starts at or below newest - recent_ids (search_blocks.h), as a search's slices start, so that the first
// slice of a search is read from it.
[[nodiscard]] std::int64_t recent_search_index_threshold(std::int64_t newest, std::int64_t recent_ids);

// Builds the index when there is none and the table holds 2 × recent_ids ids or more, or when the newest
// one covers more than 2 × recent_ids ids: over the newest recent_ids ids; then drops the older ones.
// Drops any index of this family left invalid by a build that was killed or cancelled. One process at a
// time (a session advisory lock, released before returning); another's call meanwhile returns `busy`.
// `c` must not be inside a transaction (CREATE INDEX CONCURRENTLY cannot run in one).
[[nodiscard]] Result<SearchIndexReport> maintain_recent_search_index(Connection& c,
                                                                     const SearchIndexUpkeep& upkeep);

}  // namespace longread::storage::postgres
