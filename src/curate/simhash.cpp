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

constexpr std::uint64_t kFnvOffset = 0xcbf29ce484222325ULL;
constexpr std::uint64_t kFnvPrime = 0x100000001b3ULL;

// FNV-1a over a word's bytes (fed piece by piece as the scanner finds them), then the splitmix64
// finalizer when shingles are combined: FNV alone leaves the high bits of short inputs poorly mixed, and
// simhash needs all 64 bits to be independent.
std::uint64_t mix(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// Counts, for each of the 64 bit positions, how many feature hashes have that bit set. Bit-sliced: lane k
// (byte k) of counters_[j] counts bit 8k+j, so one feature costs 8 additions instead of 64; the byte
// lanes are emptied into 32-bit totals before they can overflow.
class BitCounter {
 public:
  void add(std::uint64_t h) {
    for (int j = 0; j < 8; ++j) counters_[j] += (h >> j) & 0x0101010101010101ULL;
    if (++pending_ == 255) drain();
    ++features_;
  }
  // The SimHash: bit b is set when more features have it set than not (a +1/-1 vote per feature).
  std::uint64_t result() {
    drain();
    std::uint64_t out = 0;
    for (int b = 0; b < 64; ++b) {
      if (2 * static_cast<std::int64_t>(ones_[b]) > features_) out |= std::uint64_t{1} << b;
    }
    return out;
  }
  [[nodiscard]] bool empty() const { return features_ == 0; }

 private:
  void drain() {
    for (int j = 0; j < 8; ++j) {
      for (int k = 0; k < 8; ++k)
        ones_[8 * k + j] += static_cast<std::uint32_t>((counters_[j] >> (8 * k)) & 0xFF);
      counters_[j] = 0;
    }
    pending_ = 0;
  }
  std::array<std::uint64_t, 8> counters_{};
  std::array<std::uint32_t, 64> ones_{};
  int pending_ = 0;
  std::int64_t features_ = 0;
};

}  // namespace

std::uint64_t simhash(std::string_view text) {
  BitCounter votes;
  std::array<std::uint64_t, kShingleWords> window{};  // hashes of the last words
  std::size_t words = 0;
  std::uint64_t word_hash = kFnvOffset;
  detail::scan_words(
      text,
      [&](std::string_view piece) {
        for (const char c : piece) {
          word_hash ^= static_cast<unsigned char>(c);
          word_hash *= kFnvPrime;
        }
      },
      [&] {
        window[words % kShingleWords] = word_hash;
        word_hash = kFnvOffset;
        ++words;
        if (words >= kShingleWords) {
          std::uint64_t h = 0x9e3779b97f4a7c15ULL;
          for (std::size_t k = 0; k < kShingleWords; ++k) {
            h = mix(h ^ window[(words - kShingleWords + k) % kShingleWords]);  // order matters
          }
          votes.add(h);
        }
      });
  if (words > 0 && words < kShingleWords) {
    // Too short for a shingle: the words themselves are the features.
    std::uint64_t h = 0x9e3779b97f4a7c15ULL;
    for (std::size_t k = 0; k < words; ++k) h = mix(h ^ window[k]);
    votes.add(h);
  }
  if (votes.empty()) return 0;
  return votes.result();
}

int hamming_distance(std::uint64_t a, std::uint64_t b) {
  return std::popcount(a ^ b);
}

bool near_duplicate(std::uint64_t a, std::uint64_t b) {
  return hamming_distance(a, b) <= kNearDuplicateDistance;
}

}  // namespace longread::curate
