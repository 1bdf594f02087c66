// The blocks of ids a search asks the index for: the fewest that cover a slice, and a slice's low end at a
// block's start, where the newest articles' index starts too. That the server keys an article by the same
// blocks is tested on a real PostgreSQL in search_run_test.cpp.
#include "storage/postgres/search_blocks.h"

#include <gtest/gtest.h>

#include <random>
#include <utility>
#include <vector>

#include "storage/postgres/recent_search_index.h"

namespace longread::storage::postgres {
namespace {

using Ids = std::vector<std::int64_t>;

TEST(SearchRangeKeysTest, TheBlocksCoverTheRangeFromItsFirstBlockAndRunPastItsEndByLessThanABlock) {
  EXPECT_EQ(search_range_keys(10, 10), Ids{}) << "an empty range";
  EXPECT_EQ(search_range_keys(0, 4095), Ids{kSearchBlockKeyBase}) << "the first block of the first level";
  EXPECT_EQ(search_range_keys(4095, 4096 + 10), Ids{kSearchBlockKeyBase + 1});
  EXPECT_EQ(search_range_keys(-1, (1 << 21) - 1), Ids{4 * kSearchBlockKeyBase})
      << "one block of the last level";
  std::mt19937_64 rng(7);
  for (int i = 0; i < 2000; ++i) {
    const std::int64_t low = std::uniform_int_distribution<std::int64_t>(0, 50'000'000)(rng);
    const std::int64_t width = std::int64_t{1} << std::uniform_int_distribution<int>(0, 25)(rng);
    const std::int64_t high = low + std::uniform_int_distribution<std::int64_t>(1, width)(rng);
    const Ids keys = search_range_keys(low, high);
    // Blocks in order, each starting where the one before ended: the first at the first-level block of
    // low + 1, the last ending past high by less than a first-level block.
    std::int64_t at = (low + 1) / 4096 * 4096;
    for (const std::int64_t key : keys) {
      const auto [first, last] = search_block_ids(key);
      ASSERT_EQ(first, at) << low << " " << high;
      at = last;
    }
    EXPECT_GT(at, high) << low << " " << high;
    EXPECT_LE(at - high, 4096) << low << " " << high;
    // The fewest: at most seven blocks of each lower level at either end, and the last level's between.
    EXPECT_LE(std::ssize(keys), 2 * 7 * 3 + (high - low) / (1 << 21) + 2) << low << " " << high;
  }
}

TEST(SearchRangeKeysTest, ASlicesLowEndMovesDownToTheStartOfAFirstLevelBlock) {
  EXPECT_EQ(aligned_slice_low(0), 0);
  EXPECT_EQ(aligned_slice_low(100), 0) << "ids from 1";
  EXPECT_EQ(aligned_slice_low(4095), 4095) << "ids from 4,096: already at a block's start";
  EXPECT_EQ(aligned_slice_low(5000), 4095);
  EXPECT_EQ(aligned_slice_low(8190), 4095);
  EXPECT_EQ(aligned_slice_low(8191), 8191);
}

TEST(SearchRangeKeysTest, TheNewestArticlesIndexStartsWhereASliceStarts) {
  EXPECT_EQ(recent_search_index_threshold(1'000'000, 100'000), 897'023);
  EXPECT_EQ(recent_search_index_threshold(1'000'000, 100'000), aligned_slice_low(1'000'000 - 100'000))
      << "the first slice of 100,000 ids below a million";
  EXPECT_EQ(recent_search_index_threshold(30, 10), 20) << "a window narrower than a block keeps its end";
}

}  // namespace
}  // namespace longread::storage::postgres
