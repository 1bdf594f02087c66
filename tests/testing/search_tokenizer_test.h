// A test fixture holding FTS5's tokenizer (storage/search_tokenizer.h), opened for each test: shared by the
// tests of the tokenizer, of the snippets made with it and of PostgreSQL's search vectors.
#pragma once

#include <gtest/gtest.h>

#include <memory>

#include "storage/search_tokenizer.h"

namespace longread::testing {

class SearchTokenizerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto opened = storage::SearchTokenizer::open();
    ASSERT_TRUE(opened) << opened.error().message;
    tokenizer_ = std::move(*opened);
  }
  std::unique_ptr<storage::SearchTokenizer> tokenizer_;
};

}  // namespace longread::testing
