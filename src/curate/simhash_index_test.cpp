// SimhashIndex finds exactly what a scan of every hash with near_duplicate finds.
#include "curate/simhash_index.h"

#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <random>

#include "curate/curate.h"

namespace longread::curate {
namespace {

std::vector<std::uint32_t> scan(const std::vector<std::uint64_t>& hashes, std::uint64_t query) {
  std::vector<std::uint32_t> out;
  for (std::uint32_t i = 0; i < hashes.size(); ++i)
    if (near_duplicate(hashes[i], query)) out.push_back(i);
  return out;
}

// `hash` with `bits` bits flipped in each of its four 16-bit blocks (a different choice per seed).
std::uint64_t flip(std::uint64_t hash, const std::array<int, 4>& bits, std::mt19937_64& rng) {
  for (int b = 0; b < 4; ++b) {
    std::uint16_t mask = 0;
    while (std::popcount(mask) < bits[static_cast<std::size_t>(b)])
      mask |= static_cast<std::uint16_t>(1U << (rng() % 16));
    hash ^= static_cast<std::uint64_t>(mask) << (16 * b);
  }
  return hash;
}

TEST(SimhashIndex, FindsWhatAScanFindsAtEveryDistanceAroundTheLimit) {
  std::mt19937_64 rng(42);
  std::vector<std::uint64_t> hashes;
  SimhashIndex index;
  // Random hashes, plus near copies of some at every spread of 0 to 16 flipped bits over the blocks: the
  // worst spreads for the pigeonhole are the even ones (3,3,3,2 is 11 and must be found; 3,3,3,3 is 12).
  const std::vector<std::array<int, 4>> spreads = {{0, 0, 0, 0}, {1, 0, 0, 0},  {3, 3, 3, 2},  {2, 3, 3, 3},
                                                   {3, 3, 3, 3}, {11, 0, 0, 0}, {0, 0, 0, 12}, {4, 4, 3, 0},
                                                   {2, 2, 2, 2}, {6, 5, 0, 0},  {4, 4, 4, 4}};
  std::vector<std::uint64_t> queries;
  for (int i = 0; i < 3000; ++i) {
    const std::uint64_t h = rng();
    hashes.push_back(h);
    if (i % 10 == 0) {
      for (const auto& spread : spreads) {
        hashes.push_back(flip(h, spread, rng));
        queries.push_back(flip(h, spread, rng));
      }
    }
  }
  for (std::uint32_t i = 0; i < hashes.size(); ++i) index.add(hashes[i], i);
  ASSERT_EQ(index.size(), hashes.size());
  for (int i = 0; i < 200; ++i) queries.push_back(rng());
  std::size_t matches = 0;
  for (const std::uint64_t q : queries) {
    const auto expected = scan(hashes, q);
    matches += expected.size();
    EXPECT_EQ(index.near(q), expected) << std::hex << q;
  }
  // The data has both sides of the limit: many matches, and hashes at distance 12 that are not matches.
  EXPECT_GT(matches, queries.size());
  EXPECT_FALSE(near_duplicate(0, flip(0, {3, 3, 3, 3}, rng)));
  EXPECT_TRUE(near_duplicate(0, flip(0, {3, 3, 3, 2}, rng)));
}

TEST(SimhashIndex, ReportsTheCallersSlotsInAscendingOrderOnce) {
  SimhashIndex index;
  index.add(0xffff, 7);
  index.add(0xffff, 3);  // the same hash twice: two slots
  index.add(0xffff ^ 0x3, 5);
  index.add(~0ULL, 9);  // 48 bits away
  EXPECT_EQ(index.near(0xffff), (std::vector<std::uint32_t>{3, 5, 7}));
  EXPECT_TRUE(SimhashIndex().near(0).empty());
}

}  // namespace
}  // namespace longread::curate
