#include "storage/postgres/common_words.h"

namespace longread::storage::postgres {

CommonWords::CommonWords(std::vector<Word> words) : words_(std::move(words)) {
  bits_.reserve(words_.size());
  for (std::size_t i = 0; i < words_.size(); ++i) bits_.emplace(words_[i].lexeme, static_cast<int>(i));
}

std::optional<int> CommonWords::bit(std::string_view lexeme) const {
  const auto it = bits_.find(lexeme);
  if (it == bits_.end()) return std::nullopt;
  return it->second;
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
