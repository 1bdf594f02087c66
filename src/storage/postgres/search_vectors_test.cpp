// The search vectors and queries longread makes for PostgreSQL (search_vectors.h), checked without a
// server: a vector's binary form is read back here into tsvector's text form. That the server reads them
// as meant and finds what FTS5 finds is in postgres_test.cpp and the storage suite's search tests.
#include "storage/postgres/search_vectors.h"
#include "storage/postgres/key_set.h"

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
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

const CommonWords kNoCommonWords;

// A vector's binary form (what PostgreSQL's tsvectorrecv reads) in the server's text form of a tsvector:
// 'lexeme':1A,7 ... Any byte left over, or missing, fails the test.
std::string tsvector_text(std::string_view binary) {
  std::size_t at = 0;
  auto take = [&](int bytes) {
    std::uint32_t value = 0;
    for (int i = 0; i < bytes; ++i) {
      if (at >= binary.size()) {
        ADD_FAILURE() << "the binary vector ends early";
        return value;
      }
      value = value << 8 | static_cast<unsigned char>(binary[at++]);
    }
    return value;
  };
  const std::uint32_t lexemes = take(4);
  std::string out;
  for (std::uint32_t n = 0; n < lexemes && at < binary.size(); ++n) {
    const std::size_t end = binary.find('\0', at);
    if (end == std::string_view::npos) {
      ADD_FAILURE() << "a lexeme without its NUL";
      break;
    }
    if (!out.empty()) out += ' ';
    out.append("'").append(binary.substr(at, end - at)).append("'");
    at = end + 1;
    const std::uint32_t positions = take(2);
    for (std::uint32_t i = 0; i < positions; ++i) {
      const std::uint32_t value = take(2);
      out += i == 0 ? ':' : ',';
      out += std::to_string(value & 0x3FFF);
      static constexpr const char* kWeights[] = {"", "C", "B", "A"};
      out += kWeights[value >> 14];
    }
  }
  EXPECT_EQ(at, binary.size()) << "bytes after the last lexeme";
  return out;
}

// An int4[]'s binary form (what PostgreSQL's array_recv reads) as its elements, in order. Any byte left
// over or missing, or a header other than a one-dimensional int4 array without NULLs, fails the test.
std::vector<std::int32_t> int4_array(std::string_view binary) {
  std::size_t at = 0;
  auto take = [&] {
    std::uint32_t value = 0;
    for (int i = 0; i < 4; ++i) {
      if (at >= binary.size()) {
        ADD_FAILURE() << "the binary array ends early";
        return value;
      }
      value = value << 8 | static_cast<unsigned char>(binary[at++]);
    }
    return value;
  };
  const std::uint32_t dimensions = take();
  EXPECT_EQ(take(), 0u) << "no NULL element";
  EXPECT_EQ(take(), 23u) << "int4's oid";
  std::vector<std::int32_t> out;
  if (dimensions == 1) {
    const std::uint32_t length = take();
    EXPECT_EQ(take(), 1u) << "the lower bound";
    for (std::uint32_t i = 0; i < length && at < binary.size(); ++i) {
      EXPECT_EQ(take(), 4u) << "an element's length";
      out.push_back(static_cast<std::int32_t>(take()));
    }
  } else {
    EXPECT_EQ(dimensions, 0u);
  }
  EXPECT_EQ(at, binary.size()) << "bytes after the last element";
  return out;
}

// The ids `common` gives `words`, sorted, each once: what an article holding exactly those words stores.
std::vector<std::int32_t> ids_of(const CommonWords& common, const std::vector<std::string>& words) {
  std::vector<std::int32_t> ids;
  for (const std::string& word : words) ids.push_back(common.word_id(word));
  std::ranges::sort(ids);
  ids.erase(std::ranges::unique(ids).begin(), ids.end());
  return ids;
}

