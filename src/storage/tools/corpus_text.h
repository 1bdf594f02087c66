// Text that reads like the blog posts of ../shared/corpus: a corpus model (word frequencies, sentence,
// paragraph and article lengths, title shapes; made by bench/scale/corpus_model) and a generator that
// writes from it. Used by longread-generate and by the crawl benchmark's feed server.
#pragma once

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <expected>
#include <limits>
#include <map>
#include <numeric>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace longread::generate {

// Histograms and vocabularies of a corpus model; see bench/scale/corpus_model.cpp for the format.
struct CorpusModel {
  std::vector<std::string> words, title_words;
  std::vector<double> word_weights, title_word_weights;
  std::map<char, std::pair<std::vector<int>, std::vector<double>>> histograms;  // S, P, A, L
  double title_case = 0.5, colon = 0.2, question = 0.03;
};

// Reads a model in corpus_model's text format; the error names the first bad line.
std::expected<CorpusModel, std::string> parse_corpus_model(std::string_view text);

// The model built into the binary (src/storage/tools/corpus_model.txt, embedded at build time).
const char* builtin_corpus_model();

// std::discrete_distribution<std::size_t>'s draws, the very same ones from the same engine, found faster.
// libstdc++ draws a canonical double u in [0, 1) from the engine and returns the first index whose
// cumulative probability is not below u, a binary search over every weight: over the model's tens of
// thousands of words, most of the feed server's time in a crawl benchmark, on the cores the crawlers
// are measured on. Here a guide table names, for each of kGuide equal slices of [0, 1), where that
// search starts and ends, so it runs over the few weights the slice spans. The cumulative sums are made
// as libstdc++ makes them (the normalized weights, summed in order, the last set to 1).
class GuidedDiscrete {
 public:
  template <typename It>
  GuidedDiscrete(It first, It last) {
    const std::discrete_distribution<std::size_t> reference(first, last);
    const std::vector<double> p = reference.probabilities();
    // libstdc++ keeps no cumulative sums for fewer than two weights and then always draws 0, without
    // taking a number from the engine.
    if (p.size() < 2) return;
    cumulative_.resize(p.size());
    std::partial_sum(p.begin(), p.end(), cumulative_.begin());
    cumulative_.back() = 1.0;
    guide_.resize(kGuide + 1);
    for (std::size_t j = 0; j <= kGuide; ++j)
      guide_[j] = static_cast<std::uint32_t>(
          std::lower_bound(cumulative_.begin(), cumulative_.end(), static_cast<double>(j) / kGuide) -
          cumulative_.begin());
  }

  std::size_t operator()(std::mt19937_64& rng) const {
    if (cumulative_.empty()) return 0;
    const double u = std::generate_canonical<double, std::numeric_limits<double>::digits>(rng);
    // kGuide is a power of two, so u * kGuide is exact and u lies in [j / kGuide, (j + 1) / kGuide): its
    // index lies between the guide's entries for j and j + 1, and is the latter when every sum before it
    // is below u (where lower_bound stops).
    const auto j = static_cast<std::size_t>(u * kGuide);
    const auto begin = cumulative_.begin() + guide_[j];
    const auto end = cumulative_.begin() + guide_[j + 1];
    return static_cast<std::size_t>(std::lower_bound(begin, end, u) - cumulative_.begin());
  }

 private:
  static constexpr std::size_t kGuide = 4096;
  std::vector<double> cumulative_;
  std::vector<std::uint32_t> guide_;
};

// Writes like the corpus: sentences of words drawn by corpus frequency, with an article's own topic words
// recurring in it (real posts repeat their subject; drawing every word independently would spread each
// mid-frequency word over far more articles than it is in).
class RealisticGenerator {
 public:
  RealisticGenerator(const CorpusModel& model, std::uint64_t seed)
      : model_(model),
        rng_(seed),
        word_(model.word_weights.begin(), model.word_weights.end()),
        title_word_(model.title_word_weights.begin(), model.title_word_weights.end()),
        sentence_words_(histogram('S')),
        paragraph_sentences_(histogram('P')),
        article_paragraphs_(histogram('A')),
        title_length_(histogram('L')) {}

