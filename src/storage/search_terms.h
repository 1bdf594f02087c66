// What a reader typed into the search box, as the terms both backends search for.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace longread::storage {

// Every whitespace-separated word is a term; text between a pair of double quotes is one term, a phrase
// (its words in that order: "garbage collection"); a quote without a partner is an ordinary character of
// its word. Terms without a letter or digit are dropped (a tokenizer would make them empty). Bytes >= 0x80
// count as letters (non-ASCII scripts). Only the first kMaxSearchTerms terms are kept, so a pasted page
// costs no more than a long question. A term holds no double quote unless it is a word with an unpaired one.
std::vector<std::string> search_terms(std::string_view input);

}  // namespace longread::storage
