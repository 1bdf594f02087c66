// The near-duplicate lookup a crawl's writer makes for every new article (curate::SimhashIndex::near), at
// the size of a whole-list first crawl, against the linear scan it replaced (every stored hash compared), on
// the same queries in the same run. The stored hashes are random, with a third of them near copies of
// another (a few bits flipped), as syndicated and re-posted articles are; the queries are half new hashes,
// half near copies of stored ones. Both must find the same slots: the bench checks it.
//   near_bench [N=750000] [LOOKUPS=20000]
#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "curate/curate.h"
#include "curate/simhash_index.h"

namespace {

using longread::curate::kNearDuplicateDistance;
using longread::curate::SimhashIndex;

std::uint64_t flip_bits(std::uint64_t hash, std::mt19937_64& rng, int max_bits) {
  const int bits = static_cast<int>(rng() % static_cast<std::uint64_t>(max_bits + 1));
  for (int i = 0; i < bits; ++i) hash ^= std::uint64_t{1} << (rng() % 64);
  return hash;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  const std::size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 750'000;
  const std::size_t lookups = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 20'000;
  std::mt19937_64 rng(42);
  std::vector<std::uint64_t> stored;
  stored.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    const bool copy = !stored.empty() && rng() % 3 == 0;
    stored.push_back(copy ? flip_bits(stored[rng() % stored.size()], rng, 8) : rng());
  }
  std::vector<std::uint64_t> queries;
  queries.reserve(lookups);
  for (std::size_t i = 0; i < lookups; ++i)
    queries.push_back(i % 2 == 0 ? rng() : flip_bits(stored[rng() % stored.size()], rng, 12));

  SimhashIndex index;
  auto start = std::chrono::steady_clock::now();
  for (std::size_t i = 0; i < n; ++i) index.add(stored[i], static_cast<std::uint32_t>(i));
  const double build = seconds_since(start);

  std::vector<std::vector<std::uint32_t>> found(lookups);
  start = std::chrono::steady_clock::now();
  for (std::size_t i = 0; i < lookups; ++i) found[i] = index.near(queries[i]);
  const double indexed = seconds_since(start) / static_cast<double>(lookups);

  // The peer is slow: it gets the first few hundred queries only.
  const std::size_t peer_lookups = std::min<std::size_t>(lookups, 400);
  std::size_t mismatches = 0;
  start = std::chrono::steady_clock::now();
  for (std::size_t i = 0; i < peer_lookups; ++i) {
    std::vector<std::uint32_t> scan;
    for (std::size_t s = 0; s < n; ++s) {
      if (std::popcount(stored[s] ^ queries[i]) <= kNearDuplicateDistance)
        scan.push_back(static_cast<std::uint32_t>(s));
    }
    if (scan != found[i]) ++mismatches;
  }
  const double scanned = seconds_since(start) / static_cast<double>(peer_lookups);

  std::size_t hits = 0;
  for (const auto& f : found) hits += f.size();
  fmt::print("near: {} stored hashes (a third near copies), {} lookups; index built in {:.2f} s\n", n,
             lookups, build);
  fmt::print("SimhashIndex::near   {:9.1f} us per lookup  ({:.2f} slots found per lookup)\n", indexed * 1e6,
             static_cast<double>(hits) / static_cast<double>(lookups));
  fmt::print("linear scan (peer)   {:9.1f} us per lookup  ({} lookups)\n", scanned * 1e6, peer_lookups);
  fmt::print("scan / index         {:9.1f}x\n", scanned / indexed);
  fmt::print("same slots found: {}\n",
             mismatches == 0 ? "yes" : fmt::format("NO, {} lookups differ", mismatches));
  return mismatches == 0 ? 0 : 1;
}
