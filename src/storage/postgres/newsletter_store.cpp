#include "storage/postgres/newsletter_store.h"

namespace longread::storage::postgres {

Result<Subscriber> PgNewsletterStore::add_subscriber(std::string_view email, TimePoint now) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL NewsletterStore::add_subscriber is not written yet");
}

Result<bool> PgNewsletterStore::confirm_subscriber(std::string_view email, TimePoint now) {
  return fail(ErrorKind::kInternal,
              "store: PostgreSQL NewsletterStore::confirm_subscriber is not written yet");
}

Result<bool> PgNewsletterStore::unsubscribe(std::string_view email, TimePoint now) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL NewsletterStore::unsubscribe is not written yet");
}

Result<std::vector<Subscriber>> PgNewsletterStore::confirmed_subscribers() {
  return fail(ErrorKind::kInternal,
              "store: PostgreSQL NewsletterStore::confirmed_subscribers is not written yet");
}

Result<void> PgNewsletterStore::record_subscriber_error(std::int64_t subscriber_id, std::string_view error,
                                                        TimePoint now) {
  return fail(ErrorKind::kInternal,
              "store: PostgreSQL NewsletterStore::record_subscriber_error is not written yet");
}

Result<NewsletterIssue> PgNewsletterStore::newsletter_issue(std::string_view key,
                                                            const std::vector<std::int64_t>& article_ids,
                                                            TimePoint now) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL NewsletterStore::newsletter_issue is not written yet");
}

Result<bool> PgNewsletterStore::claim_delivery(std::int64_t issue_id, std::int64_t subscriber_id,
                                               TimePoint now) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL NewsletterStore::claim_delivery is not written yet");
}

Result<void> PgNewsletterStore::finish_delivery(std::int64_t issue_id, std::int64_t subscriber_id,
                                                DeliveryState state, std::string_view error, TimePoint now) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL NewsletterStore::finish_delivery is not written yet");
}

Result<std::int64_t> PgNewsletterStore::count_deliveries(std::int64_t issue_id, DeliveryState state) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL NewsletterStore::count_deliveries is not written yet");
}

}  // namespace longread::storage::postgres
