// `longread mail queue / retry / drop` end to end: the real binary on a real SQLite file whose outbox the
// test fills through the Store, as serve's site would, and reads back afterwards.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "storage/store.h"
#include "testing/command.h"
#include "testing/test_dir.h"

namespace {
namespace fs = std::filesystem;
using longread::TimePoint;
using longread::storage::OutboxMail;
using ::testing::ContainsRegex;
using ::testing::HasSubstr;
using ::testing::Not;
using Outcome = longread::testing::CommandOutcome;

// A row of `mail queue` begins with its mail's id, right-aligned.
bool is_row_of(const std::string& row, std::int64_t id) {
  const auto first = row.find_first_not_of(' ');
  return first != std::string::npos && row.substr(first).starts_with(std::to_string(id) + "  ");
}

class MailCmdTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = longread::testing::fresh_test_dir("longread_mail_cmd");
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Runs `longread --db DIR/t.db ARGS`, stdout and stderr apart.
  Outcome longread(const std::string& args) {
    return longread::testing::run_command(
        std::string(LONGREAD_BINARY_DIR "/src/app/longread --db ") + (dir_ / "t.db").string() + " " + args,
        dir_ / "stderr");
  }

  std::unique_ptr<longread::storage::Store> open() {
    auto store = longread::storage::open_sqlite_store((dir_ / "t.db").string());
    EXPECT_TRUE(store) << store.error().message;
    return store ? std::move(*store) : nullptr;
  }

  // Queues a mail as the outbox does: due at `next_attempt_at`, with `attempts` failed tries and their error.
  std::int64_t queue(const std::string& kind, const std::string& to, TimePoint created, TimePoint not_after,
                     TimePoint next_attempt_at, int attempts = 0, const std::string& error = "") {
    auto store = open();
    if (!store) return 0;
    auto id = store->enqueue_mail({.kind = kind,
                                   .recipient = to,
                                   .message = "To: " + to + "\r\n\r\nhttps://longread.test/confirm?sig=x\r\n",
                                   .created_at = created,
                                   .not_after = not_after,
                                   .next_attempt_at = created});
    EXPECT_TRUE(id) << id.error().message;
    if (!id) return 0;
    EXPECT_TRUE(attempts > 0 || next_attempt_at == created);
    for (int i = 0; i < attempts; ++i) {
      // Each failed try as the sender records it: claimed (attempts + 1), then the error and the next
      // attempt. The tests queue mails so that only this one is due at its creation time.
      auto claimed = store->claim_due_mails(created, created + std::chrono::seconds(120), 100);
      EXPECT_TRUE(claimed && claimed->size() == 1 && claimed->front().id == *id);
      EXPECT_TRUE(store->mark_mail_failed(*id, error, i + 1 < attempts ? created : next_attempt_at));
    }
    return *id;
  }

  std::vector<OutboxMail> queued() {
    auto store = open();
    if (!store) return {};
    auto mails = store->outbox_mails();
    EXPECT_TRUE(mails) << mails.error().message;
    return mails.value_or(std::vector<OutboxMail>{});
  }

  fs::path dir_;
};

TEST_F(MailCmdTest, EmptyQueueSaysSo) {
  open();  // a database with the outbox table and nothing in it
  const auto listed = longread("mail queue");
  ASSERT_EQ(listed.status, 0) << listed.err;
  EXPECT_EQ(listed.out, "no mail queued\n");
  const auto retried = longread("mail retry");
  ASSERT_EQ(retried.status, 0) << retried.err;
  EXPECT_EQ(retried.out, "no mail queued\n");
}

