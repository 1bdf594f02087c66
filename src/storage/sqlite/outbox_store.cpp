// The SQLite side of OutboxStore: the account-mail outbox (migration 0013).
#include "storage/sqlite/sqlite_store.h"

#include <optional>
#include <vector>

#include "storage/sqlite/query_helpers.h"

namespace longread::storage::sqlite {
namespace {

// Account-mail outbox (migration 0013).
#define LONGREAD_OUTBOX_COLUMNS \
  "id, kind, recipient, message, created_at, not_after, attempts, next_attempt_at, last_error"
constexpr const char* kInsertOutboxMail =
    "INSERT INTO mail_outbox (kind, recipient, message, created_at, not_after, next_attempt_at)"
    " VALUES (:kind, :recipient, :message, :created_at, :not_after, :next_attempt_at)";
constexpr const char* kSelectDueMails = "SELECT " LONGREAD_OUTBOX_COLUMNS
                                        " FROM mail_outbox WHERE next_attempt_at <= :now AND not_after > :now"
                                        " ORDER BY next_attempt_at, id LIMIT :limit";
constexpr const char* kClaimMail =
    "UPDATE mail_outbox SET attempts = attempts + 1, next_attempt_at = :lease_until WHERE id = :id";
constexpr const char* kDeleteMail = "DELETE FROM mail_outbox WHERE id = :id";
constexpr const char* kMarkMailFailed =
    "UPDATE mail_outbox SET last_error = :error, next_attempt_at = :next_attempt_at WHERE id = :id";
constexpr const char* kSelectExpiredMails =
    "SELECT " LONGREAD_OUTBOX_COLUMNS " FROM mail_outbox WHERE not_after <= :now ORDER BY id";
constexpr const char* kDeleteExpiredMails = "DELETE FROM mail_outbox WHERE not_after <= :now";
constexpr const char* kSelectOutboxMails = "SELECT " LONGREAD_OUTBOX_COLUMNS " FROM mail_outbox ORDER BY id";
constexpr const char* kSelectNextMailDue = "SELECT MIN(next_attempt_at) FROM mail_outbox";
// `mail retry`: MIN keeps a mail already due as it is; UPDATE counts every row it matched, changed or not.
constexpr const char* kRetryMail =
    "UPDATE mail_outbox SET next_attempt_at = MIN(next_attempt_at, :now) WHERE id = :id";
constexpr const char* kRetryAllMails = "UPDATE mail_outbox SET next_attempt_at = MIN(next_attempt_at, :now)";

// A row of a query over LONGREAD_OUTBOX_COLUMNS.
OutboxMail read_outbox_mail(const Query& q) {
  return {.id = q.int64(0),
          .kind = q.text(1),
          .recipient = q.text(2),
          .message = q.text(3),
          .created_at = from_unix(q.int64(4)),
          .not_after = from_unix(q.int64(5)),
          .attempts = q.integer(6),
          .next_attempt_at = from_unix(q.int64(7)),
          .last_error = q.text(8)};
}

}  // namespace

// --- account-mail outbox (migration 0013)
Result<std::int64_t> SqliteStore::enqueue_mail(const OutboxMail& mail) {
  return with_writer([&](Connection& db) {
    return run_insert(db, kInsertOutboxMail, "cannot queue mail", [&](Query& q) {
      q.bind(":kind", mail.kind).bind(":recipient", mail.recipient).bind(":message", mail.message);
      q.bind(":created_at", to_unix(mail.created_at)).bind(":not_after", to_unix(mail.not_after));
      q.bind(":next_attempt_at", to_unix(mail.next_attempt_at));
    });
  });
}

Result<std::vector<OutboxMail>> SqliteStore::claim_due_mails(TimePoint now, TimePoint lease_until,
                                                             int limit) {
  constexpr std::string_view kFailed = "cannot claim mail";
  return in_write_transaction(kFailed, [&](Connection& db) -> Result<std::vector<OutboxMail>> {
    auto claimed = read_rows(
        db, kSelectDueMails, kFailed, [&](Query& q) { q.bind(":now", to_unix(now)).bind(":limit", limit); },
        read_outbox_mail);
    if (!claimed) return claimed;
    for (auto& mail : *claimed) {
      auto ok = run(db, kClaimMail, kFailed,
                    [&](Query& q) { q.bind(":lease_until", to_unix(lease_until)).bind(":id", mail.id); });
      if (!ok) return std::unexpected(ok.error());
      ++mail.attempts;
      mail.next_attempt_at = lease_until;
    }
    return claimed;
  });
}

Result<bool> SqliteStore::delete_mail(std::int64_t id) {
  return write_changes(kDeleteMail, "cannot delete mail", [&](Query& q) { q.bind(":id", id); });
}

Result<void> SqliteStore::mark_mail_failed(std::int64_t id, std::string_view error,
                                           TimePoint next_attempt_at) {
  return write_one(kMarkMailFailed, "cannot record mail failure", [&](Query& q) {
    q.bind(":error", error).bind(":next_attempt_at", to_unix(next_attempt_at)).bind(":id", id);
  });
}

Result<std::vector<OutboxMail>> SqliteStore::drop_expired_mails(TimePoint now) {
  constexpr std::string_view kFailed = "cannot drop expired mail";
  const auto bind_now = [&](Query& q) { q.bind(":now", to_unix(now)); };
  return with_writer([&](Connection& db) -> Result<std::vector<OutboxMail>> {
    // Not in_transaction: with nothing expired, nothing is written and the transaction just rolls back.
    auto tx = Transaction::begin(db);
    if (!tx) return db_error(kFailed, tx.error());
    auto expired = read_rows(db, kSelectExpiredMails, kFailed, bind_now, read_outbox_mail);
    if (!expired || expired->empty()) return expired;
    if (auto ok = run(db, kDeleteExpiredMails, kFailed, bind_now); !ok) return std::unexpected(ok.error());
    if (auto ok = tx->commit(); !ok) return db_error(kFailed, ok.error());
    return expired;
  });
}

Result<std::vector<OutboxMail>> SqliteStore::outbox_mails() {
  return with_reader([](Connection& db) {
    return read_rows(
        db, kSelectOutboxMails, "cannot list queued mail", [](Query&) {}, read_outbox_mail);
  });
}

Result<int> SqliteStore::retry_mails(std::optional<std::int64_t> id, TimePoint now) {
  return with_writer([&](Connection& db) {
    return run_changes(db, id ? kRetryMail : kRetryAllMails, "cannot retry mail", [&](Query& q) {
      q.bind(":now", to_unix(now));
      if (id) q.bind(":id", *id);
    });
  });
}

Result<std::optional<TimePoint>> SqliteStore::next_mail_due() {
  return with_reader([](Connection& db) {
    return read_one(
        db, kSelectNextMailDue, "cannot read queued mail", [](Query&) {},
        [](const Query& q) { return optional_time(q, 0); });
  });
}

}  // namespace longread::storage::sqlite
