// A fresh directory for one test: <temp>/<prefix>_<pid>_<test name>, emptied if an earlier run left it
// behind (a crash, a kill). The caller creates what it needs inside. Shared by the tests that use files.
// A parametrized test's name holds a '/' ("Name/SQLite"), which would make the directory a child of one
// that removing the test's directory leaves behind, so the name is flattened first.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <string_view>

namespace longread::testing {

inline std::filesystem::path fresh_test_dir(std::string_view prefix) {
  const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string name = test ? test->name() : "no_test";
  std::replace(name.begin(), name.end(), '/', '-');
  auto dir = std::filesystem::temp_directory_path() /
             (std::string(prefix) + "_" + std::to_string(getpid()) + "_" + name);
  std::filesystem::remove_all(dir);
  return dir;
}

}  // namespace longread::testing
