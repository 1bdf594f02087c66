// fresh_for: Cache-Control / Expires / Date / Age -> the freshness lifetime (RFC 9111 section 4.2).
#include "fetch/freshness.h"

#include <gtest/gtest.h>

namespace longread::fetch {
namespace {
using namespace std::chrono;

const TimePoint kNow = sys_days{year{2026} / March / 2} + hours{12};
const std::string kNowDate = format_http_date(kNow);

std::optional<seconds> cc(std::string_view cache_control) {
  return fresh_for({.cache_control = cache_control, .date = kNowDate}, kNow);
}

TEST(Freshness, MaxAge) {
  EXPECT_EQ(cc("max-age=7200"), hours{2});
  EXPECT_EQ(cc("public, max-age=600"), minutes{10});
  EXPECT_EQ(cc("Max-Age=60"), seconds{60});           // directive names are case-insensitive
  EXPECT_EQ(cc("max-age=\"120\""), seconds{120});     // the quoted form is accepted (RFC 9111 5.2)
  EXPECT_EQ(cc("private, max-age=300"), minutes{5});  // ours is a private cache
  EXPECT_EQ(cc("max-age=300, must-revalidate"), minutes{5});
}

TEST(Freshness, NoHint) {
  EXPECT_EQ(cc(""), std::nullopt);
  EXPECT_EQ(cc("public"), std::nullopt);
  EXPECT_EQ(cc("max-age=0"), std::nullopt);
  EXPECT_EQ(cc("no-cache"), std::nullopt);
  EXPECT_EQ(cc("no-store"), std::nullopt);
  EXPECT_EQ(cc("max-age=3600, no-cache"), std::nullopt);
  EXPECT_EQ(cc("no-store, max-age=3600"), std::nullopt);
  EXPECT_EQ(cc("max-age=soon"), std::nullopt);
  EXPECT_EQ(cc("max-age=-5"), std::nullopt);
  EXPECT_EQ(cc("max-age"), std::nullopt);
}

TEST(Freshness, SharedCacheMaxAgeIsIgnored) {
  EXPECT_EQ(cc("s-maxage=86400"), std::nullopt);
  EXPECT_EQ(cc("s-maxage=86400, max-age=60"), seconds{60});
}

TEST(Freshness, QualifiedNoCacheOnlyConcernsItsFields) {
  EXPECT_EQ(cc("no-cache=\"Set-Cookie, X-Id\", max-age=600"), minutes{10});
}

TEST(Freshness, FirstMaxAgeWinsAndHugeValuesAreClamped) {
  EXPECT_EQ(cc("max-age=60, max-age=7200"), seconds{60});
  EXPECT_EQ(cc("max-age=99999999999999999999999"), seconds{2147483648LL});  // RFC 9111 1.2.2
}

TEST(Freshness, ExpiresMinusDate) {
  EXPECT_EQ(fresh_for({.expires = format_http_date(kNow + hours{3}), .date = kNowDate}, kNow), hours{3});
  // The server's clock, not ours: Expires is read against the response's Date.
  EXPECT_EQ(
      fresh_for({.expires = format_http_date(kNow + hours{3}), .date = format_http_date(kNow - hours{1})},
                kNow),
      hours{4});
  // No Date (or a broken one): the time the response was received stands in (RFC 9110 6.6.1).
  EXPECT_EQ(fresh_for({.expires = format_http_date(kNow + hours{2})}, kNow), hours{2});
  EXPECT_EQ(fresh_for({.expires = format_http_date(kNow + hours{2}), .date = "yesterday"}, kNow), hours{2});
  // The obsolete date forms HTTP still allows (RFC 9110 5.6.7).
  EXPECT_EQ(fresh_for({.expires = "Monday, 02-Mar-26 14:00:00 GMT", .date = kNowDate}, kNow), hours{2});
  EXPECT_EQ(fresh_for({.expires = "Mon Mar  2 13:00:00 2026", .date = kNowDate}, kNow), hours{1});
}

TEST(Freshness, ExpiresInThePastOrInvalidIsNoHint) {
  EXPECT_EQ(fresh_for({.expires = format_http_date(kNow - hours{1}), .date = kNowDate}, kNow), std::nullopt);
  EXPECT_EQ(fresh_for({.expires = kNowDate, .date = kNowDate}, kNow), std::nullopt);
  for (const char* invalid : {"0", "-1", "never", "2030", "2030-01-01"}) {
    EXPECT_EQ(fresh_for({.expires = invalid, .date = kNowDate}, kNow), std::nullopt) << invalid;
  }
}

TEST(Freshness, MaxAgeWinsOverExpires) {
  const std::string in_a_day = format_http_date(kNow + days{1});
  EXPECT_EQ(fresh_for({.cache_control = "max-age=600", .expires = in_a_day, .date = kNowDate}, kNow),
            minutes{10});
  // ... even when max-age says "stale now" (RFC 9111 5.3).
  EXPECT_EQ(fresh_for({.cache_control = "max-age=0", .expires = in_a_day, .date = kNowDate}, kNow),
            std::nullopt);
  // An unusable max-age is as if absent: Expires decides.
  EXPECT_EQ(fresh_for({.cache_control = "max-age=x", .expires = in_a_day, .date = kNowDate}, kNow), days{1});
  // no-cache / no-store beat both.
  EXPECT_EQ(fresh_for({.cache_control = "no-cache", .expires = in_a_day, .date = kNowDate}, kNow),
            std::nullopt);
}

TEST(Freshness, AgeIsSubtracted) {
  EXPECT_EQ(fresh_for({.cache_control = "max-age=3600", .date = kNowDate, .age = "600"}, kNow), minutes{50});
  EXPECT_EQ(fresh_for({.cache_control = "max-age=3600", .date = kNowDate, .age = "3600"}, kNow),
            std::nullopt);
  EXPECT_EQ(fresh_for({.cache_control = "max-age=3600", .date = kNowDate, .age = "junk"}, kNow), hours{1});
}

}  // namespace
}  // namespace longread::fetch
