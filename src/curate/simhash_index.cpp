#include "curate/simhash_index.h"

#include <algorithm>
#include <bit>

#include "curate/curate.h"

namespace longread::curate {
namespace {

static_assert(kNearDuplicateDistance < 3 * 4,
              "four blocks with at most 2 differing bits in one cover distances up to 11 only");

std::uint16_t block(std::uint64_t hash, int b) {
  return static_cast<std::uint16_t>(hash >> (16 * b));
}

// Blocks b + 1 and b + 2 (wrapping) of a hash, as one 32-bit value.
std::uint32_t next_blocks(std::uint64_t hash, int b) {
  return static_cast<std::uint32_t>(std::rotr(hash, 16 * (b + 1)));
}

constexpr std::size_t kHeadersAhead = 16;
constexpr std::size_t kEntriesAhead = 8;

}  // namespace

SimhashIndex::SimhashIndex() : tables_(kBlocks, std::vector<std::vector<Entry>>(1U << 16)) {
  masks_.push_back(0);
  for (int i = 0; i < 16; ++i) {
    masks_.push_back(static_cast<std::uint16_t>(1U << i));
    for (int j = i + 1; j < 16; ++j) masks_.push_back(static_cast<std::uint16_t>((1U << i) | (1U << j)));
  }
}

void SimhashIndex::add(std::uint64_t hash, std::uint32_t slot) {
  const auto position = static_cast<std::uint32_t>(hashes_.size());
  hashes_.push_back(hash);
  slots_.push_back(slot);
  for (int b = 0; b < kBlocks; ++b)
    tables_[static_cast<std::size_t>(b)][block(hash, b)].push_back({position, next_blocks(hash, b)});
}

// Debian's x86-64 baseline has no POPCNT instruction, so std::popcount is a call into libgcc's table-driven
// __popcountdi2 (a tenth of a first crawl's writer thread went to it and this loop). The clone for
// processors with POPCNT is chosen once, when the program is loaded.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("popcnt", "default")))
#endif
std::vector<std::uint32_t>
SimhashIndex::near(std::uint64_t hash) const {
  std::vector<std::uint32_t> found;
  for (int b = 0; b < kBlocks; ++b) {
    const auto& table = tables_[static_cast<std::size_t>(b)];
    const std::uint16_t value = block(hash, b);
    const std::uint32_t next = next_blocks(hash, b);
    const std::size_t n = masks_.size();
    for (std::size_t m = 0; m < n; ++m) {
      // The buckets (137 a block) are at random places: their vectors' headers and then their entries are
      // cache misses, one after the other. Both are asked for ahead (headers kHeadersAhead buckets ahead,
      // entries kEntriesAhead), so that the misses overlap instead of adding up.
      if (m + kHeadersAhead < n)
        __builtin_prefetch(&table[static_cast<std::uint16_t>(value ^ masks_[m + kHeadersAhead])]);
      if (m + kEntriesAhead < n)
        __builtin_prefetch(table[static_cast<std::uint16_t>(value ^ masks_[m + kEntriesAhead])].data());
      const std::uint16_t mask = masks_[m];
      // The bucket's entries differ from the query by popcount(mask) bits in block b.
      const int budget = kNearDuplicateDistance - std::popcount(static_cast<unsigned>(mask));
      for (const Entry& entry : table[static_cast<std::uint16_t>(value ^ mask)]) {
        if (std::popcount(entry.next ^ next) > budget) continue;  // far already on 48 of the 64 bits
        const std::uint32_t position = entry.position;
        // A hash near in two blocks is found in each: kept only from the first block where it is this near.
        if (std::popcount(hashes_[position] ^ hash) > kNearDuplicateDistance) continue;
        bool earlier = false;
        for (int e = 0; e < b && !earlier; ++e)
          earlier = std::popcount(static_cast<unsigned>(block(hashes_[position] ^ hash, e))) <= 2;
        if (!earlier) found.push_back(slots_[position]);
      }
    }
  }
  std::sort(found.begin(), found.end());
  return found;
}

}  // namespace longread::curate
