// The words too common to be worth a place in PostgreSQL's search index (migration 0011, docs/storage.md,
// "Common words"). A GIN index holds one entry for every (word, article) pair, and the few hundred words
// in more than a tenth of the articles are half of those pairs: half of what every crawler's inserts cost
// the server, and a third of the index. Their articles are found from a bitmap kept in the row instead:
// bit N set when the article holds the list's word N.
//
// The list is fixed by the migration that fills it, never by what blogs write: a list that changed would
// leave stored vectors without words the index is then asked for. Pure lookups, no I/O; the database
// reads the list once when it opens (Database::open).
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace longread::storage::postgres {

class CommonWords {
 public:
  struct Word {
    std::string lexeme;  // as the search tokenizer gives it (folded, without accents)
    double share = 0;    // of the articles that hold it, in the set the list was made from
  };

  // No common words: every word is indexed (a database before migration 0011, and tests).
  CommonWords() = default;
  // Word N of `words` gets bit N.
  explicit CommonWords(std::vector<Word> words);

  // The word's bit, if it is one of the list.
  [[nodiscard]] std::optional<int> bit(std::string_view lexeme) const;
  [[nodiscard]] double share(int bit) const { return words_.at(static_cast<std::size_t>(bit)).share; }
  [[nodiscard]] std::size_t size() const noexcept { return words_.size(); }
  // An article's bitmap: one bit per word, rounded up to whole bytes.
  [[nodiscard]] std::size_t bitmap_bytes() const noexcept { return (words_.size() + 7) / 8; }

 private:
  struct Hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>{}(s); }
  };
  std::vector<Word> words_;
  std::unordered_map<std::string, int, Hash, std::equal_to<>> bits_;
};

// Sets bit `bit` of `bitmap` as PostgreSQL's get_bit(bytea, n) reads it: byte n / 8, bit n % 8 counted from
// the lowest.
void set_bitmap_bit(std::string& bitmap, int bit);
[[nodiscard]] bool bitmap_bit(std::string_view bitmap, int bit);

}  // namespace longread::storage::postgres
