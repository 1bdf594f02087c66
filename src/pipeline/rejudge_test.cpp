// rejudge over a real SQLite file: verdicts follow a changed short-form flag or word minimum, the store's
// visibility, search index and category counts follow them, and what the operator decided (keep/junk
// overrides) and duplicate marks stand.
#include "pipeline/rejudge.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "curate/curate.h"
#include "pipeline/article_builder.h"
#include "storage/store.h"
#include "testing/test_dir.h"

namespace longread::pipeline {
namespace {
namespace fs = std::filesystem;

// English prose, so the language rule keeps it; `words` words long.
std::string prose(int words) {
  static const char* const kSentence[] = {"the",      "cache",   "line",   "is",  "the", "unit",      "of",
                                          "transfer", "between", "memory", "and", "the", "processor", "so"};
  std::string out;
  for (int i = 0; i < words; ++i) {
    if (i > 0) out += ' ';
    out += kSentence[i % std::size(kSentence)];
  }
  return out;
}

class RejudgeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = longread::testing::fresh_test_dir("longread_rejudge");
    auto store = storage::open_sqlite_store((dir_ / "t.db").string());
    ASSERT_TRUE(store) << store.error().message;
    store_ = std::move(*store);
  }
  void TearDown() override {
    store_.reset();
    fs::remove_all(dir_);
  }

  std::int64_t blog(const std::string& name, bool short_form = false) {
    auto id = store_->upsert_blog({.feed_url = "https://" + name + ".example/feed",
                                   .title = name,
                                   .category = "essays",
                                   .short_form = short_form});
    EXPECT_TRUE(id) << id.error().message;
    return id.value_or(0);
  }

