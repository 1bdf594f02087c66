// Tests of the readers part of the Store on both backends: accounts, sessions, votes and the stored hot
// score, reading lists, newsletter subscribers, issues and per-recipient deliveries. Real databases.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "storage/store.h"
#include "testing/store_test.h"

namespace longread::storage {
namespace {

TimePoint at(std::int64_t hours_after) {
  return from_unix(1'700'000'000 + hours_after * 3600);
}

// The formula of migration 0005 (docs/features.md, "Hot order"), written out again so the test can fail.
double hot_score(int votes, TimePoint date) {
  return std::log10(1.0 + votes) + static_cast<double>(to_unix(date) - 1'577'836'800) / 86'400.0;
}

class ReadersStoreTest : public longread::testing::StoreSuite {
 protected:
  ReadersStoreTest() : StoreSuite("longread-readers") {}

  void SetUp() override {
    StoreSuite::SetUp();
    if (HasFatalFailure()) return;
    auto blog = store_->upsert_blog({.feed_url = "https://example.org/feed", .title = "Blog"});
    ASSERT_TRUE(blog) << blog.error().message;
    std::vector<model::Article> articles;
    for (int i = 0; i < 4; ++i) {
      model::Article a;
      a.guid = "g" + std::to_string(i);
      a.title = "Article " + std::to_string(i);
      a.link = "https://example.org/" + a.guid;
      a.published = at(10 * i);  // article 3 is the newest
      a.text = "text";
      a.junk = i == 0;  // article 0 is hidden
      articles.push_back(a);
    }
    const auto stored = save_articles(*blog, std::move(articles), at(100));
    ASSERT_EQ(stored.size(), 4u);
    for (const auto& [guid, id] : stored) ids_[guid.back() - '0'] = id;
  }

  std::int64_t reader(const std::string& email) {
    auto id = store_->create_reader(email, "$argon2id$fake", at(0), at(0));
    EXPECT_TRUE(id) << id.error().message;
    return id.value_or(0);
  }

  std::int64_t ids_[4]{};
};

TEST_P(ReadersStoreTest, EmailsAreUniqueCaseInsensitively) {
  const auto id = reader("Ada@Example.org");
  auto again = store_->create_reader("ada@example.ORG", "x", at(1), at(1));
  ASSERT_FALSE(again);
  EXPECT_EQ(again.error().kind, ErrorKind::kConflict);
  auto found = store_->reader_by_email("ADA@example.org");
  ASSERT_TRUE(found && *found);
  EXPECT_EQ((*found)->id, id);
  EXPECT_EQ((*found)->email, "Ada@Example.org");
  auto missing = store_->reader_by_email("nobody@example.org");
  ASSERT_TRUE(missing);
  EXPECT_FALSE(*missing);
}

TEST_P(ReadersStoreTest, PendingAccountsAreConfirmedOnceAndPasswordsReplaced) {
  auto id = store_->create_reader("pending@example.org", "$argon2id$first", at(0), std::nullopt);
  ASSERT_TRUE(id) << id.error().message;
  auto pending = store_->reader_by_email("pending@example.org").value();
  ASSERT_TRUE(pending);
  EXPECT_FALSE(pending->confirmed_at);
  EXPECT_EQ(pending->password_hash, "$argon2id$first");

  // A new password for a pending account leaves it pending when no confirmation time is given.
  ASSERT_TRUE(store_->set_reader_password(*id, "$argon2id$second", std::nullopt));
  pending = store_->reader_by_email("pending@example.org").value();
  EXPECT_EQ(pending->password_hash, "$argon2id$second");
  EXPECT_FALSE(pending->confirmed_at);

  ASSERT_TRUE(store_->confirm_reader(*id, at(3)));
  ASSERT_TRUE(store_->confirm_reader(*id, at(9)));  // a second confirmation keeps the first time
  auto confirmed = store_->reader_by_email("pending@example.org").value();
  ASSERT_TRUE(confirmed && confirmed->confirmed_at);
  EXPECT_EQ(*confirmed->confirmed_at, at(3));
  ASSERT_TRUE(store_->set_reader_password(*id, "$argon2id$third", at(12)));
  EXPECT_EQ(*store_->reader_by_email("pending@example.org").value()->confirmed_at, at(3));

  // Unknown readers: kNotFound, nothing written.
  EXPECT_EQ(store_->confirm_reader(*id + 100, at(1)).error().kind, ErrorKind::kNotFound);
  EXPECT_EQ(store_->set_reader_password(*id + 100, "x", at(1)).error().kind, ErrorKind::kNotFound);
}

TEST_P(ReadersStoreTest, AllSessionsOfAReaderEnd) {
  const auto a = reader("a@example.org");
  const auto b = reader("b@example.org");
  for (const char* token : {"a1", "a2"}) {
    ASSERT_TRUE(store_->create_session(
        {.token_hash = token, .reader_id = a, .created_at = at(0), .expires_at = at(50)}));
  }
  ASSERT_TRUE(store_->create_session(
      {.token_hash = "b1", .reader_id = b, .created_at = at(0), .expires_at = at(50)}));
  EXPECT_EQ(store_->delete_reader_sessions(a).value_or(-1), 2);
  EXPECT_FALSE(store_->session_reader("a1", at(1)).value());
  EXPECT_FALSE(store_->session_reader("a2", at(1)).value());
  EXPECT_TRUE(store_->session_reader("b1", at(1)).value());
}

TEST_P(ReadersStoreTest, DeletingAReaderTakesItsVotesListAndSessionsOnly) {
  const auto leaving = reader("leaving@example.org");
  const auto staying = reader("staying@example.org");
  for (const auto id : {leaving, staying}) {
    ASSERT_TRUE(store_->set_vote(id, ids_[1], true, at(1)));
    ASSERT_TRUE(store_->set_saved(id, ids_[1], true, at(1)));
    ASSERT_TRUE(store_->create_session({.token_hash = "t" + std::to_string(id),
                                        .reader_id = id,
                                        .created_at = at(0),
                                        .expires_at = at(50)}));
  }
  ASSERT_TRUE(store_->set_vote(leaving, ids_[2], true, at(1)));
  ASSERT_EQ(store_->article(ids_[1]).value()->article.votes, 2);

  ASSERT_TRUE(store_->delete_reader(leaving));
  EXPECT_FALSE(store_->reader_by_email("leaving@example.org").value());
  EXPECT_FALSE(store_->session_reader("t" + std::to_string(leaving), at(1)).value());
  EXPECT_EQ(store_->article(ids_[1]).value()->article.votes, 1);  // the other reader's vote stays
  EXPECT_EQ(store_->article(ids_[2]).value()->article.votes, 0);
  EXPECT_EQ(store_->reading_list(leaving, 10, 0).value().size(), 0u);
  EXPECT_TRUE(store_->session_reader("t" + std::to_string(staying), at(1)).value());
  EXPECT_EQ(store_->reading_list(staying, 10, 0).value().size(), 1u);
  EXPECT_EQ(store_->reader_marks(staying, {ids_[1]}).value().voted, std::vector<std::int64_t>{ids_[1]});

  // Unknown (or already deleted): kNotFound, and no vote count moves.
  EXPECT_EQ(store_->delete_reader(leaving).error().kind, ErrorKind::kNotFound);
  EXPECT_EQ(store_->article(ids_[1]).value()->article.votes, 1);
}

TEST_P(ReadersStoreTest, SessionsExpireAndAreRevocable) {
  const auto id = reader("a@example.org");
  ASSERT_TRUE(store_->create_session(
      {.token_hash = "h1", .reader_id = id, .created_at = at(0), .expires_at = at(5)}));
  ASSERT_TRUE(store_->create_session(
      {.token_hash = "h2", .reader_id = id, .created_at = at(0), .expires_at = at(50)}));
  auto live = store_->session_reader("h1", at(4));
  ASSERT_TRUE(live && *live);
  EXPECT_EQ((*live)->reader_id, id);
  EXPECT_EQ((*live)->email, "a@example.org");
  auto expired = store_->session_reader("h1", at(5));
  ASSERT_TRUE(expired);
  EXPECT_FALSE(*expired);
  EXPECT_EQ(store_->delete_expired_sessions(at(6)).value_or(-1), 1);
  ASSERT_TRUE(store_->delete_session("h2"));
  EXPECT_FALSE(store_->session_reader("h2", at(6)).value());
}

TEST_P(ReadersStoreTest, OneVotePerReaderWithdrawableAndScoreFollows) {
  const auto a = reader("a@example.org");
  const auto b = reader("b@example.org");
  const auto article = ids_[1];
  auto before = store_->article(article);
  ASSERT_TRUE(before && *before);
  EXPECT_DOUBLE_EQ((*before)->article.score, hot_score(0, at(10)));

  auto v1 = store_->set_vote(a, article, true, at(101));
  ASSERT_TRUE(v1) << v1.error().message;
  EXPECT_TRUE(v1->voted);
  EXPECT_EQ(v1->votes, 1);
  auto v2 = store_->set_vote(a, article, true, at(102));  // double vote counts once
  ASSERT_TRUE(v2);
  EXPECT_EQ(v2->votes, 1);
  auto v3 = store_->set_vote(b, article, true, at(103));
  ASSERT_TRUE(v3);
  EXPECT_EQ(v3->votes, 2);
  auto after = store_->article(article);
  EXPECT_DOUBLE_EQ((*after)->article.score, hot_score(2, at(10)));

  auto marks = store_->reader_marks(a, {ids_[1], ids_[2], ids_[3]});
  ASSERT_TRUE(marks);
  EXPECT_EQ(marks->voted, std::vector<std::int64_t>{article});

  auto u1 = store_->set_vote(a, article, false, at(104));
  ASSERT_TRUE(u1);
  EXPECT_FALSE(u1->voted);
  EXPECT_EQ(u1->votes, 1);
  auto u2 = store_->set_vote(a, article, false, at(105));  // unvoting twice takes one vote away, not two
  EXPECT_EQ(u2->votes, 1);
  EXPECT_DOUBLE_EQ(store_->article(article).value()->article.score, hot_score(1, at(10)));
}

TEST_P(ReadersStoreTest, HotOrderPrefersVotesButNewnessWins) {
  const auto a = reader("a@example.org");
  // Article 1 (20 hours older than article 3) with one vote: log10(2) days = 7.2 hours, not enough.
  ASSERT_TRUE(store_->set_vote(a, ids_[1], true, at(101)));
  auto hot = store_->articles({.order = ArticleOrder::kHot, .limit = 10});
  ASSERT_TRUE(hot);
  ASSERT_EQ(hot->size(), 3u);
  EXPECT_EQ((*hot)[0].article.id, ids_[3]);
  // Article 2 is 10 hours older than article 3: one vote (7.2 h) is not enough, a second makes it
  // log10(3) days = 11.4 hours, which is.
  ASSERT_TRUE(store_->set_vote(a, ids_[2], true, at(101)));
  EXPECT_EQ(store_->articles({.order = ArticleOrder::kHot, .limit = 1}).value()[0].article.id, ids_[3]);
  const auto b = reader("b@example.org");
  ASSERT_TRUE(store_->set_vote(b, ids_[2], true, at(101)));
  EXPECT_EQ(store_->articles({.order = ArticleOrder::kHot, .limit = 1}).value()[0].article.id, ids_[2]);
}

// Top "this week" counts the votes cast in the week, whatever the article's date (the articles here are
// 40-70 days older than the votes); "all time" lists voted articles only.
TEST_P(ReadersStoreTest, TopByVoteTimeCountsVotesCastInThePeriodAndNeverPads) {
  const auto a = reader("a@example.org");
  const auto b = reader("b@example.org");
  const auto c = reader("c@example.org");
  const TimePoint now = at(2000);
  // Article 1: two votes long ago, one this week. Article 2: two votes this week. Article 3: none.
  ASSERT_TRUE(store_->set_vote(a, ids_[1], true, at(1000)));
  ASSERT_TRUE(store_->set_vote(b, ids_[1], true, at(1001)));
  ASSERT_TRUE(store_->set_vote(c, ids_[1], true, at(1990)));
  ASSERT_TRUE(store_->set_vote(a, ids_[2], true, at(1995)));
  ASSERT_TRUE(store_->set_vote(b, ids_[2], true, at(1996)));

  auto ids = [](const Result<std::vector<ArticleView>>& views) {
    std::vector<std::int64_t> out;
    if (views) {
      for (const auto& v : *views) out.push_back(v.article.id);
    }
    return out;
  };
  const ArticleQuery week{.vote_period = VotePeriod::kWeek, .order = ArticleOrder::kTop};
  const ArticleQuery month{.vote_period = VotePeriod::kMonth, .order = ArticleOrder::kTop};
  // The two votes of 41 days ago leave the week and the month: four counts lowered.
  ASSERT_EQ(store_->age_period_votes(now).value(), 4);
  EXPECT_EQ(ids(store_->articles(week)), (std::vector<std::int64_t>{ids_[2], ids_[1]}));
  EXPECT_EQ(store_->count_articles(week).value(), 2);
  EXPECT_EQ(ids(store_->articles(month)), (std::vector<std::int64_t>{ids_[2], ids_[1]}));
  // The old query, by the article's own date, finds nothing in the week: what readers saw.
  EXPECT_TRUE(store_->articles({.since = now - std::chrono::days(7), .order = ArticleOrder::kTop})->empty());
  // A vote withdrawn no longer counts for the period.
  ASSERT_TRUE(store_->set_vote(a, ids_[2], false, at(1997)));
  ASSERT_TRUE(store_->set_vote(b, ids_[2], false, at(1997)));
  EXPECT_EQ(ids(store_->articles(week)), (std::vector<std::int64_t>{ids_[1]}));
  // Eight days on, the week has no votes: empty, not padded; the month still counts article 1's vote.
  EXPECT_EQ(store_->age_period_votes(now + std::chrono::days(8)).value(), 1);
  EXPECT_TRUE(store_->articles(week)->empty());
  EXPECT_EQ(store_->count_articles(week).value(), 0);
  EXPECT_EQ(ids(store_->articles(month)), (std::vector<std::int64_t>{ids_[1]}));
  // Aging again at the same time takes nothing more out.
  EXPECT_EQ(store_->age_period_votes(now + std::chrono::days(8)).value(), 0);
  // All time: article 1 (3 votes) only; article 3 and the hidden article 0 are not padded in.
  EXPECT_EQ(ids(store_->articles({.voted_only = true, .order = ArticleOrder::kTop})),
            (std::vector<std::int64_t>{ids_[1]}));
  EXPECT_EQ(store_->count_articles({.voted_only = true}).value(), 1);
}

// Two stores on one database (two web processes) voting and unvoting at once: each reader's vote counts
// once, and the article's count is the number of readers whose vote stands.
TEST_P(ReadersStoreTest, VotesFromTwoProcessesAtOnceCountEachReaderOnce) {
  auto other = open_store(db());
  ASSERT_TRUE(other) << other.error().message;
  std::vector<std::int64_t> readers;
  for (int i = 0; i < 8; ++i) readers.push_back(reader("r" + std::to_string(i) + "@example.org"));
  const auto article = ids_[2];
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    Store* store = t % 2 == 0 ? store_.get() : other->get();
    threads.emplace_back([&, store, t] {
      for (int round = 0; round < 5; ++round) {
        for (std::size_t i = 0; i < readers.size(); ++i) {
          // Readers 0-3 only vote; the others vote and unvote, so their final state is whoever came last.
          const bool vote = i < 4 || (round + t + static_cast<int>(i)) % 2 == 0;
          EXPECT_TRUE(store->set_vote(readers[i], article, vote, at(101 + t)));
        }
      }
    });
  }
  for (auto& thread : threads) thread.join();
  std::size_t standing = 0;
  for (const auto id : readers) standing += store_->reader_marks(id, {article}).value().voted.size();
  EXPECT_GE(standing, 4u);
  auto state = store_->set_vote(readers[0], article, true, at(110));  // a repeated vote changes nothing
  ASSERT_TRUE(state) << state.error().message;
  EXPECT_EQ(state->votes, static_cast<int>(standing));
}

TEST_P(ReadersStoreTest, VotesAndSavesOnHiddenOrUnknownArticlesAreNotFound) {
  const auto a = reader("a@example.org");
  for (const std::int64_t article : {ids_[0], std::int64_t{999999}}) {
    auto vote = store_->set_vote(a, article, true, at(101));
    ASSERT_FALSE(vote);
    EXPECT_EQ(vote.error().kind, ErrorKind::kNotFound);
    auto save = store_->set_saved(a, article, true, at(101));
    ASSERT_FALSE(save);
    EXPECT_EQ(save.error().kind, ErrorKind::kNotFound);
  }
  EXPECT_EQ(store_->article(ids_[0]).value()->article.votes, 0);
}

TEST_P(ReadersStoreTest, ReadingListNewestSavedFirstWithReadMarks) {
  const auto a = reader("a@example.org");
  const auto b = reader("b@example.org");
  ASSERT_TRUE(store_->set_saved(a, ids_[3], true, at(101)));
  ASSERT_TRUE(store_->set_saved(a, ids_[1], true, at(102)));
  ASSERT_TRUE(store_->set_saved(a, ids_[2], true, at(103)));
  ASSERT_TRUE(store_->set_saved(a, ids_[2], true, at(104)));  // saving twice keeps the first time
  ASSERT_TRUE(store_->set_saved(b, ids_[3], true, at(101)));
  auto list = store_->reading_list(a, 10, 0);
  ASSERT_TRUE(list) << list.error().message;
  ASSERT_EQ(list->size(), 3u);
  EXPECT_EQ((*list)[0].view.article.id, ids_[2]);
  EXPECT_EQ((*list)[0].saved_at, at(103));
  EXPECT_EQ((*list)[1].view.article.id, ids_[1]);
  EXPECT_EQ((*list)[2].view.article.id, ids_[3]);
  EXPECT_EQ((*list)[0].view.blog_title, "Blog");
  EXPECT_EQ(store_->reading_list_unread(a).value(), 3);

  ASSERT_TRUE(store_->set_read(a, ids_[1], true, at(105)));
  EXPECT_EQ(store_->reading_list_unread(a).value(), 2);
  EXPECT_EQ(store_->reading_list(a, 10, 0).value()[1].read_at, at(105));
  auto not_saved = store_->set_read(b, ids_[1], true, at(105));
  ASSERT_FALSE(not_saved);
  EXPECT_EQ(not_saved.error().kind, ErrorKind::kNotFound);

  ASSERT_TRUE(store_->set_saved(a, ids_[1], false, at(106)));
  EXPECT_EQ(store_->reading_list(a, 10, 0).value().size(), 2u);
  EXPECT_EQ(store_->reader_marks(a, {ids_[1], ids_[2], ids_[3]}).value().saved.size(), 2u);
  EXPECT_EQ(store_->reading_list(b, 10, 0).value().size(), 1u);
}

TEST_P(ReadersStoreTest, SubscribersNeedConfirmationAndCanLeave) {
  auto s = store_->add_subscriber("Reader@Example.org", at(0));
  ASSERT_TRUE(s) << s.error().message;
  EXPECT_FALSE(s->confirmed_at);
  EXPECT_TRUE(store_->confirmed_subscribers().value().empty());
  EXPECT_FALSE(store_->confirm_subscriber("nobody@example.org", at(1)).value());
  EXPECT_TRUE(store_->confirm_subscriber("reader@example.org", at(1)).value());
  auto again = store_->add_subscriber("reader@example.org", at(2));  // idempotent: stays confirmed
  ASSERT_TRUE(again);
  EXPECT_EQ(again->id, s->id);
  EXPECT_EQ(again->confirmed_at, at(1));
  ASSERT_EQ(store_->confirmed_subscribers().value().size(), 1u);

  EXPECT_TRUE(store_->unsubscribe("READER@example.org", at(3)).value());
  EXPECT_FALSE(store_->unsubscribe("reader@example.org", at(3)).value());
  EXPECT_TRUE(store_->confirmed_subscribers().value().empty());
  // Subscribing again after leaving needs a new confirmation.
  EXPECT_FALSE(store_->add_subscriber("reader@example.org", at(4)).value().confirmed_at);
}

TEST_P(ReadersStoreTest, DeliveriesAreClaimedAtMostOnce) {
  auto s1 = store_->add_subscriber("a@example.org", at(0)).value();
  auto issue = store_->newsletter_issue("2023-W46", {ids_[3], ids_[1]}, at(0));
  ASSERT_TRUE(issue) << issue.error().message;
  EXPECT_EQ(issue->article_ids, (std::vector<std::int64_t>{ids_[3], ids_[1]}));
  // The same key returns the issue as first created.
  auto same = store_->newsletter_issue("2023-W46", {ids_[2]}, at(5));
  ASSERT_TRUE(same);
  EXPECT_EQ(same->id, issue->id);
  EXPECT_EQ(same->article_ids, issue->article_ids);

  EXPECT_TRUE(store_->claim_delivery(issue->id, s1.id, at(1)).value());
  // Claimed and not finished (a crash mid-send): never claimed again.
  EXPECT_FALSE(store_->claim_delivery(issue->id, s1.id, at(2)).value());
  ASSERT_TRUE(store_->finish_delivery(issue->id, s1.id, DeliveryState::kRetry, "421 busy", at(2)));
  EXPECT_TRUE(store_->claim_delivery(issue->id, s1.id, at(3)).value());  // a retry may be claimed
  ASSERT_TRUE(store_->finish_delivery(issue->id, s1.id, DeliveryState::kSent, "", at(3)));
  EXPECT_FALSE(store_->claim_delivery(issue->id, s1.id, at(4)).value());
  EXPECT_EQ(store_->count_deliveries(issue->id, DeliveryState::kSent).value(), 1);
  EXPECT_EQ(store_->count_deliveries(issue->id, DeliveryState::kRetry).value(), 0);
}

TEST_P(ReadersStoreTest, SecretIsCreatedOnceAndShared) {
  EXPECT_EQ(store_->secret("csrf", "first").value(), "first");
  EXPECT_EQ(store_->secret("csrf", "second").value(), "first");
  EXPECT_EQ(store_->secret("links", "other").value(), "other");
}

LONGREAD_STORE_BACKENDS(ReadersStoreTest);

}  // namespace
}  // namespace longread::storage