// A word's id is the first four bytes, little-endian, of SipHash-2-4 under the database's key: checked
// against the reference vectors of the SipHash paper (key 00 01 … 0f; the empty message gives
// 31 0e 0e dd 47 db 6f 72, the message 00 01 … 0e gives e5 45 be 49 61 ca 29 a1). Another key gives
// another id.
TEST(WordIdTest, AWordsIdIsItsKeyedSipHash) {
  std::string key;
  for (int i = 0; i < 16; ++i) key += static_cast<char>(i);
  const CommonWords keyed({}, key);
  EXPECT_EQ(static_cast<std::uint32_t>(keyed.word_id("")), 0xdd0e0e31U);
  std::string message;
  for (int i = 0; i < 15; ++i) message += static_cast<char>(i);
  EXPECT_EQ(static_cast<std::uint32_t>(keyed.word_id(message)), 0x49be45e5U);
  EXPECT_NE(keyed.word_id("ledger"), kNoCommonWords.word_id("ledger"));
  EXPECT_EQ(keyed.word_id("ledger"), CommonWords({}, key).word_id("ledger"));
  EXPECT_EQ(CommonWords({}, "short").word_id("ledger"), kNoCommonWords.word_id("ledger"))
      << "a key of another length is not taken: the all-zero one";
}

// The whole hash, which an article's table of words is keyed by, is the one the id is cut from: the first
// eight bytes, little-endian (the paper's vector for the empty message under key 00 01 … 0f).
TEST(WordIdTest, AWordsIdIsTheLowHalfOfItsHash) {
  std::string key;
  for (int i = 0; i < 16; ++i) key += static_cast<char>(i);
  const CommonWords keyed({}, key);
  EXPECT_EQ(keyed.word_hash(""), 0x726fdb47dd0e0e31ULL);
  for (const char* word : {"ledger", "cathedral", "a", "zurich"})
    EXPECT_EQ(keyed.word_id(word),
              static_cast<std::int32_t>(static_cast<std::uint32_t>(keyed.word_hash(word))))
        << word;
}

// The search vector holds each word of the title and the text once, as ids (what the GIN index reads); the
// rank vector holds the title's words with their positions and weight A, and none of the
// text's (the lead's words are in the phrase filter); lexemes are in byte order.
TEST_F(SearchVectorsTest, TheSearchVectorHoldsEachWordOnceAndTheRankVectorWeighsTheTitle) {
  const SearchVectors v = search_vectors(*tokenizer_, kNoCommonWords, "Cathedral Ledger of a cathedral",
                                         "A ledger, kept for a cathedral.");
  EXPECT_EQ(int4_array(v.words), ids_of(kNoCommonWords, {"a", "cathedral", "for", "kept", "ledger", "of"}));
  EXPECT_EQ(tsvector_text(v.rank), "'a':4A 'cathedral':1A,5A 'ledger':2A 'of':3A");
  const SearchVectors untitled = search_vectors(*tokenizer_, kNoCommonWords, "", "Zürich zurich");
  EXPECT_EQ(int4_array(untitled.words), ids_of(kNoCommonWords, {"zurich"}));
  EXPECT_EQ(tsvector_text(untitled.rank), "");
  const SearchVectors empty = search_vectors(*tokenizer_, kNoCommonWords, "", "");
  EXPECT_EQ(empty.words, std::string(8, '\0') + std::string("\0\0\0\x17", 4))
      << "no words: an empty array, no dimensions";
  EXPECT_EQ(tsvector_text(empty.rank), "");
}

