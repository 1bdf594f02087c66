// longread-train-eval: trains the category classifier on labelled texts and reports accuracy on a
// deterministic 80/20 held-out split.
//
//   longread-train-eval --jsonl examples.jsonl          # lines of {"text": ..., "category": ...}
//   longread-train-eval --dir labelled/                 # labelled/<category>/*.txt
//   longread-train-eval --feeds src/curate/testdata/feed_categories.tsv --corpus ../shared/corpus
//
// With --feeds, every entry of each listed feed (parsed by the feed stage, converted to text by the
// html stage) is labelled with its feed's category; entries under --min-words words are dropped, and
// near-duplicates (simhash) are kept once, so that copies of a post in several snapshots cannot sit on
// both sides of the split.
#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "core/strings.h"
#include "curate/curate.h"
#include "feed/feed.h"
#include "html/html.h"

namespace fs = std::filesystem;
using namespace longread;

namespace {

struct Example {
  std::string text, category, source;
};

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<Example> from_jsonl(const fs::path& path) {
  std::vector<Example> out;
  std::ifstream in(path);
  std::string line;
  int lineno = 0;
  while (std::getline(in, line)) {
    ++lineno;
    if (trim(line).empty()) continue;
    const auto j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.contains("text") || !j.contains("category")) {
      throw std::runtime_error(
          fmt::format("{}:{}: expected {{\"text\": ..., \"category\": ...}}", path.string(), lineno));
    }
    out.push_back({j["text"].get<std::string>(), j["category"].get<std::string>(),
                   j.value("source", fmt::format("line {}", lineno))});
  }
  return out;
}

std::vector<Example> from_dir(const fs::path& dir) {
  std::vector<Example> out;
  std::vector<fs::path> files;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (e.is_regular_file()) files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  for (const auto& f : files) {
    out.push_back({read_file(f), f.parent_path().filename().string(), fs::relative(f, dir).string()});
  }
  return out;
}

std::vector<Example> from_feeds(const fs::path& tsv, const fs::path& corpus, int min_words) {
  std::vector<Example> out;
  std::ifstream in(tsv);
  std::string line;
  bool header = true;
  while (std::getline(in, line)) {
    if (line.empty() || line.starts_with("#")) continue;
    if (header) {  // "path<TAB>category<TAB>reason"
      header = false;
      continue;
    }
    const auto cols = split(line, '\t');
    if (cols.size() < 2) continue;
    const fs::path path = corpus / "real-feeds" / std::string(cols[0]);
    auto parsed = feed::parse_feed(read_file(path));
    if (!parsed) {
      std::cerr << "skipping " << path << ": " << parsed.error().message << "\n";
      continue;
    }
    for (const auto& entry : parsed->entries) {
      const std::string& html = entry.content.size() >= entry.summary.size() ? entry.content : entry.summary;
      std::string text = html::strip_boilerplate(html::html_to_text(html));
      if (static_cast<int>(count_words(text)) < min_words) continue;
      if (!entry.title.empty()) text = entry.title + ".\n\n" + text;
      out.push_back({std::move(text), std::string(cols[1]), std::string(cols[0])});
    }
  }
  return out;
}

