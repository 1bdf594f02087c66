// A search hit's snippet, made in longread's own process for both backends, the way SQLite's FTS5 makes it
// with snippet(articles_fts, 1, char(1), char(2), '…', 32)
// (https://sqlite.org/fts5.html#the_snippet_function): the same words chosen, the same marks, the same
// ellipses, with FTS5's tokenizer (SearchTokenizer). Made here rather than by the database: FTS5's snippet()
// takes time quadratic in a text's matches (a text of one word 40,000 times took 7 s, past any budget, since
// SQLite cannot interrupt a function), and PostgreSQL's ts_headline parsed every shown text on the server
// that every web process and crawler shares (docs/storage.md, "Search").
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "storage/search_tokenizer.h"

namespace longread::storage {

// How many words of the text a snippet shows at most.
inline constexpr int kSnippetWords = 32;

// The snippet of `text` for a query whose terms are `phrases` (SearchTokenizer::term_words: each
// term as its words, a word being a phrase of one). Each match of a phrase is wrapped in \x01 ... \x02
// (matches that overlap as one); "…" stands for text left out before or after. The window is FTS5's: the
// kSnippetWords words that hold the most distinct phrases, then the most matches, moved to a sentence's start
// when that costs no phrase, else centred on its matches; without any match, the text's first words.
[[nodiscard]] std::string search_snippet(const SearchTokenizer& tokenizer,
                                         const std::vector<std::vector<std::string>>& phrases,
                                         std::string_view text);

}  // namespace longread::storage
