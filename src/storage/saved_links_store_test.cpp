// The portable reading list in the SQLite Store (migration 0024): imports that join known articles or keep
// plain links, their read state and removal, one reader never touching another's, and the private feed's
// token. Real database files.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "storage/store.h"
#include "testing/store_test.h"

namespace longread::storage {
namespace {

TimePoint at(std::int64_t seconds_after) {
  return from_unix(1'700'000'000 + seconds_after);
}

class SavedLinksStoreTest : public longread::testing::StoreSuite {
 protected:
  SavedLinksStoreTest() : StoreSuite("longread-saved-links") {}

  void SetUp() override {
    StoreSuite::SetUp();
    if (HasFatalFailure()) return;
    BlogSeed seed{.feed_url = "https://queues.example/feed",
                  .site_url = "https://queues.example/",
                  .title = "Queues",
                  .category = "programming"};
    blog_ = store_->upsert_blog(seed).value();
    CrawlRecord record{.blog_id = blog_, .attempted_at = at(0), .success = true, .status = "ok"};
    record.articles.push_back(article("q1", "https://queues.example/lock-free/"));
    record.articles.push_back(article("q2", "http://queues.example/caches"));
    auto junk = article("q3", "https://queues.example/junk");
    junk.junk = true;
    record.articles.push_back(junk);
    ASSERT_TRUE(store_->save_crawl(record));
    const auto keys = store_->article_keys(blog_);
    ASSERT_TRUE(keys);
    for (const auto& key : *keys) ids_[key.guid] = key.id;
    ada_ = store_->create_reader("ada@example.org", "hash", at(0), at(0)).value();
    bob_ = store_->create_reader("bob@example.org", "hash", at(0), at(0)).value();
  }

  static model::Article article(const std::string& guid, const std::string& link) {
    model::Article a;
    a.guid = guid;
    a.title = "Article " + guid;
    a.link = link;
    a.published = at(-3600);
    a.first_seen = at(0);
    a.text = "Text of " + guid;
    a.excerpt = a.text;
    a.category = "programming";
    return a;
  }

  std::vector<std::int64_t> saved_article_ids(std::int64_t reader) {
    std::vector<std::int64_t> ids;
    const auto list = store_->reading_list(reader, 100, 0);
    EXPECT_TRUE(list);
    if (list)
      for (const auto& s : *list) ids.push_back(s.view.article.id);
    return ids;
  }

  std::int64_t blog_ = 0;
  std::int64_t ada_ = 0;
  std::int64_t bob_ = 0;
  std::map<std::string, std::int64_t> ids_;
};

TEST_P(SavedLinksStoreTest, ImportJoinsKnownArticlesAndKeepsOtherLinks) {
  const std::vector<ImportedLink> links{
      // Saved without the trailing slash the feed gives: still the article.
      {.url = "https://queues.example/lock-free", .title = "Lock-free", .saved_at = at(-100)},
      // Saved over https, the feed says http: still the article; read in the other service.
      {.url = "https://queues.example/caches/", .title = "Caches", .saved_at = at(-50), .read = true},
      // A junk article is hidden on the site: kept as a plain link instead.
      {.url = "https://queues.example/junk", .title = "Junk", .saved_at = at(-40)},
      {.url = "https://elsewhere.example/essay", .title = "Elsewhere", .saved_at = at(-10)},
      // A date in the future counts as now.
      {.url = "https://elsewhere.example/future", .title = "Future", .saved_at = at(99999)},
  };
  auto summary = store_->import_reading_list(ada_, links, at(10));
  ASSERT_TRUE(summary) << summary.error().message;
  EXPECT_EQ(summary->articles, 2);
  EXPECT_EQ(summary->links, 3);
  EXPECT_EQ(summary->already, 0);

  auto list = store_->reading_list(ada_, 100, 0).value();
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(list[0].view.article.id, ids_["q2"]);  // saved later
  EXPECT_EQ(list[0].saved_at, at(-50));
  EXPECT_EQ(list[0].read_at, at(10));
  EXPECT_EQ(list[1].view.article.id, ids_["q1"]);
  EXPECT_FALSE(list[1].read_at);
  EXPECT_EQ(store_->reading_list_unread(ada_).value(), 1);

  auto plain = store_->saved_links(ada_, 100, 0).value();
  ASSERT_EQ(plain.size(), 3u);
  EXPECT_EQ(plain[0].url, "https://elsewhere.example/future");
  EXPECT_EQ(plain[0].saved_at, at(10));
  EXPECT_EQ(plain[1].title, "Elsewhere");
  EXPECT_EQ(plain[2].url, "https://queues.example/junk");

  // Importing the same file again changes nothing.
  auto again = store_->import_reading_list(ada_, links, at(20));
  ASSERT_TRUE(again);
  EXPECT_EQ(again->articles, 0);
  EXPECT_EQ(again->links, 0);
  EXPECT_EQ(again->already, 5);
  EXPECT_EQ(store_->saved_links(ada_, 100, 0).value().size(), 3u);
  EXPECT_EQ(store_->reading_list(ada_, 100, 0).value()[0].saved_at, at(-50));

  // Another reader's list is untouched, and they cannot change Ada's links.
  EXPECT_TRUE(saved_article_ids(bob_).empty());
  EXPECT_TRUE(store_->saved_links(bob_, 100, 0).value().empty());
  const std::int64_t link = plain[1].id;
  auto as_bob = store_->set_saved_link_read(bob_, link, true, at(30));
  ASSERT_FALSE(as_bob);
  EXPECT_EQ(as_bob.error().kind, ErrorKind::kNotFound);
  EXPECT_EQ(store_->remove_saved_link(bob_, link).error().kind, ErrorKind::kNotFound);

  ASSERT_TRUE(store_->set_saved_link_read(ada_, link, true, at(30)));
  EXPECT_EQ(store_->saved_links(ada_, 100, 0).value()[1].read_at, at(30));
  ASSERT_TRUE(store_->set_saved_link_read(ada_, link, false, at(31)));
  EXPECT_FALSE(store_->saved_links(ada_, 100, 0).value()[1].read_at);
  ASSERT_TRUE(store_->remove_saved_link(ada_, link));
  EXPECT_EQ(store_->saved_links(ada_, 100, 0).value().size(), 2u);
  EXPECT_EQ(store_->remove_saved_link(ada_, link).error().kind, ErrorKind::kNotFound);

  // Survives a restart; goes with the account.
  reopen();
  EXPECT_EQ(store_->saved_links(ada_, 100, 0).value().size(), 2u);
  ASSERT_TRUE(store_->delete_reader(ada_));
  EXPECT_TRUE(store_->saved_links(ada_, 100, 0).value().empty());
}

TEST_P(SavedLinksStoreTest, PlainLinksStopAtTheLimit) {
  std::vector<ImportedLink> links;
  for (int i = 0; i < kMaxSavedLinks + 7; ++i)
    links.push_back({.url = "https://many.example/" + std::to_string(i), .title = "n"});
  // The known article still joins when the plain links are full.
  links.push_back({.url = "https://queues.example/lock-free/"});
  auto summary = store_->import_reading_list(ada_, links, at(0));
  ASSERT_TRUE(summary) << summary.error().message;
  EXPECT_EQ(summary->links, kMaxSavedLinks);
  EXPECT_EQ(summary->over_limit, 7);
  EXPECT_EQ(summary->articles, 1);
  EXPECT_EQ(store_->saved_links(ada_, kMaxSavedLinks + 100, 0).value().size(),
            static_cast<std::size_t>(kMaxSavedLinks));
}

TEST_P(SavedLinksStoreTest, FeedTokensNameOneReaderUntilRotated) {
  EXPECT_FALSE(store_->reading_list_feed_token(ada_).value());
  EXPECT_FALSE(store_->reader_by_reading_list_feed_token("").value());
  ASSERT_TRUE(store_->set_reading_list_feed_token(ada_, "first-token"));
  EXPECT_EQ(store_->reading_list_feed_token(ada_).value(), "first-token");
  EXPECT_EQ(store_->reader_by_reading_list_feed_token("first-token").value(), ada_);
  EXPECT_FALSE(store_->reader_by_reading_list_feed_token("FIRST-TOKEN").value());
  ASSERT_TRUE(store_->set_reading_list_feed_token(ada_, "second-token"));
  EXPECT_FALSE(store_->reader_by_reading_list_feed_token("first-token").value());
  EXPECT_EQ(store_->reader_by_reading_list_feed_token("second-token").value(), ada_);
  // Two readers can never share a token.
  EXPECT_FALSE(store_->set_reading_list_feed_token(bob_, "second-token"));
  ASSERT_TRUE(store_->set_reading_list_feed_token(ada_, std::nullopt));
  EXPECT_FALSE(store_->reader_by_reading_list_feed_token("second-token").value());
  EXPECT_EQ(store_->set_reading_list_feed_token(9999, "x").error().kind, ErrorKind::kNotFound);
}

LONGREAD_STORE_BACKENDS(SavedLinksStoreTest);

}  // namespace
}  // namespace longread::storage