  // Saves one article judged as a crawl would judge it then (with `options` and the blog as stored).
  std::int64_t save(std::int64_t blog_id, const std::string& guid, int words,
                    const curate::JunkOptions& options = {}) {
    model::Article a;
    a.guid = guid;
    a.title = guid;
    a.text = prose(words);
    a.word_count = words;
    a.category = "essays";
    a.published = from_unix(1'700'000'000 + static_cast<std::int64_t>(guid.size()));
    const auto stored_blog = store_->blog(blog_id);
    const auto verdict = curate::judge(a, stored_blog.value().value(), options);
    a.junk = verdict.junk;
    a.junk_reason = verdict.reason;
    storage::CrawlRecord r{.blog_id = blog_id, .attempted_at = from_unix(1'700'000'000), .success = true};
    r.status = "ok";
    r.articles.push_back(a);
    auto saved = store_->save_crawl(r);
    EXPECT_TRUE(saved) << saved.error().message;
    auto keys = store_->article_keys(blog_id);
    for (const auto& k : keys.value())
      if (k.guid == guid) return k.id;
    ADD_FAILURE() << "no article " << guid;
    return 0;
  }

  model::Article article(std::int64_t id) { return store_->article(id).value().value().article; }
  std::int64_t visible_count() { return store_->count_articles({}).value(); }
  std::size_t search_hits(const std::string& q) { return store_->search(q, 50, 0).value().size(); }

  fs::path dir_;
  std::unique_ptr<storage::Store> store_;
};

TEST_F(RejudgeTest, ShortFormFlagShowsTheShortPostsAgainAndBack) {
  const auto b = blog("ann");
  const auto short_post = save(b, "tiny", 40);
  const auto long_post = save(b, "essay", 400);
  ASSERT_TRUE(article(short_post).junk);
  EXPECT_EQ(article(short_post).junk_reason, "too short: 40 words");
  ASSERT_FALSE(article(long_post).junk);
  EXPECT_EQ(visible_count(), 1);
  EXPECT_EQ(search_hits("tiny"), 0u);

  ASSERT_TRUE(store_->edit_blog(b, {.short_form = true}));
  // A dry run reports and changes nothing.
  auto dry = rejudge(*store_, *store_, {}, b, true);
  ASSERT_TRUE(dry) << dry.error().message;
  EXPECT_EQ(dry->judged, 2);
  ASSERT_EQ(dry->changes.size(), 1u);
  EXPECT_EQ(dry->changes[0].article_id, short_post);
  EXPECT_EQ(dry->changes[0].old_reason, "too short: 40 words");
  EXPECT_EQ(dry->changes[0].new_reason, "");
  EXPECT_EQ(dry->shown(), 1);
  EXPECT_TRUE(article(short_post).junk);
  EXPECT_EQ(visible_count(), 1);

  auto done = rejudge(*store_, *store_, {}, b, false);
  ASSERT_TRUE(done) << done.error().message;
  EXPECT_EQ(done->shown(), 1);
  EXPECT_FALSE(article(short_post).junk);
  EXPECT_EQ(article(short_post).junk_reason, "");
  EXPECT_EQ(visible_count(), 2);
  EXPECT_EQ(search_hits("tiny"), 1u);  // the search index followed
  const auto categories = store_->categories().value();
  ASSERT_EQ(categories.size(), 1u);
  EXPECT_EQ(categories[0].article_count, 2);  // and the visible counts

  // Again: nothing left to change.
  auto again = rejudge(*store_, *store_, {}, b, false);
  ASSERT_TRUE(again);
  EXPECT_TRUE(again->changes.empty());

  // Back to long-form: hidden again, with the reason a crawl would give.
  ASSERT_TRUE(store_->edit_blog(b, {.short_form = false}));
  auto back = rejudge(*store_, *store_, {}, b, false);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->hidden(), 1);
  EXPECT_EQ(article(short_post).junk_reason, "too short: 40 words");
  EXPECT_EQ(visible_count(), 1);
  EXPECT_EQ(search_hits("tiny"), 0u);
}

TEST_F(RejudgeTest, NewWordMinimumAppliesToEveryBlogOrOnlyTheOneAsked) {
  const auto ann = blog("ann");
  const auto bob = blog("bob");
  const auto ann_post = save(ann, "ann-post", 200);
  const auto bob_post = save(bob, "bob-post", 200);
  const curate::JunkOptions stricter{.min_words = 300};

  auto one = rejudge(*store_, *store_, stricter, bob, false);
  ASSERT_TRUE(one);
  EXPECT_EQ(one->judged, 1);
  EXPECT_EQ(one->hidden(), 1);
  EXPECT_EQ(article(bob_post).junk_reason, "too short: 200 words");
  EXPECT_FALSE(article(ann_post).junk);

  auto all = rejudge(*store_, *store_, stricter, std::nullopt, false);
  ASSERT_TRUE(all);
  EXPECT_EQ(all->judged, 2);
  ASSERT_EQ(all->changes.size(), 1u);
  EXPECT_EQ(all->changes[0].article_id, ann_post);
  EXPECT_EQ(visible_count(), 0);
}

// The operator's word is final: a kept article stays visible and a junked one hidden, whatever the rules
// now say; the verdict underneath still follows the rules (it decides once the override is cleared).
TEST_F(RejudgeTest, OverridesAndDuplicatesStand) {
  const auto b = blog("ann");
  const auto kept = save(b, "kept", 40);
  const auto junked = save(b, "junked", 400);
  const auto original = save(b, "original", 400);
  const auto copy = save(b, "copy", 400);
  ASSERT_TRUE(store_->set_keep_override(kept, true));
  ASSERT_TRUE(store_->set_keep_override(junked, false));
  const std::pair<std::int64_t, std::int64_t> mark{copy, original};
  ASSERT_TRUE(store_->mark_duplicates(std::span(&mark, 1)));
  ASSERT_EQ(visible_count(), 2);  // kept, original

  ASSERT_TRUE(store_->edit_blog(b, {.short_form = true}));
  auto r = rejudge(*store_, *store_, {}, b, false);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->judged, 3);  // the copy is not judged
  ASSERT_EQ(r->changes.size(), 1u);
  EXPECT_EQ(r->changes[0].article_id, kept);
  EXPECT_TRUE(r->changes[0].visible_before);
  EXPECT_TRUE(r->changes[0].visible_after);
  EXPECT_EQ(r->shown(), 0);
  EXPECT_FALSE(article(kept).junk);
  EXPECT_EQ(article(junked).keep_override, false);
  EXPECT_TRUE(article(copy).junk);
  EXPECT_EQ(article(copy).duplicate_of, original);
  EXPECT_EQ(visible_count(), 2);
}

// `rejudge --text`: an article stored by an older extraction (here a stale text, and a feed-reader footer
// that strip_boilerplate now removes) gets its text, excerpt and counts from its stored HTML again; the
// search index follows, the verdict is judged on the new text, a duplicate keeps its mark, and a second
// run finds nothing to rebuild.
TEST_F(RejudgeTest, TextsAreRebuiltFromTheStoredHtml) {
  const auto b = blog("ann");
  auto stored = [&](const std::string& guid, const std::string& html, int stale_words) {
    model::Article a;
    a.guid = guid;
    a.title = guid;
    a.content_html = html;
    a.text = "stalewords " + prose(stale_words - 1);
    a.excerpt = a.text;
    a.word_count = stale_words;
    a.category = "essays";
    a.published = from_unix(1'700'000'000);
    storage::CrawlRecord r{.blog_id = b, .attempted_at = from_unix(1'700'000'000), .success = true};
    r.status = "ok";
    r.articles.push_back(a);
    EXPECT_TRUE(store_->save_crawl(r));
    const auto keys = store_->article_keys(b);
    for (const auto& k : keys.value())
      if (k.guid == guid) return k.id;
    ADD_FAILURE() << "no article " << guid;
    return std::int64_t{0};
  };
  const std::string footer =
      "<p>[If the formatting looks odd in your feed reader, visit the original article]</p>";
  const auto essay = stored("essay", "<p>freshwords " + prose(299) + "</p>" + footer, 300);
  const auto shrunk = stored("shrunk", "<p>freshwords " + prose(39) + "</p>", 300);  // 40 words now
  const auto same = stored("same", "<p>" + prose(200) + "</p>", 200);
  ASSERT_TRUE(store_->set_texts(std::vector<storage::TextUpdate>{{.article_id = same,
                                                                  .text = prose(200),
                                                                  .excerpt = prose(200),
                                                                  .word_count = 200,
                                                                  .reading_minutes = 1,
                                                                  .simhash = curate::simhash(prose(200))}}));
  const auto copy = stored("copy", "<p>freshwords " + prose(299) + "</p>", 300);
  const std::pair<std::int64_t, std::int64_t> mark{copy, essay};
  ASSERT_TRUE(store_->mark_duplicates(std::span(&mark, 1)));
  ASSERT_EQ(search_hits("stalewords"), 2u);  // essay and shrunk (the copy is hidden)
  ASSERT_EQ(search_hits("freshwords"), 0u);

  auto dry = rejudge(*store_, *store_, {}, b, true, true);
  ASSERT_TRUE(dry) << dry.error().message;
  EXPECT_EQ(dry->texts_rebuilt, 3);          // essay, shrunk, copy; `same` already matches its HTML
  EXPECT_EQ(search_hits("stalewords"), 2u);  // a dry run stores nothing
  EXPECT_TRUE(article(essay).text.starts_with("stalewords"));

  auto r = rejudge(*store_, *store_, {}, b, false, true);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->texts_rebuilt, 3);
  EXPECT_EQ(article(essay).text, "freshwords " + prose(299));  // the footer is gone
  EXPECT_EQ(article(essay).word_count, 300);
  EXPECT_EQ(article(essay).excerpt.substr(0, 11), "freshwords ");
  EXPECT_EQ(article(essay).simhash, curate::simhash(article(essay).text));
  EXPECT_FALSE(article(essay).junk);
  EXPECT_EQ(article(shrunk).word_count, 40);
  EXPECT_EQ(article(shrunk).junk_reason, "too short: 40 words");  // judged on the new text
  ASSERT_EQ(r->changes.size(), 1u);
  EXPECT_EQ(r->changes[0].article_id, shrunk);
  EXPECT_TRUE(article(copy).text.starts_with("freshwords"));
  EXPECT_EQ(article(copy).duplicate_of, essay);  // the mark stands
  EXPECT_EQ(search_hits("stalewords"), 0u);
  EXPECT_EQ(search_hits("freshwords"), 1u);  // the essay; shrunk left the site, the copy is hidden

  auto again = rejudge(*store_, *store_, {}, b, false, true);
  ASSERT_TRUE(again) << again.error().message;
  EXPECT_EQ(again->texts_rebuilt, 0);
  EXPECT_TRUE(again->changes.empty());
}

// `rejudge --text` also removes each blog's template, learned from its own stored articles: a footer every
// post of one blog carries leaves their texts, and a short post it padded past the length rule leaves the
// site; a blog with two posts sharing a line is too small a sample and keeps it.
TEST_F(RejudgeTest, TextsLoseTheirBlogsTemplateLearnedFromItsStoredArticles) {
  const auto b = blog("ann");
  const auto pair_blog = blog("bo");
  auto stored = [&](std::int64_t blog_id, const std::string& guid, const std::string& html) {
    model::Article a;
    a.guid = guid;
    a.title = guid;
    a.content_html = html;
    rebuild_text(a);  // as a crawl before template detection stored it
    a.category = "essays";
    a.published = from_unix(1'700'000'000);
    const auto verdict = curate::judge(a, store_->blog(blog_id).value().value());
    a.junk = verdict.junk;
    a.junk_reason = verdict.reason;
    storage::CrawlRecord r{.blog_id = blog_id, .attempted_at = from_unix(1'700'000'000), .success = true};
    r.status = "ok";
    r.articles.push_back(a);
    EXPECT_TRUE(store_->save_crawl(r));
    const auto keys = store_->article_keys(blog_id);
    for (const auto& k : keys.value())
      if (k.guid == guid) return k.id;
    ADD_FAILURE() << "no article " << guid;
    return std::int64_t{0};
  };
  // Other words than the crawler test's footer: what matters is that it recurs.
  const auto footer = [](int n) {
    return "<p>You have reached the end of dispatch " + std::to_string(n) +
           ". If it was useful, pass it on to whoever you like and write to ana@example.org; the whole "
           "archive lives at https://ana.example/archive/" +
           std::to_string(n) + " and comments stay open for a full week after each dispatch.</p>";
  };
  std::vector<std::int64_t> essays;
  for (int n = 0; n < 5; ++n)
    essays.push_back(stored(b, "essay" + std::to_string(n),
                            "<p>essay" + std::to_string(n) + " " + prose(200 + n) + "</p>" + footer(n)));
  const auto padded = stored(b, "padded", "<p>padded " + prose(119) + "</p>" + footer(9));
  ASSERT_FALSE(article(padded).junk) << article(padded).junk_reason;  // 120 words + the footer's
  const auto pair0 = stored(pair_blog, "pair0", "<p>one " + prose(200) + "</p><p>Written on a train.</p>");
  stored(pair_blog, "pair1", "<p>two " + prose(210) + "</p><p>Written on a train.</p>");

  auto r = rejudge(*store_, *store_, {}, std::nullopt, false, true);
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->texts_rebuilt, 6);  // ann's six; bo's two keep their line
  for (int n = 0; n < 5; ++n) {
    const auto a = article(essays[static_cast<std::size_t>(n)]);
    EXPECT_EQ(a.text, "essay" + std::to_string(n) + " " + prose(200 + n));
    EXPECT_EQ(a.word_count, 201 + n);
    EXPECT_FALSE(a.junk);
  }
  EXPECT_EQ(article(padded).word_count, 120);
  EXPECT_EQ(article(padded).junk_reason, "too short: 120 words");
  ASSERT_EQ(r->changes.size(), 1u);
  EXPECT_EQ(r->changes[0].article_id, padded);
  EXPECT_NE(article(pair0).text.find("Written on a train."), std::string::npos);

  auto again = rejudge(*store_, *store_, {}, std::nullopt, false, true);
  ASSERT_TRUE(again) << again.error().message;
  EXPECT_EQ(again->texts_rebuilt, 0);
}

}  // namespace
}  // namespace longread::pipeline
