// Tests of the account-mail outbox of the Store (migration 0013): queue, claim with a lease, failure
// with the next attempt, delete, expiry, and that what is queued survives closing and reopening the
// database file. Real database files.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "storage/store.h"
#include "testing/store_test.h"

namespace longread::storage {
namespace {

TimePoint at(std::int64_t seconds_after) {
  return from_unix(1'700'000'000 + seconds_after);
}

OutboxMail mail(const std::string& recipient, TimePoint created, TimePoint not_after) {
  return {.kind = "confirm",
          .recipient = recipient,
          .message = "To: " + recipient + "\r\n\r\nOpen https://example.org/account/confirm?sig=x\r\n",
          .created_at = created,
          .not_after = not_after,
          .next_attempt_at = created};
}

std::vector<std::string> recipients(const std::vector<OutboxMail>& mails) {
  std::vector<std::string> out;
  for (const auto& m : mails) out.push_back(m.recipient);
  return out;
}

class OutboxStoreTest : public longread::testing::StoreSuite {
 protected:
  OutboxStoreTest() : StoreSuite("longread-outbox") {}
};

TEST_P(OutboxStoreTest, QueuedMailIsKeptWholeAndSurvivesReopening) {
  const OutboxMail queued = mail("kim@example.org", at(0), at(48 * 3600));
  auto id = store_->enqueue_mail(queued);
  ASSERT_TRUE(id) << id.error().message;
  EXPECT_GT(*id, 0);
  auto due = store_->next_mail_due();
  ASSERT_TRUE(due) << due.error().message;
  EXPECT_EQ(*due, at(0));

  reopen();  // a restart (or a kill: the INSERT was committed when enqueue_mail returned)
  auto all = store_->outbox_mails();
  ASSERT_TRUE(all) << all.error().message;
  ASSERT_EQ(all->size(), 1u);
  const OutboxMail& stored = all->front();
  EXPECT_EQ(stored.id, *id);
  EXPECT_EQ(stored.kind, "confirm");
  EXPECT_EQ(stored.recipient, "kim@example.org");
  EXPECT_EQ(stored.message, queued.message);
  EXPECT_EQ(stored.created_at, at(0));
  EXPECT_EQ(stored.not_after, at(48 * 3600));
  EXPECT_EQ(stored.attempts, 0);
  EXPECT_EQ(stored.next_attempt_at, at(0));
  EXPECT_EQ(stored.last_error, "");
}

TEST_P(OutboxStoreTest, ClaimTakesDueMailsOldestFirstAndLeasesThem) {
  ASSERT_TRUE(store_->enqueue_mail(mail("later@example.org", at(100), at(10'000))));
  ASSERT_TRUE(store_->enqueue_mail(mail("first@example.org", at(10), at(10'000))));
  ASSERT_TRUE(store_->enqueue_mail(mail("second@example.org", at(20), at(10'000))));

  // Not yet due: nothing.
  auto none = store_->claim_due_mails(at(5), at(65), 10);
  ASSERT_TRUE(none) << none.error().message;
  EXPECT_TRUE(none->empty());

  // Due at 30: two of three, by next_attempt_at; the limit is honoured.
  auto one = store_->claim_due_mails(at(30), at(90), 1);
  ASSERT_TRUE(one) << one.error().message;
  ASSERT_EQ(recipients(*one), std::vector<std::string>{"first@example.org"});
  EXPECT_EQ(one->front().attempts, 1);
  EXPECT_EQ(one->front().next_attempt_at, at(90));
  auto rest = store_->claim_due_mails(at(30), at(90), 10);
  ASSERT_TRUE(rest);
  EXPECT_EQ(recipients(*rest), std::vector<std::string>{"second@example.org"});

  // Leased: not claimed again before the lease runs out, then claimed again (a sender that died).
  auto leased = store_->claim_due_mails(at(89), at(149), 10);
  ASSERT_TRUE(leased);
  EXPECT_TRUE(leased->empty());
  auto again = store_->claim_due_mails(at(120), at(180), 10);
  ASSERT_TRUE(again);
  EXPECT_EQ(recipients(*again),
            (std::vector<std::string>{"first@example.org", "second@example.org", "later@example.org"}));
  EXPECT_EQ(again->front().attempts, 2);
  EXPECT_EQ(again->back().attempts, 1);
  auto due = store_->next_mail_due();
  ASSERT_TRUE(due);
  EXPECT_EQ(*due, at(180));
}

TEST_P(OutboxStoreTest, FailedMailWaitsForItsNextAttemptAndKeepsTheError) {
  auto id = store_->enqueue_mail(mail("kim@example.org", at(0), at(10'000)));
  ASSERT_TRUE(id);
  auto claimed = store_->claim_due_mails(at(0), at(60), 10);
  ASSERT_TRUE(claimed);
  ASSERT_EQ(claimed->size(), 1u);
  ASSERT_TRUE(store_->mark_mail_failed(*id, "mail: RCPT failed (SMTP reply 451)", at(120)));

  auto early = store_->claim_due_mails(at(119), at(179), 10);
  ASSERT_TRUE(early);
  EXPECT_TRUE(early->empty());
  auto retried = store_->claim_due_mails(at(120), at(180), 10);
  ASSERT_TRUE(retried);
  ASSERT_EQ(retried->size(), 1u);
  EXPECT_EQ(retried->front().attempts, 2);
  EXPECT_EQ(retried->front().last_error, "mail: RCPT failed (SMTP reply 451)");
}

TEST_P(OutboxStoreTest, DeletedMailIsGone) {
  auto kept = store_->enqueue_mail(mail("kept@example.org", at(0), at(10'000)));
  auto sent = store_->enqueue_mail(mail("sent@example.org", at(0), at(10'000)));
  ASSERT_TRUE(kept && sent);
  auto deleted = store_->delete_mail(*sent);
  ASSERT_TRUE(deleted) << deleted.error().message;
  EXPECT_TRUE(*deleted);
  auto twice = store_->delete_mail(*sent);
  ASSERT_TRUE(twice);
  EXPECT_FALSE(*twice);
  reopen();
  auto all = store_->outbox_mails();
  ASSERT_TRUE(all);
  EXPECT_EQ(recipients(*all), std::vector<std::string>{"kept@example.org"});
}

TEST_P(OutboxStoreTest, ExpiredMailIsNeverClaimedAndIsDropped) {
  ASSERT_TRUE(store_->enqueue_mail(mail("expires@example.org", at(0), at(100))));
  ASSERT_TRUE(store_->enqueue_mail(mail("lives@example.org", at(0), at(10'000))));

  // At its not_after a mail is no longer due, even though its next attempt has come.
  auto claimed = store_->claim_due_mails(at(100), at(160), 10);
  ASSERT_TRUE(claimed);
  EXPECT_EQ(recipients(*claimed), std::vector<std::string>{"lives@example.org"});

  auto before = store_->drop_expired_mails(at(99));
  ASSERT_TRUE(before) << before.error().message;
  EXPECT_TRUE(before->empty());
  auto dropped = store_->drop_expired_mails(at(100));
  ASSERT_TRUE(dropped) << dropped.error().message;
  EXPECT_EQ(recipients(*dropped), std::vector<std::string>{"expires@example.org"});
  auto all = store_->outbox_mails();
  ASSERT_TRUE(all);
  EXPECT_EQ(recipients(*all), std::vector<std::string>{"lives@example.org"});
  auto again = store_->drop_expired_mails(at(100));
  ASSERT_TRUE(again);
  EXPECT_TRUE(again->empty());
}

// `longread mail retry [ID]`: a mail waiting out its backoff is due at once; a mail already due (or due
// earlier than `now`) keeps its time; an unknown id matches nothing.
TEST_P(OutboxStoreTest, RetryMakesWaitingMailDueNow) {
  auto waiting = store_->enqueue_mail(mail("waiting@example.org", at(0), at(10'000)));
  auto other = store_->enqueue_mail(mail("other@example.org", at(0), at(10'000)));
  auto early = store_->enqueue_mail(mail("early@example.org", at(0), at(10'000)));
  ASSERT_TRUE(waiting && other && early);
  ASSERT_EQ(store_->claim_due_mails(at(0), at(60), 10).value().size(), 3u);
  ASSERT_TRUE(store_->mark_mail_failed(*waiting, "mail: (SMTP reply 451)", at(3600)));
  ASSERT_TRUE(store_->mark_mail_failed(*other, "mail: (SMTP reply 451)", at(7200)));
  ASSERT_TRUE(store_->mark_mail_failed(*early, "mail: (SMTP reply 451)", at(50)));

  // One mail: only it becomes due.
  auto one = store_->retry_mails(*waiting, at(100));
  ASSERT_TRUE(one) << one.error().message;
  EXPECT_EQ(*one, 1);
  auto due = store_->claim_due_mails(at(100), at(160), 10);
  ASSERT_TRUE(due);
  EXPECT_EQ(recipients(*due), (std::vector<std::string>{"early@example.org", "waiting@example.org"}));
  EXPECT_EQ(due->back().last_error, "mail: (SMTP reply 451)");  // the last error stays for the operator

  // Unknown id: nothing matched, nothing changed.
  auto unknown = store_->retry_mails(*early + 100, at(200));
  ASSERT_TRUE(unknown) << unknown.error().message;
  EXPECT_EQ(*unknown, 0);
  EXPECT_TRUE(store_->claim_due_mails(at(159), at(219), 10).value().empty());

  // Every mail: all three match; the two leased until 160 and the one waiting until 7200 are due at 150,
  // and none is pushed later than it was.
  auto all = store_->retry_mails(std::nullopt, at(150));
  ASSERT_TRUE(all) << all.error().message;
  EXPECT_EQ(*all, 3);
  auto next = store_->next_mail_due();
  ASSERT_TRUE(next);
  EXPECT_EQ(*next, at(150));
  ASSERT_TRUE(store_->retry_mails(std::nullopt, at(400)));
  EXPECT_EQ(store_->next_mail_due().value(), at(150));
  EXPECT_EQ(store_->claim_due_mails(at(150), at(210), 10).value().size(), 3u);

  // An empty outbox matches nothing.
  for (const auto id : {*waiting, *other, *early}) ASSERT_TRUE(store_->delete_mail(id));
  auto none = store_->retry_mails(std::nullopt, at(500));
  ASSERT_TRUE(none);
  EXPECT_EQ(*none, 0);
}

TEST_P(OutboxStoreTest, EmptyOutboxHasNothingDue) {
  auto due = store_->next_mail_due();
  ASSERT_TRUE(due) << due.error().message;
  EXPECT_FALSE(due->has_value());
  auto claimed = store_->claim_due_mails(at(0), at(60), 10);
  ASSERT_TRUE(claimed);
  EXPECT_TRUE(claimed->empty());
}

}  // namespace
}  // namespace longread::storage

namespace longread::storage {
namespace {

// Mails per address (migration 0016): one of each kind per gap, whoever asks; the record survives a
// restart (reopening the file); old records go.
TEST_P(OutboxStoreTest, MailSlotIsTakenOncePerGapAndSurvivesReopening) {
  const auto hour = std::chrono::hours(1);
  EXPECT_TRUE(store_->claim_mail_slot("kim@example.org", "confirm", at(0), hour).value());
  EXPECT_FALSE(store_->claim_mail_slot("kim@example.org", "confirm", at(60), hour).value());
  // Another kind, or another address: a slot of its own.
  EXPECT_TRUE(store_->claim_mail_slot("kim@example.org", "reset", at(60), hour).value());
  EXPECT_TRUE(store_->claim_mail_slot("lee@example.org", "confirm", at(60), hour).value());
  reopen();
  EXPECT_FALSE(store_->claim_mail_slot("kim@example.org", "confirm", at(3599), hour).value());
  // A refused claim records nothing: the hour still counts from the first mail.
  EXPECT_TRUE(store_->claim_mail_slot("kim@example.org", "confirm", at(3600), hour).value());
  EXPECT_FALSE(store_->claim_mail_slot("kim@example.org", "confirm", at(3601), hour).value());
}

LONGREAD_STORE_BACKENDS(OutboxStoreTest);

}  // namespace
}  // namespace longread::storage
