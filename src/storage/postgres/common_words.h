// The words too common to be worth a place in PostgreSQL's search index (migration 0011, docs/storage.md,
// "Common words"). A GIN index holds one entry for every (word, article) pair, and the few hundred words
// in more than a tenth of the articles are half of those pairs: half of what every crawler's inserts cost
// the server, and a third of the index. Their articles are found from a bitmap kept in the row instead:
// bit N set when the article holds the list's word N.
//
// The list is fixed by the migration that fills it, never by what blogs write: a list that changed would
// leave stored vectors without words the index is then asked for. Pure lookups, no I/O; the database
// reads the list once when it opens (Database::open).
//
// Every other word is indexed as a 32-bit id (migration 0015, docs/storage.md, "Word ids"): SipHash-2-4
// of the word under the database's own secret key, so the crawler that stores an article's ids and the web
// process that looks a query's up agree, while a blog cannot write a word made to share a popular word's
// id (it would need the key).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace longread::storage::postgres {

class CommonWords {
 public:
  struct Word {
    std::string lexeme;  // as the search tokenizer gives it (folded, without accents)
    double share = 0;    // of the articles that hold it, in the set the list was made from
  };

  // The bytes of a key for word_id().
  static constexpr std::size_t kKeyBytes = 16;

  // No common words: every word is indexed (a database before migration 0011, and tests), with an all-zero
  // key.
  CommonWords() = default;
  // Word N of `words` gets bit N; `key` (kKeyBytes, else the all-zero key) keys word_id().
  explicit CommonWords(std::vector<Word> words, std::string_view key = {});

  // The word's bit, if it is one of the list.
  [[nodiscard]] std::optional<int> bit(std::string_view lexeme) const {
    return bit(lexeme, word_hash(lexeme));
  }
  // The same, for a caller that has the word's word_hash() already (every word of every article a crawler
  // stores): a probe of a small flat table keyed by that hash, then one comparison of the word itself.
  [[nodiscard]] std::optional<int> bit(std::string_view lexeme, std::uint64_t hash) const;
  [[nodiscard]] double share(int bit) const { return words_.at(static_cast<std::size_t>(bit)).share; }
  [[nodiscard]] std::size_t size() const noexcept { return words_.size(); }
  // An article's bitmap: one bit per word, rounded up to whole bytes.
  [[nodiscard]] std::size_t bitmap_bytes() const noexcept { return (words_.size() + 7) / 8; }
  // The id an indexed word is stored and looked up as: the first four bytes of its keyed SipHash-2-4, as a
  // signed int4. Different words may share an id (a query then also finds articles holding the other
  // word: about one query word in a thousand on a vocabulary of four million words).
  [[nodiscard]] std::int32_t word_id(std::string_view lexeme) const;
  // The whole keyed SipHash-2-4 of the word, its eight bytes read little-endian: word_id() is its low four
  // bytes. A table of an article's words can be keyed by it, which a blog cannot fill with colliding words.
  [[nodiscard]] std::uint64_t word_hash(std::string_view lexeme) const;

 private:
  // A slot of the table of the list's words by their word_hash(): linear probing, at most a quarter full,
  // so a probe ends at an empty slot (bit -1) within a few steps. The keyed hash spreads the words, and a
  // blog cannot aim its own words at one run of slots without the key.
  struct Slot {
    std::uint64_t hash = 0;
    int bit = -1;
  };
  std::vector<Word> words_;
  std::array<unsigned char, kKeyBytes> key_{};
  std::vector<Slot> slots_;
};

// Sets bit `bit` of `bitmap` as PostgreSQL's get_bit(bytea, n) reads it: byte n / 8, bit n % 8 counted from
// the lowest.
void set_bitmap_bit(std::string& bitmap, int bit);
[[nodiscard]] bool bitmap_bit(std::string_view bitmap, int bit);

}  // namespace longread::storage::postgres
