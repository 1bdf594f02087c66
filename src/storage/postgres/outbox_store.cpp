#include "storage/postgres/outbox_store.h"

#include <algorithm>

#include "storage/postgres/statement.h"

namespace longread::storage::postgres {
namespace {

// Account-mail outbox (migration 0013).
#define LONGREAD_OUTBOX_COLUMNS \
  "id, kind, recipient, message, created_at, not_after, attempts, next_attempt_at, last_error"
constexpr const char* kInsertOutboxMail =
    "INSERT INTO mail_outbox (kind, recipient, message, created_at, not_after, next_attempt_at)"
    " VALUES (:kind, :recipient, :message, :created_at, :not_after, :next_attempt_at) RETURNING id";
// The due mails, leased in one statement: SKIP LOCKED passes over mails another sender is claiming at this
// moment, so two senders never both start the same mail. A NULL limit is no limit.
constexpr const char* kClaimDueMails =
    "WITH due AS (SELECT id, next_attempt_at AS due_at FROM mail_outbox"
    "  WHERE next_attempt_at <= :now AND not_after > :now ORDER BY next_attempt_at, id LIMIT :limit"
    "  FOR UPDATE SKIP LOCKED),"
    " claimed AS (UPDATE mail_outbox m SET attempts = m.attempts + 1, next_attempt_at = :lease_until"
    "  FROM due WHERE m.id = due.id"
    "  RETURNING m.id, m.kind, m.recipient, m.message, m.created_at, m.not_after, m.attempts,"
    "  m.next_attempt_at, m.last_error, due.due_at)"
    " SELECT " LONGREAD_OUTBOX_COLUMNS " FROM claimed ORDER BY due_at, id";
constexpr const char* kDeleteMail = "DELETE FROM mail_outbox WHERE id = :id";
constexpr const char* kMarkMailFailed =
    "UPDATE mail_outbox SET last_error = :error, next_attempt_at = :next_attempt_at WHERE id = :id";
constexpr const char* kDropExpiredMails =
    "WITH gone AS (DELETE FROM mail_outbox WHERE not_after <= :now RETURNING " LONGREAD_OUTBOX_COLUMNS
    ") SELECT " LONGREAD_OUTBOX_COLUMNS " FROM gone ORDER BY id";
constexpr const char* kSelectOutboxMails = "SELECT " LONGREAD_OUTBOX_COLUMNS " FROM mail_outbox ORDER BY id";
constexpr const char* kSelectNextMailDue = "SELECT MIN(next_attempt_at) FROM mail_outbox";
// `mail retry`: LEAST keeps a mail already due as it is; UPDATE counts every row it matched, changed or not.
constexpr const char* kRetryMail =
    "UPDATE mail_outbox SET next_attempt_at = LEAST(next_attempt_at, :now) WHERE id = :id";
constexpr const char* kRetryAllMails =
    "UPDATE mail_outbox SET next_attempt_at = LEAST(next_attempt_at, :now)";
#undef LONGREAD_OUTBOX_COLUMNS

// The rows of a statement over LONGREAD_OUTBOX_COLUMNS.
std::vector<OutboxMail> read_outbox_mails(const Rows& rows) {
  std::vector<OutboxMail> out;
  out.reserve(static_cast<std::size_t>(rows.size()));
  for (int r = 0; r < rows.size(); ++r) {
    out.push_back({.id = rows.int64(r, 0),
                   .kind = rows.string(r, 1),
                   .recipient = rows.string(r, 2),
                   .message = rows.string(r, 3),
                   .created_at = rows.time(r, 4),
                   .not_after = rows.time(r, 5),
                   .attempts = rows.int32(r, 6),
                   .next_attempt_at = rows.time(r, 7),
                   .last_error = rows.string(r, 8)});
  }
  return out;
}

}  // namespace

Result<std::int64_t> PgOutboxStore::enqueue_mail(const OutboxMail& mail) {
  auto rows = run_pooled(db_.pool(), kInsertOutboxMail, "cannot queue mail", [&](Query& q) {
    q.bind(":kind", mail.kind).bind(":recipient", mail.recipient).bind(":message", mail.message);
    q.bind(":created_at", mail.created_at).bind(":not_after", mail.not_after);
    q.bind(":next_attempt_at", mail.next_attempt_at);
  });
  if (!rows) return std::unexpected(rows.error());
  return rows->int64(0, 0);
}

Result<std::vector<OutboxMail>> PgOutboxStore::claim_due_mails(TimePoint now, TimePoint lease_until,
                                                               int limit) {
  auto rows = run_pooled(db_.pool(), kClaimDueMails, "cannot claim mail", [&](Query& q) {
    q.bind(":now", now).bind(":lease_until", lease_until).bind(":limit", sql_limit(limit));
  });
  if (!rows) return std::unexpected(rows.error());
  return read_outbox_mails(*rows);
}

Result<bool> PgOutboxStore::delete_mail(std::int64_t id) {
  auto rows = run_pooled(db_.pool(), kDeleteMail, "cannot delete mail", [&](Query& q) { q.bind(":id", id); });
  if (!rows) return std::unexpected(rows.error());
  return rows->affected() > 0;
}

Result<void> PgOutboxStore::mark_mail_failed(std::int64_t id, std::string_view error,
                                             TimePoint next_attempt_at) {
  auto rows = run_pooled(db_.pool(), kMarkMailFailed, "cannot record mail failure", [&](Query& q) {
    q.bind(":error", error).bind(":next_attempt_at", next_attempt_at).bind(":id", id);
  });
  if (!rows) return std::unexpected(rows.error());
  return {};
}

Result<std::vector<OutboxMail>> PgOutboxStore::drop_expired_mails(TimePoint now) {
  auto rows = run_pooled(db_.pool(), kDropExpiredMails, "cannot drop expired mail",
                         [&](Query& q) { q.bind(":now", now); });
  if (!rows) return std::unexpected(rows.error());
  return read_outbox_mails(*rows);
}

Result<std::vector<OutboxMail>> PgOutboxStore::outbox_mails() {
  auto rows = run_pooled(db_.pool(), kSelectOutboxMails, "cannot list queued mail");
  if (!rows) return std::unexpected(rows.error());
  return read_outbox_mails(*rows);
}

Result<std::optional<TimePoint>> PgOutboxStore::next_mail_due() {
  auto rows = run_pooled(db_.pool(), kSelectNextMailDue, "cannot read queued mail");
  if (!rows) return std::unexpected(rows.error());
  return rows->optional_time(0, 0);
}

Result<int> PgOutboxStore::retry_mails(std::optional<std::int64_t> id, TimePoint now) {
  auto rows = run_pooled(db_.pool(), id ? kRetryMail : kRetryAllMails, "cannot retry mail", [&](Query& q) {
    q.bind(":now", now);
    if (id) q.bind(":id", *id);
  });
  if (!rows) return std::unexpected(rows.error());
  return static_cast<int>(rows->affected());
}

}  // namespace longread::storage::postgres
