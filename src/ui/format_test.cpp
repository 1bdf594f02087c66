#include "ui/format.h"

#include <gtest/gtest.h>

namespace longread::ui {
namespace {

using std::chrono::days;
using std::chrono::hours;
using std::chrono::minutes;
using std::chrono::seconds;

// 2024-05-23T10:00:00Z
const TimePoint kNow = from_unix(1716458400);

TEST(RelativeAgeTest, WordsAndPlurals) {
  EXPECT_EQ(relative_age(kNow, kNow), "just now");
  EXPECT_EQ(relative_age(kNow - seconds(59), kNow), "just now");
  EXPECT_EQ(relative_age(kNow + hours(3), kNow), "just now");  // clock skew: never "in the future"
  EXPECT_EQ(relative_age(kNow - seconds(60), kNow), "1 minute ago");
  EXPECT_EQ(relative_age(kNow - minutes(5), kNow), "5 minutes ago");
  EXPECT_EQ(relative_age(kNow - minutes(59), kNow), "59 minutes ago");
  EXPECT_EQ(relative_age(kNow - minutes(60), kNow), "1 hour ago");
  EXPECT_EQ(relative_age(kNow - hours(2), kNow), "2 hours ago");
  EXPECT_EQ(relative_age(kNow - hours(23), kNow), "23 hours ago");
  EXPECT_EQ(relative_age(kNow - hours(24), kNow), "yesterday");
  EXPECT_EQ(relative_age(kNow - hours(47), kNow), "yesterday");
  EXPECT_EQ(relative_age(kNow - days(3), kNow), "3 days ago");
  EXPECT_EQ(relative_age(kNow - days(7), kNow), "1 week ago");
  EXPECT_EQ(relative_age(kNow - days(21), kNow), "3 weeks ago");
  EXPECT_EQ(relative_age(kNow - days(30), kNow), "1 month ago");
  EXPECT_EQ(relative_age(kNow - days(125), kNow), "4 months ago");
  EXPECT_EQ(relative_age(kNow - days(364), kNow), "11 months ago");
  EXPECT_EQ(relative_age(kNow - days(365), kNow), "1 year ago");
  EXPECT_EQ(relative_age(kNow - days(800), kNow), "2 years ago");
}

TEST(OrdinalDateTest, Suffixes) {
  const auto day = [](int d) {
    return ordinal_date(TimePoint{std::chrono::sys_days{std::chrono::year{2022} / std::chrono::May / d}} +
                        hours(10));
  };
  EXPECT_EQ(day(1), "1st May 2022");
  EXPECT_EQ(day(2), "2nd May 2022");
  EXPECT_EQ(day(3), "3rd May 2022");
  EXPECT_EQ(day(4), "4th May 2022");
  EXPECT_EQ(day(11), "11th May 2022");
  EXPECT_EQ(day(12), "12th May 2022");
  EXPECT_EQ(day(13), "13th May 2022");
  EXPECT_EQ(day(21), "21st May 2022");
  EXPECT_EQ(day(22), "22nd May 2022");
  EXPECT_EQ(day(23), "23rd May 2022");
  EXPECT_EQ(day(31), "31st May 2022");
  EXPECT_EQ(ordinal_date(from_unix(0)), "1st January 1970");
  EXPECT_EQ(iso_date(kNow), "2024-05-23");
}

TEST(PluralTest, CountsAndReadingTime) {
  EXPECT_EQ(plural(0, "vote", "votes"), "0 votes");
  EXPECT_EQ(plural(1, "vote", "votes"), "1 vote");
  EXPECT_EQ(plural(2, "vote", "votes"), "2 votes");
  EXPECT_EQ(reading_time(8), "8 min read");
  EXPECT_EQ(reading_time(0), "1 min read");
}

}  // namespace
}  // namespace longread::ui
