// Finding every stored SimHash within kNearDuplicateDistance of a new one without comparing it with all of
// them. A linear scan costs the whole index per new article, so a crawl of N new articles costs N^2 / 2
// comparisons: 2.7e11 for the 730,000 articles of a first crawl of 36,515 blogs.
//
// Pigeonhole: the 64 bits are cut into four 16-bit blocks. Two hashes within distance 11 differ in at most
// 11 bits, so at least one block differs in at most 2 (four blocks of 3 or more would be 12). Each block has
// a table from its 16-bit value to the slots holding it; a lookup visits, in each table, the values within
// distance 2 of the query's block (1 + 16 + 120 of 65,536) and checks each slot found with the full
// distance. Nothing within the distance is missed; a slot is reported once.
//
// A lookup visits 548 buckets holding about N/120 entries in all (6,000 at 750,000 hashes), nearly all of
// them far. Each entry carries 32 more bits of its hash beside its position, so that a far one is told
// apart from the bucket alone, read in order, instead of from the hash array at a random place (a cache
// miss each: at 750,000 hashes that was a fifth of a crawl's writer thread).
#pragma once

#include <cstdint>
#include <vector>

namespace longread::curate {

class SimhashIndex {
 public:
  SimhashIndex();

  // Adds a hash under `slot` (the caller's position of the entry it belongs to).
  void add(std::uint64_t hash, std::uint32_t slot);
  [[nodiscard]] std::size_t size() const noexcept { return hashes_.size(); }

  // The slots of every added hash within kNearDuplicateDistance of `hash`, each once, in ascending order.
  [[nodiscard]] std::vector<std::uint32_t> near(std::uint64_t hash) const;

 private:
  static constexpr int kBlocks = 4;
  struct Entry {
    std::uint32_t position;  // in hashes_
    std::uint32_t next;      // the hash's two blocks after the table's own (b + 1, b + 2, wrapping)
  };
  // tables_[b][v]: the entries whose block b has value v.
  std::vector<std::vector<std::vector<Entry>>> tables_;
  std::vector<std::uint64_t> hashes_;
  std::vector<std::uint32_t> slots_;
  std::vector<std::uint16_t> masks_;  // every 16-bit mask with at most 2 bits set
};

}  // namespace longread::curate
