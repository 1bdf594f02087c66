// A test with a real SQLite store in a fresh directory, which it can close and open again (to check what
// survives a restart). Shared by the storage tests that need nothing else in their fixture.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <string>
#include <utility>

#include "storage/store.h"
#include "testing/test_dir.h"

namespace longread::testing {

class StoreTest : public ::testing::Test {
 protected:
  explicit StoreTest(std::string prefix) : prefix_(std::move(prefix)) {}

  void SetUp() override {
    dir_ = fresh_test_dir(prefix_);
    std::filesystem::create_directories(dir_);
    reopen();
  }
  void TearDown() override {
    store_.reset();
    std::filesystem::remove_all(dir_);
  }
  // Closes the store (checkpointing its WAL) and opens the same file again.
  void reopen() {
    store_.reset();
    auto store = storage::open_sqlite_store((dir_ / "db.sqlite").string());
    ASSERT_TRUE(store) << store.error().message;
    store_ = std::move(*store);
  }

  std::filesystem::path dir_;
  std::unique_ptr<storage::Store> store_;

 private:
  std::string prefix_;
};

}  // namespace longread::testing
