// The rate limiter over real SQLite files: a sliding window per key; two limiters on one database (two web
// processes of one site) share one count, and a restart keeps it; limits with different names never share
// a count; the table stays bounded by the limit per key, by expiry and by a cap on rows in all.
#include "accounts/rate_limiter.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "testing/store_test.h"

namespace longread::accounts {
namespace {

using std::chrono::hours;
using std::chrono::minutes;

TimePoint t0() {
  return from_unix(1'700'000'000);
}

class RateLimiterTest : public longread::testing::TwoProcessStoreTest {
 protected:
  RateLimiterTest() : TwoProcessStoreTest("longread-rate-limiter") {}

  // Attempts of `key` the store holds for the limit named `name`, however old.
  std::size_t rows(const std::string& name, const std::string& key) {
    auto times = store_->recent_attempts(name + "|" + key, t0() - hours(24 * 365), 1000);
    EXPECT_TRUE(times) << times.error().message;
    return times ? times->size() : 0;
  }
};

TEST_P(RateLimiterTest, SlidingWindow) {
  const RateLimiter limiter(*store_, "login", 3, minutes(15));
  for (int i = 0; i < 3; ++i) {
    EXPECT_FALSE(limiter.retry_after("k", t0() + minutes(i)));
    limiter.record("k", t0() + minutes(i));
  }
  auto wait = limiter.retry_after("k", t0() + minutes(3));
  ASSERT_TRUE(wait);
  EXPECT_EQ(*wait, minutes(12));
  EXPECT_EQ(try_again_message(*wait), "Too many attempts. Try again in 12 minutes.");
  EXPECT_EQ(try_again_message(std::chrono::seconds(5)), "Too many attempts. Try again in 1 minute.");
  EXPECT_FALSE(limiter.retry_after("other", t0() + minutes(3)));
  EXPECT_FALSE(limiter.retry_after("k", t0() + minutes(15)));  // the first attempt left the window
  limiter.reset("k");
  EXPECT_FALSE(limiter.retry_after("k", t0() + minutes(3)));
}

TEST_P(RateLimiterTest, TwoProcessesShareOneCountAndARestartKeepsIt) {
  // other_, a second store on the same file, is what a second web process has.
  const RateLimiter here(*store_, "login", 4, minutes(15));
  const RateLimiter there(*other_, "login", 4, minutes(15));
  here.record("client:192.0.2.1", t0());
  there.record("client:192.0.2.1", t0() + minutes(1));
  here.record("client:192.0.2.1", t0() + minutes(2));
  EXPECT_FALSE(there.retry_after("client:192.0.2.1", t0() + minutes(3)));
  there.record("client:192.0.2.1", t0() + minutes(3));
  // Four attempts between the two: both refuse the fifth.
  EXPECT_TRUE(here.retry_after("client:192.0.2.1", t0() + minutes(4)));
  EXPECT_TRUE(there.retry_after("client:192.0.2.1", t0() + minutes(4)));
  other_.reset();

  reopen();
  const RateLimiter restarted(*store_, "login", 4, minutes(15));
  const auto wait = restarted.retry_after("client:192.0.2.1", t0() + minutes(4));
  ASSERT_TRUE(wait);
  EXPECT_EQ(*wait, minutes(11));  // the first attempt, at t0, leaves the window at t0 + 15 min
}

TEST_P(RateLimiterTest, LimitsWithDifferentNamesNeverShareACount) {
  const RateLimiter login(*store_, "login", 1, minutes(15));
  const RateLimiter signup(*store_, "signup", 1, minutes(15));
  login.record("client:192.0.2.1", t0());
  EXPECT_TRUE(login.retry_after("client:192.0.2.1", t0()));
  EXPECT_FALSE(signup.retry_after("client:192.0.2.1", t0()));
  signup.reset("client:192.0.2.1");
  EXPECT_TRUE(login.retry_after("client:192.0.2.1", t0()));
}

TEST_P(RateLimiterTest, ResetPrefixForgetsOneAccountFromEveryClientOnly) {
  const RateLimiter pair(*store_, "login_pair", 1, minutes(15));
  pair.record("account:ada@example.org|client:192.0.2.1", t0());
  pair.record("account:ada@example.org|client:192.0.2.2", t0());
  pair.record("account:ada@example.org.evil|client:192.0.2.1", t0());
  pair.record("account:bob@example.org|client:192.0.2.1", t0());
  pair.reset_prefix("account:ada@example.org|");
  EXPECT_FALSE(pair.retry_after("account:ada@example.org|client:192.0.2.1", t0()));
  EXPECT_FALSE(pair.retry_after("account:ada@example.org|client:192.0.2.2", t0()));
  EXPECT_TRUE(pair.retry_after("account:ada@example.org.evil|client:192.0.2.1", t0()));
  EXPECT_TRUE(pair.retry_after("account:bob@example.org|client:192.0.2.1", t0()));
}

TEST_P(RateLimiterTest, TheTableStaysBounded) {
  // Per key: only as many attempts as the limit counts.
  const RateLimiter three(*store_, "three", 3, minutes(15));
  for (int i = 0; i < 50; ++i) three.record("busy", t0() + std::chrono::seconds(i));
  EXPECT_EQ(rows("three", "busy"), 3u);
  EXPECT_TRUE(three.retry_after("busy", t0() + minutes(1)));

  // Expired attempts go as later ones are recorded, whichever key they belong to.
  three.record("stale", t0());
  three.record("fresh", t0() + minutes(20));
  EXPECT_EQ(rows("three", "stale"), 0u);
  EXPECT_EQ(rows("three", "fresh"), 1u);

  // A flood of distinct keys: at most max_rows rows in all, the oldest recorded forgotten first.
  const RateLimiter capped(*store_, "capped", 2, hours(1), 100);
  for (int i = 0; i < 2000; ++i) capped.record("flood:" + std::to_string(i), t0() + minutes(21));
  std::size_t total = rows("three", "busy") + rows("three", "fresh");
  for (int i = 0; i < 2000; ++i) total += rows("capped", "flood:" + std::to_string(i));
  EXPECT_EQ(total, 100u);
  EXPECT_EQ(rows("capped", "flood:1999"), 1u);
  EXPECT_EQ(rows("capped", "flood:0"), 0u);
  capped.record("flood:1999", t0() + minutes(22));
  EXPECT_TRUE(capped.retry_after("flood:1999", t0() + minutes(22)));
  EXPECT_FALSE(capped.retry_after("flood:0", t0() + minutes(22)));
}

LONGREAD_STORE_BACKENDS(RateLimiterTest);

}  // namespace
}  // namespace longread::accounts
