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

// Expected values from Python's date.isocalendar() (an independent implementation of ISO 8601 weeks).
TEST(Time, IsoWeeksNameAndParseTheWeekAroundADate) {
  const TimePoint wednesday = from_unix(1'796'169'600);  // Wed 2 Dec 2026
  EXPECT_EQ(iso_week_key(wednesday), "2026-W49");
  EXPECT_EQ(iso_week_start(wednesday), from_unix(1'795'996'800));  // Mon 30 Nov 2026
  const TimePoint sunday = from_unix(1'609'686'000);               // Sun 3 Jan 2021 15:00, still 2020's
  EXPECT_EQ(iso_week_key(sunday), "2020-W53");
  EXPECT_EQ(iso_week_start(sunday), from_unix(1'609'113'600));  // Mon 28 Dec 2020
  EXPECT_EQ(parse_iso_week("2020-W53"), from_unix(1'609'113'600));
  EXPECT_EQ(parse_iso_week("2026-W49"), from_unix(1'795'996'800));
  // Every week round-trips through its key.
  for (TimePoint t = from_unix(1'577'836'800); t < from_unix(1'798'761'600); t += days(3)) {
    auto parsed = parse_iso_week(iso_week_key(t));
    ASSERT_TRUE(parsed) << iso_week_key(t);
    EXPECT_EQ(*parsed, iso_week_start(t)) << iso_week_key(t);
  }
  for (std::string_view bad : {"2021-W53", "2026-W00", "2026-W54", "2026-w49", "2026W49", "202-W49x",
                               "1969-W10", "2026-W4", "2026-W+9", "", "2026-W49 "})
    EXPECT_FALSE(parse_iso_week(bad)) << bad;
}

}  // namespace
}  // namespace longread
