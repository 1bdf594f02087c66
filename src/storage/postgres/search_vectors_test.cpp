// The search vectors and queries longread makes for PostgreSQL (search_vectors.h), checked as text: no
// server is needed to read a literal. That the server accepts them and finds what FTS5 finds is in
// postgres_test.cpp and the storage suite's search tests.
#include "storage/postgres/search_vectors.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace longread::storage::postgres {
namespace {

class SearchVectorsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto opened = SearchTokenizer::open();
    ASSERT_TRUE(opened) << opened.error().message;
    tokenizer_ = std::move(*opened);
  }
  std::unique_ptr<SearchTokenizer> tokenizer_;
};

// FTS5's unicode61 with remove_diacritics 2, as the SQLite backend indexes: letters and digits make words,
// everything else separates them, case and diacritics are dropped.
TEST_F(SearchVectorsTest, WordsAreSplitFoldedAndUnaccentedAsFts5DoesIt) {
  EXPECT_EQ(tokenizer_->tokens("Lock-free queues in Zürich: the CAFÉ's C++ code, v3.14 at example.com!"),
            (std::vector<std::string>{"lock", "free", "queues", "in", "zurich", "the", "cafe", "s", "c",
                                      "code", "v3", "14", "at", "example", "com"}));
  // Other scripts are folded to lower case; unicode61 keeps marks it does not count as Latin diacritics.
  EXPECT_EQ(tokenizer_->tokens("Ελληνικά ΚΑΙ Русский"),
            (std::vector<std::string>{"ελληνικά", "και", "русский"}));
  EXPECT_TRUE(tokenizer_->tokens("  ... !!! 😀 ").empty());
  EXPECT_TRUE(tokenizer_->tokens("").empty());
}

// The title's words come first with weight A, the text's follow, counted on from the title's last position;
// a word found in both lists all its positions; lexemes are in byte order.
TEST_F(SearchVectorsTest, TheVectorWeighsTheTitleAndCountsPositionsOnIntoTheText) {
  const SearchVectors v = tokenizer_->vectors("Cathedral Ledger", "A ledger, kept for a cathedral.");
  EXPECT_EQ(v.search, "'a':3,7 'cathedral':1A,8 'for':6 'kept':5 'ledger':2A,4");
  EXPECT_EQ(v.rank, v.search) << "a text shorter than the lead is all lead";
  const SearchVectors untitled = tokenizer_->vectors("", "Zürich zurich");
  EXPECT_EQ(untitled.search, "'zurich':1,2");
}

// The rank vector holds the title and the text's first 600 characters (not bytes): a word that starts
// after them is only in the search vector.
TEST_F(SearchVectorsTest, TheRankVectorStopsAtTheLeadsLastCharacter) {
  std::string text;
  while (text.size() < 1190) text += "éé ";  // 2 bytes per é: 600 characters are about 900 bytes
  text += "afterword";
  const SearchVectors v = tokenizer_->vectors("T", text);
  EXPECT_NE(v.search.find("'afterword'"), std::string::npos);
  EXPECT_EQ(v.rank.find("'afterword'"), std::string::npos);
  EXPECT_NE(v.rank.find("'ee'"), std::string::npos);
}

// PostgreSQL's limits, kept the way its own to_tsvector keeps them, so a hostile text never makes the server
// refuse the row: a word over 2,047 bytes is left out, positions past 16,383 land on it, and a word keeps
// at most 255 positions.
TEST_F(SearchVectorsTest, AHostileTextStaysWithinWhatATsvectorCanHold) {
  std::string text = "start " + std::string(3000, 'x') + " ";
  for (int i = 0; i < 20'000; ++i) text += "echo ";
  text += "omega";
  const SearchVectors v = tokenizer_->vectors("", text);
  EXPECT_EQ(v.search.find("'xxx"), std::string::npos) << "the long word is dropped";
  EXPECT_NE(v.search.find("'omega':16383"), std::string::npos) << v.search.substr(0, 200);
  const std::size_t echo = v.search.find("'echo':");
  ASSERT_NE(echo, std::string::npos);
  const std::string positions = v.search.substr(echo, v.search.find(' ', echo) - echo);
  EXPECT_EQ(std::count(positions.begin(), positions.end(), ','), 254) << "255 positions";
  EXPECT_TRUE(v.search.ends_with("'start':1")) << "the last lexeme in byte order";

  // A megabyte of distinct words: the vector stops taking new ones before the server's limit.
  std::string many;
  for (int i = 0; i < 200'000; ++i) many += "w" + std::to_string(i) + " ";
  const SearchVectors big = tokenizer_->vectors("", many);
  EXPECT_LT(big.search.size(), 4u << 20);
  EXPECT_NE(big.search.find("'w0':1"), std::string::npos);
  EXPECT_EQ(big.search.find("'w199999'"), std::string::npos);
}

// Quotes and backslashes never reach a lexeme (they separate words), and a literal quotes every lexeme.
TEST_F(SearchVectorsTest, QuotesAndBackslashesNeverEscapeALexeme) {
  const SearchVectors v = tokenizer_->vectors("It's a \\ back'slash", "'); DROP TABLE articles; --");
  EXPECT_EQ(v.search, "'a':3A 'articles':8 'back':4A 'drop':6 'it':1A 's':2A 'slash':5A 'table':7");
}

// A query is the terms as FTS5 reads its quoted phrases: a term's words adjacent and in order, all terms
// required; a term without a word is left out, and a query with none is empty (it matches nothing).
TEST_F(SearchVectorsTest, AQueryIsEachTermAsAPhraseAndEveryTermRequired) {
  EXPECT_EQ(tokenizer_->query({"garbage collection", "Zürich"}), "('garbage' <-> 'collection') & 'zurich'");
  EXPECT_EQ(tokenizer_->query({"lock-free"}), "('lock' <-> 'free')");
  EXPECT_EQ(tokenizer_->query({"😀", "c++"}), "'c'");
  EXPECT_EQ(tokenizer_->query({"😀"}), "");
  EXPECT_EQ(tokenizer_->query({}), "");
  EXPECT_EQ(tokenizer_->query({"AND", "OR", "'x'"}), "'and' & 'or' & 'x'");
}

}  // namespace
}  // namespace longread::storage::postgres
