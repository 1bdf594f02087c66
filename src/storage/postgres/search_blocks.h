// Where an article lies among the ids, as the search index keys it beside its words (docs/storage.md,
// "Blocks of ids in the search index"; PostgreSQL's migration 0016: longread_search_keys). A search asks the
// index for the blocks that cover its slice of ids, and the index intersects them with the words itself.
#pragma once

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

namespace longread::storage::postgres {

// The blocks of ids the search index keys each article by, beside its words (migration 0016:
// longread_search_keys): a block of level L holds the ids whose `id >> kSearchBlockShifts[L]` is the same,
// and its key is (L + 1) * kSearchBlockKeyBase + that value, above every 32-bit word id. Fixed here and in
// the migration alike.
inline constexpr std::array<int, 4> kSearchBlockShifts = {12, 15, 18, 21};
inline constexpr std::int64_t kSearchBlockKeyBase = std::int64_t{1} << 40;
// The ids of a block of the first level, the smallest.
inline constexpr std::int64_t kSearchBlockIds = std::int64_t{1} << kSearchBlockShifts[0];
// The keys of the fewest blocks that cover the ids (low, high]: the largest that fit, at most seven of a
// level at each end. The first starts at the 4,096-id block holding low + 1, the last may run past high.
// Empty when the range is.
[[nodiscard]] std::vector<std::int64_t> search_range_keys(std::int64_t low, std::int64_t high);
// The ids [first, last) of the block a key of search_range_keys names.
[[nodiscard]] std::pair<std::int64_t, std::int64_t> search_block_ids(std::int64_t key);
// A slice's lower end moved down (by less than 4,096 ids) to where a block of the first level starts, so
// that its blocks hold no id below the slice that a later slice will read again. The index of the newest
// articles puts its threshold at such an end too (recent_search_index.h), so that the slice starting there
// is read from it: the planner uses that index only for a slice whose lower end is at or above it.
[[nodiscard]] std::int64_t aligned_slice_low(std::int64_t low);

}  // namespace longread::storage::postgres