  template <typename Array>
  const char* pick(const Array& words) {
    return words[std::uniform_int_distribution<std::size_t>(0, words.size() - 1)(rng_)];
  }
  int between(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  double unit() { return std::uniform_real_distribution<double>(0.0, 1.0)(rng_); }
  std::mt19937_64& rng() { return rng_; }
  // Starts the sequence again from `seed`, so a caller can make one text per key without a generator each.
  void reseed(std::uint64_t seed) {
    rng_.seed(seed);
    topic_.clear();
  }

  std::string title() {
    const int length = std::max(1, draw('L', title_length_));
    const bool title_case = unit() < model_.title_case;
    const int colon_after = unit() < model_.colon && length >= 3 ? between(1, length - 2) : -1;
    std::string t;
    const std::string* previous = nullptr;
    for (int i = 0; i < length; ++i) {
      // A third of the title words are the article's topic words, as a title names what the post is about.
      const std::string* w = nullptr;
      do {
        w = !topic_.empty() && unit() < 0.33 ? &model_.words[topic_[rng_() % topic_.size()]]
                                             : &model_.title_words[title_word_(rng_)];
      } while (w == previous);
      previous = w;
      if (i > 0) t += ' ';
      if (i == 0 || (title_case && w->size() >= 4)) {
        t += static_cast<char>(std::toupper(static_cast<unsigned char>((*w)[0])));
        t += std::string_view(*w).substr(1);
      } else {
        t += *w;
      }
      if (i == colon_after) t += ':';
    }
    if (unit() < model_.question) t += '?';
    return t;
  }

  // Chooses the next article's topic words (before its title and text).
  void new_topic() {
    topic_.clear();
    const int n = between(3, 12);
    for (int i = 0; i < n; ++i) {
      // Topic words come from below the 200 most frequent (those are function words).
      std::size_t w = 0;
      do w = word_(rng_);
      while (w < 200);
      topic_.push_back(w);
    }
  }

  std::vector<std::string> paragraphs() {
    std::vector<std::string> out(static_cast<std::size_t>(std::max(1, draw('A', article_paragraphs_))));
    for (auto& p : out) {
      const int sentences = std::max(1, draw('P', paragraph_sentences_));
      for (int i = 0; i < sentences; ++i) {
        if (i > 0) p += ' ';
        sentence(p);
      }
    }
    return out;
  }

 private:
  GuidedDiscrete histogram(char tag) const {
    const auto& weights = model_.histograms.at(tag).second;
    return {weights.begin(), weights.end()};
  }
  int draw(char tag, const GuidedDiscrete& d) { return model_.histograms.at(tag).first[d(rng_)]; }

  void sentence(std::string& out) {
    const int words = std::max(1, draw('S', sentence_words_));
    for (int i = 0; i < words; ++i) {
      const std::string& w = !topic_.empty() && unit() < 0.04 ? model_.words[topic_[rng_() % topic_.size()]]
                                                              : model_.words[word_(rng_)];
      if (i == 0) {
        out += static_cast<char>(std::toupper(static_cast<unsigned char>(w[0])));
        out += std::string_view(w).substr(1);
      } else {
        out += ' ';
        out += w;
      }
      if (i > 2 && i + 2 < words && unit() < 0.06) out += ',';
    }
    out += '.';
  }

  const CorpusModel& model_;
  std::mt19937_64 rng_;
  GuidedDiscrete word_, title_word_;
  GuidedDiscrete sentence_words_, paragraph_sentences_, article_paragraphs_, title_length_;
  std::vector<std::size_t> topic_;
};
}  // namespace longread::generate
