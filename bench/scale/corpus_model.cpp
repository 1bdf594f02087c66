// corpus_model DIR [MAX_WORDS]: learns the shape of real blog writing from the feed files under DIR (the
// real-feeds corpus) and prints the model longread-generate's realistic mode writes from
// (src/storage/tools/corpus_model.txt). Each entry is turned into text the way a crawl does it
// (parse_feed, html_to_text of the longer of content and summary, strip_boilerplate); entries of fewer
// than kMinWords words are feed summaries, not articles, and are left out. It counts:
//   - word frequencies (lower-cased runs of ASCII letters; the MAX_WORDS most frequent, default 16000),
//   - words per sentence, sentences per paragraph, paragraphs per article (histograms),
//   - titles: words per title, title words, and how often a title is in Title Case, has a colon, or
//     ends with a question mark.
// The output is deterministic for a given corpus (ties broken by the word), so the checked-in file can be
// re-made and compared.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "../common/corpus.h"
#include "core/strings.h"
#include "feed/feed.h"
#include "html/html.h"

namespace {

constexpr int kMinWords = 150;
constexpr std::size_t kMaxWordLength = 20;

struct Counts {
  std::unordered_map<std::string, std::int64_t> words, title_words;
  std::map<int, std::int64_t> sentence_words, paragraph_sentences, article_paragraphs, title_length;
  std::int64_t entries = 0, tokens = 0, titles = 0, title_case = 0, colon = 0, question = 0;
};

bool is_letter(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) != 0;
}

// The words of a text, lower-cased; `ends` gets, for each word, whether a sentence ends after it.
std::vector<std::string> words_of(std::string_view text, std::vector<bool>* ends) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < text.size()) {
    if (!is_letter(text[i])) {
      if (ends && !out.empty() && (text[i] == '.' || text[i] == '!' || text[i] == '?') &&
          (i + 1 == text.size() || text[i + 1] == ' ' || text[i + 1] == '\n'))
        ends->back() = true;
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < text.size() && is_letter(text[j])) ++j;
    // A run glued to digits, underscores or non-ASCII letters is code or another script: skipped whole.
    const bool glued =
        (i > 0 && (static_cast<unsigned char>(text[i - 1]) >= 0x80 ||
                   std::isdigit(static_cast<unsigned char>(text[i - 1])) || text[i - 1] == '_')) ||
        (j < text.size() && (static_cast<unsigned char>(text[j]) >= 0x80 ||
                             std::isdigit(static_cast<unsigned char>(text[j])) || text[j] == '_'));
    if (!glued && j - i <= kMaxWordLength) {
      std::string w(text.substr(i, j - i));
      for (char& c : w) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      out.push_back(std::move(w));
      if (ends) ends->push_back(false);
    }
    i = j;
  }
  return out;
}

void count_entry(const longread::feed::Entry& entry, Counts& counts) {
  const std::string& body = entry.content.size() >= entry.summary.size() ? entry.content : entry.summary;
  const std::string text = longread::html::strip_boilerplate(longread::html::html_to_text(body));
  if (longread::count_words(text) < static_cast<std::size_t>(kMinWords)) return;
  ++counts.entries;
  int paragraphs = 0;
  for (const std::string_view paragraph : longread::split(text, '\n')) {
    // Code blocks and markup are not prose: their identifiers would enter the vocabulary.
    if (paragraph.find_first_of("{}=;<>_\\") != std::string_view::npos) continue;
    std::vector<bool> ends;
    const auto words = words_of(paragraph, &ends);
    if (words.size() < 3) continue;  // blank lines, captions, lone links
    ++paragraphs;
    int sentences = 0, length = 0;
    for (std::size_t k = 0; k < words.size(); ++k) {
      ++counts.words[words[k]];
      ++counts.tokens;
      ++length;
      if (ends[k] || k + 1 == words.size()) {
        ++counts.sentence_words[std::min(length, 80)];
        ++sentences;
        length = 0;
      }
    }
    ++counts.paragraph_sentences[std::min(sentences, 30)];
  }
  ++counts.article_paragraphs[std::min(paragraphs, 120)];

  const auto title_words = words_of(entry.title, nullptr);
  if (title_words.empty()) return;
  ++counts.titles;
  ++counts.title_length[std::min(static_cast<int>(title_words.size()), 30)];
  for (const auto& w : title_words) ++counts.title_words[w];
  if (entry.title.find(':') != std::string::npos) ++counts.colon;
  if (entry.title.ends_with('?')) ++counts.question;
  // Title Case: every word of four letters or more starts with a capital.
  bool all_capitalised = true;
  for (const std::string_view w : longread::split(entry.title, ' '))
    if (w.size() >= 4 && is_letter(w[0]) && !std::isupper(static_cast<unsigned char>(w[0])))
      all_capitalised = false;
  if (all_capitalised) ++counts.title_case;
}

// The most frequent `limit` words, by count then by word.
std::vector<std::pair<std::string, std::int64_t>> top(const std::unordered_map<std::string, std::int64_t>& m,
                                                      std::size_t limit, std::int64_t min_count) {
  std::vector<std::pair<std::string, std::int64_t>> v;
  for (const auto& [w, c] : m)
    if (c >= min_count) v.emplace_back(w, c);
  std::sort(v.begin(), v.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  });
  if (v.size() > limit) v.resize(limit);
  return v;
}

void print_histogram(const char* tag, const std::map<int, std::int64_t>& h) {
  for (const auto& [value, count] : h) fmt::print("{} {} {}\n", tag, value, count);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    fmt::print(stderr, "usage: corpus_model FEED_DIR [MAX_WORDS]\n");
    return 2;
  }
  const std::size_t max_words =
      argc > 2 ? static_cast<std::size_t>(std::max(100, std::atoi(argv[2]))) : 16000;
  const auto files = longread::bench::read_feed_files(argv[1]);
  Counts counts;
  std::size_t feeds = 0;
  for (const auto& bytes : files.contents) {
    auto parsed =
        longread::feed::parse_feed(bytes, {.base_url = "https://example.com/feed", .content_type = {}});
    if (!parsed) continue;
    ++feeds;
    for (const auto& entry : parsed->entries) count_entry(entry, counts);
  }
  if (counts.entries == 0) {
    fmt::print(stderr, "corpus_model: no entry of {} words or more under {}\n", kMinWords, argv[1]);
    return 1;
  }
  const auto vocabulary = top(counts.words, max_words, 2);
  const auto title_vocabulary = top(counts.title_words, max_words / 4, 2);
  fmt::print(
      "# longread-generate corpus model, made by bench/scale/corpus_model from "
      "../shared/corpus/real-feeds\n");
  fmt::print("# ({} feed files, {} entries of at least {} words, {} words, {} distinct).\n", feeds,
             counts.entries, kMinWords, counts.tokens, counts.words.size());
  fmt::print(
      "# Lines: S words-per-sentence count | P sentences-per-paragraph count | A paragraphs-per-article\n");
  fmt::print("# count | L words-per-title count | style titles title_case colon question |\n");
  fmt::print("# w word count (text, most frequent first) | t word count (titles).\n");
  print_histogram("S", counts.sentence_words);
  print_histogram("P", counts.paragraph_sentences);
  print_histogram("A", counts.article_paragraphs);
  print_histogram("L", counts.title_length);
  fmt::print("style {} {} {} {}\n", counts.titles, counts.title_case, counts.colon, counts.question);
  for (const auto& [w, c] : vocabulary) fmt::print("w {} {}\n", w, c);
  for (const auto& [w, c] : title_vocabulary) fmt::print("t {} {}\n", w, c);
  return 0;
}
