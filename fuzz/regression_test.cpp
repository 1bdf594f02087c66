// Replays every file of fuzz/seeds/<harness>/ and fuzz/regressions/<harness>/ through its harness, in the
// normal (and the ASan+UBSan) build: each regression is an input that once crashed, hung or broke an
// invariant, so a failing replay is that bug come back. A harness signals a broken invariant with a trap, so
// the file being replayed is printed first.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <ostream>
#include <string>
#include <vector>

#include "fuzz/fuzz_support.h"

namespace longread::fuzz {
namespace {
namespace fs = std::filesystem;

std::vector<fs::path> files_under(const fs::path& dir) {
  std::vector<fs::path> files;
  if (!fs::is_directory(dir)) return files;
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.is_regular_file() && entry.path().filename() != "README.md") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

std::string read_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

// gtest names the parameter in test listings by this (instead of dumping its bytes).
void PrintTo(const Harness& harness, std::ostream* os) {
  *os << harness.name;
}

namespace {

class Replay : public ::testing::TestWithParam<Harness> {};

TEST_P(Replay, SeedsAndRegressionsPassTheHarness) {
  const Harness harness = GetParam();
  const fs::path root = fs::path(LONGREAD_SOURCE_DIR) / "fuzz";
  std::size_t replayed = 0;
  for (const char* kind : {"seeds", "regressions"}) {
    for (const auto& file : files_under(root / kind / std::string(harness.name))) {
      std::cerr << "replaying " << file.string() << '\n';
      const std::string bytes = read_bytes(file);
      EXPECT_EQ(harness.run(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()), 0) << file;
      ++replayed;
    }
  }
  // Every harness ships seeds; none found means the folders moved and the test would pass vacuously.
  EXPECT_GT(replayed, 0u) << "no seeds for harness " << harness.name;
}

// The empty input and a one-byte input reach every harness's argument splitting edge cases.
TEST_P(Replay, EmptyAndTinyInputs) {
  const Harness harness = GetParam();
  EXPECT_EQ(harness.run(nullptr, 0), 0);
  const std::uint8_t one = '0';
  EXPECT_EQ(harness.run(&one, 1), 0);
}

INSTANTIATE_TEST_SUITE_P(Fuzz, Replay, ::testing::ValuesIn(kHarnesses),
                         [](const ::testing::TestParamInfo<Harness>& info) {
                           return std::string(info.param.name);
                         });

}  // namespace
}  // namespace longread::fuzz
