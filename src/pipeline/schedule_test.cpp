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

TEST(Schedule, HintsLongerThanTheIntervalStretchTheWait) {
  EXPECT_EQ(next_due(kNow, 0, std::nullopt, {}, {.feed_interval = minutes{180}}), kNow + hours{3});
  EXPECT_EQ(next_due(kNow, 0, std::nullopt, {}, {.fresh_for = seconds{7200}}), kNow + hours{2});
  // Both: the longer.
  EXPECT_EQ(next_due(kNow, 0, std::nullopt, {}, {.fresh_for = hours{5}, .feed_interval = minutes{180}}),
            kNow + hours{5});
  EXPECT_EQ(next_due(kNow, 0, std::nullopt, {}, {.fresh_for = hours{2}, .feed_interval = minutes{180}}),
            kNow + hours{3});
}

TEST(Schedule, HintsShorterThanTheIntervalChangeNothing) {
  EXPECT_EQ(next_due(kNow, 0, std::nullopt, {}, {.fresh_for = seconds{300}, .feed_interval = minutes{15}}),
            kNow + hours{1});
  EXPECT_EQ(next_due(kNow, 0, std::nullopt, {.interval = minutes{90}}, {.feed_interval = minutes{60}}),
            kNow + minutes{90});
}

TEST(Schedule, HintsAreCappedAtMaxInterval) {
  EXPECT_EQ(next_due(kNow, 0, std::nullopt, {}, {.feed_interval = days{10}}), kNow + hours{24});
  EXPECT_EQ(next_due(kNow, 0, std::nullopt, {}, {.fresh_for = seconds{2147483648LL}}), kNow + hours{24});
  EXPECT_EQ(next_due(kNow, 0, std::nullopt, {.max_interval = hours{6}}, {.feed_interval = hours{8}}),
            kNow + hours{6});
  // The cap never shortens an operator's interval.
  EXPECT_EQ(next_due(kNow, 0, std::nullopt, {.interval = minutes{48 * 60}, .max_interval = hours{24}},
                     {.feed_interval = days{10}}),
            kNow + hours{48});
}

TEST(Schedule, FailuresIgnoreHints) {
  const PollHints long_hints{.fresh_for = hours{20}, .feed_interval = hours{12}};
  EXPECT_EQ(next_due(kNow, 1, std::nullopt, {}, long_hints), kNow + hours{1});
  EXPECT_EQ(next_due(kNow, 3, std::nullopt, {}, long_hints), kNow + hours{4});
  EXPECT_EQ(next_due(kNow, 6, std::nullopt, {}, long_hints), kNow + hours{24});
  EXPECT_EQ(next_due(kNow, 1, kNow + hours{3}, {}, long_hints), kNow + hours{3});
}

TEST(Schedule, SuccessWaitSaysWhatDecided) {
  auto w = success_wait({}, {});
  EXPECT_EQ(w.source, SuccessWait::Source::kInterval);
  EXPECT_EQ(wait_reason(w), "");
  w = success_wait({.feed_interval = minutes{30}}, {});
  EXPECT_EQ(w.source, SuccessWait::Source::kInterval);
  EXPECT_EQ(wait_reason(w), "");
  w = success_wait({.feed_interval = minutes{60}}, {});  // a tie: the interval decided
  EXPECT_EQ(w.source, SuccessWait::Source::kInterval);
  w = success_wait({.fresh_for = hours{2}, .feed_interval = minutes{180}}, {});
  EXPECT_EQ(w.source, SuccessWait::Source::kFeed);
  EXPECT_EQ(wait_reason(w), "feed: 3 h");
  EXPECT_FALSE(w.capped);
  w = success_wait({.fresh_for = seconds{9000}}, {});
  EXPECT_EQ(wait_reason(w), "http: 2.5 h");
  w = success_wait({.feed_interval = days{10}}, {});
  EXPECT_TRUE(w.capped);
  EXPECT_EQ(w.wait, hours{24});
  EXPECT_EQ(wait_reason(w), "feed: 10 d");  // as the feed asked; next due shows the cap
}

TEST(Schedule, FormatWait) {
  EXPECT_EQ(format_wait(minutes{45}), "45 min");
  EXPECT_EQ(format_wait(minutes{90}), "90 min");
  EXPECT_EQ(format_wait(hours{2}), "2 h");
  EXPECT_EQ(format_wait(minutes{150}), "2.5 h");
  EXPECT_EQ(format_wait(seconds{7199}), "119 min");  // whole minutes, rounded down
  EXPECT_EQ(format_wait(seconds{7300}), "2 h");
  EXPECT_EQ(format_wait(hours{24}), "24 h");
  EXPECT_EQ(format_wait(days{10}), "10 d");
  EXPECT_EQ(format_wait(days{365}), "365 d");
}

}  // namespace
}  // namespace longread::pipeline
