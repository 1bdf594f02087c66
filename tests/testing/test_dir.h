// A fresh directory for one test: <temp>/<prefix>_<pid>_<test name>, emptied if an earlier run left it
// behind (a crash, a kill). The caller creates what it needs inside. Shared by the tests that use files.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <string_view>

namespace longread::testing {

inline std::filesystem::path fresh_test_dir(std::string_view prefix) {
  const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
  auto dir = std::filesystem::temp_directory_path() /
             (std::string(prefix) + "_" + std::to_string(getpid()) + "_" + (test ? test->name() : "no_test"));
  std::filesystem::remove_all(dir);
  return dir;
}

}  // namespace longread::testing
