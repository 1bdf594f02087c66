// Search vectors and queries for PostgreSQL, made in longread's own process with SQLite's FTS5 tokenizer
// (storage/search_tokenizer.h: the SQLite backend's search index), so both backends split, fold and
// unaccent words alike, and the database server, which every crawler shares, no longer parses each
// article's text (docs/storage.md, "Search on PostgreSQL").
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "storage/postgres/common_words.h"
#include "storage/search_tokenizer.h"
#include "storage/types.h"

namespace longread::storage::postgres {

// An article's vectors: `words`, the id of every word of its title and its text (CommonWords::word_id),
// each once, in int4[]'s binary form: the words `strip(to_tsvector(title) || to_tsvector(text))` holds,
// which the GIN index finds articles by (a phrase is checked in the text itself, see holds_phrases);
// `rank`, the title's words with their positions (weight A), a tsvector as `setweight(to_tsvector(title),
// 'A')` gives it; `phrase_filter`, the pairs of neighbouring words (phrase_filter.h); `common_words`, the
// bitmap of the words of `common` the article holds, which `words` then leaves out (common_words.h; the
// rank vector and the filters keep them, as relevance counts every word); `lead_filter`, the words of the
// text's first kLeadCharacters characters, the lead relevance counts (phrase_filter.h).
using SearchVectors = PreparedSearchVectors;

inline constexpr std::size_t kLeadCharacters = 600;
// The longest word a vector keeps, in bytes: PostgreSQL's limit on a lexeme, past which to_tsvector skips
// the word, so a longer one is left out of every vector, filter and query alike.
inline constexpr std::size_t kMaxLexemeBytes = 2047;

// An article's vectors, made with `tokenizer` as the SQLite backend's index splits words.
[[nodiscard]] SearchVectors search_vectors(const SearchTokenizer& tokenizer, const CommonWords& common,
                                           std::string_view title, std::string_view text);

// `ids` sorted, each once, in int4[]'s binary form, as PostgreSQL's array_recv reads it: the dimensions
// (1, or 0 for none), a flag for NULL elements (0), the element type (int4's oid, 23), the length and
// lower bound (1) of the one dimension, then each element's length (4) and value, all big-endian.
[[nodiscard]] std::string int4_array_binary(std::vector<std::int32_t> ids);

// `terms` (storage/search_terms.h) as a tsquery literal with FTS5's meaning of the same quoted phrases:
// each term's words adjacent and in order (<->), every term required (&). Empty when no term has a word
// (a query that matches nothing).
[[nodiscard]] std::string search_query(const SearchTokenizer& tokenizer,
                                       const std::vector<std::string>& terms);
// Every word of `terms` required, in any place: the part of search_query() that GIN's index answers exactly
// (it keeps no positions). Equal to search_query() when no term is a phrase.
[[nodiscard]] std::string search_words(const SearchTokenizer& tokenizer,
                                       const std::vector<std::string>& terms);
// Every word of `terms` (search_words), split by where an article keeps it: `indexed`, a tsquery requiring
// the words the search index holds (empty when every word is common), and `indexed_ids`, the same words'
// ids as an int4[] literal ("{-7,42}"); `common_bits`, the bits of the rest in the article's bitmap of
// common words, each once, in the order the query names them.
struct SplitSearchWords {
  std::string indexed;
  std::string indexed_ids;
  std::vector<int> common_bits;
};
[[nodiscard]] SplitSearchWords split_search_words(const SearchTokenizer& tokenizer, const CommonWords& common,
                                                  const std::vector<std::string>& terms);
// The bits an article's phrase filter must have for it to hold each of `phrases` (query_phrases;
// phrase_filter.h); empty when there is no phrase.
[[nodiscard]] std::vector<std::uint32_t> query_phrase_probes(
    const std::vector<std::vector<std::string>>& phrases);
// The words of `terms` whose presence in an article's lead relevance counts: the first kRankedLeadWords
// distinct ones, each as the kPhraseFilterProbes bits of lead_word_probes (phrase_filter.h), back to back.
inline constexpr std::size_t kRankedLeadWords = 16;
[[nodiscard]] std::vector<std::uint32_t> query_lead_probes(const SearchTokenizer& tokenizer,
                                                           const std::vector<std::string>& terms);
// The terms of `terms` that are phrases (two words or more), each as its words; a word too long for a
// vector is left out, as the vectors leave it out.
[[nodiscard]] std::vector<std::vector<std::string>> query_phrases(const SearchTokenizer& tokenizer,
                                                                  const std::vector<std::string>& terms);
// Whether each of `phrases` (query_phrases) is in `title` or in `text`, its words next to each other and in
// order, as FTS5 finds a phrase within one column on SQLite. A word too long for a vector is passed over, in
// the phrase as in the article.
[[nodiscard]] bool holds_phrases(const SearchTokenizer& tokenizer,
                                 const std::vector<std::vector<std::string>>& phrases, std::string_view title,
                                 std::string_view text);

}  // namespace longread::storage::postgres
