#include "pipeline/schedule.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

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

// --- crawl.scheduler = entry_frequency

const ScheduleOptions kFrequency{.scheduler = Scheduler::kEntryFrequency};
constexpr seconds kWindow = hours{24 * 28};  // ScheduleOptions::frequency_window's default

TEST(EntryFrequency, TheWaitIsTheAverageGapBetweenRecentPosts) {
  EXPECT_EQ(ScheduleOptions{}.frequency_window, kWindow);
  // 56 posts in 4 weeks: one every 12 h.
  EXPECT_EQ(frequency_wait(56, kFrequency), kWindow / 56);
  EXPECT_EQ(kWindow / 56, hours{12});
  EXPECT_EQ(frequency_wait(100, kFrequency), seconds{std::llround(kWindow.count() / 100.0)});
  EXPECT_EQ(frequency_wait(3, {.max_interval = hours{24 * 30}, .scheduler = Scheduler::kEntryFrequency}),
            kWindow / 3);
  EXPECT_EQ(next_due(kNow, 0, std::nullopt, kFrequency, {.recent_posts = 56}), kNow + kWindow / 56);
}

TEST(EntryFrequency, NoPostsWaitsTheLongestAllowed) {
  EXPECT_EQ(frequency_wait(0, kFrequency), hours{24});
  EXPECT_EQ(frequency_wait(0, {.max_interval = hours{6}, .scheduler = Scheduler::kEntryFrequency}), hours{6});
  EXPECT_EQ(frequency_wait(-1, kFrequency), hours{24});  // nonsense counts as none
  // An operator's interval longer than max_interval still holds.
  EXPECT_EQ(frequency_wait(0, {.interval = minutes{48 * 60}, .scheduler = Scheduler::kEntryFrequency}),
            hours{48});
  const auto w = success_wait({.recent_posts = 0}, kFrequency);
  EXPECT_EQ(w.source, SuccessWait::Source::kFrequency);
  EXPECT_EQ(w.wait, hours{24});
  EXPECT_TRUE(w.capped);
  EXPECT_EQ(wait_reason(w), "frequency: 24 h, no posts in 4 weeks");
}

