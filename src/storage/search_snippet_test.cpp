// Search snippets (search_snippet.h), held to what SQLite's FTS5 snippet() gives for the same text
// and query: an in-memory FTS5 table, tokenized as the SQLite backend's index is, is the reference.
#include "storage/search_snippet.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <memory>
#include <random>
#include <string>
#include <vector>

#include "testing/search_tokenizer_test.h"

namespace longread::storage {
namespace {

class SnippetTest : public longread::testing::SearchTokenizerTest {
 protected:
  void SetUp() override {
    SearchTokenizerTest::SetUp();
    if (HasFatalFailure()) return;
    ASSERT_EQ(sqlite3_open(":memory:", &db_), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db_,
                           "CREATE VIRTUAL TABLE t USING fts5(title, text,"
                           " tokenize = 'unicode61 remove_diacritics 2')",
                           nullptr, nullptr, nullptr),
              SQLITE_OK)
        << sqlite3_errmsg(db_);
  }
  void TearDown() override { sqlite3_close(db_); }

  // snippet() of `text` for `terms`, each a quoted FTS5 string as the SQLite backend asks (search.cpp).
  std::string fts5_snippet(const std::vector<std::string>& terms, const std::string& text,
                           const std::string& title = "") {
    EXPECT_EQ(sqlite3_exec(db_, "DELETE FROM t", nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_stmt* insert = nullptr;
    sqlite3_prepare_v2(db_, "INSERT INTO t (title, text) VALUES (?2, ?1)", -1, &insert, nullptr);
    sqlite3_bind_text(insert, 1, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
    sqlite3_bind_text(insert, 2, title.data(), static_cast<int>(title.size()), SQLITE_TRANSIENT);
    EXPECT_EQ(sqlite3_step(insert), SQLITE_DONE);
    sqlite3_finalize(insert);
    std::string match;
    for (const std::string& term : terms) {
      if (!match.empty()) match += ' ';
      match += '"';
      match += term;
      match += '"';
    }
    sqlite3_stmt* q = nullptr;
    sqlite3_prepare_v2(db_, "SELECT snippet(t, 1, char(1), char(2), '…', 32) FROM t WHERE t MATCH ?1", -1, &q,
                       nullptr);
    sqlite3_bind_text(q, 1, match.data(), static_cast<int>(match.size()), SQLITE_TRANSIENT);
    std::string out = "(no match)";
    if (sqlite3_step(q) == SQLITE_ROW) {
      const auto* s = reinterpret_cast<const char*>(sqlite3_column_text(q, 0));
      out = s != nullptr ? std::string(s, static_cast<std::size_t>(sqlite3_column_bytes(q, 0))) : "";
    }
    sqlite3_finalize(q);
    return out;
  }

  std::string ours(const std::vector<std::string>& terms, const std::string& text) {
    return search_snippet(*tokenizer_, tokenizer_->term_words(terms), text);
  }

  sqlite3* db_ = nullptr;
};

// Marks, ellipses and the window on texts written to show each rule.
TEST_F(SnippetTest, MarksMatchesAndElidesAsFts5Does) {
  // Short: the whole text, the match marked, no ellipsis, the punctuation around it kept.
  EXPECT_EQ(ours({"queue"}, "A lock-free queue, at last."), "A lock-free \x01queue\x02, at last.");
  // Case and diacritics fold, the text keeps its own spelling.
  EXPECT_EQ(ours({"zurich"}, "Trains from Zürich."), "Trains from \x01Zürich\x02.");
  // A phrase is one mark; the same words apart are two.
  EXPECT_EQ(ours({"cache line"}, "One cache line, then a cache and a line."),
            "One \x01"
            "cache line\x02, then a cache and a line.");
  EXPECT_EQ(ours({"cache", "line"}, "One cache line."),
            "One \x01"
            "cache\x02 \x01"
            "line\x02.");

  // Long: 32 words around the match, "…" where text is left out.
  std::string text;
  for (int i = 0; i < 100; ++i) text += "word" + std::to_string(i) + " ";
  const std::string s = ours({"word60"}, text);
  EXPECT_EQ(s.rfind("\u2026", 0), 0U) << s;
  EXPECT_NE(s.find("\x01word60\x02"), std::string::npos) << s;
  EXPECT_EQ(s.substr(s.size() - 3), "\u2026") << s;

  // No match in the text (a search that matched the title): the text's first words.
  EXPECT_EQ(ours({"absent"}, "Short text."), "Short text.");
  EXPECT_EQ(ours({"absent"}, ""), "");
  EXPECT_EQ(ours({"absent"}, text), fts5_snippet({"absent"}, text, "absent"));
  EXPECT_EQ(ours({"absent"}, "Short text."), fts5_snippet({"absent"}, "Short text.", "absent"));
}

TEST_F(SnippetTest, EqualsSqliteSnippetOnHandWrittenTexts) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {{"queue"}, "A lock-free queue, at last."},
      {{"cache line"}, "One cache line, then a cache and a line."},
      {{"cache", "line"}, "One cache line."},
      {{"a a"}, "a a a b a a"},
      {{"zurich"}, "  Leading space. Trains from Zürich: the CAFÉ's C++ code, v3.14!  "},
      {{"end"},
       "Many words come before the one we look for here, which sits at the very end of a long "
       "text that goes on and on and on past thirty two words: the end."},
      {{"start"},
       "start of a long text that goes on and on and on past thirty two words and further "
       "still, until it has said nothing at all about anything of note at all, the end."},
      {{"ok", "ok"}, "ok ok. ok: ok"},
  };
  for (const auto& [terms, text] : cases) EXPECT_EQ(ours(terms, text), fts5_snippet(terms, text)) << text;
}

// Random texts over a small vocabulary, with sentence breaks, and random queries of words and phrases:
// every snippet must equal SQLite's.
TEST_F(SnippetTest, EqualsSqliteSnippetOnRandomTextsAndQueries) {
  const std::vector<std::string> vocabulary = {"alpha", "beta", "gamma", "delta", "Épée", "x", "y", "zeta"};
  const std::vector<std::string> gaps = {" ", " ", " ", ", ", ". ", ": ", "\n", " - ", ".", "  "};
  std::mt19937 rng(20261204);
  auto pick = [&](const std::vector<std::string>& from) {
    return from[std::uniform_int_distribution<std::size_t>(0, from.size() - 1)(rng)];
  };
  int compared = 0;
  for (int round = 0; round < 3000; ++round) {
    const int length = std::uniform_int_distribution<int>(0, 140)(rng);
    std::string text = round % 3 == 0 ? ". " : "";
    for (int i = 0; i < length; ++i) text += pick(vocabulary) + pick(gaps);
    std::vector<std::string> terms;
    const int n_terms = std::uniform_int_distribution<int>(1, 3)(rng);
    for (int t = 0; t < n_terms; ++t) {
      std::string term = pick(vocabulary);
      const int words = std::uniform_int_distribution<int>(1, 3)(rng);
      for (int w = 1; w < words; ++w) {
        term += ' ';
        term += pick(vocabulary);
      }
      terms.push_back(term);
    }
    const std::string expected = fts5_snippet(terms, text);
    if (expected == "(no match)") continue;  // FTS5 makes snippets for matching rows only
    ++compared;
    ASSERT_EQ(ours(terms, text), expected) << "text: " << text << "\nfirst term: " << terms[0];
  }
  EXPECT_GT(compared, 500) << "too few random cases matched to compare";
}

// Bytes that are not UTF-8 (a SQLite database holds whatever was written; a copy or a bad disk can put them
// there): the word ranges come from FTS5's tokenizer, as SQLite's own snippet() takes them, so the snippet
// is SQLite's byte for byte, and nothing is read outside the text (the ASan build checks that).
TEST_F(SnippetTest, EqualsSqliteSnippetOnTextsThatAreNotUtf8) {
  const std::vector<std::string> texts = {
      "caf\xC3 queue \xFF\xFE queue",                 // a cut sequence, bytes no UTF-8 has
      "queue \x80\x80\x80 stray continuation bytes",  // continuation bytes with no lead
      "overlong \xC0\xAF slash, queue",               // an overlong encoding
      "\xE2\x82 queue at the end \xF0\x9F\x98",       // sequences cut short, the last at the end
      "queue\xED\xA0\x80surrogate queue",             // an encoded surrogate inside a word
  };
  for (const std::string& text : texts) {
    EXPECT_EQ(ours({"queue"}, text), fts5_snippet({"queue"}, text)) << text;
    std::string long_text;
    for (int i = 0; i < 40; ++i) long_text += text + " filler words here. ";
    EXPECT_EQ(ours({"queue"}, long_text), fts5_snippet({"queue"}, long_text)) << text;
  }
}

// A hostile blog's text of one word said a million times, searched for that word: FTS5's own snippet()
// scores every match for every match (40,000 of them took SQLite 7 s); this one only the matches inside each
// window, so the search ends, with the same snippet as FTS5's where FTS5 ends quickly enough to compare.
TEST_F(SnippetTest, ATextOfOneWordRepeatedCostsLinearTime) {
  std::string text;
  for (int i = 0; i < 2000; ++i) text += "spam ";
  EXPECT_EQ(ours({"spam"}, text), fts5_snippet({"spam"}, text));
  for (int i = 0; i < 1'000'000; ++i) text += "spam ";
  const std::string s = ours({"spam"}, text);
  EXPECT_EQ(s.rfind("\x01spam\x02 \x01spam\x02", 0), 0U) << s.substr(0, 80);
  EXPECT_LT(s.size(), 400U) << "32 words and their marks";
}

}  // namespace
}  // namespace longread::storage
