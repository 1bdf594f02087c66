#include "storage/tools/corpus_text.h"

#include <sstream>

namespace longread::generate {

extern const char* const kCorpusModel;

const char* builtin_corpus_model() {
  return kCorpusModel;
}

std::expected<CorpusModel, std::string> parse_corpus_model(std::string_view text) {
  CorpusModel m;
  std::istringstream in{std::string(text)};
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string tag;
    fields >> tag;
    if (tag == "w" || tag == "t") {
      std::string word;
      double count = 0;
      if (!(fields >> word >> count) || count <= 0) return std::unexpected("bad line: " + line);
      (tag == "w" ? m.words : m.title_words).push_back(word);
      (tag == "w" ? m.word_weights : m.title_word_weights).push_back(count);
    } else if (tag == "S" || tag == "P" || tag == "A" || tag == "L") {
      int value = 0;
      double count = 0;
      if (!(fields >> value >> count) || value < 0 || count <= 0) return std::unexpected("bad line: " + line);
      auto& [values, weights] = m.histograms[tag[0]];
      values.push_back(value);
      weights.push_back(count);
    } else if (tag == "style") {
      double titles = 0, title_case = 0, colon = 0, question = 0;
      if (!(fields >> titles >> title_case >> colon >> question) || titles <= 0)
        return std::unexpected("bad line: " + line);
      m.title_case = title_case / titles;
      m.colon = colon / titles;
      m.question = question / titles;
    } else {
      return std::unexpected("unknown line: " + line);
    }
  }
  if (m.words.size() < 100 || m.title_words.empty()) return std::unexpected("too few words");
  for (const char h : {'S', 'P', 'A', 'L'})
    if (!m.histograms.contains(h)) return std::unexpected(std::string("no ") + h + " histogram");
  return m;
}

}  // namespace longread::generate
