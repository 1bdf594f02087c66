// Search vectors and queries for PostgreSQL, made in longread's own process with SQLite's FTS5 tokenizer
// (unicode61, remove_diacritics 2: the SQLite backend's search index), so both backends split, fold and
// unaccent words alike, and the database server, which every crawler shares, no longer parses each
// article's text (docs/storage.md, "Search on PostgreSQL").
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "storage/types.h"

struct sqlite3;

namespace longread::storage::postgres {

// An article's two vectors as tsvector literals: `search`, every word of its title and its text once,
// without positions (what the GIN index finds articles by: a phrase is checked in the text itself, see
// holds_phrases), as `strip(to_tsvector(title) || to_tsvector(text))` gives it; `rank`, the title (weight
// A) then the text's first kRankLeadCharacters characters, the lead search ranks by (weight D), positions
// counted across both as `setweight(title, 'A') || setweight(lead, 'D')` counts them; `phrase_filter`, the
// pairs of neighbouring words (phrase_filter.h).
using SearchVectors = PreparedSearchVectors;

inline constexpr std::size_t kRankLeadCharacters = 600;

class SearchTokenizer {
 public:
  // Finds FTS5's unicode61 tokenizer on a private in-memory SQLite connection. Fails only when SQLite
  // cannot open one (out of memory) or was built without FTS5.
  static Result<std::unique_ptr<SearchTokenizer>> open();
  ~SearchTokenizer();
  SearchTokenizer(const SearchTokenizer&) = delete;
  SearchTokenizer& operator=(const SearchTokenizer&) = delete;

  // The words of `text` as FTS5 indexes them: lower case, diacritics removed, in order. Safe to call from
  // several threads at once (each call makes its own tokenizer instance).
  [[nodiscard]] std::vector<std::string> tokens(std::string_view text) const;
  // Calls `on_word(word, start, end)` for each word of `text` in order, [start, end) being the bytes of
  // `text` it was read from (before folding), as FTS5 hands them to snippet().
  void for_each_word(std::string_view text,
                     const std::function<void(std::string_view, std::size_t, std::size_t)>& on_word) const;

  [[nodiscard]] SearchVectors vectors(std::string_view title, std::string_view text) const;

  // `terms` (storage/search_terms.h) as a tsquery literal with FTS5's meaning of the same quoted phrases:
  // each term's words adjacent and in order (<->), every term required (&). Empty when no term has a word
  // (a query that matches nothing).
  [[nodiscard]] std::string query(const std::vector<std::string>& terms) const;
  // Every word of `terms` required, in any place: the part of query() that GIN's index answers exactly
  // (it keeps no positions). Equal to query() when no term is a phrase.
  [[nodiscard]] std::string words(const std::vector<std::string>& terms) const;
  // The bits an article's phrase filter must have for it to hold each phrase of `terms` (phrase_filter.h);
  // empty when no term is a phrase.
  [[nodiscard]] std::vector<std::uint32_t> phrase_probes(const std::vector<std::string>& terms) const;
  // Each term of `terms` as its words, in order, as FTS5 reads each quoted term of SQLite's query (a word is
  // a phrase of one); a term without a word is left out.
  [[nodiscard]] std::vector<std::vector<std::string>> term_words(const std::vector<std::string>& terms) const;
  // The terms of `terms` that are phrases (two words or more), each as its words.
  [[nodiscard]] std::vector<std::vector<std::string>> phrases(const std::vector<std::string>& terms) const;
  // Whether each of `phrases` is in `title` or in `text`, its words next to each other and in order, as
  // FTS5 finds a phrase within one column on SQLite. A word too long for a vector is passed over, in the
  // phrase (phrases() leaves it out) as in the article.
  [[nodiscard]] bool holds_phrases(const std::vector<std::vector<std::string>>& phrases,
                                   std::string_view title, std::string_view text) const;

 private:
  SearchTokenizer() = default;

  struct Api;
  sqlite3* db_ = nullptr;
  std::unique_ptr<Api> api_;
};

}  // namespace longread::storage::postgres
