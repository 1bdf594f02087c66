// The NewsletterStore role (storage/roles/newsletter_store.h) on PostgreSQL.
#pragma once

#include "storage/postgres/database.h"
#include "storage/roles/newsletter_store.h"

namespace longread::storage::postgres {

class PgNewsletterStore : public virtual NewsletterStore {
 public:
  explicit PgNewsletterStore(Database& db) noexcept : db_(db) {}

  Result<Subscriber> add_subscriber(std::string_view email, TimePoint now) override;
  Result<bool> confirm_subscriber(std::string_view email, TimePoint now) override;
  Result<bool> unsubscribe(std::string_view email, TimePoint now) override;
  Result<std::vector<Subscriber>> confirmed_subscribers() override;
  Result<void> record_subscriber_error(std::int64_t subscriber_id, std::string_view error,
                                       TimePoint now) override;
  Result<NewsletterIssue> newsletter_issue(std::string_view key, const std::vector<std::int64_t>& article_ids,
                                           TimePoint now) override;
  Result<bool> claim_delivery(std::int64_t issue_id, std::int64_t subscriber_id, TimePoint now) override;
  Result<void> finish_delivery(std::int64_t issue_id, std::int64_t subscriber_id, DeliveryState state,
                               std::string_view error, TimePoint now) override;
  Result<std::int64_t> count_deliveries(std::int64_t issue_id, DeliveryState state) override;

 private:
  Database& db_;
};

}  // namespace longread::storage::postgres
