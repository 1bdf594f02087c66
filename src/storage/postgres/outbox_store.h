// The OutboxStore role (storage/roles/outbox_store.h) on PostgreSQL.
#pragma once

#include "storage/postgres/database.h"
#include "storage/roles/outbox_store.h"

namespace longread::storage::postgres {

class PgOutboxStore : public virtual OutboxStore {
 public:
  explicit PgOutboxStore(Database& db) noexcept : db_(db) {}

  Result<std::int64_t> enqueue_mail(const OutboxMail& mail) override;
  Result<std::vector<OutboxMail>> claim_due_mails(TimePoint now, TimePoint lease_until, int limit) override;
  Result<bool> delete_mail(std::int64_t id) override;
  Result<void> mark_mail_failed(std::int64_t id, std::string_view error, TimePoint next_attempt_at) override;
  Result<std::vector<OutboxMail>> drop_expired_mails(TimePoint now) override;
  Result<std::vector<OutboxMail>> outbox_mails() override;
  Result<std::optional<TimePoint>> next_mail_due() override;
  Result<int> retry_mails(std::optional<std::int64_t> id, TimePoint now) override;

 private:
  Database& db_;
};

}  // namespace longread::storage::postgres
