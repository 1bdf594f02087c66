// The generator's guided draws against std::discrete_distribution's: the same indices from the same
// engine, and the engine left in the same state, so longread-generate and the crawl benchmark's feed
// server write the texts they wrote with the standard distribution.
#include "storage/tools/corpus_text.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace longread::generate {
namespace {

void expect_same_draws(const std::vector<double>& weights, int draws, std::uint64_t seed) {
  std::discrete_distribution<std::size_t> standard(weights.begin(), weights.end());
  const GuidedDiscrete guided(weights.begin(), weights.end());
  std::mt19937_64 a(seed);
  std::mt19937_64 b(seed);
  for (int i = 0; i < draws; ++i) {
    const std::size_t want = standard(a);
    const std::size_t got = guided(b);
    ASSERT_EQ(got, want) << "draw " << i << " of " << weights.size() << " weights";
  }
  EXPECT_EQ(a(), b()) << "both took as many numbers from the engine";
}

TEST(GuidedDiscreteTest, DrawsWhatTheStandardDistributionDrawsFromTheBuiltInModel) {
  const auto model = parse_corpus_model(builtin_corpus_model());
  ASSERT_TRUE(model) << model.error();
  ASSERT_GT(model->word_weights.size(), 1000u);
  expect_same_draws(model->word_weights, 300'000, 1);
  expect_same_draws(model->title_word_weights, 100'000, 2);
  for (const auto& [tag, histogram] : model->histograms) expect_same_draws(histogram.second, 20'000, 3);
}

TEST(GuidedDiscreteTest, DrawsWhatTheStandardDistributionDrawsAtTheEdges) {
  expect_same_draws({5.0}, 100, 4);  // one weight: always 0, no number taken
  expect_same_draws({}, 100, 5);
  expect_same_draws({0, 1, 0, 0, 3, 0}, 50'000, 6);  // zero weights are never drawn, at either end either
  expect_same_draws({1e-300, 1, 1e-12, 1e12, 0.5}, 50'000, 7);
  std::vector<double> many(100'000, 1.0);
  many[0] = 1e6;
  expect_same_draws(many, 100'000, 8);
}

}  // namespace
}  // namespace longread::generate
