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

// Tokens are maximal runs of word characters (ASCII letters and digits, and non-ASCII code points
// other than Unicode punctuation), ASCII lower-cased; each CJK ideograph, kana or hangul syllable is a
// token of its own. Punctuation and whitespace differences do not count. The overlap is the multiset
// intersection. Two empty texts score 1. bench/extract/readability.mjs implements the same rules.
TokenScore token_f1(std::string_view got, std::string_view expected);

}  // namespace longread::html
