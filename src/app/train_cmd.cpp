// `longread train`: the article-category classifier, trained on stored articles labelled by their blogs'
// categories, evaluated on a held-out split, then retrained on everything and saved for the crawler.
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>

#include "app/commands.h"
#include "app/store_setup.h"
#include "core/strings.h"
#include "curate/curate.h"
#include "storage/store.h"

namespace longread::app {

std::string model_path(const config::Config& config) {
  if (!config.curate.model_path.empty()) return config.curate.model_path;
  // Beside the SQLite file; a site on PostgreSQL keeps it in ./data, as a fresh SQLite site would.
  if (storage::is_database_url(config.db_path)) return "data/classifier.json";
  const auto parent = std::filesystem::path(config.db_path).parent_path();
  return (parent / "classifier.json").string();
}

std::optional<curate::CategoryClassifier> load_classifier(const config::Config& config) {
  const auto path = model_path(config);
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;  // not trained yet: articles take their blog's category
  const std::string json((std::istreambuf_iterator<char>(in)), {});
  auto model = curate::CategoryClassifier::deserialize(json);
  if (!model) {
    fmt::print(stderr, "longread: ignoring classifier {}: {}\n", path, model.error().message);
    return std::nullopt;
  }
  return std::move(*model);
}

int cmd_train(const config::Config& config, double holdout) {
  auto store = open_store(config);
  if (!store) return 1;
  storage::ArticleQuery query;
  query.limit = 1'000'000;
  auto articles = store->articles(query);
  if (!articles) {
    return report_failure(articles.error());
  }
  // Labels are the blogs' categories; the deterministic split keeps every run comparable.
  std::vector<std::pair<std::string, std::string>> train;
  std::vector<std::pair<std::string, std::string>> test;
  for (const auto& v : *articles) {
    if (v.blog_category.empty() || v.article.word_count < curate::CategoryClassifier::kMinWords) continue;
    // Listings carry the ~2,000-character excerpt, not the whole text: enough words to learn from, and
    // training over 100,000 articles stays a read of one column.
    auto example = std::make_pair(v.article.title + "\n" + v.article.excerpt, v.blog_category);
    const bool held_out = (std::stoull(stable_hash_hex(v.article.guid).substr(0, 8), nullptr, 16) % 1000) <
                          static_cast<unsigned long long>(holdout * 1000);
    (held_out ? test : train).push_back(std::move(example));
  }
  if (train.empty()) {
    fmt::print(stderr, "longread: no articles to train on yet: crawl first\n");
    return 1;
  }
  // With one category there is nothing to tell apart: every guess is right and nothing was learned.
  std::map<std::string, std::size_t> per_category;
  for (const auto* set : {&train, &test})
    for (const auto& example : *set) ++per_category[example.second];
  if (per_category.size() < 2) {
    fmt::print(
        stderr,
        "longread: cannot train: every article is in one category (\"{}\"); the classifier needs at least "
        "2 categories to tell apart (give blogs their categories in the OPML list or with `longread "
        "blogs edit ID --category NAME`)\n",
        per_category.begin()->first);
    return 1;
  }
  curate::CategoryClassifier classifier;
  const std::size_t total = train.size() + test.size();
  if (test.empty()) {
    fmt::print(
        "held-out accuracy not measured: no article fell in the {:.0f}% held out ({} articles, {} "
        "categories)\n",
        holdout * 100, total, per_category.size());
  } else {
    classifier.train(train);
    int correct = 0;
    for (const auto& [text, category] : test) {
      const auto guess = classifier.classify(text);
      if (guess && guess->first == category) ++correct;
    }
    // The baseline is what always answering the training set's commonest category would score on the same
    // held-out articles: a classifier that does no better has learned nothing from the words.
    std::map<std::string, std::size_t> train_counts;
    for (const auto& example : train) ++train_counts[example.second];
    const auto majority = std::max_element(train_counts.begin(), train_counts.end(),
                                           [](const auto& a, const auto& b) { return a.second < b.second; });
    const auto baseline_hits = std::count_if(
        test.begin(), test.end(), [&](const auto& example) { return example.second == majority->first; });
    const double accuracy = 100.0 * correct / static_cast<double>(test.size());
    const double baseline = 100.0 * static_cast<double>(baseline_hits) / static_cast<double>(test.size());
    fmt::print(
        "held-out accuracy {:.1f}% ({}/{} correct; majority baseline {:.1f}%, always \"{}\"; {} "
        "categories, {} articles)\n",
        accuracy, correct, test.size(), baseline, majority->first, per_category.size(), total);
    if (accuracy <= baseline)
      fmt::print(
          "warning: no better than the majority baseline: the categories' articles do not differ enough "
          "in their words, or there are too few of them\n");
  }
  train.insert(train.end(), test.begin(), test.end());
  classifier.train(train);
  const auto path = model_path(config);
  const auto tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << classifier.serialize();
    if (!out) {
      fmt::print(stderr, "longread: cannot write {}\n", tmp);
      return 1;
    }
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);  // atomic: a crawler never reads half a model
  if (ec) {
    fmt::print(stderr, "longread: cannot write {}: {}\n", path, ec.message());
    return 1;
  }
  fmt::print("saved the classifier ({} articles) to {}\n", train.size(), path);
  return 0;
}

}  // namespace longread::app
