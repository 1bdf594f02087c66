// Token-level comparison of two texts, used to score extraction against expected output
// (the readability conformance mode and bench/extract). Not used by the pipeline.
#pragma once

#include <string_view>

namespace longread::html {

// Precision/recall/F1 of the bag of tokens of `got` against that of `expected`.
struct TokenScore {
  double precision = 0;
  double recall = 0;
  double f1 = 0;
};

// Tokens are maximal runs of letters and digits (every non-ASCII code point counts as a letter),
// ASCII lower-cased, so punctuation and whitespace differences do not count. The overlap is the
// multiset intersection. Two empty texts score 1.
TokenScore token_f1(std::string_view got, std::string_view expected);

}  // namespace longread::html
