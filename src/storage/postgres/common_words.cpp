#include "storage/postgres/common_words.h"

#include <algorithm>
#include <cstring>

#include <sodium.h>

namespace longread::storage::postgres {

CommonWords::CommonWords(std::vector<Word> words, std::string_view key) : words_(std::move(words)) {
  static_assert(kKeyBytes == crypto_shorthash_KEYBYTES);
  if (key.size() == kKeyBytes) std::memcpy(key_.data(), key.data(), kKeyBytes);
  std::size_t size = 16;
  while (size < 4 * words_.size()) size *= 2;
  slots_.assign(size, Slot{});
  const std::size_t mask = size - 1;
  for (std::size_t i = 0; i < words_.size(); ++i) {
    // A word the list repeats keeps its first bit, as a lookup by the word would find it.
    if (bit(words_[i].lexeme)) continue;
    const std::uint64_t hash = word_hash(words_[i].lexeme);
    std::size_t at = hash & mask;
    while (slots_[at].bit >= 0) at = (at + 1) & mask;
    slots_[at] = Slot{hash, static_cast<int>(i)};
  }
}

std::optional<int> CommonWords::bit(std::string_view lexeme, std::uint64_t hash) const {
  if (slots_.empty()) return std::nullopt;
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t at = hash & mask; slots_[at].bit >= 0; at = (at + 1) & mask) {
    const Slot& slot = slots_[at];
    if (slot.hash == hash && words_[static_cast<std::size_t>(slot.bit)].lexeme == lexeme) return slot.bit;
  }
  return std::nullopt;
}

std::int32_t CommonWords::word_id(std::string_view lexeme) const {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(word_hash(lexeme)));
}

std::uint64_t CommonWords::word_hash(std::string_view lexeme) const {
  std::array<unsigned char, crypto_shorthash_BYTES> hash{};
  crypto_shorthash(hash.data(), reinterpret_cast<const unsigned char*>(lexeme.data()), lexeme.size(),
                   key_.data());
  std::uint64_t value = 0;
  for (int i = crypto_shorthash_BYTES - 1; i >= 0; --i)
    value = (value << 8) | hash[static_cast<std::size_t>(i)];
  return value;
}

void set_bitmap_bit(std::string& bitmap, int bit) {
  const auto byte = static_cast<std::size_t>(bit) / 8;
  if (byte >= bitmap.size()) bitmap.resize(byte + 1, '\0');
  bitmap[byte] = static_cast<char>(static_cast<unsigned char>(bitmap[byte]) | (1U << (bit % 8)));
}

bool bitmap_bit(std::string_view bitmap, int bit) {
  const auto byte = static_cast<std::size_t>(bit) / 8;
  return byte < bitmap.size() && ((static_cast<unsigned char>(bitmap[byte]) >> (bit % 8)) & 1U) != 0;
}

}  // namespace longread::storage::postgres
