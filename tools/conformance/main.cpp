// longread-conformance MODE ARGS...: dispatches to one conformance mode (modes.h).
#include <fmt/format.h>

#include <array>
#include <string_view>
#include <vector>

#include "modes.h"

#include <fstream>

#include "core/strings.h"

namespace longread::conformance {

std::map<std::string, std::string> read_known_failures(const std::filesystem::path& file) {
  std::map<std::string, std::string> known;
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line)) {
    const auto t = trim(line);
    if (t.empty() || t.front() == '#') continue;
    const auto space = t.find_first_of(" \t");
    known.emplace(std::string(t.substr(0, space)),
                  space == std::string_view::npos ? std::string() : std::string(trim(t.substr(space))));
  }
  return known;
}

}  // namespace longread::conformance

namespace {
using longread::conformance::run_feedparser;
using longread::conformance::run_readability;

struct Mode {
  std::string_view name;
  int (*run)(std::span<const std::string_view> args);
  std::string_view usage;
};

// Adding a mode: write its function (declared in modes.h) and add one line here.
constexpr std::array kModes{
    Mode{"feedparser", run_feedparser, "feedparser DIR [--known-failures FILE] [--verbose]"},
    Mode{"readability", run_readability, "readability DIR [--known-failures FILE]"},
};

int usage() {
  fmt::print(stderr, "usage:\n");
  for (const auto& m : kModes) fmt::print(stderr, "  longread-conformance {}\n", m.usage);
  return 2;
}
}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return usage();
  const std::string_view mode = argv[1];
  const std::vector<std::string_view> args(argv + 2, argv + argc);
  for (const auto& m : kModes)
    if (m.name == mode) return m.run(args);
  return usage();
}
