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