// The set both tables are made of: every key once, 0 and 2^64 - 1 among them, past several growths, with a
// seed or without.
TEST(KeySetTest, EachKeyIsNewOnceWhateverItsValue) {
  for (const std::uint64_t seed : {std::uint64_t{0}, std::uint64_t{0x9e3779b97f4a7c15}}) {
    KeySet set(4, seed);
    std::vector<std::uint64_t> keys = {0, ~std::uint64_t{0}, 1};
    for (std::uint64_t i = 0; i < 10'000; ++i) keys.push_back(i * 0x100000001ULL);
    std::size_t added = 0;
    for (const std::uint64_t key : keys) added += set.insert(key) ? 1 : 0;
    EXPECT_EQ(added, keys.size() - 1) << "0 is in the list twice (0 * 0x100000001)";
    for (const std::uint64_t key : keys) {
      EXPECT_TRUE(set.contains(key));
      EXPECT_FALSE(set.insert(key));
    }
    EXPECT_FALSE(set.contains(2));
  }
}

// Thousands of distinct words, each several times and in both parts, common ones among them: each indexed
// word's id once, each common word's bit and nothing else, however full the article's table of words grew.
TEST_F(SearchVectorsTest, ALongTextsWordsAreEachIndexedOnce) {
  const CommonWords common({{"the", 0.9}, {"of", 0.8}});
  std::string title = "the ledger of w7";
  std::string text;
  std::vector<std::string> words = {"ledger"};
  for (int i = 0; i < 5'000; ++i) words.push_back("w" + std::to_string(i));
  for (int round = 0; round < 3; ++round)
    for (const std::string& word : words) text.append(word).append(round == 1 ? " of the " : " ");
  const SearchVectors v = search_vectors(*tokenizer_, common, title, text);
  EXPECT_EQ(int4_array(v.words), ids_of(common, words));
  std::string bitmap(common.bitmap_bytes(), '\0');
  set_bitmap_bit(bitmap, 0);
  set_bitmap_bit(bitmap, 1);
  EXPECT_EQ(v.common_words, bitmap);
  const SearchVectors without_common = search_vectors(*tokenizer_, common, "ledger", "w1 w2 w1");
  EXPECT_EQ(int4_array(without_common.words), ids_of(common, {"ledger", "w1", "w2"}));
  EXPECT_EQ(without_common.common_words, std::string(common.bitmap_bytes(), '\0'));
}

// The binary forms spelled out byte by byte. The ids: one dimension, no NULLs, int4's oid, the length and
// lower bound, then each id's length and value, sorted, big-endian. The rank vector: the count of lexemes,
// each lexeme and its NUL, its count of positions and the positions, big-endian, weight A in the two high
// bits. A NUL in the text splits words (as any control character does), so it can never end a lexeme early.
TEST_F(SearchVectorsTest, TheBinaryFormIsWhatTsvectorrecvReads) {
  const SearchVectors v = search_vectors(*tokenizer_, kNoCommonWords, "Ab", std::string("cd\0ab", 5));
  using namespace std::string_literals;
  const std::vector<std::int32_t> ids = ids_of(kNoCommonWords, {"ab", "cd"});
  ASSERT_EQ(ids.size(), 2u);
  auto be = [](std::int32_t id) {
    const auto u = static_cast<std::uint32_t>(id);
    return std::string{static_cast<char>(u >> 24), static_cast<char>(u >> 16), static_cast<char>(u >> 8),
                       static_cast<char>(u)};
  };
  EXPECT_EQ(v.words, "\0\0\0\1"s + "\0\0\0\0"s + "\0\0\0\x17"s + "\0\0\0\2"s + "\0\0\0\1"s + "\0\0\0\4"s +
                         be(ids[0]) + "\0\0\0\4"s + be(ids[1]))
      << "two words, one id each";
  const SearchVectors titled = search_vectors(*tokenizer_, kNoCommonWords, "Ab cd ab", "");
  EXPECT_EQ(titled.rank, "\0\0\0\2"s + "ab\0"s + "\0\2\xC0\1\xC0\3"s + "cd\0"s + "\0\1\xC0\2"s)
      << "ab at 1 and 3, cd at 2, each with weight A (0xC000 | position)";
  EXPECT_EQ(tsvector_text(titled.rank), "'ab':1A,3A 'cd':2A");
}

// The lead relevance counts is the text's first 600 characters (not bytes), its words kept in the lead
// filter: a word that starts after them is only in the search vector. The lead's words pass the filter's
// test, where words of the title alone or of the text past the lead do not, and the phrase filter holds
// pairs only.
TEST_F(SearchVectorsTest, TheLeadsWordsAreInTheLeadFilterUpToItsLastCharacter) {
  std::string text = "Zürich lock-free ";
  while (text.size() < 1190) text += "éé ";  // 2 bytes per é: 600 characters are about 900 bytes
  text += "afterword";
  const SearchVectors v = search_vectors(*tokenizer_, kNoCommonWords, "Titleword", text);
  EXPECT_TRUE(std::ranges::binary_search(int4_array(v.words), kNoCommonWords.word_id("afterword")));
  EXPECT_EQ(tsvector_text(v.rank), "'titleword':1A");
  EXPECT_EQ(v.lead_filter.size(), kPhraseFilterMinBytes) << "4 distinct words";
  auto in_lead = [&](std::string_view word) {
    return phrase_filter_may_hold(v.lead_filter, lead_word_probes(word));
  };
  for (const std::string_view word : {"zurich", "lock", "free", "ee"}) EXPECT_TRUE(in_lead(word)) << word;
  for (const std::string_view word : {"afterword", "titleword", "Zürich", "absent"})
    EXPECT_FALSE(in_lead(word)) << word;
  EXPECT_FALSE(phrase_filter_may_hold(v.phrase_filter, lead_word_probes("zurich")));
  EXPECT_TRUE(phrase_filter_may_hold(v.phrase_filter, phrase_probes({"lock", "free"})));
  EXPECT_FALSE(phrase_filter_may_hold(v.lead_filter, phrase_probes({"lock", "free"})));
  // No text, no lead: a filter that holds nothing.
  EXPECT_EQ(search_vectors(*tokenizer_, kNoCommonWords, "Title", "").lead_filter,
            std::string(kPhraseFilterMinBytes, '\0'));

  // A lead is at most 600 characters, so at most about 300 words: its filter keeps 8 to 16 bits a word
  // however long the text, where the phrase filter of a long text is as full as its pairs make it.
  std::string many;
  for (int i = 0; i < 400; ++i) many += "w" + std::to_string(i) + " ";
  const SearchVectors full = search_vectors(*tokenizer_, kNoCommonWords, "", many);
  EXPECT_EQ(full.lead_filter.size(), 256u) << "the lead's 142 words: w0 to w141";
  int passed = 0;
  for (int i = 0; i < 1000; ++i)
    passed += phrase_filter_may_hold(full.lead_filter, lead_word_probes("x" + std::to_string(i)));
  EXPECT_LT(passed, 50) << "words not in the lead that pass";

  // A query's lead words: each distinct word of its terms once, as the tokenizer splits them, at most
  // kRankedLeadWords of them.
  EXPECT_EQ(query_lead_probes(*tokenizer_, {"Zürich", "\"lock-free\"", "zurich"}), [] {
    std::vector<std::uint32_t> all;
    for (const char* word : {"zurich", "lock", "free"}) {
      const auto probes = lead_word_probes(word);
      all.insert(all.end(), probes.begin(), probes.end());
    }
    return all;
  }());
  std::vector<std::string> words;
  for (int i = 0; i < 40; ++i) words.push_back("w" + std::to_string(i));
  EXPECT_EQ(query_lead_probes(*tokenizer_, words).size(), kRankedLeadWords * kPhraseFilterProbes);
}

// PostgreSQL's limits, kept the way its own to_tsvector keeps them, so a hostile text never makes the server
// refuse the row: a word over 2,047 bytes is left out, and in the rank vector (whose title is as long as the
// feed made it) positions past 16,383 land on it, and a word keeps at most 255 positions.
TEST_F(SearchVectorsTest, AHostileTextStaysWithinWhatATsvectorCanHold) {
  std::string text = "start " + std::string(3000, 'x') + " ";
  for (int i = 0; i < 20'000; ++i) text += "echo ";
  text += "omega";
  EXPECT_EQ(int4_array(search_vectors(*tokenizer_, kNoCommonWords, "", text).words),
            ids_of(kNoCommonWords, {"echo", "omega", "start"}))
      << "the long word is dropped, each other word once";
  const SearchVectors v = search_vectors(*tokenizer_, kNoCommonWords, text, "");
  const std::string rank = tsvector_text(v.rank);
  EXPECT_EQ(rank.find("'xxx"), std::string::npos) << "the long word is dropped";
  EXPECT_NE(rank.find("'omega':16383A"), std::string::npos) << rank.substr(0, 200);
  const std::size_t echo = rank.find("'echo':");
  ASSERT_NE(echo, std::string::npos);
  const std::string positions = rank.substr(echo, rank.find(' ', echo) - echo);
  EXPECT_EQ(std::count(positions.begin(), positions.end(), ','), 254) << "255 positions";
  EXPECT_TRUE(rank.ends_with("'start':1A")) << "the last lexeme in byte order";

  // A megabyte of distinct words: the ids stop at the words a tsvector could hold, as the server's own
  // vector of the text would.
  std::string many;
  for (int i = 0; i < 200'000; ++i) many.append("w").append(std::to_string(i)).append(" ");
  const SearchVectors big = search_vectors(*tokenizer_, kNoCommonWords, "", many);
  const std::vector<std::int32_t> big_ids = int4_array(big.words);
  EXPECT_LT(big.words.size(), 2u << 20);
  EXPECT_TRUE(std::ranges::binary_search(big_ids, kNoCommonWords.word_id("w0")));
  EXPECT_FALSE(std::ranges::binary_search(big_ids, kNoCommonWords.word_id("w199999")));
}

// Quotes and backslashes never reach a lexeme (they separate words).
TEST_F(SearchVectorsTest, QuotesAndBackslashesNeverReachALexeme) {
  const SearchVectors v =
      search_vectors(*tokenizer_, kNoCommonWords, "It's a \\ back'slash", "'); DROP TABLE articles; --");
  EXPECT_EQ(int4_array(v.words),
            ids_of(kNoCommonWords, {"a", "articles", "back", "drop", "it", "s", "slash", "table"}));
  EXPECT_EQ(tsvector_text(v.rank), "'a':3A 'back':4A 'it':1A 's':2A 'slash':5A");
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

// With a list of common words, the search vector leaves them out and the bitmap holds each one the title or
// the text has, bit N for the list's word N as PostgreSQL's get_bit reads a bytea (byte N / 8, bit N % 8
// from the lowest); the rank vector and the phrase filter, which relevance and phrases read, keep every
// word. A query's words split the same way, each common one once.
// Every word of a list finds its bit, by the word alone or with its keyed hash given, across a table that
// grew past its first size; a word the list repeats keeps its first bit; other words, and a list word asked
// with another word's hash, find none.
TEST(CommonWordsTest, EveryWordOfTheListFindsItsBitByTheWordOrByItsHash) {
  std::vector<CommonWords::Word> list;
  for (int i = 0; i < 2000; ++i) list.push_back({fmt::format("w{}", i), 0.2});
  list.push_back({"w7", 0.2});  // bit 2000 repeats bit 7's word
  const CommonWords common(list, "0123456789abcdef");
  for (int i = 0; i < 2000; ++i) {
    const std::string word = fmt::format("w{}", i);
    ASSERT_EQ(common.bit(word), i) << word;
    ASSERT_EQ(common.bit(word, common.word_hash(word)), i) << word;
  }
  EXPECT_EQ(common.bit("w7"), 7);
  for (int i = 2000; i < 4000; ++i) ASSERT_FALSE(common.bit(fmt::format("w{}", i)));
  EXPECT_FALSE(common.bit("w1", common.word_hash("w2")));
  EXPECT_FALSE(common.bit(""));
  EXPECT_FALSE(CommonWords().bit("w1"));
}

TEST_F(SearchVectorsTest, CommonWordsLeaveTheSearchVectorForTheBitmap) {
  std::vector<CommonWords::Word> words;
  for (const char* w : {"the", "of", "a", "and", "in", "to", "is", "it", "river"})
    words.push_back({.lexeme = w, .share = 0.5});
  const CommonWords common(words);
  ASSERT_EQ(common.bitmap_bytes(), 2u);
  const SearchVectors v = search_vectors(*tokenizer_, common, "The River", "A ledger of the cathedral.");
  EXPECT_EQ(int4_array(v.words), ids_of(common, {"cathedral", "ledger"}));
  ASSERT_EQ(v.common_words.size(), 2u);
  EXPECT_EQ(static_cast<unsigned char>(v.common_words[0]), 0b0000'0111) << "the, of, a";
  EXPECT_EQ(static_cast<unsigned char>(v.common_words[1]), 0b0000'0001) << "river";
  for (int bit = 0; bit < 9; ++bit) EXPECT_EQ(bitmap_bit(v.common_words, bit), bit <= 2 || bit == 8) << bit;
  const SearchVectors all =
      search_vectors(*tokenizer_, kNoCommonWords, "The River", "A ledger of the cathedral.");
  EXPECT_EQ(v.rank, all.rank);
  EXPECT_EQ(v.phrase_filter, all.phrase_filter);
  EXPECT_EQ(int4_array(all.words),
            ids_of(kNoCommonWords, {"a", "cathedral", "ledger", "of", "river", "the"}));
  EXPECT_EQ(all.common_words, "") << "no list: an empty bitmap";
  EXPECT_EQ(search_vectors(*tokenizer_, common, "", "").common_words, std::string(2, '\0'));

  const SplitSearchWords split =
      split_search_words(*tokenizer_, common, {"the", "\"ledger of the\"", "Cathédrale", "river"});
  EXPECT_EQ(split.indexed, "'ledger' & 'cathedrale'");
  const std::vector<std::int32_t> query_ids = ids_of(common, {"ledger", "cathedrale"});
  EXPECT_EQ(split.indexed_ids, fmt::format("{{{},{}}}", query_ids[0], query_ids[1])) << "sorted";
  EXPECT_EQ(split.common_bits, (std::vector<int>{0, 1, 8}));
  EXPECT_EQ(split_search_words(*tokenizer_, common, {"the of"}).indexed, "");
  EXPECT_EQ(split_search_words(*tokenizer_, common, {"the of"}).indexed_ids, "");
  EXPECT_EQ(split_search_words(*tokenizer_, kNoCommonWords, {"the of"}).indexed, "'the' & 'of'");
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
  const SearchVectors v = search_vectors(*tokenizer_, kNoCommonWords, "Cathedral ledger", text);
  const std::string& filter = v.phrase_filter;
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
  EXPECT_EQ(search_vectors(*tokenizer_, kNoCommonWords, "", "").phrase_filter.size(), kPhraseFilterMinBytes);
  EXPECT_EQ(search_vectors(*tokenizer_, kNoCommonWords, "One", "two three").phrase_filter.size(),
            kPhraseFilterMinBytes);
  std::string long_text;
  for (int i = 0; i < 16'380; ++i) long_text.append("w").append(std::to_string(i)).append(" ");
  EXPECT_EQ(search_vectors(*tokenizer_, kNoCommonWords, "", long_text).phrase_filter.size(),
            kPhraseFilterMaxBytes);
  std::string repeated;
  for (int round = 0; round < 10; ++round)
    for (int i = 0; i < 600; ++i) repeated.append("w").append(std::to_string(i)).append(" ");
  EXPECT_EQ(search_vectors(*tokenizer_, kNoCommonWords, "", repeated).phrase_filter.size(), 1024u)
      << "5,999 pairs, 600 of them distinct (w599 w0 among them): sized by the 600";
  long_text.append("one two three four");
  EXPECT_EQ(search_vectors(*tokenizer_, kNoCommonWords, "", long_text).phrase_filter, "");
  EXPECT_TRUE(
      phrase_filter_may_hold("", query_phrase_probes(query_phrases(*tokenizer_, {"anything at all"}))));
}

}  // namespace
}  // namespace longread::storage::postgres
