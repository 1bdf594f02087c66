// Curation: is a feed entry a long-form article worth showing (junk rules), which language is it in,
// is it a near-duplicate of another, and which category does it belong to. Pure functions, no I/O.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/error.h"
#include "model/model.h"

namespace longread::curate {

// What the junk rules accept: the languages readers want (ISO 639-1; empty accepts every language)
// and the length below which a post of a long-form blog is "too short".
struct JunkOptions {
  std::vector<std::string> languages = {"en"};
  int min_words = 150;
};

// The verdict on one article. `reason` is short, operator-facing, with a stable prefix:
// "too short: 42 words", "draft placeholder: \"Pending.\"", "link post", "open thread",
// "announcement of another post", "sponsored", "not an article: about page", "forum thread",
// "aggregator story", "language: de".
// (The pipeline adds "duplicate of article 123" from simhash + the store.)
struct Verdict {
  bool junk = false;
  std::string reason;
};

// Judges one article by its title, text (plain, boilerplate stripped), word_count, link, undated,
// published and content_html/summary_html (for link counting), and the blog's short_form flag.
// Rules are tried from the most specific to the most general (see docs/curate.md); the first that
// matches gives the reason.
[[nodiscard]] Verdict judge(const model::Article& article, const model::Blog& blog,
                            const JunkOptions& options = {});

// Language of a text as CLD2's code (ISO 639-1 where one exists, e.g. "en", "de"; "zh-Hant" and a few
// others are longer), or "" when unknown or when CLD2 does not call its answer reliable. Looks at the
// first 4 KiB only.
[[nodiscard]] std::string detect_language(std::string_view text);

// 64-bit SimHash (Charikar 2002) over overlapping 3-word shingles of the lowercased text with
// punctuation stripped; similar texts get hashes at a small Hamming distance. 0 for empty text.
[[nodiscard]] std::uint64_t simhash(std::string_view text);
[[nodiscard]] int hamming_distance(std::uint64_t a, std::uint64_t b);
// Largest Hamming distance between two simhashes still called near-duplicates; calibrated in
// simhash_test.cpp on real posts (same post syndicated with other boilerplate vs. different posts).
inline constexpr int kNearDuplicateDistance = 11;
[[nodiscard]] bool near_duplicate(std::uint64_t a, std::uint64_t b);

// Category classifier: L2-regularised multinomial logistic regression (softmax) over sublinear,
// L2-normalised TF-IDF vectors of word unigrams. Deterministic: the same examples give the same model.
class CategoryClassifier {
 public:
  // Replaces any previous model. Examples with an empty category or no usable words are ignored.
  void train(const std::vector<std::pair<std::string /*text*/, std::string /*category*/>>& examples);
  // Best category and its posterior probability; nullopt when untrained or the text has fewer than
  // kMinWords words.
  [[nodiscard]] std::optional<std::pair<std::string, double>> classify(std::string_view text) const;
  // Posterior probability of every category (empty when classify would give nullopt).
  [[nodiscard]] std::map<std::string, double> posteriors(std::string_view text) const;
  // The model as JSON, for storing; deserialize(serialize()) classifies identically.
  [[nodiscard]] std::string serialize() const;
  [[nodiscard]] static Result<CategoryClassifier> deserialize(std::string_view json);
  [[nodiscard]] bool trained() const { return !categories_.empty(); }
  [[nodiscard]] const std::vector<std::string>& categories() const { return categories_; }

  static constexpr int kMinWords = 20;

 private:
  std::vector<std::string> categories_;
  std::map<std::string, std::pair<int, double>, std::less<>> vocabulary_;  // term -> (index, idf)
  std::vector<std::vector<double>> weights_;                               // [category][term index]
  std::vector<double> bias_;                                               // [category]
};

// The article's category: the classifier's best guess when it is at least `threshold` probable, differs
// from the blog's, and is at least 5 times as probable as the blog's own category; otherwise the
// blog's category. With no classifier (or an untrained one) always the blog's.
[[nodiscard]] std::string choose_category(const CategoryClassifier* classifier, std::string_view text,
                                          std::string_view blog_category, double threshold = 0.8);

}  // namespace longread::curate
