#include "storage/postgres/outbox_store.h"

namespace longread::storage::postgres {

Result<std::int64_t> PgOutboxStore::enqueue_mail(const OutboxMail& mail) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL OutboxStore::enqueue_mail is not written yet");
}

Result<std::vector<OutboxMail>> PgOutboxStore::claim_due_mails(TimePoint now, TimePoint lease_until,
                                                               int limit) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL OutboxStore::claim_due_mails is not written yet");
}

Result<bool> PgOutboxStore::delete_mail(std::int64_t id) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL OutboxStore::delete_mail is not written yet");
}

Result<void> PgOutboxStore::mark_mail_failed(std::int64_t id, std::string_view error,
                                             TimePoint next_attempt_at) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL OutboxStore::mark_mail_failed is not written yet");
}

Result<std::vector<OutboxMail>> PgOutboxStore::drop_expired_mails(TimePoint now) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL OutboxStore::drop_expired_mails is not written yet");
}

Result<std::vector<OutboxMail>> PgOutboxStore::outbox_mails() {
  return fail(ErrorKind::kInternal, "store: PostgreSQL OutboxStore::outbox_mails is not written yet");
}

Result<std::optional<TimePoint>> PgOutboxStore::next_mail_due() {
  return fail(ErrorKind::kInternal, "store: PostgreSQL OutboxStore::next_mail_due is not written yet");
}

Result<int> PgOutboxStore::retry_mails(std::optional<std::int64_t> id, TimePoint now) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL OutboxStore::retry_mails is not written yet");
}

}  // namespace longread::storage::postgres
