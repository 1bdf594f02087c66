#include "storage/postgres/phrase_filter.h"

#include "storage/postgres/key_set.h"

#include <algorithm>
#include <bit>

namespace longread::storage::postgres {
namespace {

// A pair's hash, ordered ("a b" is not "b a"), mixed by splitmix64's finalizer so that nearby word
// hashes spread over every bit.
std::uint64_t pair_hash(std::uint64_t first, std::uint64_t second) noexcept {
  std::uint64_t z = first * 0x9e3779b97f4a7c15ULL ^ second;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// Double hashing: probe i is h1 + i * h2 (h2 odd, so the probes differ in any power-of-two size).
void append_probes(std::uint64_t pair, std::vector<std::uint32_t>& out) {
  const auto h1 = static_cast<std::uint32_t>(pair);
  const auto h2 = static_cast<std::uint32_t>(pair >> 32) | 1U;
  for (int i = 0; i < kPhraseFilterProbes; ++i) out.push_back(h1 + static_cast<std::uint32_t>(i) * h2);
}

// A lead word's key: the word's hash mixed as a pair's is, so its probes spread over every bit.
std::uint64_t lead_key(std::string_view word) noexcept {
  return pair_hash(0, phrase_word_hash(word));
}

// The distinct values of `keys` (equal 64-bit keys are one), in no particular order. A text has a pair per
// word, thousands of them, so this is a flat table rather than a sort. Its keys are pair hashes, which any
// text can choose (the hash is fixed and public), so the table places them by the process's random seed.
std::vector<std::uint64_t> distinct_keys(const std::vector<std::uint64_t>& keys) {
  std::vector<std::uint64_t> out;
  out.reserve(keys.size());
  KeySet seen(keys.size(), key_set_seed());
  for (const std::uint64_t key : keys)
    if (seen.insert(key)) out.push_back(key);
  return out;
}

// A Bloom filter of `keys`: a power of two from kPhraseFilterMinBytes to kPhraseFilterMaxBytes, about 8 to 16
// bits per distinct key.
std::string bloom_bytes(const std::vector<std::uint64_t>& keys) {
  const std::vector<std::uint64_t> distinct = distinct_keys(keys);
  const std::size_t size =
      std::clamp<std::size_t>(std::bit_ceil(distinct.size()), kPhraseFilterMinBytes, kPhraseFilterMaxBytes);
  std::string bits(size, '\0');
  const std::uint32_t mask = static_cast<std::uint32_t>(size * 8 - 1);
  std::vector<std::uint32_t> probes;
  probes.reserve(kPhraseFilterProbes);
  for (const std::uint64_t key : distinct) {
    probes.clear();
    append_probes(key, probes);
    // PostgreSQL's get_bit numbers bits from the right within each byte, bytes from the left.
    for (const std::uint32_t p : probes) bits[(p & mask) >> 3] |= static_cast<char>(1U << (p & 7));
  }
  return bits;
}

}  // namespace

// FNV-1a, 64 bits, rather than std::hash, whose value may differ between builds. A hostile text can only
// make its own filter pass more often.
std::uint64_t phrase_word_hash(std::string_view word) noexcept {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (const char c : word) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001b3ULL;
  }
  return h;
}

void PhraseFilterBuilder::add_hash(std::uint64_t h) {
  if (has_previous_) pairs_.push_back(pair_hash(previous_, h));
  previous_ = h;
  has_previous_ = true;
}

std::string PhraseFilterBuilder::bytes() const {
  if (gave_up_) return {};
  return bloom_bytes(pairs_);
}

void LeadFilterBuilder::add(std::string_view word) {
  words_.push_back(lead_key(word));
}

std::string LeadFilterBuilder::bytes() const {
  return bloom_bytes(words_);
}

std::vector<std::uint32_t> phrase_probes(const std::vector<std::string>& words) {
  std::vector<std::uint32_t> out;
  for (std::size_t i = 1; i < words.size(); ++i)
    append_probes(pair_hash(phrase_word_hash(words[i - 1]), phrase_word_hash(words[i])), out);
  return out;
}

std::vector<std::uint32_t> lead_word_probes(std::string_view word) {
  std::vector<std::uint32_t> out;
  append_probes(lead_key(word), out);
  return out;
}

bool phrase_filter_may_hold(std::string_view filter, const std::vector<std::uint32_t>& probes) {
  if (filter.empty()) return true;
  const auto mask = static_cast<std::uint32_t>(filter.size() * 8 - 1);
  return std::ranges::all_of(probes, [&](std::uint32_t p) {
    return (static_cast<unsigned char>(filter[(p & mask) >> 3]) & (1U << (p & 7))) != 0;
  });
}

}  // namespace longread::storage::postgres
