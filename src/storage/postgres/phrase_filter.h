// An article's phrase filter on PostgreSQL: a Bloom filter of its pairs of neighbouring words, kept in the
// row (articles.phrase_filter, migration 0007). GIN keeps no word positions, so a quoted phrase can only
// be checked by reading each candidate's whole search vector out of the TOAST table, and two common words
// that are rarely neighbours made search read tens of thousands of them. The filter says "these two words
// are never neighbours here" for most such rows from a kilobyte stored beside the row's other columns, and
// only the rest are read (docs/storage.md, "Phrases").
//
// Pure functions, no I/O: the crawler makes the filter with the search vectors, the search makes the bits
// to test from the query's words, and both must agree bit for bit, whichever build wrote the row.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace longread::storage::postgres {

// Bits tested per pair: with the filter sized at 8 to 16 bits per distinct pair, 1–3 % of the rows without
// the pair pass.
inline constexpr int kPhraseFilterProbes = 3;
inline constexpr std::size_t kPhraseFilterMinBytes = 8;
// The largest filter; a text of more than about 2,000 distinct pairs gets it with more bits set per pair.
inline constexpr std::size_t kPhraseFilterMaxBytes = 2048;

// Takes the words of the title then of the text, in the order the search vector numbers them (one
// position each, the title's last word next to the text's first, as PostgreSQL's phrase operator sees
// them), and gives the filter's bytes (a bytea).
// A word's hash as the phrase and lead filters take it: FNV-1a, fixed in the code, so that the crawler that
// writes a filter and the web process that tests it agree whichever builds they are.
[[nodiscard]] std::uint64_t phrase_word_hash(std::string_view word) noexcept;

class PhraseFilterBuilder {
 public:
  // Call once per word that gets a position in the search vector.
  void add(std::string_view word) { add_hash(phrase_word_hash(word)); }
  // The same, for a caller that has the word's phrase_word_hash() already.
  void add_hash(std::uint64_t hash);
  // Past the last position the vector numbers (16,383), every later word lands on it, and any of them is
  // the neighbour of the word before: such a text cannot be filtered.
  void give_up() { gave_up_ = true; }

  // The filter's bytes; none when the text cannot be filtered, which the search reads as "may hold every
  // pair".
  [[nodiscard]] std::string bytes() const;

 private:
  std::vector<std::uint64_t> pairs_;
  std::uint64_t previous_ = 0;
  bool has_previous_ = false;
  bool gave_up_ = false;
};

// The bits to test for a phrase of `words` (each as the tokenizer gave it): kPhraseFilterProbes per pair of
// neighbours, each to be taken modulo the row's filter size in bits (a power of two). Empty for fewer
// than two words.
[[nodiscard]] std::vector<std::uint32_t> phrase_probes(const std::vector<std::string>& words);

// An article's lead filter (articles.lead_filter, PostgreSQL's migration 0013): a Bloom filter of the words
// of its text's lead (search_vectors.h, kLeadCharacters), which relevance counts, built and tested as
// the phrase filter is. Kept apart from the phrase filter, whose pairs a long text can make as many as it
// likes: a full filter passes every test, and the lead of at most 600 characters holds at most 300 words, so
// its filter is never fuller than the sizing makes it.
class LeadFilterBuilder {
 public:
  void add(std::string_view word);
  [[nodiscard]] std::string bytes() const;

 private:
  std::vector<std::uint64_t> words_;
};

// The bits to test for "`word` is in the text's lead" (LeadFilterBuilder), taken as phrase_probes' are.
[[nodiscard]] std::vector<std::uint32_t> lead_word_probes(std::string_view word);

// Whether a filter (its raw bytes) may hold every pair (or lead word) whose probes these are: the test the
// search runs in SQL, for tests.
[[nodiscard]] bool phrase_filter_may_hold(std::string_view filter, const std::vector<std::uint32_t>& probes);

}  // namespace longread::storage::postgres
