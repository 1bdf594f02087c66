// The search vectors and queries longread makes for PostgreSQL (search_vectors.h), checked as text: no
// server is needed to read a literal. That the server accepts them and finds what FTS5 finds is in
// postgres_test.cpp and the storage suite's search tests.
#include "storage/postgres/search_vectors.h"

#include <gtest/gtest.h>

#include <bit>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "storage/postgres/phrase_filter.h"
#include "testing/search_tokenizer_test.h"

namespace longread::storage::postgres {
namespace {

using SearchVectorsTest = longread::testing::SearchTokenizerTest;

// The search vector holds each word of the title and the text once, without positions (what the GIN index
// reads); the rank vector has the title's words first with weight A, the text's following, counted on from
// the title's last position, a word found in both with all its positions; lexemes are in byte order.
TEST_F(SearchVectorsTest, TheSearchVectorHoldsEachWordOnceAndTheRankVectorWeighsTheTitle) {
  const SearchVectors v = search_vectors(*tokenizer_, "Cathedral Ledger", "A ledger, kept for a cathedral.");
  EXPECT_EQ(v.search, "'a' 'cathedral' 'for' 'kept' 'ledger'");
  EXPECT_EQ(v.rank, "'a':3,7 'cathedral':1A,8 'for':6 'kept':5 'ledger':2A,4")
      << "a text shorter than the lead is all lead";
  const SearchVectors untitled = search_vectors(*tokenizer_, "", "Zürich zurich");
  EXPECT_EQ(untitled.search, "'zurich'");
  EXPECT_EQ(untitled.rank, "'zurich':1,2");
}

// The rank vector holds the title and the text's first 600 characters (not bytes): a word that starts
// after them is only in the search vector.
TEST_F(SearchVectorsTest, TheRankVectorStopsAtTheLeadsLastCharacter) {
  std::string text;
  while (text.size() < 1190) text += "éé ";  // 2 bytes per é: 600 characters are about 900 bytes
  text += "afterword";
  const SearchVectors v = search_vectors(*tokenizer_, "T", text);
  EXPECT_NE(v.search.find("'afterword'"), std::string::npos);
  EXPECT_EQ(v.rank.find("'afterword'"), std::string::npos);
  EXPECT_NE(v.rank.find("'ee'"), std::string::npos);
}

// PostgreSQL's limits, kept the way its own to_tsvector keeps them, so a hostile text never makes the server
// refuse the row: a word over 2,047 bytes is left out, and in the rank vector (whose title is as long as the
// feed made it) positions past 16,383 land on it, and a word keeps at most 255 positions.
TEST_F(SearchVectorsTest, AHostileTextStaysWithinWhatATsvectorCanHold) {
  std::string text = "start " + std::string(3000, 'x') + " ";
  for (int i = 0; i < 20'000; ++i) text += "echo ";
  text += "omega";
  EXPECT_EQ(search_vectors(*tokenizer_, "", text).search, "'echo' 'omega' 'start'")
      << "the long word is dropped, each other word once";
  const SearchVectors v = search_vectors(*tokenizer_, text, "");
  EXPECT_EQ(v.rank.find("'xxx"), std::string::npos) << "the long word is dropped";
  EXPECT_NE(v.rank.find("'omega':16383A"), std::string::npos) << v.rank.substr(0, 200);
  const std::size_t echo = v.rank.find("'echo':");
  ASSERT_NE(echo, std::string::npos);
  const std::string positions = v.rank.substr(echo, v.rank.find(' ', echo) - echo);
  EXPECT_EQ(std::count(positions.begin(), positions.end(), ','), 254) << "255 positions";
  EXPECT_TRUE(v.rank.ends_with("'start':1A")) << "the last lexeme in byte order";

  // A megabyte of distinct words: the vector stops taking new ones before the server's limit.
  std::string many;
  for (int i = 0; i < 200'000; ++i) many.append("w").append(std::to_string(i)).append(" ");
  const SearchVectors big = search_vectors(*tokenizer_, "", many);
  EXPECT_LT(big.search.size(), 4u << 20);
  EXPECT_NE(big.search.find("'w0'"), std::string::npos);
  EXPECT_EQ(big.search.find("'w199999'"), std::string::npos);
}

// Quotes and backslashes never reach a lexeme (they separate words), and a literal quotes every lexeme.
TEST_F(SearchVectorsTest, QuotesAndBackslashesNeverEscapeALexeme) {
  const SearchVectors v = search_vectors(*tokenizer_, "It's a \\ back'slash", "'); DROP TABLE articles; --");
  EXPECT_EQ(v.search, "'a' 'articles' 'back' 'drop' 'it' 's' 'slash' 'table'");
  EXPECT_EQ(v.rank, "'a':3A 'articles':8 'back':4A 'drop':6 'it':1A 's':2A 'slash':5A 'table':7");
}

// A phrase is found in the title or in the text, its words next to each other and in order, as FTS5 finds
// it within one column; every phrase of the query must be there; a word too long for the vectors is passed
// over in both the phrase and the article, as the vectors pass over it.
TEST_F(SearchVectorsTest, APhraseIsFoundWithinTheTitleOrTheTextWordsInOrder) {
  auto holds = [&](std::vector<std::string> terms, std::string_view title, std::string_view text) {
    return holds_phrases(*tokenizer_, query_phrases(*tokenizer_, terms), title, text);
  };
  EXPECT_EQ(query_phrases(*tokenizer_, {"garbage collection", "zurich", "Lock-Free"}),
            (std::vector<std::vector<std::string>>{{"garbage", "collection"}, {"lock", "free"}}));
  EXPECT_TRUE(holds({"garbage collection"}, "Notes", "A tour of Garbage-Collection in Lisp."));
  EXPECT_TRUE(holds({"garbage collection"}, "On garbage collection", "Nothing here."));
  EXPECT_FALSE(holds({"garbage collection"}, "Notes", "The collection of garbage."));
  EXPECT_FALSE(
      holds({"garbage collection"}, "On garbage", "collection, the title's last word and the text's first."))
      << "not across the title's end";
  EXPECT_TRUE(holds({"a a b"}, "", "a a a b")) << "a partial match that restarts inside itself";
  EXPECT_TRUE(holds({"lock-free", "garbage collection"}, "Lock-free queues", "and their garbage collection"));
  EXPECT_FALSE(holds({"lock-free", "garbage collection"}, "Lock-free queues", "and their garbage"));
  const std::string long_word(3000, 'x');
  EXPECT_TRUE(holds({"garbage " + long_word + " collection"}, "", "garbage collection"));
  EXPECT_TRUE(holds({"garbage collection"}, "", "garbage " + long_word + " collection"));
  EXPECT_TRUE(holds({"zurich"}, "", "")) << "no phrase: nothing to check here (the index found the words)";
}

// A query is the terms as FTS5 reads its quoted phrases: a term's words adjacent and in order, all terms
// required; a term without a word is left out, and a query with none is empty (it matches nothing).
TEST_F(SearchVectorsTest, AQueryIsEachTermAsAPhraseAndEveryTermRequired) {
  EXPECT_EQ(search_query(*tokenizer_, {"garbage collection", "Zürich"}),
            "('garbage' <-> 'collection') & 'zurich'");
  EXPECT_EQ(search_query(*tokenizer_, {"lock-free"}), "('lock' <-> 'free')");
  EXPECT_EQ(search_query(*tokenizer_, {"😀", "c++"}), "'c'");
  EXPECT_EQ(search_query(*tokenizer_, {"😀"}), "");
  EXPECT_EQ(search_query(*tokenizer_, {}), "");
  EXPECT_EQ(search_query(*tokenizer_, {"AND", "OR", "'x'"}), "'and' & 'or' & 'x'");
}

// The words of a query with every phrase taken apart, all required: what the GIN index answers exactly.
TEST_F(SearchVectorsTest, TheWordsOfAQueryAreItsPhrasesTakenApart) {
  EXPECT_EQ(search_words(*tokenizer_, {"garbage collection", "Zürich"}),
            "'garbage' & 'collection' & 'zurich'");
  EXPECT_EQ(search_words(*tokenizer_, {"c++", "lock"}), search_query(*tokenizer_, {"c++", "lock"}))
      << "no phrase: the same";
  EXPECT_TRUE(query_phrase_probes(query_phrases(*tokenizer_, {"c++", "lock"})).empty());
  EXPECT_EQ(query_phrase_probes(query_phrases(*tokenizer_, {"lock-free", "zurich"})).size(),
            static_cast<std::size_t>(kPhraseFilterProbes));
  EXPECT_EQ(query_phrase_probes(query_phrases(*tokenizer_, {"a b c"})).size(),
            static_cast<std::size_t>(2 * kPhraseFilterProbes));
}

// The filter's raw bytes from its bytea literal ("\x" then hex).
std::string filter_bytes(const std::string& literal) {
  EXPECT_TRUE(literal.starts_with("\\x")) << literal.substr(0, 8);
  std::string out;
  for (std::size_t i = 2; i + 1 < literal.size(); i += 2)
    out += static_cast<char>(std::stoi(literal.substr(i, 2), nullptr, 16));
  return out;
}

// An article's phrase filter holds every pair of neighbouring words its search vector numbers, the title's
// last word next to the text's first as PostgreSQL's <-> sees them, and a word too long for the vector
// (skipped, no position) leaves its two neighbours next to each other. Of pairs that are not neighbours,
// few pass: fewer than 5 % of 20,000 drawn from the same words (the sizing aims at 1-3 %).
TEST_F(SearchVectorsTest, ThePhraseFilterHoldsEveryPairOfNeighboursAndFewOthers) {
  std::mt19937_64 rng(7);
  std::vector<std::string> vocabulary;
  for (int i = 0; i < 3000; ++i) vocabulary.push_back(std::string("w").append(std::to_string(i)));
  std::vector<std::string> text_words;
  std::string text;
  for (int i = 0; i < 700; ++i) {
    text_words.push_back(vocabulary[rng() % vocabulary.size()]);
    text += text_words.back() + (i == 300 ? " " + std::string(3000, 'x') + " " : " ");
  }
  const SearchVectors v = search_vectors(*tokenizer_, "Cathedral ledger", text);
  const std::string filter = filter_bytes(v.phrase_filter);
  EXPECT_TRUE(std::has_single_bit(filter.size())) << filter.size();
  EXPECT_GE(filter.size() * 8, 8 * 699u) << "at least 8 bits per distinct pair";
  auto holds = [&](std::initializer_list<std::string_view> words) {
    std::string phrase;
    for (const std::string_view word : words) phrase.append(word).append(" ");
    return phrase_filter_may_hold(filter, query_phrase_probes(query_phrases(*tokenizer_, {phrase})));
  };
  EXPECT_TRUE(holds({"cathedral", "ledger"}));
  EXPECT_TRUE(holds({"ledger", text_words[0]})) << "across the title's end";
  EXPECT_TRUE(holds({text_words[300], text_words[301]})) << "across a skipped word";
  EXPECT_TRUE(holds({text_words[10], text_words[11], text_words[12]}));
  for (std::size_t i = 1; i < text_words.size(); ++i)
    ASSERT_TRUE(holds({text_words[i - 1], text_words[i]})) << i;

  std::set<std::pair<std::string, std::string>> neighbours;
  for (std::size_t i = 1; i < text_words.size(); ++i) neighbours.emplace(text_words[i - 1], text_words[i]);
  int tried = 0;
  int passed = 0;
  while (tried < 20'000) {
    const std::string& first = text_words[rng() % text_words.size()];
    const std::string& second = text_words[rng() % text_words.size()];
    if (neighbours.contains({first, second})) continue;
    ++tried;
    passed += holds({first, second}) ? 1 : 0;
  }
  EXPECT_LT(passed, tried / 20) << passed << " of " << tried << " pairs that are not neighbours passed";
  EXPECT_GT(passed, 0) << "a Bloom filter that never errs is suspiciously large";
}

// Sizes: a power of two from 8 bytes to 2 KB; a text whose words run past the vector's last position
// (16,383: every later word lands on it, and is the neighbour of the word before) gets an empty filter,
// which the search reads as "may hold every pair".
TEST_F(SearchVectorsTest, ThePhraseFilterIsSizedByItsPairsAndGivesUpPastTheLastPosition) {
  EXPECT_EQ(filter_bytes(search_vectors(*tokenizer_, "", "").phrase_filter).size(), kPhraseFilterMinBytes);
  EXPECT_EQ(filter_bytes(search_vectors(*tokenizer_, "One", "two three").phrase_filter).size(),
            kPhraseFilterMinBytes);
  std::string long_text;
  for (int i = 0; i < 16'380; ++i) long_text.append("w").append(std::to_string(i)).append(" ");
  EXPECT_EQ(filter_bytes(search_vectors(*tokenizer_, "", long_text).phrase_filter).size(),
            kPhraseFilterMaxBytes);
  long_text.append("one two three four");
  EXPECT_EQ(search_vectors(*tokenizer_, "", long_text).phrase_filter, "\\x");
  EXPECT_TRUE(
      phrase_filter_may_hold("", query_phrase_probes(query_phrases(*tokenizer_, {"anything at all"}))));
}

}  // namespace
}  // namespace longread::storage::postgres