TEST(EntryFrequency, ClampedToIntervalAndMaxInterval) {
  // A busy blog (more posts than hours in the window) is polled every interval, never more often.
  EXPECT_EQ(frequency_wait(10'000, kFrequency), minutes{60});
  EXPECT_EQ(frequency_wait(std::numeric_limits<std::int64_t>::max(), kFrequency), minutes{60});
  EXPECT_EQ(frequency_wait(10'000, {.interval = minutes{15}, .scheduler = Scheduler::kEntryFrequency}),
            minutes{15});
  // One post in 4 weeks is a 28-day gap: capped at max_interval.
  EXPECT_EQ(frequency_wait(1, kFrequency), hours{24});
  EXPECT_EQ(frequency_wait(1, {.max_interval = hours{24 * 7}, .scheduler = Scheduler::kEntryFrequency}),
            hours{24 * 7});
  // Exactly at the bounds.
  EXPECT_EQ(frequency_wait(kWindow / hours{1}, kFrequency), hours{1});
  EXPECT_EQ(frequency_wait(kWindow / hours{24}, kFrequency), hours{24});
}

TEST(EntryFrequency, TheFactorDividesTheGap) {
  auto twice = kFrequency;
  twice.frequency_factor = 2;
  EXPECT_EQ(frequency_wait(28, kFrequency), hours{24});
  EXPECT_EQ(frequency_wait(28, twice), hours{12});
  EXPECT_EQ(frequency_wait(56, twice), hours{6});
  auto half = kFrequency;
  half.frequency_factor = 0.5;
  EXPECT_EQ(frequency_wait(112, half), hours{12});  // (28 d / 112) / 0.5
  // Extreme factors stay within the bounds and never overflow.
  auto tiny = kFrequency;
  tiny.frequency_factor = 1e-300;
  EXPECT_EQ(frequency_wait(1, tiny), hours{24});
  auto huge = kFrequency;
  huge.frequency_factor = 1e300;
  EXPECT_EQ(frequency_wait(1, huge), hours{1});
  // Not a positive number (the config refuses these): as 1.
  for (const double bad :
       {0.0, -2.0, std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
    auto o = kFrequency;
    o.frequency_factor = bad;
    EXPECT_EQ(frequency_wait(56, o), hours{12}) << bad;
  }
}

TEST(EntryFrequency, TheReasonNamesTheFrequencyOnlyWhenItLengthenedTheWait) {
  auto w = success_wait({.recent_posts = 56}, kFrequency);
  EXPECT_EQ(w.source, SuccessWait::Source::kFrequency);
  EXPECT_EQ(w.wait, hours{12});
  EXPECT_FALSE(w.capped);
  EXPECT_EQ(wait_reason(w), "frequency: 12 h");
  w = success_wait({.recent_posts = 1000}, kFrequency);  // as busy as the interval allows: the interval
  EXPECT_EQ(w.source, SuccessWait::Source::kInterval);
  EXPECT_EQ(w.wait, hours{1});
  EXPECT_EQ(wait_reason(w), "");
  w = success_wait({.recent_posts = 1}, kFrequency);
  EXPECT_TRUE(w.capped);
  EXPECT_EQ(wait_reason(w), "frequency: 24 h, 1 post in 4 weeks");
  w = success_wait({.recent_posts = 3}, kFrequency);
  EXPECT_EQ(wait_reason(w), "frequency: 24 h, 3 posts in 4 weeks");
  auto week = kFrequency;
  week.frequency_window = hours{24 * 7};
  EXPECT_EQ(wait_reason(success_wait({.recent_posts = 0}, week)), "frequency: 24 h, no posts in 1 week");
  week.frequency_window = hours{24 * 10};
  EXPECT_EQ(wait_reason(success_wait({.recent_posts = 0}, week)), "frequency: 24 h, no posts in 10 days");
}

TEST(EntryFrequency, UnknownCountOrFixedSchedulerKeepTheInterval) {
  // The count failed (unset): the plain interval.
  EXPECT_EQ(success_wait({}, kFrequency).wait, hours{1});
  EXPECT_EQ(success_wait({}, kFrequency).source, SuccessWait::Source::kInterval);
  // The fixed scheduler ignores a count.
  EXPECT_EQ(success_wait({.recent_posts = 0}, {}).wait, hours{1});
  EXPECT_EQ(success_wait({.recent_posts = 0}, {}).source, SuccessWait::Source::kInterval);
  EXPECT_EQ(next_due(kNow, 0, std::nullopt, {}, {.recent_posts = 1}), kNow + hours{1});
}

TEST(EntryFrequency, HintsStillApplyOnTop) {
  // Frequency 6 h (112 posts), the feed asks 3 h: the frequency, the longer.
  auto w = success_wait({.feed_interval = hours{3}, .recent_posts = 112}, kFrequency);
  EXPECT_EQ(w.wait, kWindow / 112);
  EXPECT_EQ(w.source, SuccessWait::Source::kFrequency);
  // Frequency 6 h, the server asks 10 h: the server.
  w = success_wait({.fresh_for = hours{10}, .recent_posts = 112}, kFrequency);
  EXPECT_EQ(w.wait, hours{10});
  EXPECT_EQ(w.source, SuccessWait::Source::kHttp);
  EXPECT_EQ(wait_reason(w), "http: 10 h");
  // A tie goes to the frequency.
  w = success_wait({.feed_interval = hours{6}, .recent_posts = 112}, kFrequency);
  EXPECT_EQ(w.source, SuccessWait::Source::kFrequency);
  // No posts (24 h) and a feed asking 10 days: still 24 h, the cap; the feed asked the longest.
  w = success_wait({.feed_interval = days{10}, .recent_posts = 0}, kFrequency);
  EXPECT_EQ(w.wait, hours{24});
  EXPECT_EQ(wait_reason(w), "feed: 10 d");
  // A hint shorter than the frequency's wait changes nothing, even when the frequency is capped.
  w = success_wait({.fresh_for = hours{20}, .recent_posts = 0}, kFrequency);
  EXPECT_EQ(w.wait, hours{24});
  EXPECT_EQ(w.source, SuccessWait::Source::kFrequency);
  // A busy blog with a 3 h ttl: the ttl, as under the fixed scheduler.
  EXPECT_EQ(next_due(kNow, 0, std::nullopt, kFrequency, {.feed_interval = hours{3}, .recent_posts = 5000}),
            next_due(kNow, 0, std::nullopt, {}, {.feed_interval = hours{3}}));
}

TEST(EntryFrequency, FailuresStillBackOffAsBefore) {
  const PollHints quiet{.recent_posts = 0};  // would be 24 h after a success
  for (int failures = 1; failures <= 8; ++failures) {
    EXPECT_EQ(next_due(kNow, failures, std::nullopt, kFrequency, quiet),
              next_due(kNow, failures, std::nullopt, {}, {}))
        << failures;
  }
  EXPECT_EQ(next_due(kNow, 1, std::nullopt, kFrequency, quiet), kNow + hours{1});
  EXPECT_EQ(next_due(kNow, 1, kNow + hours{3}, kFrequency, quiet), kNow + hours{3});
}

}  // namespace
}  // namespace longread::pipeline
