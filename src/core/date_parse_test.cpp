#include <gtest/gtest.h>

#include "core/time.h"

namespace longread {
namespace {
using namespace std::chrono;

TimePoint at(int y, unsigned mo, unsigned d, int h = 0, int mi = 0, int s = 0) {
  return sys_days{year{y} / month{mo} / day{d}} + hours{h} + minutes{mi} + seconds{s};
}

TEST(DateParse, Rfc822Canonical) {
  EXPECT_EQ(parse_feed_date("Thu, 23 May 2024 10:00:00 GMT"), at(2024, 5, 23, 10));
  EXPECT_EQ(parse_feed_date("Thu, 23 May 2024 10:00:00 +0200"), at(2024, 5, 23, 8));
  EXPECT_EQ(parse_feed_date("Thu, 23 May 2024 10:00:00 -0530"), at(2024, 5, 23, 15, 30));
}

TEST(DateParse, Rfc822BrokenVariants) {
  EXPECT_EQ(parse_feed_date("23 May 2024 10:00:00 GMT"), at(2024, 5, 23, 10));       // no weekday
  EXPECT_EQ(parse_feed_date("Mon, 23 May 2024 10:00:00 GMT"), at(2024, 5, 23, 10));  // wrong weekday
  EXPECT_EQ(parse_feed_date("Thu, 23 May 2024 10:00 GMT"), at(2024, 5, 23, 10));     // no seconds
  EXPECT_EQ(parse_feed_date("Thu, 23 May 24 10:00:00 GMT"), at(2024, 5, 23, 10));    // two-digit year
  EXPECT_EQ(parse_feed_date("Sat, 01 Jan 99 00:00:00 GMT"), at(1999, 1, 1));
  EXPECT_EQ(parse_feed_date("  Thu,  23   May  2024,  10:00:00   GMT "), at(2024, 5, 23, 10));
  EXPECT_EQ(parse_feed_date("Tue, 10 Sept 2024 10:00:00 GMT"), at(2024, 9, 10, 10));
  EXPECT_EQ(parse_feed_date("Thursday, 23 May 2024 10:00:00 UT"), at(2024, 5, 23, 10));
  EXPECT_EQ(parse_feed_date("May 23, 2024 10:00 PM EST"), at(2024, 5, 24, 3));
  EXPECT_EQ(parse_feed_date("23-May-2024 10:00:00"), at(2024, 5, 23, 10));
  EXPECT_EQ(parse_feed_date("Thu, 23 May 2024 10:00:00 +0000 (UTC)"), at(2024, 5, 23, 10));
  EXPECT_EQ(parse_feed_date("Thu, 23 May 2024"), at(2024, 5, 23));
}

TEST(DateParse, NamedAndMilitaryZones) {
  EXPECT_EQ(parse_feed_date("Thu, 23 May 2024 10:00:00 EST"), at(2024, 5, 23, 15));
  EXPECT_EQ(parse_feed_date("Thu, 23 May 2024 10:00:00 PDT"), at(2024, 5, 23, 17));
  EXPECT_EQ(parse_feed_date("Thu, 23 May 2024 10:00:00 Z"), at(2024, 5, 23, 10));
  // RFC 822 section 5.1 military zones: A is -1, N is +1, M is -12, Y is +12.
  EXPECT_EQ(parse_feed_date("Thu, 23 May 2024 10:00:00 A"), at(2024, 5, 23, 11));
  EXPECT_EQ(parse_feed_date("Thu, 23 May 2024 10:00:00 N"), at(2024, 5, 23, 9));
  EXPECT_EQ(parse_feed_date("Thu, 23 May 2024 10:00:00 Y"), at(2024, 5, 22, 22));
}

TEST(DateParse, Iso8601AndRfc3339) {
  EXPECT_EQ(parse_feed_date("2024-05-23T10:00:00Z"), at(2024, 5, 23, 10));
  EXPECT_EQ(parse_feed_date("2024-05-23T10:00:00+02:00"), at(2024, 5, 23, 8));
  EXPECT_EQ(parse_feed_date("2024-05-23T10:00:00.123456-08:00"), at(2024, 5, 23, 18));
  EXPECT_EQ(parse_feed_date("2024-05-23t10:00:00z"), at(2024, 5, 23, 10));
  EXPECT_EQ(parse_feed_date("2024-05-23 10:00:00"), at(2024, 5, 23, 10));  // no zone: UTC
  EXPECT_EQ(parse_feed_date("2024-05-23 10:00:00 +0000"), at(2024, 5, 23, 10));
  EXPECT_EQ(parse_feed_date("2024-05-23T10:00"), at(2024, 5, 23, 10));
  EXPECT_EQ(parse_feed_date("2024-05-23"), at(2024, 5, 23));
  EXPECT_EQ(parse_feed_date("2024-05"), at(2024, 5, 1));  // W3CDTF
  EXPECT_EQ(parse_feed_date("2024"), at(2024, 1, 1));
  EXPECT_EQ(parse_feed_date("20240523T100000Z"), at(2024, 5, 23, 10));
  EXPECT_EQ(parse_feed_date("20240523"), at(2024, 5, 23));
  EXPECT_EQ(parse_feed_date("2024-144"), at(2024, 5, 23));  // ordinal
  EXPECT_EQ(parse_feed_date("2024/05/23 10:00"), at(2024, 5, 23, 10));
  EXPECT_EQ(parse_feed_date("2024-05-23T24:00:00Z"), at(2024, 5, 24));
}

TEST(DateParse, YearOneParsesWithoutOverflow) {
  const auto t = parse_feed_date("0001-01-01T00:00:00Z");
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ(year_month_day{floor<days>(*t)}.year(), year{1});
  EXPECT_EQ(parse_feed_date("Mon, 01 Jan 0001 00:00:00 +0000"), t);
}

TEST(DateParse, RejectsNonsense) {
  for (const char* s :
       {"", "   ", "garbage", "2024-13-01", "2024-02-30T00:00:00Z", "Thu, 32 May 2024", "tomorrow",
        "12345678901234567890", "2024-05-23T10:00:00+99:00", "May 2024", "2024-05-23Tjunk", "\xff\xfe"}) {
    EXPECT_EQ(parse_feed_date(s), std::nullopt) << s;
  }
}

}  // namespace
}  // namespace longread
