#include "core/time.h"

#include <gtest/gtest.h>

namespace longread {
namespace {
using namespace std::chrono;

TEST(Time, FormatsRfc3339AndHttpDate) {
  const TimePoint t = sys_days{year{2022} / May / 23} + hours{10} + minutes{5} + seconds{7};
  EXPECT_EQ(format_rfc3339(t), "2022-05-23T10:05:07Z");
  EXPECT_EQ(format_http_date(t), "Mon, 23 May 2022 10:05:07 GMT");
}

// Found by fuzz/date_fuzz.cpp (fuzz/regressions/date/): formatting a date outside 1677..2262 (Hugo's year 1,
// a feed's "0144") overflowed a nanosecond conversion inside fmt, undefined behaviour under UBSan.
TEST(Time, FormatsYearsOutsideTheNanosecondRange) {
  const TimePoint first = sys_days{year{1} / January / 1};
  EXPECT_EQ(format_rfc3339(first), "0001-01-01T00:00:00Z");
  EXPECT_EQ(format_http_date(first), "Mon, 01 Jan 0001 00:00:00 GMT");
  const TimePoint last = sys_days{year{9999} / December / 31} + hours{23} + minutes{59} + seconds{59};
  EXPECT_EQ(format_rfc3339(last), "9999-12-31T23:59:59Z");
  EXPECT_EQ(format_http_date(last), "Fri, 31 Dec 9999 23:59:59 GMT");
}

TEST(Time, PlausibleRejectsYearOneAndFarFuture) {
  const TimePoint now = sys_days{year{2026} / November / 29};
  EXPECT_FALSE(is_plausible_feed_date(sys_days{year{1} / January / 1}, now));
  EXPECT_FALSE(is_plausible_feed_date(now + hours{48}, now));
  EXPECT_TRUE(is_plausible_feed_date(now + hours{2}, now));
  EXPECT_TRUE(is_plausible_feed_date(sys_days{year{2016} / August / 11}, now));
}

TEST(Time, ParsesCommonForms) {
  const TimePoint expected = sys_days{year{2022} / May / 23} + hours{10};
  EXPECT_EQ(parse_feed_date("Mon, 23 May 2022 10:00:00 GMT"), expected);
  EXPECT_EQ(parse_feed_date("garbage"), std::nullopt);
}

}  // namespace
}  // namespace longread
