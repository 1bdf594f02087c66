// Store support for near-duplicates and the page cache's data version (issues 3 and 5).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <utility>
#include <vector>

#include "storage/store.h"
#include "testing/store_test.h"

namespace longread::storage {
namespace {

class DedupeStoreTest : public longread::testing::StoreTest {
 protected:
  DedupeStoreTest() : StoreTest("longread_dedupe") {}
  void SetUp() override {
    StoreTest::SetUp();
    auto blog =
        store_->upsert_blog({.feed_url = "https://a.example/feed", .title = "A", .category = "essays"});
    ASSERT_TRUE(blog);
    blog_ = *blog;
  }

  void save(const std::string& guid, std::uint64_t simhash, std::int64_t day) {
    CrawlRecord r;
    r.blog_id = blog_;
    r.success = true;
    r.status = "ok";
    r.attempted_at = from_unix(day * 86400);
    model::Article a;
    a.guid = guid;
    a.title = guid;
    a.text = "text of " + guid;
    a.simhash = simhash;
    a.published = from_unix(day * 86400);
    r.articles.push_back(a);
    auto saved = store_->save_crawl(r);
    ASSERT_TRUE(saved) << saved.error().message;
  }

  std::int64_t id_of(const std::string& guid) {
    auto keys = store_->article_keys(blog_);
    EXPECT_TRUE(keys);
    for (const auto& k : *keys)
      if (k.guid == guid) return k.id;
    return 0;
  }

  std::int64_t blog_ = 0;
};

TEST_F(DedupeStoreTest, SimhashIndexListsOriginalsAndMarkDuplicatesHidesTheCopy) {
  save("original", 0xF0F0F0F0F0F0F0F0ULL, 19000);
  save("copy", 0xF0F0F0F0F0F0F0F1ULL, 19001);
  save("unhashed", 0, 19002);
  auto index = store_->simhash_index();
  ASSERT_TRUE(index) << index.error().message;
  ASSERT_EQ(index->size(), 2u);  // articles without a hash are not indexed
  EXPECT_EQ(index->at(0).simhash + index->at(1).simhash, 0xF0F0F0F0F0F0F0F0ULL + 0xF0F0F0F0F0F0F0F1ULL);

  const auto original = id_of("original");
  const auto copy = id_of("copy");
  const std::pair<std::int64_t, std::int64_t> mark{copy, original};
  ASSERT_TRUE(store_->mark_duplicates(std::span(&mark, 1)));
  auto view = store_->article(copy);
  ASSERT_TRUE(view && *view);
  EXPECT_EQ((*view)->article.duplicate_of, original);
  EXPECT_TRUE((*view)->article.junk);
  EXPECT_EQ((*view)->article.junk_reason, "duplicate of article " + std::to_string(original));
  ArticleQuery visible;
  auto listed = store_->articles(visible);
  ASSERT_TRUE(listed);
  for (const auto& v : *listed) EXPECT_NE(v.article.id, copy);
  index = store_->simhash_index();
  ASSERT_TRUE(index);
  EXPECT_EQ(index->size(), 1u);  // a duplicate is never the original of another
}

TEST_F(DedupeStoreTest, MarkDuplicatesMarksEachAndSkipsAnOriginalThatIsGone) {
  save("original", 0xAAAAULL, 19000);
  save("copy one", 0xAAABULL, 19001);
  save("copy two", 0xAAA8ULL, 19002);
  const auto original = id_of("original");
  const std::vector<std::pair<std::int64_t, std::int64_t>> marks = {{id_of("copy one"), original},
                                                                    {id_of("copy two"), original}};
  ASSERT_TRUE(store_->mark_duplicates(marks));
  for (const auto& [copy, orig] : marks) {
    auto view = store_->article(copy);
    ASSERT_TRUE(view && *view);
    EXPECT_EQ((*view)->article.duplicate_of, orig);
    EXPECT_TRUE((*view)->article.junk);
  }
  EXPECT_EQ(store_->count_articles({}).value(), 1);
  EXPECT_EQ(store_->search("copy", 10, 0).value().size(), 0u);  // copies leave the search index
  ASSERT_TRUE(store_->mark_duplicates({}));                     // nothing to do is fine

  // An original that is no longer stored (deleted by its blog's cap or the operator since the crawler read
  // the index) marks nothing, rather than failing every other mark and the crawl saved with them.
  save("third", 0xAAA9ULL, 19003);
  save("fourth", 0xAAA1ULL, 19004);
  const std::vector<std::pair<std::int64_t, std::int64_t>> gone = {{id_of("third"), 999999},
                                                                   {id_of("fourth"), original}};
  ASSERT_TRUE(store_->mark_duplicates(gone));
  auto third = store_->article(id_of("third"));
  ASSERT_TRUE(third && *third);
  EXPECT_FALSE((*third)->article.junk);
  EXPECT_EQ((*third)->article.duplicate_of, std::nullopt);
  auto fourth = store_->article(id_of("fourth"));
  ASSERT_TRUE(fourth && *fourth);
  EXPECT_EQ((*fourth)->article.duplicate_of, original);
}

TEST_F(DedupeStoreTest, DataVersionChangesOnEveryCommitIncludingOtherConnections) {
  auto v1 = store_->data_version();
  ASSERT_TRUE(v1) << v1.error().message;
  EXPECT_EQ(store_->data_version().value(), *v1);  // reading changes nothing
  save("one", 1, 19000);
  auto v2 = store_->data_version();
  ASSERT_TRUE(v2);
  EXPECT_NE(*v2, *v1);
  // A second store on the same file (another process, e.g. `longread keep`) writes: the version moves.
  auto other = open_sqlite_store((dir_ / "db.sqlite").string());
  ASSERT_TRUE(other);
  ASSERT_TRUE((*other)->set_keep_override(id_of("one"), false));
  auto v3 = store_->data_version();
  ASSERT_TRUE(v3);
  EXPECT_NE(*v3, *v2);
}

}  // namespace
}  // namespace longread::storage
