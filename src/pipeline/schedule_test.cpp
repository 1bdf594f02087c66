#include "pipeline/schedule.h"

#include <gtest/gtest.h>

namespace longread::pipeline {
namespace {
using namespace std::chrono;

const TimePoint kNow = sys_days{year{2026} / November / 29} + hours{12};

TEST(Schedule, SuccessIsDueAfterOneInterval) {
  EXPECT_EQ(next_due(kNow, 0, std::nullopt, {}), kNow + minutes{60});
  EXPECT_EQ(next_due(kNow, 0, std::nullopt, {.interval = minutes{15}}), kNow + minutes{15});
}

TEST(Schedule, FailuresBackOffExponentiallyUpToTheCap) {
  EXPECT_EQ(next_due(kNow, 1, std::nullopt, {}), kNow + hours{1});
  EXPECT_EQ(next_due(kNow, 2, std::nullopt, {}), kNow + hours{2});
  EXPECT_EQ(next_due(kNow, 3, std::nullopt, {}), kNow + hours{4});
  EXPECT_EQ(next_due(kNow, 5, std::nullopt, {}), kNow + hours{16});
  EXPECT_EQ(next_due(kNow, 6, std::nullopt, {}), kNow + hours{24});    // capped
  EXPECT_EQ(next_due(kNow, 400, std::nullopt, {}), kNow + hours{24});  // no overflow
}

TEST(Schedule, RetryAfterDefersButNeverPastTheCap) {
  EXPECT_EQ(next_due(kNow, 1, kNow + hours{3}, {}), kNow + hours{3});
  EXPECT_EQ(next_due(kNow, 1, kNow + minutes{2}, {}), kNow + hours{1});  // back-off is longer already
  EXPECT_EQ(next_due(kNow, 1, kNow + hours{24 * 30}, {}), kNow + hours{24});
}

}  // namespace
}  // namespace longread::pipeline