// Keeps the first of every group of near-duplicate texts.
std::vector<Example> dedupe(std::vector<Example> examples, int& removed) {
  std::vector<Example> out;
  std::vector<std::uint64_t> seen;
  removed = 0;
  for (auto& e : examples) {
    const std::uint64_t h = curate::simhash(e.text);
    if (std::any_of(seen.begin(), seen.end(),
                    [&](std::uint64_t s) { return curate::near_duplicate(s, h); })) {
      ++removed;
      continue;
    }
    seen.push_back(h);
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Train the longread category classifier and report held-out accuracy (80/20 split)"};
  std::string jsonl, dir, feeds, save_model, dump;
  std::string corpus = LONGREAD_CORPUS_DIR;
  int min_words = 100;
  bool by_source = false;
  app.add_option("--jsonl", jsonl, "JSON lines file of {\"text\", \"category\"}");
  app.add_option("--dir", dir, "directory of <category>/<file> texts");
  app.add_option("--feeds", feeds, "TSV of feed path, category, reason (see src/curate/testdata)");
  app.add_option("--corpus", corpus, "shared corpus directory (for --feeds)");
  app.add_option("--min-words", min_words, "drop feed entries shorter than this (for --feeds)");
  app.add_flag("--split-by-source", by_source,
               "hold out whole sources (feeds/files) instead of single texts");
  app.add_option("--save-model", save_model, "write the model trained on ALL examples to this file");
  app.add_option("--dump-jsonl", dump, "write the labelled examples as JSON lines");
  CLI11_PARSE(app, argc, argv);

  std::vector<Example> examples;
  try {
    if (!jsonl.empty())
      examples = from_jsonl(jsonl);
    else if (!dir.empty())
      examples = from_dir(dir);
    else if (!feeds.empty())
      examples = from_feeds(feeds, corpus, min_words);
    else {
      std::cerr << "one of --jsonl, --dir, --feeds is required\n";
      return 2;
    }
  } catch (const std::exception& e) {
    std::cerr << e.what() << "\n";
    return 1;
  }
  int removed = 0;
  examples = dedupe(std::move(examples), removed);
  if (!dump.empty()) {
    std::ofstream out(dump);
    for (const auto& e : examples) {
      out << nlohmann::json{{"text", e.text}, {"category", e.category}, {"source", e.source}}.dump() << "\n";
    }
  }

  // Deterministic split: a stable hash of the text (or of its source) decides the side, 1 in 5 held out.
  std::vector<std::pair<std::string, std::string>> train;
  std::vector<const Example*> test;
  std::map<std::string, int> train_counts, test_counts;
  for (const auto& e : examples) {
    const std::string key = by_source ? e.source : e.text;
    const bool held_out = std::stoull(stable_hash_hex(key), nullptr, 16) % 5 == 0;
    if (held_out) {
      test.push_back(&e);
      ++test_counts[e.category];
    } else {
      train.emplace_back(e.text, e.category);
      ++train_counts[e.category];
    }
  }
  fmt::print("examples: {} ({} near-duplicates removed), train {}, held out {}{}\n", examples.size(), removed,
             train.size(), test.size(), by_source ? " (split by source)" : "");

  curate::CategoryClassifier classifier;
  classifier.train(train);
  int correct = 0, classified = 0, confident = 0, confident_correct = 0;
  std::map<std::string, std::pair<int, int>> per_category;  // correct, total
  std::map<std::pair<std::string, std::string>, int> confusion;
  for (const Example* e : test) {
    auto& [ok, total] = per_category[e->category];
    ++total;
    const auto result = classifier.classify(e->text);
    if (!result) continue;
    ++classified;
    confusion[{e->category, result->first}]++;
    if (result->first == e->category) {
      ++correct;
      ++ok;
    }
    if (result->second >= 0.8) {
      ++confident;
      confident_correct += result->first == e->category;
    }
  }
  // Baseline: always answer the most common training category.
  const auto majority = std::max_element(train_counts.begin(), train_counts.end(),
                                         [](const auto& a, const auto& b) { return a.second < b.second; });
  const int baseline = majority == train_counts.end() ? 0 : test_counts[majority->first];
  const auto pct = [](int a, int b) { return b == 0 ? 0.0 : 100.0 * a / b; };
  fmt::print("held-out accuracy: {}/{} = {:.1f}% (majority-class baseline \"{}\": {:.1f}%)\n", correct,
             test.size(), pct(correct, static_cast<int>(test.size())),
             majority == train_counts.end() ? "" : majority->first,
             pct(baseline, static_cast<int>(test.size())));
  fmt::print("confident (p >= 0.8): {}/{} held-out texts, {:.1f}% of them correct\n", confident, classified,
             pct(confident_correct, confident));
  fmt::print("{:<14} {:>6} {:>6} {:>9}\n", "category", "train", "test", "accuracy");
  for (const auto& [cat, counts] : per_category) {
    fmt::print("{:<14} {:>6} {:>6} {:>8.1f}%\n", cat, train_counts[cat], counts.second,
               pct(counts.first, counts.second));
  }
  fmt::print("confusion (true -> predicted, errors only):");
  for (const auto& [pair, n] : confusion) {
    if (pair.first != pair.second) fmt::print(" {}->{}:{}", pair.first, pair.second, n);
  }
  fmt::print("\n");

  // Cost of the per-article curation calls on these texts (judge includes CLD2 on texts of 50+ words).
  {
    const auto start = std::chrono::steady_clock::now();
    int junk = 0;
    std::uint64_t sink = 0;
    std::map<std::string, int> reasons;
    const int rounds = 20;
    model::Blog blog;
    for (int r = 0; r < rounds; ++r) {
      for (const auto& e : examples) {
        model::Article a;
        a.text = e.text;
        a.word_count = static_cast<int>(count_words(e.text));
        a.title = e.text.substr(0, e.text.find('\n'));
        const curate::Verdict v = curate::judge(a, blog);
        junk += v.junk;
        if (r == 0 && v.junk) ++reasons[v.reason.substr(0, v.reason.find(':'))];
        sink += curate::simhash(e.text);
      }
    }
    const double us =
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
    const double n = static_cast<double>(rounds * examples.size());
    fmt::print(
        "judge + simhash: {:.1f} us per article ({} articles x {} rounds, {} judged junk, checksum {:x})\n",
        n == 0 ? 0.0 : us / n, examples.size(), rounds, junk / rounds, sink);
    fmt::print("junk reasons:");
    for (const auto& [reason, count] : reasons) fmt::print(" \"{}\": {}", reason, count);
    fmt::print("\n");
  }

  if (!save_model.empty()) {
    std::vector<std::pair<std::string, std::string>> all;
    for (const auto& e : examples) all.emplace_back(e.text, e.category);
    curate::CategoryClassifier full;
    full.train(all);
    std::ofstream(save_model) << full.serialize();
    fmt::print("model trained on all {} examples written to {}\n", all.size(), save_model);
  }
  return 0;
}
