// Personal filters in the SQLite Store (migration 0028): mutes of blogs and categories and the reading
// preferences, applied inside the listings (Newest, Top, Hot with and without the per-blog cap, category
// pages, search, counts) for one reader only, with keyset pages that stay full and exact; read state from
// the reader API's marks and horizons; newsletter categories; and the subscriber-to-reader link the
// newsletter uses. Real database files.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "storage/store.h"
#include "testing/store_test.h"

namespace longread::storage {
namespace {

TimePoint at(std::int64_t hours) {
  return from_unix(1'700'000'000 + hours * 3600);
}

class PersonalFiltersStoreTest : public longread::testing::StoreSuite {
 protected:
  PersonalFiltersStoreTest() : StoreSuite("longread-personal-filters") {}

  void SetUp() override {
    StoreSuite::SetUp();
    if (HasFatalFailure()) return;
    prog_ = add_blog("prog", "programming");
    rust_ = add_blog("rust", "programming");
    hist_ = add_blog("hist", "history");
    // Each blog: four articles an hour apart, interleaved, every one mentioning "lighthouse".
    for (int i = 0; i < 4; ++i) {
      add(prog_, "prog" + std::to_string(i), at(3 * i), "programming");
      add(rust_, "rust" + std::to_string(i), at(3 * i + 1), "programming");
      add(hist_, "hist" + std::to_string(i), at(3 * i + 2), "history");
    }
    ada_ = store_->create_reader("ada@example.org", "hash", at(0), at(0)).value();
    bob_ = store_->create_reader("bob@example.org", "hash", at(0), at(0)).value();
  }

  void add(std::int64_t blog, const std::string& guid, TimePoint when, const std::string& category) {
    model::Article a;
    a.guid = guid;
    a.title = guid;
    a.link = "https://x.example/" + guid;
    a.published = when;
    a.first_seen = when;
    a.text = "The lighthouse keeper's notes, part " + guid + ". " + std::string(400, 'x');
    a.excerpt = "Notes " + guid;
    a.word_count = 900;
    a.category = category;
    for (const auto& [stored, id] : save_articles(blog, {a}, when)) ids_[stored] = id;
  }

  static std::set<std::string> titles(const std::vector<ArticleView>& views) {
    std::set<std::string> out;
    for (const auto& v : views) out.insert(v.article.title);
    return out;
  }
  // Every title a listing shows, walked page by page through its cursors; each page must be full but the
  // last, and no title may come twice.
  std::vector<std::string> walk(ArticleQuery query) {
    std::vector<std::string> out;
    for (int guard = 0; guard < 50; ++guard) {
      auto page = store_->article_page(query);
      EXPECT_TRUE(page) << page.error().message;
      if (!page) break;
      if (page->has_more) {
        EXPECT_EQ(static_cast<int>(page->articles.size()), query.limit);
      }
      for (const auto& v : page->articles) out.push_back(v.article.title);
      if (!page->has_more) break;
      query.after = page->next;
    }
    return out;
  }
  std::vector<std::string> walk_hot(HotPageQuery query) {
    std::vector<std::string> out;
    for (int guard = 0; guard < 50; ++guard) {
      auto page = store_->hot_page(query);
      EXPECT_TRUE(page) << page.error().message;
      if (!page) break;
      for (const auto& v : page->articles) out.push_back(v.article.title);
      if (!page->has_more) break;
      query.after = page->next;
    }
    return out;
  }
  static bool has_prefix(const std::vector<std::string>& titles, const std::string& prefix) {
    return std::ranges::any_of(titles, [&](const std::string& t) { return t.starts_with(prefix); });
  }
  static bool unique(std::vector<std::string> titles) {
    std::ranges::sort(titles);
    return std::ranges::adjacent_find(titles) == titles.end();
  }

  std::int64_t prog_ = 0, rust_ = 0, hist_ = 0, ada_ = 0, bob_ = 0;
  std::map<std::string, std::int64_t> ids_;
};

TEST_P(PersonalFiltersStoreTest, MutedBlogLeavesEveryListingOfThatReaderOnlyWithFullKeysetPages) {
  EXPECT_TRUE(store_->set_blog_muted(ada_, prog_, true, at(40)).value());
  EXPECT_FALSE(store_->set_blog_muted(ada_, prog_, true, at(41)).value()) << "a second mute is a no-op";

  const ArticleQuery newest{.limit = 3, .reader = ReaderFilter{.reader_id = ada_}};
  const auto ada = walk(newest);
  EXPECT_EQ(ada.size(), 8u);
  EXPECT_FALSE(has_prefix(ada, "prog"));
  EXPECT_TRUE(unique(ada));
  const auto bob = walk({.limit = 3, .reader = ReaderFilter{.reader_id = bob_}});
  EXPECT_EQ(bob.size(), 12u);
  EXPECT_EQ(walk({.limit = 5}).size(), 12u) << "no reader: no filter";

  // Offset paging filters too (old ?page=N links).
  auto second = store_->articles({.limit = 3, .offset = 3, .reader = ReaderFilter{.reader_id = ada_}});
  ASSERT_TRUE(second);
  EXPECT_EQ(second->size(), 3u);
  EXPECT_EQ(second->front().article.title, ada[3]);

  // Top (and the counts a pager would use).
  EXPECT_EQ(walk({.order = ArticleOrder::kTop, .limit = 2, .reader = ReaderFilter{.reader_id = ada_}}).size(),
            8u);
  EXPECT_EQ(store_->count_articles({.reader = ReaderFilter{.reader_id = ada_}}).value(), 8);
  EXPECT_EQ(store_->count_articles({.reader = ReaderFilter{.reader_id = bob_}}).value(), 12);

  // Hot, the plain order and with the per-blog cap (front page), walked through cursors.
  const auto hot = walk_hot({.page_size = 3, .reader = ReaderFilter{.reader_id = ada_}});
  EXPECT_EQ(hot.size(), 8u);
  EXPECT_FALSE(has_prefix(hot, "prog"));
  const auto capped =
      walk_hot({.page_size = 3, .per_blog_cap = 1, .reader = ReaderFilter{.reader_id = ada_}});
  EXPECT_EQ(capped.size(), 8u);
  EXPECT_FALSE(has_prefix(capped, "prog"));
  EXPECT_TRUE(unique(capped));
  EXPECT_EQ(walk_hot({.page_size = 3, .per_blog_cap = 1, .reader = ReaderFilter{.reader_id = bob_}}).size(),
            12u);

  // Search.
  auto found = store_->search("lighthouse", 50, 0, ReaderFilter{.reader_id = ada_});
  ASSERT_TRUE(found) << found.error().message;
  EXPECT_EQ(found->size(), 8u);
  for (const auto& hit : *found) EXPECT_NE(hit.view.article.blog_id, prog_);
  EXPECT_EQ(store_->search("lighthouse", 50, 0, ReaderFilter{.reader_id = bob_}).value().size(), 12u);
  EXPECT_EQ(store_->search("lighthouse", 50, 0).value().size(), 12u);
  // Words in most articles ("the"), which PostgreSQL finds from each row's bitmap of common words rather
  // than from its index: alone (the walk of the bitmaps, then the reader's filter), and beside a word of the
  // index.
  EXPECT_EQ(store_->search("the", 50, 0, ReaderFilter{.reader_id = ada_}).value().size(), 8u);
  EXPECT_EQ(store_->search("the lighthouse", 50, 0, ReaderFilter{.reader_id = ada_}).value().size(), 8u);
  EXPECT_EQ(store_->search("the", 50, 0).value().size(), 12u);

  // Un-muting brings it back.
  EXPECT_TRUE(store_->set_blog_muted(ada_, prog_, false, at(42)).value());
  EXPECT_FALSE(store_->set_blog_muted(ada_, prog_, false, at(42)).value());
  EXPECT_EQ(walk(newest).size(), 12u);
}

TEST_P(PersonalFiltersStoreTest, MutedCategoryLeavesHotCategoryPagesAndSearch) {
  EXPECT_TRUE(store_->set_category_muted(ada_, "programming", true, at(40)).value());
  const ReaderFilter ada{.reader_id = ada_};
  EXPECT_EQ(titles(store_->articles({.limit = 50, .reader = ada}).value()),
            (std::set<std::string>{"hist0", "hist1", "hist2", "hist3"}));
  EXPECT_TRUE(
      walk_hot({.category = "programming", .page_size = 2, .per_blog_cap = 1, .reader = ada}).empty());
  EXPECT_EQ(walk_hot({.category = "programming", .page_size = 2, .per_blog_cap = 1}).size(), 8u);
  EXPECT_EQ(walk_hot({.page_size = 2, .per_blog_cap = 1, .reader = ada}).size(), 4u);
  EXPECT_EQ(store_->search("lighthouse", 50, 0, ada).value().size(), 4u);
  EXPECT_EQ(store_->count_articles({.category = "programming", .reader = ada}).value(), 0);
  EXPECT_EQ(store_->count_articles({.category = "programming"}).value(), 8);
}

TEST_P(PersonalFiltersStoreTest, UnknownBlogOrCategoryIsNotFoundAndStoresNothing) {
  auto blog = store_->set_blog_muted(ada_, 9999, true, at(40));
  ASSERT_FALSE(blog);
  EXPECT_EQ(blog.error().kind, ErrorKind::kNotFound);
  auto category = store_->set_category_muted(ada_, "no-such-category", true, at(40));
  ASSERT_FALSE(category);
  EXPECT_EQ(category.error().kind, ErrorKind::kNotFound);
  auto prefs = store_->set_reader_preferences(
      ada_, {.hide_read = true, .newsletter_categories = {"history", "no-such-category"}});
  ASSERT_FALSE(prefs);
  EXPECT_EQ(prefs.error().kind, ErrorKind::kNotFound);
  const auto mutes = store_->reader_mutes(ada_).value();
  EXPECT_TRUE(mutes.blogs.empty());
  EXPECT_TRUE(mutes.categories.empty());
  const auto stored = store_->reader_preferences(ada_).value();
  EXPECT_FALSE(stored.hide_read) << "the failed save left nothing behind";
  EXPECT_TRUE(stored.newsletter_categories.empty());
}

TEST_P(PersonalFiltersStoreTest, MutesAreListedPerReaderNewestFirstAndGoWithTheBlogOrTheReader) {
  ASSERT_TRUE(store_->set_blog_muted(ada_, prog_, true, at(40)));
  ASSERT_TRUE(store_->set_blog_muted(ada_, hist_, true, at(41)));
  ASSERT_TRUE(store_->set_category_muted(ada_, "history", true, at(42)));
  ASSERT_TRUE(store_->set_blog_muted(bob_, rust_, true, at(43)));
  auto mutes = store_->reader_mutes(ada_).value();
  ASSERT_EQ(mutes.blogs.size(), 2u);
  EXPECT_EQ(mutes.blogs[0].blog_id, hist_);
  EXPECT_EQ(mutes.blogs[0].title, "hist");
  EXPECT_EQ(mutes.blogs[0].muted_at, at(41));
  EXPECT_EQ(mutes.blogs[1].blog_id, prog_);
  ASSERT_EQ(mutes.categories.size(), 1u);
  EXPECT_EQ(mutes.categories[0].slug, "history");
  EXPECT_FALSE(mutes.categories[0].name.empty());
  const auto bob = store_->reader_mutes(bob_).value();
  ASSERT_EQ(bob.blogs.size(), 1u);
  EXPECT_EQ(bob.blogs[0].blog_id, rust_);

  ASSERT_TRUE(store_->delete_blog(hist_));
  mutes = store_->reader_mutes(ada_).value();
  ASSERT_EQ(mutes.blogs.size(), 1u);
  EXPECT_EQ(mutes.blogs[0].blog_id, prog_);

  ASSERT_TRUE(
      store_->set_reader_preferences(bob_, {.hide_read = true, .newsletter_categories = {"history"}}));
  ASSERT_TRUE(store_->delete_reader(bob_));
  EXPECT_TRUE(store_->reader_mutes(bob_).value().blogs.empty());
  const auto prefs = store_->reader_preferences(bob_).value();
  EXPECT_FALSE(prefs.hide_read);
  EXPECT_TRUE(prefs.newsletter_categories.empty());
  reopen();  // the rows are on disk, not in a cache
  EXPECT_EQ(store_->reader_mutes(ada_).value().blogs.size(), 1u);
}

TEST_P(PersonalFiltersStoreTest, ReadStateIsTheReaderApisAndHideReadFiltersListingsForThatReader) {
  const std::int64_t read_one = ids_.at("hist3");
  ASSERT_EQ(store_->set_articles_read(ada_, {read_one}, true, at(40)).value(), 1);
  auto marks = store_->reader_marks(ada_, {read_one, ids_.at("hist2")}).value();
  EXPECT_EQ(marks.read, std::vector<std::int64_t>{read_one});
  EXPECT_TRUE(store_->reader_marks(bob_, {read_one}).value().read.empty());

  const ReaderFilter hide{.reader_id = ada_, .hide_read = true};
  auto listed = walk({.limit = 4, .reader = hide});
  EXPECT_EQ(listed.size(), 11u);
  EXPECT_FALSE(std::ranges::count(listed, "hist3"));
  EXPECT_EQ(walk({.limit = 4, .reader = ReaderFilter{.reader_id = ada_}}).size(), 12u)
      << "dimmed, not hidden";

  // "Mark all as read" from a feed app (a horizon) counts as read on the site; a mark "kept unread" wins.
  ASSERT_TRUE(store_->mark_stream_read(ada_, std::nullopt, at(3), at(41)));  // prog0 rust0 hist0 before it
  ASSERT_EQ(store_->set_articles_read(ada_, {ids_.at("rust0")}, false, at(42)).value(), 1);
  listed = walk({.limit = 4, .reader = hide});
  EXPECT_EQ(listed.size(), 9u);
  EXPECT_TRUE(std::ranges::count(listed, "rust0"));
  EXPECT_FALSE(std::ranges::count(listed, "prog0"));
  marks = store_->reader_marks(ada_, {ids_.at("prog0"), ids_.at("rust0")}).value();
  EXPECT_EQ(marks.read, std::vector<std::int64_t>{ids_.at("prog0")});
  EXPECT_EQ(walk_hot({.page_size = 2, .per_blog_cap = 1, .reader = hide}).size(), 9u);
  EXPECT_EQ(store_->search("lighthouse", 50, 0, hide).value().size(), 9u);
}

TEST_P(PersonalFiltersStoreTest, PreferencesRoundTripAndNewsletterCategoriesFilterTheTopOrder) {
  EXPECT_FALSE(store_->reader_preferences(ada_).value().hide_read);
  ASSERT_TRUE(store_->set_reader_preferences(
      ada_,
      {.hide_read = true, .mark_read_on_scroll = true, .newsletter_categories = {"programming", "history"}}));
  auto prefs = store_->reader_preferences(ada_).value();
  EXPECT_TRUE(prefs.hide_read);
  EXPECT_TRUE(prefs.mark_read_on_scroll);
  EXPECT_EQ(prefs.newsletter_categories, (std::vector<std::string>{"history", "programming"}));

  ASSERT_TRUE(store_->set_reader_preferences(ada_, {.newsletter_categories = {"history"}}));
  prefs = store_->reader_preferences(ada_).value();
  EXPECT_FALSE(prefs.hide_read);
  EXPECT_EQ(prefs.newsletter_categories, std::vector<std::string>{"history"});

  const ArticleQuery top{.order = ArticleOrder::kTop,
                         .limit = 5,
                         .reader = ReaderFilter{.reader_id = ada_, .newsletter_categories = true}};
  auto picked = store_->articles(top).value();
  ASSERT_EQ(picked.size(), 4u);
  for (const auto& v : picked) EXPECT_EQ(v.article.category, "history");
  ASSERT_TRUE(store_->set_blog_muted(ada_, hist_, true, at(40)));
  EXPECT_TRUE(store_->articles(top).value().empty());
  // Bob chose nothing: every category.
  EXPECT_EQ(store_
                ->articles({.order = ArticleOrder::kTop,
                            .limit = 50,
                            .reader = ReaderFilter{.reader_id = bob_, .newsletter_categories = true}})
                .value()
                .size(),
            12u);
}

TEST_P(PersonalFiltersStoreTest, SubscribersAreLinkedToTheirConfirmedAccountOnly) {
  ASSERT_TRUE(store_->add_subscriber("Ada@Example.org", at(1)));
  ASSERT_TRUE(store_->confirm_subscriber("ada@example.org", at(1)));
  ASSERT_TRUE(store_->add_subscriber("eve@example.org", at(1)));
  ASSERT_TRUE(store_->confirm_subscriber("eve@example.org", at(1)));
  // A pending account with the same address as a subscriber is not theirs until confirmed.
  ASSERT_TRUE(store_->create_reader("eve@example.org", "hash", at(2), std::nullopt));
  ASSERT_TRUE(store_->add_subscriber("carl@example.org", at(1)));
  ASSERT_TRUE(store_->confirm_subscriber("carl@example.org", at(1)));
  std::map<std::string, std::optional<std::int64_t>> linked;
  const auto subscribers = store_->confirmed_subscribers();
  ASSERT_TRUE(subscribers);
  for (const auto& s : *subscribers) linked[s.email] = s.reader_id;
  EXPECT_EQ(linked.at("Ada@Example.org"), std::optional<std::int64_t>(ada_));
  EXPECT_EQ(linked.at("eve@example.org"), std::nullopt);
  EXPECT_EQ(linked.at("carl@example.org"), std::nullopt);
}

LONGREAD_STORE_BACKENDS(PersonalFiltersStoreTest);

}  // namespace
}  // namespace longread::storage
