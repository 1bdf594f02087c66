// readability conformance: runs html::extract_main_content on Mozilla Readability's test pages
// (mozilla/readability test/test-pages: DIR/<page>/source.html + expected.html) and compares texts.
//
// Upstream compares DOMs node by node; longread compares what a reader gets: the text of our result
// (Extracted::text) against html_to_text(expected.html), as a bag of tokens (html::token_f1: words
// lower-cased, punctuation ignored, CJK split per character). A page passes at F1 >= 0.9. Pages load
// with the URL upstream uses, http://fakehost/test/page.html.
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "core/strings.h"
#include "html/compare.h"
#include "html/html.h"
#include "modes.h"

namespace longread::conformance {
namespace {
namespace fs = std::filesystem;

constexpr double kPassF1 = 0.9;
constexpr std::string_view kPageUrl = "http://fakehost/test/page.html";

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

int run_readability(std::span<const std::string_view> args) {
  if (args.empty()) {
    fmt::print(stderr, "usage: longread-conformance readability DIR [--known-failures FILE]\n");
    return 2;
  }
  const fs::path root(args[0]);
  fs::path known_file = fs::path(LONGREAD_CONFORMANCE_DIR) / "readability_known_failures.txt";
  for (std::size_t i = 1; i < args.size(); ++i)
    if (args[i] == "--known-failures" && i + 1 < args.size()) known_file = fs::path(args[++i]);
  if (!fs::is_directory(root)) {
    fmt::print("skipped: {} not present\n", root.string());
    return kExitSkipped;
  }
  const auto known = read_known_failures(known_file);

  std::vector<fs::path> pages;
  for (const auto& item : fs::directory_iterator(root))
    if (fs::exists(item.path() / "source.html") && fs::exists(item.path() / "expected.html"))
      pages.push_back(item.path());
  std::sort(pages.begin(), pages.end());

  int passed = 0;
  int failed = 0;
  int unexpected = 0;
  double f1_sum = 0;
  std::vector<std::string> now_passing;
  for (const auto& page : pages) {
    const std::string name = page.filename().string();
    const auto result = html::extract_main_content(slurp(page / "source.html"), kPageUrl);
    const std::string expected = html::html_to_text(slurp(page / "expected.html"));
    html::TokenScore score;
    std::string note;
    if (result) {
      score = html::token_f1(result->text, expected);
    } else {
      note = result.error().message;
    }
    f1_sum += score.f1;
    const bool pass = score.f1 >= kPassF1;
    const bool is_known = known.contains(name);
    std::string status = "ok";
    if (pass) {
      ++passed;
      if (is_known) now_passing.push_back(name);
    } else {
      ++failed;
      status = is_known ? "KNOWN" : "FAIL";
      if (!is_known) ++unexpected;
    }
    fmt::print("{:<5} {:<44} P={:.3f} R={:.3f} F1={:.3f}{}{}\n", status, name, score.precision, score.recall,
               score.f1, note.empty() ? "" : "  ", note);
  }
  for (const auto& p : now_passing) fmt::print("NOW PASSING (remove from the known-failures list): {}\n", p);
  fmt::print("mean F1 {:.4f} over {} pages; {} unexpected failures\n",
             pages.empty() ? 0.0 : f1_sum / static_cast<double>(pages.size()), pages.size(), unexpected);
  fmt::print("{} passed, {} failed\n", passed, failed);
  return unexpected == 0 ? 0 : 1;
}

}  // namespace longread::conformance
