// What feed apps rely on in the SQLite Store (migration 0025): app passwords and their tokens, streams with
// one reader's read and starred marks, continuations, explicit marks against "mark all as read" horizons,
// and one reader never seeing another's marks. Real database files.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "storage/store.h"
#include "testing/store_test.h"

namespace longread::storage {
namespace {

TimePoint at(std::int64_t hours) {
  return from_unix(1'700'000'000 + hours * 3600);
}

class ReaderApiStoreTest : public longread::testing::StoreSuite {
 protected:
  ReaderApiStoreTest() : StoreSuite("longread-reader-api") {}

  void SetUp() override {
    StoreSuite::SetUp();
    if (HasFatalFailure()) return;
    prog_ = add_blog("prog", "programming");
    hist_ = add_blog("hist", "history");
    // prog: p0..p5 at hours 0..5; hist: h0..h2 at hours 10..12 (newest).
    std::vector<model::Article> p;
    for (int i = 0; i < 6; ++i) p.push_back(article("p" + std::to_string(i), at(i), "programming"));
    save(prog_, p);
    std::vector<model::Article> h;
    for (int i = 0; i < 3; ++i) h.push_back(article("h" + std::to_string(i), at(10 + i), "history"));
    auto junk = article("junk", at(20), "history");
    junk.junk = true;
    h.push_back(junk);
    save(hist_, h);
    ada_ = store_->create_reader("ada@example.org", "hash", at(0), at(0)).value();
    bob_ = store_->create_reader("bob@example.org", "hash", at(0), at(0)).value();
  }

  static model::Article article(const std::string& guid, TimePoint when, const std::string& category) {
    model::Article a;
    a.guid = guid;
    a.title = guid;
    a.link = "https://x.example/" + guid;
    a.published = when;
    a.first_seen = when;
    a.text = "Text " + guid;
    a.excerpt = a.text;
    a.category = category;
    return a;
  }
  void save(std::int64_t blog, std::vector<model::Article> articles) {
    for (const auto& [guid, id] : save_articles(blog, std::move(articles), at(30))) ids_[guid] = id;
  }

  // "title:r*" for each item: r when read, * when starred.
  std::vector<std::string> stream(std::int64_t reader, StreamQuery query) {
    auto page = store_->reader_stream(reader, query);
    EXPECT_TRUE(page) << (page ? "" : page.error().message);
    std::vector<std::string> out;
    if (!page) return out;
    for (const auto& item : page->items)
      out.push_back(item.view.article.title + (item.read ? "r" : "") + (item.starred ? "*" : ""));
    return out;
  }

  std::int64_t prog_ = 0;
  std::int64_t hist_ = 0;
  std::int64_t ada_ = 0;
  std::int64_t bob_ = 0;
  std::map<std::string, std::int64_t> ids_;
};

TEST_P(ReaderApiStoreTest, AppPasswordsAndTokens) {
  const auto first = store_->add_app_password(ada_, "newsboat", "hash-1", at(1));
  ASSERT_TRUE(first);
  ASSERT_TRUE(store_->add_app_password(ada_, "phone", "hash-2", at(2)));
  auto list = store_->app_passwords(ada_).value();
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(list[0].name, "phone");
  EXPECT_EQ(list[1].password_hash, "hash-1");
  EXPECT_FALSE(list[1].last_used_at);
  EXPECT_TRUE(store_->app_passwords(bob_).value().empty());

  ASSERT_TRUE(store_->add_api_token({.token_hash = "t1",
                                     .app_password_id = *first,
                                     .reader_id = ada_,
                                     .created_at = at(3),
                                     .expires_at = at(5)}));
  EXPECT_EQ(store_->app_passwords(ada_).value()[1].last_used_at, at(3));
  EXPECT_EQ(store_->api_token_reader("t1", at(4)).value(), ada_);
  EXPECT_FALSE(store_->api_token_reader("t1", at(5)).value());  // expired
  EXPECT_FALSE(store_->api_token_reader("nope", at(4)).value());
  // A token for another reader's app password is refused.
  EXPECT_FALSE(store_->add_api_token({.token_hash = "t2",
                                      .app_password_id = *first,
                                      .reader_id = bob_,
                                      .created_at = at(3),
                                      .expires_at = at(9)}));

  // Bob cannot revoke Ada's; revoking ends its tokens.
  ASSERT_TRUE(store_->add_api_token({.token_hash = "t3",
                                     .app_password_id = *first,
                                     .reader_id = ada_,
                                     .created_at = at(3),
                                     .expires_at = at(9)}));
  EXPECT_EQ(store_->revoke_app_password(bob_, *first).error().kind, ErrorKind::kNotFound);
  ASSERT_TRUE(store_->revoke_app_password(ada_, *first));
  EXPECT_FALSE(store_->api_token_reader("t3", at(4)).value());
  EXPECT_EQ(store_->app_passwords(ada_).value().size(), 1u);

  for (int i = 0; i < kMaxAppPasswords - 1; ++i) ASSERT_TRUE(store_->add_app_password(ada_, "n", "h", at(3)));
  EXPECT_EQ(store_->add_app_password(ada_, "one too many", "h", at(3)).error().kind, ErrorKind::kConflict);
}

TEST_P(ReaderApiStoreTest, StreamsFilterPageAndCarryTheReadersMarks) {
  EXPECT_EQ(stream(ada_, {.limit = 100}),
            (std::vector<std::string>{"h2", "h1", "h0", "p5", "p4", "p3", "p2", "p1", "p0"}));  // no junk
  EXPECT_EQ(stream(ada_, {.blog_id = hist_}), (std::vector<std::string>{"h2", "h1", "h0"}));
  EXPECT_EQ(stream(ada_, {.category = "programming", .limit = 2}), (std::vector<std::string>{"p5", "p4"}));
  EXPECT_EQ(stream(ada_, {.newer_than = at(4), .older_than = at(11)}),
            (std::vector<std::string>{"h0", "p5", "p4"}));

  // Pages by continuation, both ways, and a forged one refused.
  std::vector<std::string> walked;
  for (std::string after;;) {
    auto page = store_->reader_stream(ada_, {.oldest_first = true, .limit = 4, .after = after}).value();
    for (const auto& item : page.items) walked.push_back(item.view.article.title);
    if (page.next.empty()) break;
    after = page.next;
  }
  EXPECT_EQ(walked, (std::vector<std::string>{"p0", "p1", "p2", "p3", "p4", "p5", "h0", "h1", "h2"}));
  EXPECT_EQ(store_->reader_stream(ada_, {.after = "12x"}).error().kind, ErrorKind::kInvalidInput);
  EXPECT_EQ(store_->reader_stream(ada_, {.after = "1.-2"}).error().kind, ErrorKind::kInvalidInput);

  // Marks: read, starred (the reading list), each reader their own.
  EXPECT_EQ(
      store_->set_articles_read(ada_, {ids_["h2"], ids_["p5"], ids_["junk"], 999999}, true, at(31)).value(),
      2);
  ASSERT_TRUE(store_->set_saved(ada_, ids_["h1"], true, at(31)));
  EXPECT_EQ(stream(ada_, {.blog_id = hist_}), (std::vector<std::string>{"h2r", "h1*", "h0"}));
  EXPECT_EQ(stream(bob_, {.blog_id = hist_}), (std::vector<std::string>{"h2", "h1", "h0"}));
  EXPECT_EQ(stream(ada_, {.starred_only = true}), (std::vector<std::string>{"h1*"}));
  EXPECT_EQ(stream(ada_, {.read = false, .limit = 3}), (std::vector<std::string>{"h1*", "h0", "p4"}));
  EXPECT_EQ(stream(ada_, {.read = true}), (std::vector<std::string>{"h2r", "p5r"}));
  ASSERT_TRUE(store_->set_articles_read(ada_, {ids_["h2"]}, false, at(32)));
  EXPECT_EQ(stream(ada_, {.read = true}), (std::vector<std::string>{"p5r"}));

  auto items = store_->reader_items(ada_, {ids_["p5"], 999999, ids_["junk"], ids_["h1"]}).value();
  ASSERT_EQ(items.size(), 2u);
  EXPECT_EQ(items[0].view.article.title, "p5");
  EXPECT_TRUE(items[0].read);
  EXPECT_TRUE(items[1].starred);
}

TEST_P(ReaderApiStoreTest, MarkAllAsReadIsAHorizonThatExplicitMarksOverride) {
  ASSERT_TRUE(store_->set_articles_read(ada_, {ids_["p1"]}, false, at(31)));  // before: kept unread
  ASSERT_TRUE(store_->set_articles_read(ada_, {ids_["h0"]}, true, at(31)));
  // Everything of prog dated before hour 3 is read now, p1's earlier "unread" included.
  ASSERT_TRUE(store_->mark_stream_read(ada_, prog_, at(3), at(32)));
  EXPECT_EQ(stream(ada_, {.blog_id = prog_, .limit = 100}),
            (std::vector<std::string>{"p5", "p4", "p3", "p2r", "p1r", "p0r"}));
  // Kept unread after the horizon: unread, while its neighbours stay read.
  ASSERT_TRUE(store_->set_articles_read(ada_, {ids_["p1"]}, false, at(33)));
  EXPECT_EQ(stream(ada_, {.blog_id = prog_, .read = false, .limit = 100}),
            (std::vector<std::string>{"p5", "p4", "p3", "p1"}));
  // Every blog before hour 11; a lower horizon later never lowers it.
  ASSERT_TRUE(store_->mark_stream_read(ada_, std::nullopt, at(11), at(34)));
  ASSERT_TRUE(store_->mark_stream_read(ada_, std::nullopt, at(1), at(35)));
  EXPECT_EQ(stream(ada_, {.read = false, .limit = 100}), (std::vector<std::string>{"h2", "h1"}));
  EXPECT_EQ(stream(bob_, {.read = false, .limit = 100}).size(), 9u);
  // Survives a restart; goes with the account.
  reopen();
  EXPECT_EQ(stream(ada_, {.read = false, .limit = 100}), (std::vector<std::string>{"h2", "h1"}));
  ASSERT_TRUE(store_->delete_reader(ada_));
  EXPECT_EQ(stream(ada_, {.read = false, .limit = 100}).size(), 9u);
}

LONGREAD_STORE_BACKENDS(ReaderApiStoreTest);

}  // namespace
}  // namespace longread::storage
