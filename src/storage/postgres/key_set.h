// A set of 64-bit keys, for counting an article's distinct words and pairs on a crawler's thread (the
// search vectors, the phrase filter): a flat table probed in order from a slot the key and a seed pick, at
// most half full, so a probe stays short and no key costs an allocation of its own.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

namespace longread::storage::postgres {

// A random number drawn once per process, for KeySets of keys a text can choose (a word's or a pair's fixed
// hash): it places them, so a text cannot aim its keys at one run of slots.
inline std::uint64_t key_set_seed() {
  static const std::uint64_t seed = [] {
    std::random_device device;
    return (static_cast<std::uint64_t>(device()) << 32) ^ device();
  }();
  return seed;
}

class KeySet {
 public:
  // `expected` keys fit without growing. Keys that any text can choose must be placed by a secret `seed`,
  // so that a text cannot aim them at one run of slots; keys that are already a keyed hash need none.
  explicit KeySet(std::size_t expected = 512, std::uint64_t seed = 0)
      : slots_(std::bit_ceil(std::max<std::size_t>(16, expected * 2)), kFree), seed_(seed) {}

  [[nodiscard]] bool contains(std::uint64_t key) const {
    if (key == kFree) return has_free_value_;
    for (std::size_t at = slot(key);; at = (at + 1) & (slots_.size() - 1)) {
      if (slots_[at] == key) return true;
      if (slots_[at] == kFree) return false;
    }
  }

  // Adds `key`; true when it was not there yet.
  bool insert(std::uint64_t key) {
    if (key == kFree) return !std::exchange(has_free_value_, true);
    std::size_t at = slot(key);
    for (; slots_[at] != kFree; at = (at + 1) & (slots_.size() - 1))
      if (slots_[at] == key) return false;
    slots_[at] = key;
    if (++used_ * 2 > slots_.size()) grow();
    return true;
  }

 private:
  // Marks a free slot; the key with this value is kept apart (has_free_value_).
  static constexpr std::uint64_t kFree = 0;

  // splitmix64's finalizer of the key and the seed: nearby keys spread over every slot.
  [[nodiscard]] std::size_t slot(std::uint64_t key) const {
    std::uint64_t z = key + seed_;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return static_cast<std::size_t>(z ^ (z >> 31)) & (slots_.size() - 1);
  }

  void grow() {
    std::vector<std::uint64_t> old(slots_.size() * 2, kFree);
    old.swap(slots_);
    for (const std::uint64_t key : old) {
      if (key == kFree) continue;
      std::size_t at = slot(key);
      while (slots_[at] != kFree) at = (at + 1) & (slots_.size() - 1);
      slots_[at] = key;
    }
  }

  std::vector<std::uint64_t> slots_;
  std::uint64_t seed_;
  std::size_t used_ = 0;
  bool has_free_value_ = false;
};

}  // namespace longread::storage::postgres
