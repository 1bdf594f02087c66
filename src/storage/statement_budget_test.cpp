// The time budget of a reader connection (sqlite::StatementBudget) on a real SQLite file: a statement that
// would run for ever is interrupted once the budget has passed and its step fails; one within the budget
// runs to the end; once the budget is gone, the connection runs statements without a limit again.
#include "storage/sqlite/handles.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "testing/test_dir.h"

namespace longread::storage::sqlite {
namespace {

// Counts to `n` (or for ever with n = 0) in SQLite's virtual machine.
constexpr const char* kCount =
    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE :n = 0 OR x < :n)"
    " SELECT count(*) FROM c";

TEST(StatementBudget, InterruptsAStatementThatRunsPastIt) {
  const auto dir = longread::testing::fresh_test_dir("longread-statement-budget");
  std::filesystem::create_directories(dir);
  auto db = Connection::open((dir / "db.sqlite").string(), true);
  ASSERT_TRUE(db) << db.error().message;
  {
    StatementBudget budget(**db, std::chrono::milliseconds(50));
    auto q = (*db)->query(kCount);
    ASSERT_TRUE(q);
    q->bind(":n", 0);
    auto row = q->step();
    EXPECT_FALSE(row);  // interrupted
    EXPECT_TRUE(budget.exceeded());
  }
  {
    StatementBudget budget(**db, std::chrono::seconds(30));
    auto q = (*db)->query(kCount);
    ASSERT_TRUE(q);
    q->bind(":n", 1000);
    auto row = q->step();
    ASSERT_TRUE(row) << row.error().message;
    EXPECT_EQ(q->int64(0), 1000);
    EXPECT_FALSE(budget.exceeded());
  }
  {
    // No budget in scope: the connection runs as before.
    auto q = (*db)->query(kCount);
    ASSERT_TRUE(q);
    q->bind(":n", 200000);
    auto row = q->step();
    ASSERT_TRUE(row) << row.error().message;
    EXPECT_EQ(q->int64(0), 200000);
  }
  db->reset();
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace longread::storage::sqlite
