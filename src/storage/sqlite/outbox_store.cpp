// The SQLite side of OutboxStore: the account-mail outbox (migration 0013).
#include "storage/sqlite/sqlite_store.h"

#include <mutex>
#include <optional>
#include <vector>

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

// The rows of a query over LONGREAD_OUTBOX_COLUMNS.
Result<std::vector<OutboxMail>> read_outbox_mails(Query& q) {
  std::vector<OutboxMail> out;
  for (;;) {
    auto row = q.step();
    if (!row) return std::unexpected(row.error());
    if (!*row) break;
    out.push_back({.id = q.int64(0),
                   .kind = q.text(1),
                   .recipient = q.text(2),
                   .message = q.text(3),
                   .created_at = from_unix(q.int64(4)),
                   .not_after = from_unix(q.int64(5)),
                   .attempts = q.integer(6),
                   .next_attempt_at = from_unix(q.int64(7)),
                   .last_error = q.text(8)});
  }
  return out;
}

}  // namespace

// --- account-mail outbox (migration 0013)
Result<std::int64_t> SqliteStore::enqueue_mail(const OutboxMail& mail) {
  std::lock_guard lock(writer_mutex_);
  auto q = writer_->query(kInsertOutboxMail);
  if (!q) return db_error("cannot queue mail", q.error());
  q->bind(":kind", mail.kind).bind(":recipient", mail.recipient).bind(":message", mail.message);
  q->bind(":created_at", to_unix(mail.created_at)).bind(":not_after", to_unix(mail.not_after));
  q->bind(":next_attempt_at", to_unix(mail.next_attempt_at));
  if (auto ok = q->run(); !ok) return db_error("cannot queue mail", ok.error());
  return writer_->last_insert_rowid();
}

Result<std::vector<OutboxMail>> SqliteStore::claim_due_mails(TimePoint now, TimePoint lease_until,
                                                             int limit) {
  std::lock_guard lock(writer_mutex_);
  Connection& db = *writer_;
  auto tx = Transaction::begin(db);
  if (!tx) return db_error("cannot claim mail", tx.error());
  std::vector<OutboxMail> claimed;
  {
    auto q = db.query(kSelectDueMails);
    if (!q) return db_error("cannot claim mail", q.error());
    q->bind(":now", to_unix(now)).bind(":limit", limit);
    auto rows = read_outbox_mails(*q);
    if (!rows) return db_error("cannot claim mail", rows.error());
    claimed = std::move(*rows);
  }
  for (auto& mail : claimed) {
    auto q = db.query(kClaimMail);
    if (!q) return db_error("cannot claim mail", q.error());
    q->bind(":lease_until", to_unix(lease_until)).bind(":id", mail.id);
    if (auto ok = q->run(); !ok) return db_error("cannot claim mail", ok.error());
    ++mail.attempts;
    mail.next_attempt_at = lease_until;
  }
  if (auto ok = tx->commit(); !ok) return db_error("cannot claim mail", ok.error());
  return claimed;
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
  std::lock_guard lock(writer_mutex_);
  Connection& db = *writer_;
  auto tx = Transaction::begin(db);
  if (!tx) return db_error("cannot drop expired mail", tx.error());
  std::vector<OutboxMail> expired;
  {
    auto q = db.query(kSelectExpiredMails);
    if (!q) return db_error("cannot drop expired mail", q.error());
    q->bind(":now", to_unix(now));
    auto rows = read_outbox_mails(*q);
    if (!rows) return db_error("cannot drop expired mail", rows.error());
    expired = std::move(*rows);
  }
  if (expired.empty()) return expired;  // nothing written: the transaction just rolls back
  auto q = db.query(kDeleteExpiredMails);
  if (!q) return db_error("cannot drop expired mail", q.error());
  q->bind(":now", to_unix(now));
  if (auto ok = q->run(); !ok) return db_error("cannot drop expired mail", ok.error());
  if (auto ok = tx->commit(); !ok) return db_error("cannot drop expired mail", ok.error());
  return expired;
}

Result<std::vector<OutboxMail>> SqliteStore::outbox_mails() {
  auto db = readers_.acquire();
  if (!db) return std::unexpected(db.error());
  auto q = (*db)->query(kSelectOutboxMails);
  if (!q) return db_error("cannot list queued mail", q.error());
  auto rows = read_outbox_mails(*q);
  if (!rows) return db_error("cannot list queued mail", rows.error());
  return rows;
}

Result<int> SqliteStore::retry_mails(std::optional<std::int64_t> id, TimePoint now) {
  std::lock_guard lock(writer_mutex_);
  auto q = writer_->query(id ? kRetryMail : kRetryAllMails);
  if (!q) return db_error("cannot retry mail", q.error());
  q->bind(":now", to_unix(now));
  if (id) q->bind(":id", *id);
  if (auto ok = q->run(); !ok) return db_error("cannot retry mail", ok.error());
  return writer_->changes();
}

Result<std::optional<TimePoint>> SqliteStore::next_mail_due() {
  auto db = readers_.acquire();
  if (!db) return std::unexpected(db.error());
  auto q = (*db)->query(kSelectNextMailDue);
  if (!q) return db_error("cannot read queued mail", q.error());
  auto row = q->step();
  if (!row) return db_error("cannot read queued mail", row.error());
  return optional_time(*q, 0);
}

}  // namespace longread::storage::sqlite
