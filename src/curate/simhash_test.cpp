#include <gtest/gtest.h>

#include <string>

#include "curate/curate.h"

namespace longread::curate {
namespace {

const std::string kEssay =
    "Lock-free queues are attractive because no thread can block another, but they move the cost somewhere "
    "else. Every producer has to win a compare-and-swap on the tail, and under contention most of them lose "
    "and retry. The retries are cheap on one socket and expensive across two, where each failed attempt "
    "drags "
    "the cache line over the interconnect. In our measurements a simple mutex-protected ring beat the "
    "lock-free design at eight producers, because the mutex let the losers sleep instead of spinning. The "
    "lesson is not that lock-free structures are slow, but that progress guarantees and throughput are "
    "different properties, and a benchmark has to say which one it measures.";

TEST(SimhashTest, EmptyTextHashesToZero) {
  EXPECT_EQ(simhash(""), 0U);
  EXPECT_EQ(simhash("  ... !!! "), 0U);
}

TEST(SimhashTest, CaseAndPunctuationDoNotMatter) {
  std::string shouted;
  for (char c : kEssay)
    shouted += static_cast<char>(c == '.' ? '!' : std::toupper(static_cast<unsigned char>(c)));
  EXPECT_EQ(simhash(kEssay), simhash(shouted));
  EXPECT_EQ(simhash("don't stop"), simhash("Dont stop"));
  EXPECT_EQ(simhash("“Quoted” — text…"), simhash("quoted text"));
}

TEST(SimhashTest, SmallEditIsNearAndWordOrderMatters) {
  std::string edited = kEssay;
  edited.replace(edited.find("eight producers"), 15, "sixteen producers");
  EXPECT_TRUE(near_duplicate(simhash(kEssay), simhash(edited)));
  EXPECT_GT(hamming_distance(simhash("alpha beta gamma delta"), simhash("delta gamma beta alpha")), 0);
}

TEST(SimhashTest, UnrelatedTextsAreFar) {
  const std::string other =
      "The cathedral's west front was rebuilt three times between 1180 and 1320, and each campaign left a "
      "seam in the masonry that you can still read from the square. The lowest courses are Romanesque, thick "
      "and nearly windowless; above them the Gothic builders opened the wall into tracery, trusting "
      "buttresses "
      "to carry the load the wall no longer could. Walking around the building is a lesson in how structure "
      "and light traded places over two centuries of work.";
  EXPECT_FALSE(near_duplicate(simhash(kEssay), simhash(other)));
  EXPECT_GT(hamming_distance(simhash(kEssay), simhash(other)), 20);
}

TEST(SimhashTest, HammingDistance) {
  EXPECT_EQ(hamming_distance(0, 0), 0);
  EXPECT_EQ(hamming_distance(0, ~0ULL), 64);
  EXPECT_EQ(hamming_distance(0b1011, 0b0001), 2);
  EXPECT_TRUE(near_duplicate(0, (1ULL << kNearDuplicateDistance) - 1));
  EXPECT_FALSE(near_duplicate(0, (1ULL << (kNearDuplicateDistance + 1)) - 1));
}

}  // namespace
}  // namespace longread::curate
