// Blog suggestions as stored (migration 0022): the per-reader daily limit, the lifecycle from pending to
// a decision, and discovery claims with a lease that a restarted process takes over. On both backends.
#include <gtest/gtest.h>

#include <atomic>

#include <string>
#include <thread>
#include <vector>

#include "storage/store.h"
#include "testing/store_test.h"

namespace longread::storage {
namespace {

TimePoint at(std::int64_t minutes_after) {
  return from_unix(1'700'000'000 + minutes_after * 60);
}

class SuggestionsStoreTest : public longread::testing::StoreSuite {
 protected:
  SuggestionsStoreTest() : StoreSuite("longread-suggestions-store") {}

  std::int64_t reader(const std::string& email) {
    auto id = store_->create_reader(email, "hash", at(0), at(0));
    EXPECT_TRUE(id) << id.error().message;
    return id.value_or(0);
  }
  Result<Suggestion> suggest(std::int64_t reader_id, const std::string& url, TimePoint now, int per_day = 3) {
    return store_->add_suggestion(
        {.reader_id = reader_id, .url = url, .note = "a note", .now = now, .per_day = per_day});
  }
};

TEST_P(SuggestionsStoreTest, AReaderMayMakePerDaySuggestionsInAny24Hours) {
  const auto ann = reader("ann@example.org");
  const auto bob = reader("bob@example.org");
  for (int i = 0; i < 3; ++i) {
    auto s = suggest(ann, "https://blog" + std::to_string(i) + ".example/", at(i * 60));
    ASSERT_TRUE(s) << s.error().message;
    EXPECT_EQ(s->status, SuggestionStatus::kPending);
    EXPECT_EQ(s->reader_email, "ann@example.org");
    EXPECT_EQ(s->note, "a note");
  }
  // The fourth within 24 hours of the first is refused, with a sentence for the reader; nothing is stored.
  auto fourth = suggest(ann, "https://blog3.example/", at(23 * 60));
  ASSERT_FALSE(fourth);
  EXPECT_EQ(fourth.error().kind, ErrorKind::kRateLimited);
  EXPECT_NE(fourth.error().display().find("3 blogs in the last 24 hours"), std::string::npos);
  EXPECT_EQ(store_->reader_suggestions(ann, 10).value().size(), 3u);
  // Another reader has a budget of their own; operators' additions are never limited.
  EXPECT_TRUE(suggest(bob, "https://blog3.example/", at(23 * 60)));
  for (int i = 0; i < 5; ++i) {
    EXPECT_TRUE(store_->add_suggestion({.by_operator = true,
                                        .url = "https://op.example/",
                                        .category = "essays",
                                        .now = at(0),
                                        .per_day = 1}));
  }
  // Once the first is more than 24 hours old, one more is allowed (and counted across a reopen).
  reopen();
  EXPECT_TRUE(suggest(ann, "https://blog3.example/", at(24 * 60 + 1)));
  EXPECT_FALSE(suggest(ann, "https://blog4.example/", at(24 * 60 + 2)));
}

TEST_P(SuggestionsStoreTest, ConcurrentSuggestionsCannotBothPassTheLimit) {
  const auto ann = reader("ann@example.org");
  std::vector<std::thread> threads;
  std::atomic<int> stored{0};
  for (int i = 0; i < 8; ++i) {
    threads.emplace_back([&, i] {
      if (suggest(ann, "https://race" + std::to_string(i) + ".example/", at(0), 2)) ++stored;
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(stored.load(), 2);
  EXPECT_EQ(store_->reader_suggestions(ann, 10).value().size(), 2u);
}

TEST_P(SuggestionsStoreTest, FindingThenApprovalIsStoredWithThePosts) {
  const auto ann = reader("ann@example.org");
  auto s = suggest(ann, "https://ann.example/", at(0));
  ASSERT_TRUE(s);
  auto claimed = store_->claim_suggestions(at(1), at(4), 10, 3);
  ASSERT_TRUE(claimed) << claimed.error().message;
  ASSERT_EQ(claimed->size(), 1u);
  EXPECT_EQ(claimed->at(0).attempts, 1);
  ASSERT_TRUE(store_->save_suggestion_finding(
      s->id, {.status = SuggestionStatus::kFound,
              .at = at(2),
              .feed_url = "https://ann.example/feed.xml",
              .site_url = "https://ann.example/",
              .title = "Ann's Notes",
              .format = "RSS 2.0",
              .entries = 12,
              .newest_post = at(-60),
              .posts = {{.title = "Long essay", .link = "https://ann.example/essay", .published = at(-60)},
                        {.title = "Tiny", .junk = true, .junk_reason = "too short: 3 words"}}}));
  // Found: no longer pending, so never claimed again.
  EXPECT_TRUE(store_->claim_suggestions(at(10), at(14), 10, 3).value().empty());
  EXPECT_FALSE(store_->next_suggestion_due().value());

  reopen();
  auto found = store_->suggestion(s->id).value();
  ASSERT_TRUE(found);
  EXPECT_EQ(found->status, SuggestionStatus::kFound);
  EXPECT_EQ(found->title, "Ann's Notes");
  EXPECT_EQ(found->format, "RSS 2.0");
  EXPECT_EQ(found->entries, 12);
  EXPECT_EQ(found->newest_post, at(-60));
  ASSERT_EQ(found->posts.size(), 2u);
  EXPECT_EQ(found->posts[0].title, "Long essay");
  EXPECT_FALSE(found->posts[0].junk);
  EXPECT_EQ(found->posts[1].junk_reason, "too short: 3 words");
  EXPECT_FALSE(found->posts[1].published);

  // A finding for a suggestion that is no longer pending is a conflict and changes nothing.
  auto late = store_->save_suggestion_finding(s->id, {.status = SuggestionStatus::kFailed, .at = at(3)});
  ASSERT_FALSE(late);
  EXPECT_EQ(late.error().kind, ErrorKind::kConflict);

  auto blog = store_->upsert_blog({.feed_url = found->feed_url, .title = found->title, .category = "essays"});
  ASSERT_TRUE(blog);
  auto approved = store_->decide_suggestion(
      s->id,
      {.status = SuggestionStatus::kApproved, .at = at(5), .decided_by = "op@example.org", .blog_id = *blog});
  ASSERT_TRUE(approved) << approved.error().message;
  EXPECT_EQ(approved->status, SuggestionStatus::kApproved);
  EXPECT_EQ(approved->blog_id, *blog);
  EXPECT_EQ(approved->decided_by, "op@example.org");
  // Decided once: neither approved again nor rejected afterwards.
  auto again = store_->decide_suggestion(s->id, {.status = SuggestionStatus::kRejected, .reason = "no"});
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().kind, ErrorKind::kConflict);
  EXPECT_EQ(store_->decide_suggestion(999, {.status = SuggestionStatus::kRejected}).error().kind,
            ErrorKind::kNotFound);
}

TEST_P(SuggestionsStoreTest, OnlyAFoundSuggestionCanBeApprovedAndAnyOpenOneRejected) {
  const auto ann = reader("ann@example.org");
  auto pending = suggest(ann, "https://pending.example/", at(0));
  auto refused = suggest(ann, "http://127.0.0.1/", at(0));
  ASSERT_TRUE(pending && refused);
  ASSERT_EQ(store_->claim_suggestions(at(1), at(4), 1, 3).value().size(), 1u);  // the oldest: pending.example
  ASSERT_EQ(store_->claim_suggestions(at(1), at(4), 1, 3).value().at(0).id, refused->id);
  ASSERT_TRUE(store_->save_suggestion_finding(
      refused->id, {.status = SuggestionStatus::kRefused, .at = at(2), .error = "fetch: refused: private"}));
  EXPECT_EQ(store_->suggestion(refused->id).value()->error, "fetch: refused: private");
  for (const auto id : {pending->id, refused->id}) {
    auto approve = store_->decide_suggestion(id, {.status = SuggestionStatus::kApproved, .blog_id = 1});
    ASSERT_FALSE(approve);
    EXPECT_EQ(approve.error().kind, ErrorKind::kConflict);
  }
  auto rejected =
      store_->decide_suggestion(pending->id, {.status = SuggestionStatus::kRejected, .reason = "a shop"});
  ASSERT_TRUE(rejected);
  EXPECT_EQ(rejected->reason, "a shop");
  // A rejected suggestion's late finding is not saved.
  EXPECT_EQ(store_->save_suggestion_finding(pending->id, {.status = SuggestionStatus::kFound}).error().kind,
            ErrorKind::kConflict);
  // The admin list shows open ones first, then decided ones, newest first within each.
  auto all = store_->suggestions(10).value();
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].id, refused->id);
  EXPECT_EQ(all[1].id, pending->id);
}

// A suggestion claimed by a process that was killed before it saved its finding stays pending; after a
// restart it is claimed again once the lease has run out, and a URL that never lets discovery finish
// ends as failed after max_attempts claims.
TEST_P(SuggestionsStoreTest, AClaimWhoseProcessDiedIsTakenAgainAfterARestart) {
  const auto ann = reader("ann@example.org");
  auto s = suggest(ann, "https://slow.example/", at(0));
  ASSERT_TRUE(s);
  EXPECT_EQ(store_->next_suggestion_due().value(), at(0));
  ASSERT_EQ(store_->claim_suggestions(at(1), at(4), 10, 3).value().size(), 1u);
  EXPECT_TRUE(store_->claim_suggestions(at(2), at(5), 10, 3).value().empty());  // leased
  EXPECT_EQ(store_->next_suggestion_due().value(), at(4));

  reopen();  // the process that claimed it is gone
  EXPECT_TRUE(store_->claim_suggestions(at(3), at(6), 10, 3).value().empty());  // lease still running
  auto second = store_->claim_suggestions(at(4), at(7), 10, 3);
  ASSERT_TRUE(second);
  ASSERT_EQ(second->size(), 1u);
  EXPECT_EQ(second->at(0).attempts, 2);
  EXPECT_EQ(store_->suggestion(s->id).value()->status, SuggestionStatus::kPending);
  ASSERT_EQ(store_->claim_suggestions(at(7), at(10), 10, 3).value().size(), 1u);
  // Three claims and no finding: the next claim gives up on it.
  EXPECT_TRUE(store_->claim_suggestions(at(10), at(13), 10, 3).value().empty());
  auto failed = store_->suggestion(s->id).value();
  EXPECT_EQ(failed->status, SuggestionStatus::kFailed);
  EXPECT_EQ(failed->error, "discovery did not finish after 3 attempts");
}

// A claim handed back by a worker that is stopping is claimable at once and does not count as an attempt.
TEST_P(SuggestionsStoreTest, AReleasedClaimIsTakenAgainAtOnceWithoutCountingAnAttempt) {
  const auto ann = reader("ann@example.org");
  auto s = suggest(ann, "https://ann.example/", at(0));
  ASSERT_TRUE(s);
  ASSERT_EQ(store_->claim_suggestions(at(1), at(4), 10, 3).value().size(), 1u);
  ASSERT_TRUE(store_->release_suggestion(s->id));
  EXPECT_EQ(store_->next_suggestion_due().value(), at(0));
  reopen();
  auto again = store_->claim_suggestions(at(2), at(5), 10, 3).value();
  ASSERT_EQ(again.size(), 1u);
  EXPECT_EQ(again[0].attempts, 1);
  // Released once decided: nothing changes.
  ASSERT_TRUE(store_->save_suggestion_finding(s->id, {.status = SuggestionStatus::kFailed, .at = at(3)}));
  ASSERT_TRUE(store_->release_suggestion(s->id));
  EXPECT_EQ(store_->suggestion(s->id).value()->status, SuggestionStatus::kFailed);
  EXPECT_EQ(store_->suggestion(s->id).value()->attempts, 1);
}

TEST_P(SuggestionsStoreTest, ADeletedAccountLeavesItsSuggestionsWithoutAReader) {
  const auto ann = reader("ann@example.org");
  auto s = suggest(ann, "https://ann.example/", at(0));
  ASSERT_TRUE(s);
  ASSERT_TRUE(store_->delete_reader(ann));
  auto kept = store_->suggestion(s->id).value();
  ASSERT_TRUE(kept);
  EXPECT_FALSE(kept->reader_id);
  EXPECT_EQ(kept->reader_email, "");
  EXPECT_EQ(kept->url, "https://ann.example/");
}

LONGREAD_STORE_BACKENDS(SuggestionsStoreTest);

}  // namespace
}  // namespace longread::storage
