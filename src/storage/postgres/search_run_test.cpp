// SearchRun::read_slice on a real PostgreSQL (tests/testing/postgres_database.h): a slice's candidates are
// the newest of its range, from each statement of the plan (the GIN index, the bitmap of common words, the
// walk of articles_common_words), and a slice cut at its limit says how far down it looked. The pages
// search() makes of the slices are tested on both backends in the storage suite.
#include "storage/postgres/search_run.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "storage/postgres/database.h"
#include "storage/postgres/pg.h"
#include "storage/postgres/statement.h"
#include "storage/search_terms.h"
#include "testing/postgres_database.h"

namespace longread::storage::postgres {
namespace {

using longread::testing::PostgresDatabase;

class SearchRunTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(pg_.url().empty());
    auto db = Database::open(pg_.url(), 1);
    ASSERT_TRUE(db) << db.error().message;
    db_ = std::move(*db);
    auto conn = Connection::open(pg_.url());
    ASSERT_TRUE(conn) << conn.error().message;
    conn_ = std::make_unique<Connection>(std::move(*conn));
    auto seeded = conn_->exec_script(
        "INSERT INTO categories (slug, name) VALUES ('t', 'T') ON CONFLICT DO NOTHING;"
        "INSERT INTO blogs (feed_url, category, created_at) VALUES ('https://a.example/feed', 't', 0);");
    ASSERT_TRUE(seeded) << seeded.error().message;
    // Articles 1 to 10, newest last: the odd ones are by the lighthouse ("the" is a common word, kept in
    // the bitmap), the even ones about a lighthouse, without "the".
    for (int id = 1; id <= 10; ++id) {
      const std::string text = id % 2 == 1 ? "Notes written by the lighthouse keeper" : "A lighthouse keeper";
      const SearchVectors v = search_vectors(db_->tokenizer(), db_->common_words(), "Log", text);
      auto added = conn_->exec(
          "INSERT INTO articles (id, blog_id, guid, title, text, first_seen, display_at, category,"
          " search_words, rank_vector, phrase_filter, common_words)"
          " SELECT $1::bigint, id, 'g' || $1::bigint, 'Log', $2, 0, $1::bigint, 't', $3::int4[], "
          "$4::tsvector, $5::bytea, $6::bytea"
          " FROM blogs",
          Params(id, text, Binary{v.words}, Binary{v.rank}, Binary{v.phrase_filter}, Binary{v.common_words}));
      ASSERT_TRUE(added) << added.error().message;
    }
  }

  // The ids and how far down the slice (low, high] of `query` looked, at most `wanted` candidates.
  std::pair<std::vector<std::int64_t>, std::int64_t> slice(const std::string& query, std::int64_t low,
                                                           std::int64_t high, int wanted) {
    const SearchPlan plan = plan_search(db_->tokenizer(), db_->common_words(), search_terms(query), {});
    EXPECT_FALSE(plan.match.empty()) << query;
    SearchRun run(*conn_, *db_, plan);
    auto read = run.read_slice(low, high, wanted);
    EXPECT_TRUE(read) << query << ": " << read.error().message;
    std::vector<std::int64_t> ids;
    if (!read) return {ids, -1};
    for (const SearchCandidate& c : read->candidates) ids.push_back(c.id);
    return {ids, read->examined_above};
  }

  PostgresDatabase pg_;
  std::unique_ptr<Database> db_;
  std::unique_ptr<Connection> conn_;
};

using Ids = std::vector<std::int64_t>;

TEST_F(SearchRunTest, TheServersKeysOfAnArticleAreItsWordsAndTheBlocksTheSearchAsksFor) {
  for (const std::int64_t id : {std::int64_t{1}, std::int64_t{4095}, std::int64_t{4096},
                                std::int64_t{2'097'157}, std::int64_t{987'654'321'098}}) {
    Ids expected{-5, 7};
    for (std::size_t level = 0; level < kSearchBlockShifts.size(); ++level)
      expected.push_back(static_cast<std::int64_t>(level + 1) * kSearchBlockKeyBase +
                         (id >> kSearchBlockShifts[level]));
    auto keys = conn_->exec("SELECT unnest(longread_search_keys('{-5,7}', $1::bigint))", Params(id));
    ASSERT_TRUE(keys) << keys.error().message;
    Ids got;
    for (int r = 0; r < keys->size(); ++r) got.push_back(keys->int64(r, 0));
    EXPECT_EQ(got, expected) << id;
  }
  // Of the ids 0 to 600,000, the range's keys find exactly those of its blocks: from the block of 5,001 up
  // to past 300,000.
  const Ids range = search_range_keys(5000, 300'000);
  auto found = conn_->exec(
      "SELECT min(i), max(i), count(*) FROM generate_series(0, 600000) i"
      " WHERE longread_search_keys('{}', i) && $1::int8[]",
      Params(id_array(range)));
  ASSERT_TRUE(found) << found.error().message;
  EXPECT_EQ(found->int64(0, 0), 4096);
  EXPECT_EQ(found->int64(0, 1), search_block_ids(range.back()).second - 1);
  EXPECT_EQ(found->int64(0, 2), search_block_ids(range.back()).second - 4096);
}

TEST_F(SearchRunTest, AWordOfTheIndexGivesTheNewestOfTheSliceAndACutSliceSaysWhereItStopped) {
  EXPECT_EQ(slice("lighthouse", 0, 10, 100), std::make_pair(Ids{10, 9, 8, 7, 6, 5, 4, 3, 2, 1}, 0L));
  EXPECT_EQ(slice("lighthouse", 0, 10, 3), std::make_pair(Ids{10, 9, 8}, 7L)) << "ids 1 to 7 not looked at";
  EXPECT_EQ(slice("lighthouse", 2, 6, 100), std::make_pair(Ids{6, 5, 4, 3}, 2L));
  EXPECT_EQ(slice("cathedral", 0, 10, 100), std::make_pair(Ids{}, 0L));
}

TEST_F(SearchRunTest, ACommonWordIsTestedOnTheBitmapBesideTheIndexAndWalkedAlone) {
  ASSERT_TRUE(db_->common_words().bit("the"));
  EXPECT_EQ(slice("lighthouse the", 0, 10, 100), std::make_pair(Ids{9, 7, 5, 3, 1}, 0L));
  EXPECT_EQ(slice("the lighthouse", 4, 8, 100), std::make_pair(Ids{7, 5}, 4L));
  EXPECT_EQ(slice("the", 0, 10, 100), std::make_pair(Ids{9, 7, 5, 3, 1}, 0L)) << "the walk";
  EXPECT_EQ(slice("the", 0, 10, 2), std::make_pair(Ids{9, 7}, 6L));
}

TEST_F(SearchRunTest, APhrasesCandidatesAreTheRowsItsFilterLetsThroughWithTheSizeOfTheirTexts) {
  const SearchPlan plan =
      plan_search(db_->tokenizer(), db_->common_words(), search_terms("\"the lighthouse\""), {});
  ASSERT_FALSE(plan.probes.empty());
  SearchRun run(*conn_, *db_, plan);
  auto read = run.read_slice(0, 10, 100);
  ASSERT_TRUE(read) << read.error().message;
  Ids ids;
  for (const SearchCandidate& c : read->candidates) {
    ids.push_back(c.id);
    EXPECT_GT(c.bytes, 0) << c.id;
  }
  EXPECT_EQ(ids, (Ids{9, 7, 5, 3, 1})) << "the even texts have no \"the\"";
}

}  // namespace
}  // namespace longread::storage::postgres
