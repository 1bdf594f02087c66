// The search tokenizer (search_tokenizer.h): FTS5's own words.
#include "storage/search_tokenizer.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "testing/search_tokenizer_test.h"

namespace longread::storage {
namespace {

using longread::testing::SearchTokenizerTest;

// FTS5's unicode61 with remove_diacritics 2, as the SQLite backend indexes: letters and digits make words,
// everything else separates them, case and diacritics are dropped.
TEST_F(SearchTokenizerTest, WordsAreSplitFoldedAndUnaccentedAsFts5DoesIt) {
  EXPECT_EQ(tokenizer_->tokens("Lock-free queues in Zürich: the CAFÉ's C++ code, v3.14 at example.com!"),
            (std::vector<std::string>{"lock", "free", "queues", "in", "zurich", "the", "cafe", "s", "c",
                                      "code", "v3", "14", "at", "example", "com"}));
  // Other scripts are folded to lower case; unicode61 keeps marks it does not count as Latin diacritics.
  EXPECT_EQ(tokenizer_->tokens("Ελληνικά ΚΑΙ Русский"),
            (std::vector<std::string>{"ελληνικά", "και", "русский"}));
  EXPECT_TRUE(tokenizer_->tokens("  ... !!! 😀 ").empty());
  EXPECT_TRUE(tokenizer_->tokens("").empty());
}

// A word's byte range is where it was read from, before folding; a scan stops when asked to.
TEST_F(SearchTokenizerTest, WordsComeWithTheirBytesAndAScanStopsWhenAsked) {
  const std::string text = "Zürich, CAFÉ!";
  std::vector<std::string> read;
  tokenizer_->for_each_word(text, [&](std::string_view word, std::size_t start, std::size_t end) {
    read.push_back(std::string(word) + "=" + text.substr(start, end - start));
  });
  EXPECT_EQ(read, (std::vector<std::string>{"zurich=Zürich", "cafe=CAFÉ"}));

  std::vector<std::string> first_two;
  tokenizer_->for_each_token("one two three four", [&](std::string_view word) {
    first_two.emplace_back(word);
    return first_two.size() < 2;
  });
  EXPECT_EQ(first_two, (std::vector<std::string>{"one", "two"}));
}

// A query's terms as FTS5 reads each quoted term: its words in order; a term without a word is left out.
TEST_F(SearchTokenizerTest, EachTermIsItsWords) {
  EXPECT_EQ(tokenizer_->term_words({"Garbage collection", "😀", "lock-free", "C++"}),
            (std::vector<std::vector<std::string>>{{"garbage", "collection"}, {"lock", "free"}, {"c"}}));
  EXPECT_TRUE(tokenizer_->term_words({}).empty());
}

}  // namespace
}  // namespace longread::storage
