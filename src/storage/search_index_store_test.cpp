// The search index's upkeep (DatabaseStore::maintain_search_index, docs/storage.md "The newest articles'
// index"), on a real store: on both backends it does its work once, then has nothing to do, and every
// search finds and orders what it found before; on PostgreSQL the index of the newest articles is built
// only once the table is large enough, moves on with the newest ids, serves the slices above its threshold,
// is built again when a kill left it unfinished, and is left alone while another process holds the upkeep.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <string>
#include <vector>

#include "storage/postgres/database.h"
#include "storage/postgres/pg.h"
#include "storage/postgres/recent_search_index.h"
#include "storage/postgres/search_run.h"
#include "storage/postgres/statement.h"
#include "storage/store.h"
#include "testing/store_test.h"

namespace longread::storage {
namespace {

using longread::testing::Backend;

class SearchIndexStoreTest : public longread::testing::StoreSuite {
 protected:
  SearchIndexStoreTest() : StoreSuite("longread-search-index") {}

  // Saves `n` articles of one blog, one crawl (one commit) each, as hourly crawls of a busy blog would:
  // on SQLite each commit adds a segment to the FTS5 index.
  void save_each(std::int64_t blog, int first, int n) {
    for (int i = first; i < first + n; ++i) {
      model::Article a;
      a.guid = fmt::format("g{}", i);
      a.title = fmt::format("Ledger {} of the cathedral", i);
      a.link = fmt::format("https://a.example/{}", i);
      a.published = from_unix(1'700'000'000 + static_cast<std::int64_t>(i) * 3600);
      a.text = i % 3 == 0 ? "The ledger was kept by the river garden."
                          : "A garden by the river, kept in a ledger.";
      a.excerpt = a.text;
      a.word_count = 1500;
      a.reading_minutes = 7;
      save_articles(blog, {a}, *a.published);
    }
  }

  // The ids each search finds, in order: a word of every article, a phrase of a third, two words.
  std::vector<std::vector<std::int64_t>> searches() {
    std::vector<std::vector<std::int64_t>> out;
    for (const char* q : {"ledger", "\"ledger was kept\"", "river cathedral", "nowhere"}) {
      auto hits = store_->search(q, 100, 0);
      EXPECT_TRUE(hits) << q << ": " << hits.error().message;
      std::vector<std::int64_t> ids;
      for (const SearchHit& h : hits.value_or(std::vector<SearchHit>{})) ids.push_back(h.view.article.id);
      out.push_back(std::move(ids));
    }
    return out;
  }

  SearchIndexReport maintain(std::int64_t recent_ids) {
    auto report = store_->maintain_search_index({.recent_ids = recent_ids});
    EXPECT_TRUE(report) << report.error().message;
    return report.value_or(SearchIndexReport{.summary = "failed"});
  }

  // PostgreSQL: the first column of `sql`'s rows.
  std::vector<std::string> pg_query(const std::string& sql) {
    return longread::testing::query_column(db(), sql);
  }
  std::vector<std::string> recent_indexes() {
    return pg_query(
        "SELECT c.relname || CASE WHEN i.indisvalid THEN '' ELSE ' (invalid)' END FROM pg_index i"
        " JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indrelid = 'articles'::regclass"
        " AND c.relname LIKE 'articles\\_search\\_recent%' ORDER BY 1");
  }
  // The index the planner reads for a search slice of ids (low, high]. The tables here are tiny, so a
  // B-tree holding the id would serve any slice: every one is dropped inside a transaction that is rolled
  // back, leaving the search indexes, whose predicates the slice's bounds must imply for the planner to
  // use them.
  std::string slice_index(std::int64_t low, std::int64_t high) {
    auto conn = postgres::Connection::open(db());
    if (!conn) return conn.error().message;
    auto common = postgres::read_common_words(*conn);
    if (!common) return common.error().message;
    const std::int32_t ledger = common->word_id("ledger");
    auto dropped = conn->exec_script(
        "BEGIN;"
        " DO $$ DECLARE r record; BEGIN"
        "  FOR r IN SELECT conname FROM pg_constraint WHERE conrelid = 'articles'::regclass"
        "   AND contype IN ('p', 'u') LOOP"
        "   EXECUTE format('ALTER TABLE articles DROP CONSTRAINT %I CASCADE', r.conname); END LOOP;"
        "  FOR r IN SELECT c.relname FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid"
        "   JOIN pg_am am ON am.oid = c.relam WHERE i.indrelid = 'articles'::regclass AND am.amname <> 'gin' "
        "LOOP"
        "   EXECUTE format('DROP INDEX %I', r.relname); END LOOP;"
        " END $$;"
        " SET LOCAL enable_seqscan = off");
    if (!dropped) return dropped.error().message;
    auto plan = conn->exec(
        fmt::format("EXPLAIN SELECT a.id FROM articles a WHERE a.visible = 1 AND a.search_words IS NOT NULL"
                    " AND longread_search_keys(a.search_words, a.id) @> '{{{}}}'::int8[]"
                    " AND longread_search_keys(a.search_words, a.id) && '{}'::int8[]"
                    " AND a.id > {} AND a.id <= {} ORDER BY a.id DESC",
                    ledger, postgres::id_array(postgres::search_range_keys(low, high)), low, high));
    (void)conn->exec_script("ROLLBACK");
    if (!plan) return plan.error().message;
    constexpr std::string_view kScan = "Bitmap Index Scan on ";
    std::string whole;
    for (int r = 0; r < plan->size(); ++r) {
      const std::string line = plan->string(r, 0);
      whole += line + "\n";
      const auto at = line.find(kScan);
      if (at == std::string::npos) continue;
      const std::string name =
          line.substr(at + kScan.size(), line.find(' ', at + kScan.size()) - at - kScan.size());
      if (name.starts_with("articles_search")) return name;
    }
    return "no search index in the plan:\n" + whole;
  }
};

TEST_P(SearchIndexStoreTest, TheUpkeepWorksOnceThenHasNothingToDoAndSearchesFindTheSame) {
  const auto blog = add_blog("a");
  save_each(blog, 0, 30);
  const auto before = searches();
  ASSERT_EQ(before[0].size(), 30u);
  ASSERT_EQ(before[1].size(), 10u);
  ASSERT_EQ(before[3].size(), 0u);

  // SQLite: thirty one-article commits left FTS5 segments to merge. PostgreSQL: thirty ids, twice ten.
  const SearchIndexReport first = maintain(10);
  EXPECT_TRUE(first.changed) << first.summary;
  EXPECT_FALSE(first.busy);
  EXPECT_EQ(searches(), before);
  const SearchIndexReport second = maintain(10);
  EXPECT_FALSE(second.changed) << second.summary;
  EXPECT_FALSE(second.summary.empty());
  EXPECT_EQ(searches(), before);
}

LONGREAD_STORE_BACKENDS(SearchIndexStoreTest);

class PostgresSearchIndexTest : public SearchIndexStoreTest {};

TEST_P(PostgresSearchIndexTest, TheNewestArticlesIndexMovesOnWithTheIdsAndServesTheirSlices) {
  const auto blog = add_blog("a");
  save_each(blog, 0, 30);
  const auto top = std::stoll(pg_query("SELECT MAX(id) FROM articles").at(0));
  const auto base = top - 30;  // ids run on from wherever the sequence stood

  // Thirty ids are fewer than twice a hundred: the whole index is small, nothing is built.
  SearchIndexReport report = maintain(100);
  EXPECT_FALSE(report.changed) << report.summary;
  EXPECT_EQ(recent_indexes(), std::vector<std::string>{});

  report = maintain(10);
  EXPECT_TRUE(report.changed) << report.summary;
  const std::string first = fmt::format("articles_search_recent_{}", top - 10);
  EXPECT_EQ(recent_indexes(), std::vector<std::string>{first});
  // The planner costs it by the rows it holds, as ANALYZE counts them (a GIN build records its keys).
  EXPECT_EQ(pg_query(fmt::format("SELECT reltuples::bigint FROM pg_class WHERE relname = '{}'", first)),
            std::vector<std::string>{"10"});
  // A slice above the threshold is read from it; one reaching below is read from the whole index.
  EXPECT_EQ(slice_index(top - 5, top), first);
  EXPECT_EQ(slice_index(base, top), "articles_search_keys");
  auto hits = store_->search("ledger", 5, 0);
  ASSERT_TRUE(hits) << hits.error().message;
  ASSERT_EQ(hits->size(), 5u);

  // Fifteen more ids: the index covers twenty-five, more than twice ten, so one over the newest ten
  // replaces it. Ten more still fit (twenty of them): nothing to do.
  save_each(blog, 30, 15);
  report = maintain(10);
  EXPECT_TRUE(report.changed) << report.summary;
  const std::string second = fmt::format("articles_search_recent_{}", top + 5);
  EXPECT_EQ(recent_indexes(), std::vector<std::string>{second});
  EXPECT_EQ(maintain(10).changed, false);

  // A build a kill cut short leaves its index invalid (the planner ignores it): it is dropped and made
  // again.
  pg_query(fmt::format("UPDATE pg_index SET indisvalid = false WHERE indexrelid = '{}'::regclass RETURNING 1",
                       second));
  EXPECT_EQ(recent_indexes(), std::vector<std::string>{second + " (invalid)"});
  report = maintain(10);
  EXPECT_TRUE(report.changed) << report.summary;
  EXPECT_NE(report.summary.find("left unfinished"), std::string::npos) << report.summary;
  EXPECT_EQ(recent_indexes(), std::vector<std::string>{second});

  // While another process holds the upkeep, nothing is done, and it says so.
  auto other = postgres::Connection::open(db());
  ASSERT_TRUE(other) << other.error().message;
  ASSERT_TRUE(other->exec(fmt::format("SELECT pg_advisory_lock({})", postgres::kRecentSearchIndexLock)));
  save_each(blog, 45, 30);
  report = maintain(10);
  EXPECT_TRUE(report.busy);
  EXPECT_FALSE(report.changed);
  EXPECT_EQ(recent_indexes(), std::vector<std::string>{second});
  ASSERT_TRUE(other->exec(fmt::format("SELECT pg_advisory_unlock({})", postgres::kRecentSearchIndexLock)));
  report = maintain(10);
  EXPECT_TRUE(report.changed) << report.summary;
  EXPECT_EQ(recent_indexes(), std::vector<std::string>{fmt::format("articles_search_recent_{}", top + 35)});
}

INSTANTIATE_TEST_SUITE_P(Postgres, PostgresSearchIndexTest, ::testing::Values(Backend::kPostgres),
                         longread::testing::backend_name);

}  // namespace
}  // namespace longread::storage
