// Category classifier: softmax (multinomial logistic) regression on TF-IDF vectors, trained by SGD with
// L2 regularisation (Bottou, "Stochastic Gradient Descent Tricks", 2012: the weight-scaling trick keeps
// each sparse update O(non-zeros)). Logistic regression rather than naive Bayes because its posteriors
// are usable as confidences: naive Bayes multiplies per-word evidence as if independent and calls
// almost every long text >0.99 certain, which would make choose_category's threshold meaningless.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <random>
#include <set>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "core/strings.h"
#include "curate/curate.h"
#include "curate/words.h"

namespace longread::curate {
namespace {

constexpr std::size_t kMaxVocabulary = 20000;
constexpr double kC = 10.0;              // inverse regularisation strength, as in liblinear / scikit-learn
constexpr double kWeightQuantum = 1e-5;  // weights are rounded to this so the JSON is compact and exact
constexpr std::uint32_t kSeed = 20240523;
constexpr const char* kFormat = "longread-category-classifier";

std::unordered_map<std::string, int> term_counts(std::string_view text) {
  std::unordered_map<std::string, int> counts;
  detail::for_each_word(text, [&](std::string_view w) {
    if (detail::usable_word(w)) ++counts[std::string(w)];
  });
  return counts;
}

using SparseVector = std::vector<std::pair<int, double>>;

double quantize(double x) {
  return std::round(x / kWeightQuantum) * kWeightQuantum;
}

// Softmax in place, stable against overflow.
void softmax(std::vector<double>& scores) {
  const double top = *std::max_element(scores.begin(), scores.end());
  double sum = 0;
  for (double& s : scores) sum += (s = std::exp(s - top));
  for (double& s : scores) s /= sum;
}

}  // namespace

void CategoryClassifier::train(const std::vector<std::pair<std::string, std::string>>& examples) {
  categories_.clear();
  vocabulary_.clear();
  weights_.clear();
  bias_.clear();

  // Documents as term counts; categories sorted so the model does not depend on example order.
  std::vector<std::unordered_map<std::string, int>> docs;
  std::vector<std::string> labels;
  for (const auto& [text, category] : examples) {
    if (category.empty()) continue;
    auto counts = term_counts(text);
    if (counts.empty()) continue;
    docs.push_back(std::move(counts));
    labels.push_back(category);
  }
  if (docs.empty()) return;
  std::set<std::string> category_set(labels.begin(), labels.end());
  categories_.assign(category_set.begin(), category_set.end());

  // Vocabulary: terms in at least 2 documents (1 for tiny training sets), the most frequent first.
  std::map<std::string, int> df;
  for (const auto& doc : docs) {
    for (const auto& [term, _] : doc) ++df[term];
  }
  const int min_df = docs.size() >= 20 ? 2 : 1;
  std::vector<std::pair<std::string, int>> terms;
  for (auto& [term, n] : df) {
    if (n >= min_df) terms.emplace_back(term, n);
  }
  std::stable_sort(terms.begin(), terms.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  if (terms.size() > kMaxVocabulary) terms.resize(kMaxVocabulary);
  const double n_docs = static_cast<double>(docs.size());
  for (std::size_t i = 0; i < terms.size(); ++i) {
    // Smoothed idf (as scikit-learn's TfidfTransformer): log((1+N)/(1+df)) + 1.
    const double idf = quantize(std::log((1.0 + n_docs) / (1.0 + terms[i].second)) + 1.0);
    vocabulary_.emplace(terms[i].first, std::pair<int, double>{static_cast<int>(i), idf});
  }

  // TF-IDF vectors: sublinear tf (1 + log tf), L2-normalised.
  std::vector<SparseVector> xs;
  std::vector<int> ys;
  for (std::size_t d = 0; d < docs.size(); ++d) {
    SparseVector x;
    double norm = 0;
    for (const auto& [term, count] : docs[d]) {
      auto it = vocabulary_.find(term);
      if (it == vocabulary_.end()) continue;
      const double v = (1.0 + std::log(count)) * it->second.second;
      x.emplace_back(it->second.first, v);
      norm += v * v;
    }
    if (x.empty()) continue;
    norm = std::sqrt(norm);
    for (auto& [_, v] : x) v /= norm;
    std::sort(x.begin(), x.end());
    xs.push_back(std::move(x));
    ys.push_back(static_cast<int>(std::lower_bound(categories_.begin(), categories_.end(), labels[d]) -
                                  categories_.begin()));
  }

  const std::size_t n_classes = categories_.size();
  const std::size_t n_terms = vocabulary_.size();
  std::vector<std::vector<double>> v(n_classes, std::vector<double>(n_terms, 0.0));
  std::vector<double> scale(n_classes, 1.0);
  bias_.assign(n_classes, 0.0);
  if (n_classes > 1 && !xs.empty()) {
    const double n = static_cast<double>(xs.size());
    const double lambda = 1.0 / (kC * n);
    const double eta0 = 0.5;
    const int epochs = std::clamp(static_cast<int>(6000 / n), 30, 300);
    std::mt19937 rng(kSeed);  // fully specified engine: the same shuffle on every platform
    std::vector<std::size_t> order(xs.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::vector<double> p(n_classes);
    double t = 0;
    for (int epoch = 0; epoch < epochs; ++epoch) {
      for (std::size_t i = order.size(); i > 1; --i) {  // Fisher-Yates with the raw engine output
        std::swap(order[i - 1], order[rng() % i]);
      }
      for (const std::size_t i : order) {
        const double eta = eta0 / (1.0 + lambda * eta0 * t);
        t += 1;
        for (std::size_t c = 0; c < n_classes; ++c) {
          double dot = 0;
          for (const auto& [j, xv] : xs[i]) dot += v[c][j] * xv;
          p[c] = scale[c] * dot + bias_[c];
        }
        softmax(p);
        for (std::size_t c = 0; c < n_classes; ++c) {
          const double g = p[c] - (static_cast<int>(c) == ys[i] ? 1.0 : 0.0);
          scale[c] *= (1.0 - eta * lambda);
          if (scale[c] < 1e-6) {  // fold the scale back in before it underflows
            for (double& w : v[c]) w *= scale[c];
            scale[c] = 1.0;
          }
          const double step = eta * g / scale[c];
          for (const auto& [j, xv] : xs[i]) v[c][j] -= step * xv;
          bias_[c] -= eta * g;
        }
      }
    }
  }
  weights_.assign(n_classes, std::vector<double>(n_terms, 0.0));
  for (std::size_t c = 0; c < n_classes; ++c) {
    for (std::size_t j = 0; j < n_terms; ++j) weights_[c][j] = quantize(scale[c] * v[c][j]);
    bias_[c] = quantize(bias_[c]);
  }
}

std::map<std::string, double> CategoryClassifier::posteriors(std::string_view text) const {
  std::map<std::string, double> out;
  if (!trained() || count_words(text) < static_cast<std::size_t>(kMinWords)) return out;
  if (categories_.size() == 1) {
    out.emplace(categories_.front(), 1.0);
    return out;
  }
  SparseVector x;
  double norm = 0;
  for (const auto& [term, count] : term_counts(text)) {
    auto it = vocabulary_.find(term);
    if (it == vocabulary_.end()) continue;
    const double v = (1.0 + std::log(count)) * it->second.second;
    x.emplace_back(it->second.first, v);
    norm += v * v;
  }
  if (x.empty()) return out;  // no word the model knows: no evidence either way
  norm = std::sqrt(norm);
  std::vector<double> scores(categories_.size());
  for (std::size_t c = 0; c < categories_.size(); ++c) {
    double dot = 0;
    for (const auto& [j, v] : x) dot += weights_[c][j] * v;
    scores[c] = dot / norm + bias_[c];
  }
  softmax(scores);
  for (std::size_t c = 0; c < categories_.size(); ++c) out.emplace(categories_[c], scores[c]);
  return out;
}

std::optional<std::pair<std::string, double>> CategoryClassifier::classify(std::string_view text) const {
  const auto post = posteriors(text);
  if (post.empty()) return std::nullopt;
  // Ties go to the alphabetically first category (map order), so results are deterministic.
  const auto best = std::max_element(post.begin(), post.end(),
                                     [](const auto& a, const auto& b) { return a.second < b.second; });
  return std::pair<std::string, double>{best->first, best->second};
}

std::string CategoryClassifier::serialize() const {
  nlohmann::json j;
  j["format"] = kFormat;
  j["version"] = 1;
  j["categories"] = categories_;
  j["bias"] = bias_;
  // Terms in index order, each with its idf and one weight per category.
  std::vector<const std::pair<const std::string, std::pair<int, double>>*> by_index(vocabulary_.size());
  for (const auto& entry : vocabulary_) by_index[static_cast<std::size_t>(entry.second.first)] = &entry;
  nlohmann::json terms = nlohmann::json::array();
  for (const auto* entry : by_index) {
    nlohmann::json w = nlohmann::json::array();
    for (const auto& row : weights_) w.push_back(row[static_cast<std::size_t>(entry->second.first)]);
    terms.push_back({entry->first, entry->second.second, std::move(w)});
  }
  j["terms"] = std::move(terms);
  return j.dump();
}

Result<CategoryClassifier> CategoryClassifier::deserialize(std::string_view json) {
  const auto j = nlohmann::json::parse(json, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) {
    return fail(ErrorKind::kInvalidInput, "curate: classifier model is not valid JSON");
  }
  if (j.value("format", "") != kFormat || j.value("version", 0) != 1) {
    return fail(ErrorKind::kInvalidInput, "curate: not a longread classifier model (format/version)");
  }
  try {
    CategoryClassifier model;
    model.categories_ = j.at("categories").get<std::vector<std::string>>();
    model.bias_ = j.at("bias").get<std::vector<double>>();
    const std::size_t n_classes = model.categories_.size();
    if (model.bias_.size() != n_classes) {
      return fail(ErrorKind::kInvalidInput, "curate: classifier model: bias has the wrong length");
    }
    const auto& terms = j.at("terms");
    model.weights_.assign(n_classes, std::vector<double>(terms.size(), 0.0));
    for (std::size_t i = 0; i < terms.size(); ++i) {
      const auto& t = terms[i];
      if (!t.is_array() || t.size() != 3 || t[2].size() != n_classes) {
        return fail(ErrorKind::kInvalidInput,
                    "curate: classifier model: malformed term " + std::to_string(i));
      }
      model.vocabulary_.emplace(t[0].get<std::string>(),
                                std::pair<int, double>{static_cast<int>(i), t[1].get<double>()});
      for (std::size_t c = 0; c < n_classes; ++c) model.weights_[c][i] = t[2][c].get<double>();
    }
    if (model.vocabulary_.size() != terms.size()) {
      return fail(ErrorKind::kInvalidInput, "curate: classifier model: duplicate terms");
    }
    return model;
  } catch (const nlohmann::json::exception& e) {
    return fail(ErrorKind::kInvalidInput, std::string("curate: classifier model: ") + e.what());
  }
}

std::string choose_category(const CategoryClassifier* classifier, std::string_view text,
                            std::string_view blog_category, double threshold) {
  std::string fallback(blog_category);
  if (classifier == nullptr || !classifier->trained()) return fallback;
  const auto post = classifier->posteriors(text);
  if (post.empty()) return fallback;
  const auto best = std::max_element(post.begin(), post.end(),
                                     [](const auto& a, const auto& b) { return a.second < b.second; });
  if (best->first == blog_category || best->second < threshold) return fallback;
  // Strong different-category evidence: the blog's own category must be far less likely.
  const auto own = post.find(fallback);
  if (own != post.end() && best->second < 5.0 * own->second) return fallback;
  return best->first;
}

}  // namespace longread::curate
