// SimHash (M. Charikar, "Similarity estimation techniques from rounding algorithms", STOC 2002), as used
// for near-duplicate web pages by Manku, Jain and Das Sarma (WWW 2007): every feature (here a 3-word
// shingle) votes +1/-1 on each of 64 bit positions according to its hash; the sign of each total is a bit.
#include <array>
#include <bit>
#include <cstdint>

#include "curate/curate.h"
#include "curate/words.h"

namespace longread::curate {
namespace {

constexpr std::size_t kShingleWords = 3;

// FNV-1a over the bytes, then the splitmix64 finalizer: FNV alone leaves the high bits of short
// inputs poorly mixed, and simhash needs all 64 bits to be independent.
std::uint64_t hash_bytes(std::string_view s, std::uint64_t h = 0xcbf29ce484222325ULL) {
  for (const char c : s) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001b3ULL;
  }
  return h;
}
std::uint64_t mix(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

}  // namespace

std::uint64_t simhash(std::string_view text) {
  std::array<std::int32_t, 64> votes{};
  std::array<std::uint64_t, kShingleWords> window{};  // hashes of the last words
  std::size_t words = 0;
  bool any = false;
  auto vote = [&](std::uint64_t h) {
    any = true;
    for (int b = 0; b < 64; ++b) votes[b] += ((h >> b) & 1U) ? 1 : -1;
  };
  detail::for_each_word(text, [&](std::string_view word) {
    window[words % kShingleWords] = hash_bytes(word);
    ++words;
    if (words >= kShingleWords) {
      std::uint64_t h = 0x9e3779b97f4a7c15ULL;
      for (std::size_t k = 0; k < kShingleWords; ++k) {
        h = mix(h ^ window[(words - kShingleWords + k) % kShingleWords]);  // order matters
      }
      vote(h);
    }
  });
  if (words > 0 && words < kShingleWords) {
    // Too short for a shingle: the words themselves are the features.
    std::uint64_t h = 0x9e3779b97f4a7c15ULL;
    for (std::size_t k = 0; k < words; ++k) h = mix(h ^ window[k]);
    vote(h);
  }
  if (!any) return 0;
  std::uint64_t out = 0;
  for (int b = 0; b < 64; ++b) {
    if (votes[b] > 0) out |= (std::uint64_t{1} << b);
  }
  return out;
}

int hamming_distance(std::uint64_t a, std::uint64_t b) {
  return std::popcount(a ^ b);
}

bool near_duplicate(std::uint64_t a, std::uint64_t b) {
  return hamming_distance(a, b) <= kNearDuplicateDistance;
}

}  // namespace longread::curate