TEST_F(MailCmdTest, QueueShowsEachMailWithDomainOnly) {
  const TimePoint now = longread::now_seconds();
  const TimePoint created = longread::from_unix(1'700'000'000);  // 2023-11-14 22:13:20 UTC
  // Waiting out its backoff (4 min 50 s away: "in 4 min" unless the binary takes 50 s to start), its link
  // good for 47 h more; the SMTP reply quotes the address, and is longer than the column.
  const std::string long_error =
      "mail: RCPT failed: 451 4.7.1 <kim@example.org>: greylisted, please try again later, this reply goes "
      "on and on (SMTP reply 451)";
  const auto kim =
      queue("confirm", "kim@example.org", created, now + std::chrono::hours(47) + std::chrono::minutes(30),
            now + std::chrono::seconds(290), 3, long_error);
  // Due now, never tried; the newsletter's double opt-in.
  const auto lee =
      queue("newsletter", "lee@mail.example.net", created, now + std::chrono::hours(48), created);
  // Its link has expired: serve drops it at its next pass.
  const auto old = queue("reset", "old@example.com", created, now - std::chrono::minutes(5), created);
  ASSERT_TRUE(kim && lee && old);

  const auto listed = longread("mail queue");
  ASSERT_EQ(listed.status, 0) << listed.err;
  const std::string& out = listed.out;
  EXPECT_THAT(out, HasSubstr("id"));
  EXPECT_THAT(out, HasSubstr("next attempt"));
  EXPECT_THAT(out, HasSubstr("last error"));
  EXPECT_THAT(out, Not(HasSubstr("kim@example.org"))) << out;
  EXPECT_THAT(out, Not(HasSubstr("lee@mail.example.net"))) << out;
  EXPECT_THAT(out, Not(HasSubstr("old@example.com"))) << out;
  EXPECT_THAT(out, HasSubstr("3 mails queued\n"));

  // One row per mail, in id order, found by its id at the start of the line.
  std::vector<std::string> rows;
  for (std::size_t start = 0, end; (end = out.find('\n', start)) != std::string::npos; start = end + 1)
    rows.push_back(out.substr(start, end - start));
  ASSERT_EQ(rows.size(), 5u) << out;  // header, three mails, the count
  EXPECT_TRUE(is_row_of(rows[1], kim)) << rows[1];
  EXPECT_TRUE(is_row_of(rows[2], lee)) << rows[2];
  EXPECT_TRUE(is_row_of(rows[3], old)) << rows[3];

  // kim: kind, masked recipient, created, 3 attempts, next attempt, expiry, the error masked and cut.
  EXPECT_THAT(rows[1], HasSubstr(" confirm "));
  EXPECT_THAT(rows[1], HasSubstr(" *@example.org "));
  EXPECT_THAT(rows[1], HasSubstr(" 2023-11-14 22:13 "));
  EXPECT_THAT(rows[1], HasSubstr(" 3  in 4 min "));
  EXPECT_THAT(rows[1], HasSubstr(" in 47 h "));
  EXPECT_THAT(rows[1], HasSubstr("mail: RCPT failed: 451 4.7.1 <*@example.org>: greylisted"));
  EXPECT_THAT(rows[1], Not(HasSubstr("on and on")));  // truncated
  EXPECT_TRUE(rows[1].ends_with("~")) << rows[1];
  // lee: due now, never tried, no error yet.
  EXPECT_THAT(rows[2], HasSubstr(" newsletter "));
  EXPECT_THAT(rows[2], HasSubstr(" *@mail.example.net "));
  EXPECT_THAT(rows[2], HasSubstr(" 0  now "));
  EXPECT_TRUE(rows[2].ends_with(" -")) << rows[2];
  // old: expired, so no next attempt.
  EXPECT_THAT(rows[3], HasSubstr(" reset "));
  EXPECT_THAT(rows[3], HasSubstr("  -  "));
  EXPECT_THAT(rows[3], HasSubstr(" expired "));
}

TEST_F(MailCmdTest, RetryMakesMailDueNowAndDropDeletesIt) {
  const TimePoint now = longread::now_seconds();
  const auto kim = queue("confirm", "kim@example.org", now - std::chrono::minutes(10),
                         now + std::chrono::hours(40), now + std::chrono::minutes(30), 5,
                         "mail: Failed to connect to 127.0.0.1 port 2525 (SMTP reply 0)");
  const auto lee =
      queue("reset", "lee@example.org", now - std::chrono::minutes(10), now + std::chrono::hours(1),
            now + std::chrono::minutes(20), 4, "mail: Failed to connect (SMTP reply 0)");
  ASSERT_TRUE(kim && lee);
  const auto waiting = queued();
  ASSERT_EQ(waiting.size(), 2u);
  ASSERT_GT(waiting[0].next_attempt_at, now + std::chrono::minutes(29));

  // One mail: it is due now, the other still waits.
  const auto one = longread("mail retry " + std::to_string(kim));
  ASSERT_EQ(one.status, 0) << one.err;
  EXPECT_THAT(one.out, HasSubstr("mail " + std::to_string(kim) + " (confirm to *@example.org) is due now"));
  EXPECT_THAT(one.out, HasSubstr("within 60 s"));
  EXPECT_THAT(one.out, Not(HasSubstr("kim@example.org")));
  auto after = queued();
  ASSERT_EQ(after.size(), 2u);
  EXPECT_LE(after[0].next_attempt_at, longread::now_seconds());
  EXPECT_EQ(after[0].attempts, 5);  // the history stays: attempts and last error
  EXPECT_EQ(after[0].last_error, "mail: Failed to connect to 127.0.0.1 port 2525 (SMTP reply 0)");
  EXPECT_EQ(after[1].next_attempt_at, waiting[1].next_attempt_at);
  const auto listed = longread("mail queue");
  ASSERT_EQ(listed.status, 0) << listed.err;
  EXPECT_THAT(listed.out, HasSubstr(" 5  now "));
  EXPECT_THAT(listed.out, ContainsRegex(" 4  in (19|20) min "));  // lee: still waiting

  // Every mail.
  const auto all = longread("mail retry");
  ASSERT_EQ(all.status, 0) << all.err;
  EXPECT_THAT(all.out, HasSubstr("2 mails are due now"));
  for (const auto& m : queued()) EXPECT_LE(m.next_attempt_at, longread::now_seconds()) << m.id;

  // Drop: gone from the outbox and from the table; the other stays.
  const auto dropped = longread("mail drop " + std::to_string(kim));
  ASSERT_EQ(dropped.status, 0) << dropped.err;
  EXPECT_THAT(dropped.out, HasSubstr("dropped mail " + std::to_string(kim) + " (confirm to *@example.org)"));
  const auto rest = queued();
  ASSERT_EQ(rest.size(), 1u);
  EXPECT_EQ(rest[0].id, lee);
  const auto listed_after = longread("mail queue");
  ASSERT_EQ(listed_after.status, 0) << listed_after.err;
  EXPECT_THAT(listed_after.out, HasSubstr("1 mail queued\n"));
  EXPECT_THAT(listed_after.out, Not(HasSubstr(" confirm ")));
}

TEST_F(MailCmdTest, UnknownIdIsAnErrorAndChangesNothing) {
  const TimePoint now = longread::now_seconds();
  const auto kim = queue("confirm", "kim@example.org", now, now + std::chrono::hours(48),
                         now + std::chrono::minutes(30), 1, "mail: (SMTP reply 451)");
  ASSERT_TRUE(kim);
  const auto before = queued();
  for (const std::string command : {"mail retry ", "mail drop "}) {
    const auto outcome = longread(command + std::to_string(kim + 1));
    EXPECT_EQ(outcome.status, 1) << command << outcome.out;
    EXPECT_THAT(outcome.err, HasSubstr("no mail " + std::to_string(kim + 1) + " in the queue")) << command;
    EXPECT_EQ(outcome.out, "") << command;
  }
  const auto after = queued();
  ASSERT_EQ(after.size(), 1u);
  EXPECT_EQ(after[0].next_attempt_at, before[0].next_attempt_at);

  // A mail dropped once is unknown the second time.
  ASSERT_EQ(longread("mail drop " + std::to_string(kim)).status, 0);
  const auto twice = longread("mail drop " + std::to_string(kim));
  EXPECT_EQ(twice.status, 1);
  EXPECT_THAT(twice.err, HasSubstr("no mail " + std::to_string(kim) + " in the queue"));
  // `mail drop` needs an id.
  EXPECT_NE(longread("mail drop").status, 0);
}

}  // namespace
