// The words of a text as the SQLite backend's search index reads them: FTS5's unicode61 tokenizer with
// remove_diacritics 2, reached through FTS5's C API on a private in-memory SQLite connection. Both backends
// use it wherever longread itself splits text for search (snippets; on PostgreSQL the search vectors, the
// queries and the phrase checks, postgres/search_vectors.h), so a word is the same word everywhere.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"

struct sqlite3;

namespace longread::storage {

class SearchTokenizer {
 public:
  // Finds FTS5's unicode61 tokenizer on a private in-memory SQLite connection. Fails only when SQLite
  // cannot open one (out of memory) or was built without FTS5.
  static Result<std::unique_ptr<SearchTokenizer>> open();
  ~SearchTokenizer();
  SearchTokenizer(const SearchTokenizer&) = delete;
  SearchTokenizer& operator=(const SearchTokenizer&) = delete;

  // The words of `text` as FTS5 indexes them: lower case, diacritics removed, in order. Every call is safe
  // from several threads at once (each makes its own tokenizer instance).
  [[nodiscard]] std::vector<std::string> tokens(std::string_view text) const;
  // Calls `on_word(word)` for each word of `text` in order, until it returns false.
  void for_each_token(std::string_view text, const std::function<bool(std::string_view)>& on_word) const;
  // Calls `on_word(word, start, end)` for each word of `text` in order, [start, end) being the bytes of
  // `text` it was read from (before folding), as FTS5 hands them to snippet().
  void for_each_word(std::string_view text,
                     const std::function<void(std::string_view, std::size_t, std::size_t)>& on_word) const;
  // Each term of `terms` (search_terms.h) as its words, in order, as FTS5 reads each quoted term of SQLite's
  // query (a word is a phrase of one); a term without a word is left out.
  [[nodiscard]] std::vector<std::vector<std::string>> term_words(const std::vector<std::string>& terms) const;

 private:
  SearchTokenizer() = default;

  struct Api;
  sqlite3* db_ = nullptr;
  std::unique_ptr<Api> api_;
};

}  // namespace longread::storage
