// Word splitting shared by the simhash and the classifier (internal to curate).
#pragma once

#include <algorithm>
#include <cctype>
#include <set>
#include <string>
#include <string_view>

namespace longread::curate::detail {

// The scanner behind for_each_word: calls append(std::string_view bytes) for each piece of the current
// word (ASCII bytes already lowercased) and end_word() after each non-empty word, with no allocation, so
// a caller can hash words without building them.
template <typename Append, typename EndWord>
void scan_words(std::string_view text, Append&& append, EndWord&& end_word) {
  bool in_word = false;
  auto flush = [&] {
    if (in_word) {
      end_word();
      in_word = false;
    }
  };
  std::size_t i = 0;
  while (i < text.size()) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
        append(text.substr(i, 1));
        in_word = true;
      } else if (c >= 'A' && c <= 'Z') {
        const char lower = static_cast<char>(c - 'A' + 'a');
        append(std::string_view(&lower, 1));
        in_word = true;
      } else if (c == '\'' && in_word && i + 1 < text.size() &&
                 std::isalpha(static_cast<unsigned char>(text[i + 1]))) {
        // apostrophe inside a word: skip it
      } else {
        flush();
      }
      ++i;
      continue;
    }
    std::size_t len = (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 1;
    if (i + len > text.size()) len = text.size() - i;
    char32_t cp = len == 2 ? (c & 0x1F) : len == 3 ? (c & 0x0F) : len == 4 ? (c & 0x07) : 0xFFFD;
    for (std::size_t k = 1; k < len; ++k) cp = (cp << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3F);
    const bool separator = (cp >= 0x2000 && cp <= 0x206F) || (cp >= 0x00A0 && cp <= 0x00BF) || cp == 0x00D7 ||
                           cp == 0x00F7 || (cp >= 0x3000 && cp <= 0x303F) || cp == 0xFFFD || cp == 0xFEFF;
    if (cp == 0x2019 && in_word && i + len < text.size() &&
        static_cast<unsigned char>(text[i + len]) < 0x80 &&
        std::isalpha(static_cast<unsigned char>(text[i + len]))) {
      // right single quotation mark used as an apostrophe: skip it like '\''
    } else if (separator) {
      flush();
    } else {
      append(text.substr(i, len));
      in_word = true;
    }
    i += len;
  }
  flush();
}

// Calls f(std::string_view word) for each word of UTF-8 text, lowercased (ASCII letters only; other
// scripts are kept as they are). A word is a run of ASCII letters/digits and non-ASCII letters;
// ASCII punctuation, General Punctuation (U+2000-U+206F: curly quotes, dashes, ellipsis), Latin-1
// punctuation and symbols (U+00A0-U+00BF, U+00D7, U+00F7) and CJK punctuation (U+3000-U+303F)
// separate words. An apostrophe inside a word is dropped ("don't" -> "dont").
template <typename F>
void for_each_word(std::string_view text, F&& f) {
  std::string word;
  scan_words(
      text, [&](std::string_view piece) { word.append(piece); },
      [&] {
        f(std::string_view(word));
        word.clear();
      });
}

// English function words: frequent everywhere, so they carry no category evidence.
inline const std::set<std::string_view>& stopwords() {
  static const std::set<std::string_view> words = {
      "about",  "above",      "after",     "again",    "against",    "all",    "also",    "and",    "any",
      "are",    "because",    "been",      "before",   "being",      "below",  "between", "both",   "but",
      "can",    "could",      "did",       "does",     "doing",      "down",   "during",  "each",   "even",
      "few",    "for",        "from",      "further",  "get",        "got",    "had",     "has",    "have",
      "having", "her",        "here",      "hers",     "herself",    "him",    "himself", "his",    "how",
      "into",   "its",        "itself",    "just",     "like",       "many",   "may",     "might",  "more",
      "most",   "much",       "must",      "myself",   "not",        "now",    "off",     "once",   "one",
      "only",   "other",      "our",       "ours",     "ourselves",  "out",    "over",    "own",    "same",
      "she",    "should",     "some",      "such",     "than",       "that",   "the",     "their",  "theirs",
      "them",   "themselves", "then",      "there",    "these",      "they",   "this",    "those",  "through",
      "too",    "under",      "until",     "very",     "was",        "way",    "were",    "what",   "when",
      "where",  "which",      "while",     "who",      "whom",       "why",    "will",    "with",   "would",
      "you",    "your",       "yours",     "yourself", "yourselves", "dont",   "didnt",   "doesnt", "isnt",
      "its",    "ive",        "youre",     "thats",    "theres",     "well",   "still",   "make",   "made",
      "use",    "used",       "using",     "new",      "first",      "two",    "know",    "think",  "want",
      "see",    "going",      "something", "thing",    "things",     "really", "lot",     "every",  "since",
      "though", "however",    "another",   "let",      "say",        "said",   "back",    "good",   "time",
      "post",   "read",       "http",      "https",    "www",        "com"};
  return words;
}

// A word worth counting as a term: 3 to 40 bytes, not only digits, not a stopword (the classifier's and
// the similar-articles index's vocabulary).
inline bool usable_word(std::string_view word) {
  if (word.size() < 3 || word.size() > 40) return false;
  if (std::all_of(word.begin(), word.end(), [](char c) { return c >= '0' && c <= '9'; })) return false;
  return !stopwords().contains(word);
}

}  // namespace longread::curate::detail
