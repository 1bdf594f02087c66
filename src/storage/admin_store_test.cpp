// Tests of what the admin area stores: the operator role of readers and the audit log. On both backends.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "storage/store.h"
#include "testing/store_test.h"

namespace longread::storage {
namespace {

TimePoint at(std::int64_t hours_after) {
  return from_unix(1'700'000'000 + hours_after * 3600);
}

class AdminStoreTest : public longread::testing::StoreSuite {
 protected:
  AdminStoreTest() : StoreSuite("longread-admin-store") {}
};

TEST_P(AdminStoreTest, OperatorRoleIsGrantedByAddressAndSeenBySessions) {
  auto ada = store_->create_reader("Ada@Example.org", "hash", at(0), at(0));
  ASSERT_TRUE(ada) << ada.error().message;
  ASSERT_TRUE(store_->create_session(
      {.token_hash = "t", .reader_id = *ada, .created_at = at(0), .expires_at = at(24)}));
  EXPECT_FALSE(store_->session_reader("t", at(1)).value()->is_operator);  // nobody starts as an operator

  ASSERT_TRUE(store_->set_reader_operator("ada@example.ORG", true));  // the address, any case
  EXPECT_TRUE(store_->session_reader("t", at(1)).value()->is_operator);
  EXPECT_TRUE(store_->reader_by_email("ada@example.org").value()->is_operator);
  reopen();  // stored, not cached
  EXPECT_TRUE(store_->readers().value().at(0).is_operator);

  ASSERT_TRUE(store_->set_reader_operator("ada@example.org", false));
  EXPECT_FALSE(store_->session_reader("t", at(1)).value()->is_operator);

  auto unknown = store_->set_reader_operator("nobody@example.org", true);
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error().kind, ErrorKind::kNotFound);
}

TEST_P(AdminStoreTest, AuditLogPagesNewestFirstAndOutlivesTheActorsAccount) {
  auto ada = store_->create_reader("ada@example.org", "hash", at(0), at(0));
  ASSERT_TRUE(ada);
  for (int i = 0; i < 5; ++i) {
    auto id = store_->add_audit_entry({.at = at(i),
                                       .actor_id = *ada,
                                       .actor = "ada@example.org",
                                       .action = "blog.pause",
                                       .target = "blog " + std::to_string(i),
                                       .detail = i == 4 ? "last" : ""});
    ASSERT_TRUE(id) << id.error().message;
  }
  auto first = store_->audit_entries(2, 0);
  ASSERT_TRUE(first) << first.error().message;
  ASSERT_EQ(first->entries.size(), 2u);
  EXPECT_EQ(first->entries[0].target, "blog 4");
  EXPECT_EQ(first->entries[0].detail, "last");
  EXPECT_EQ(first->entries[0].at, at(4));
  EXPECT_EQ(first->entries[0].actor_id, *ada);
  EXPECT_EQ(first->entries[1].target, "blog 3");
  ASSERT_NE(first->next_before, 0);
  auto second = store_->audit_entries(2, first->next_before);
  ASSERT_TRUE(second);
  ASSERT_EQ(second->entries.size(), 2u);
  EXPECT_EQ(second->entries[0].target, "blog 2");
  auto last = store_->audit_entries(2, second->next_before);
  ASSERT_TRUE(last);
  ASSERT_EQ(last->entries.size(), 1u);
  EXPECT_EQ(last->entries[0].target, "blog 0");
  EXPECT_EQ(last->next_before, 0);  // no older page

  // The account goes; its entries stay, naming the address, with no id to point at.
  ASSERT_TRUE(store_->delete_reader(*ada));
  auto after = store_->audit_entries(10, 0);
  ASSERT_TRUE(after);
  ASSERT_EQ(after->entries.size(), 5u);
  EXPECT_FALSE(after->entries[0].actor_id);
  EXPECT_EQ(after->entries[0].actor, "ada@example.org");
}

// The blogs table's numbers come from the stored articles themselves: a count in the window, the newest
// date, all stored articles (junk too: the blog posted them), and the date the blog was first followed.
TEST_P(AdminStoreTest, BlogHealthCountsEachBlogsRecentAndStoredArticles) {
  auto busy = store_->upsert_blog({.feed_url = "https://busy.example/feed", .title = "Busy"});
  auto quiet = store_->upsert_blog({.feed_url = "https://quiet.example/feed", .title = "Quiet"});
  auto empty = store_->upsert_blog({.feed_url = "https://empty.example/feed", .title = "Empty"});
  ASSERT_TRUE(busy && quiet && empty);
  auto crawl = [&](std::int64_t blog, std::vector<std::int64_t> hours, bool junk_first) {
    CrawlRecord record{.blog_id = blog, .attempted_at = at(1000), .success = true, .status = "ok"};
    for (std::size_t i = 0; i < hours.size(); ++i) {
      model::Article a;
      a.guid = std::to_string(blog) + "-" + std::to_string(i);
      a.title = "Post " + a.guid;
      a.link = "https://example.org/" + a.guid;
      a.published = at(hours[i]);
      a.text = "text";
      a.junk = junk_first && i == 0;
      record.articles.push_back(a);
    }
    ASSERT_TRUE(store_->save_crawl(record));
  };
  crawl(*busy, {900, 950, 990, 10}, true);  // three in the window (one of them junk), one long before
  crawl(*quiet, {5}, false);
  auto health = store_->blog_health(at(800));
  ASSERT_TRUE(health) << health.error().message;
  ASSERT_EQ(health->size(), 3u);
  // By title: Busy, Empty, Quiet.
  const BlogHealth& b = (*health)[0];
  EXPECT_EQ(b.blog.id, *busy);
  EXPECT_EQ(b.recent_articles, 3);
  EXPECT_EQ(b.stored_articles, 4);
  EXPECT_EQ(b.blog.article_count, 3);  // visible ones: the junk one is hidden
  EXPECT_EQ(b.newest_article_at, at(990));
  EXPECT_EQ(b.blog.last_status, "ok");
  const BlogHealth& e = (*health)[1];
  EXPECT_EQ(e.blog.id, *empty);
  EXPECT_EQ(e.recent_articles, 0);
  EXPECT_FALSE(e.newest_article_at);
  const BlogHealth& q = (*health)[2];
  EXPECT_EQ(q.recent_articles, 0);
  EXPECT_EQ(q.stored_articles, 1);
  EXPECT_EQ(q.newest_article_at, at(5));
  EXPECT_GT(q.followed_at.time_since_epoch().count(), 0);
}

// Near misses: kept, recent, not decided by the operator, shortest first; junk, old and overridden
// articles are left out.
TEST_P(AdminStoreTest, NearMissesAreTheShortestRecentArticlesTheFilterKept) {
  auto blog = store_->upsert_blog({.feed_url = "https://near.example/feed", .title = "Near"});
  ASSERT_TRUE(blog);
  CrawlRecord record{.blog_id = *blog, .attempted_at = at(1000), .success = true, .status = "ok"};
  struct Row {
    std::string guid;
    int words;
    std::int64_t hour;
    bool junk;
  };
  for (const Row& r : std::vector<Row>{{"long", 900, 990, false},
                                       {"short", 160, 980, false},
                                       {"mid", 400, 970, false},
                                       {"junk", 20, 990, true},
                                       {"old", 151, 10, false},
                                       {"kept", 155, 985, false}}) {
    model::Article a;
    a.guid = r.guid;
    a.title = r.guid;
    a.link = "https://near.example/" + r.guid;
    a.published = at(r.hour);
    a.text = "text";
    a.word_count = r.words;
    a.junk = r.junk;
    record.articles.push_back(a);
  }
  ASSERT_TRUE(store_->save_crawl(record));
  auto all = store_->articles({.include_junk = true, .limit = 10});
  ASSERT_TRUE(all);
  for (const auto& v : *all) {
    if (v.article.guid == "kept") {
      ASSERT_TRUE(store_->set_keep_override(v.article.id, true));
    }
  }
  auto near = store_->near_misses(at(900), 10);
  ASSERT_TRUE(near) << near.error().message;
  std::vector<std::string> guids;
  for (const auto& v : *near) guids.push_back(v.article.guid);
  EXPECT_EQ(guids, (std::vector<std::string>{"short", "mid", "long"}));
  auto one = store_->near_misses(at(900), 1);
  ASSERT_TRUE(one);
  ASSERT_EQ(one->size(), 1u);
  EXPECT_EQ(one->front().article.guid, "short");
}

LONGREAD_STORE_BACKENDS(AdminStoreTest);

}  // namespace
}  // namespace longread::storage
