// Named locks shared by every process over one SQLite file (migration 0031), two stores on one file
// standing for two processes: one holder at a time; the holder may take it again (extending the lease);
// a lapsed lease is taken over; only the holder gives it back.
#include <gtest/gtest.h>

#include <memory>

#include "storage/store.h"
#include "testing/store_test.h"

namespace longread::storage {
namespace {

using std::chrono::minutes;

class ProcessLocksStoreTest : public longread::testing::TwoProcessStoreTest {
 protected:
  ProcessLocksStoreTest() : TwoProcessStoreTest("longread-process-locks") {}
  bool take(Store& store, std::string_view owner, TimePoint now, TimePoint until) {
    auto taken = store.try_lock("near-duplicates", owner, now, until);
    EXPECT_TRUE(taken) << taken.error().message;
    return taken.value_or(false);
  }

  const TimePoint t0_ = from_unix(1'700'000'000);
};

TEST_P(ProcessLocksStoreTest, OneHolderAtATime) {
  EXPECT_TRUE(take(*store_, "a:1:1", t0_, t0_ + minutes(2)));
  EXPECT_FALSE(take(*other_, "b:2:2", t0_ + minutes(1), t0_ + minutes(3)));
  EXPECT_TRUE(take(*store_, "a:1:1", t0_ + minutes(1), t0_ + minutes(3)));   // again: the lease is extended
  EXPECT_FALSE(take(*other_, "b:2:2", t0_ + minutes(2), t0_ + minutes(4)));  // still a's until minute 3
  // Another name is another lock.
  auto elsewhere = other_->try_lock("newsletter", "b:2:2", t0_, t0_ + minutes(2));
  ASSERT_TRUE(elsewhere);
  EXPECT_TRUE(*elsewhere);
  // Only the holder gives it back.
  ASSERT_TRUE(other_->unlock("near-duplicates", "b:2:2"));
  EXPECT_FALSE(take(*other_, "b:2:2", t0_ + minutes(2), t0_ + minutes(4)));
  ASSERT_TRUE(store_->unlock("near-duplicates", "a:1:1"));
  EXPECT_TRUE(take(*other_, "b:2:2", t0_ + minutes(2), t0_ + minutes(4)));
}

TEST_P(ProcessLocksStoreTest, ALapsedLeaseIsTakenOver) {
  EXPECT_TRUE(take(*store_, "dead:1:1", t0_, t0_ + minutes(2)));  // then killed: never given back
  EXPECT_FALSE(take(*other_, "b:2:2", t0_ + minutes(1), t0_ + minutes(3)));
  EXPECT_TRUE(take(*other_, "b:2:2", t0_ + minutes(2), t0_ + minutes(4)));
  EXPECT_FALSE(take(*store_, "dead:1:1", t0_ + minutes(3), t0_ + minutes(5)));
}

LONGREAD_STORE_BACKENDS(ProcessLocksStoreTest);

}  // namespace
}  // namespace longread::storage
