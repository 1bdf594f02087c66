// extract_bench DIR [--repeat N] [--score-dir OUT]
//
// Loads every DIR/<page>/source.html and expected.html into memory, then times
// html::extract_main_content over all pages N times (parse + extraction + text, nothing else) and
// prints pages, MB of HTML, MB/s and the mean token F1 of the extracted text against
// html_to_text(expected.html) — the same measure as `longread-conformance readability`.
//
// With --score-dir OUT it instead scores another extractor's output: OUT/<page>.html is read as that
// extractor's article HTML and scored exactly like ours (html_to_text, then html::token_f1), so both
// sides of the benchmark use one tokenizer.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "html/compare.h"
#include "html/html.h"

namespace {
namespace fs = std::filesystem;
using longread::html::extract_main_content;
using longread::html::html_to_text;
using longread::html::token_f1;

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct Page {
  std::string name;
  std::string source;
  std::string expected_text;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    fmt::print(stderr, "usage: extract_bench DIR [--repeat N] [--score-dir OUT]\n");
    return 2;
  }
  const fs::path root(argv[1]);
  int repeat = 3;
  fs::path score_dir;
  for (int i = 2; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "--repeat" && i + 1 < argc) repeat = std::max(1, std::atoi(argv[++i]));
    if (a == "--score-dir" && i + 1 < argc) score_dir = argv[++i];
  }
  std::vector<Page> pages;
  for (const auto& item : fs::directory_iterator(root))
    if (fs::exists(item.path() / "source.html") && fs::exists(item.path() / "expected.html"))
      pages.push_back({item.path().filename().string(), slurp(item.path() / "source.html"),
                       html_to_text(slurp(item.path() / "expected.html"))});
  std::sort(pages.begin(), pages.end(), [](const Page& a, const Page& b) { return a.name < b.name; });
  if (pages.empty()) {
    fmt::print(stderr, "extract_bench: no pages under {}\n", root.string());
    return 1;
  }
  std::size_t bytes = 0;
  for (const auto& p : pages) bytes += p.source.size();
  const double mb = static_cast<double>(bytes) / 1e6;

  if (!score_dir.empty()) {
    double f1 = 0;
    int missing = 0;
    for (const auto& p : pages) {
      const fs::path out = score_dir / (p.name + ".html");
      if (!fs::exists(out)) {
        ++missing;  // the other extractor found nothing: F1 0
        continue;
      }
      f1 += token_f1(html_to_text(slurp(out)), p.expected_text).f1;
    }
    fmt::print("scored {} pages from {}: mean F1 {:.4f} ({} without output)\n", pages.size(),
               score_dir.string(), f1 / static_cast<double>(pages.size()), missing);
    return 0;
  }

  double f1 = 0;
  std::size_t checksum = 0;  // keeps the optimizer honest
  // CPU time of the process (the machine may be shared with builds), and wall time for reference.
  const std::clock_t cpu_start = std::clock();
  const auto start = std::chrono::steady_clock::now();
  for (int r = 0; r < repeat; ++r) {
    for (const auto& p : pages) {
      const auto result = extract_main_content(p.source, "http://fakehost/test/page.html");
      if (result) checksum += result->text.size();
      if (r == 0) f1 += result ? token_f1(result->text, p.expected_text).f1 : 0;
    }
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double seconds = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
  fmt::print(
      "longread extract_main_content (gumbo): {} pages, {:.2f} MB, {} passes in {:.2f} s CPU ({:.2f} s "
      "wall): "
      "{:.2f} MB/s, mean F1 {:.4f} (checksum {})\n",
      pages.size(), mb, repeat, seconds, wall, mb * repeat / seconds, f1 / static_cast<double>(pages.size()),
      checksum);
  return 0;
}
