#include "storage/postgres/search_blocks.h"

#include <algorithm>

namespace longread::storage::postgres {

std::vector<std::int64_t> search_range_keys(std::int64_t low, std::int64_t high) {
  std::vector<std::int64_t> keys;
  if (high <= low) return keys;
  const std::int64_t end = high + 1;
  std::int64_t at = std::max<std::int64_t>(0, low + 1) >> kSearchBlockShifts[0] << kSearchBlockShifts[0];
  while (at < end) {
    // The largest block that starts here and ends within the range; the smallest at the range's end, which
    // it overruns (the statement's own id bounds drop those rows).
    std::size_t level = kSearchBlockShifts.size();
    while (--level > 0) {
      const std::int64_t size = std::int64_t{1} << kSearchBlockShifts[level];
      if (at % size == 0 && at + size <= end) break;
    }
    keys.push_back(static_cast<std::int64_t>(level + 1) * kSearchBlockKeyBase +
                   (at >> kSearchBlockShifts[level]));
    at += std::int64_t{1} << kSearchBlockShifts[level];
  }
  return keys;
}

std::pair<std::int64_t, std::int64_t> search_block_ids(std::int64_t key) {
  const auto level = static_cast<std::size_t>(key / kSearchBlockKeyBase - 1);
  const int shift = kSearchBlockShifts.at(level);
  const std::int64_t block = key % kSearchBlockKeyBase;
  return {block << shift, (block + 1) << shift};
}

std::int64_t aligned_slice_low(std::int64_t low) {
  return std::max<std::int64_t>(0, (low + 1) / kSearchBlockIds * kSearchBlockIds - 1);
}

}  // namespace longread::storage::postgres
