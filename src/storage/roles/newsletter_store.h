// The newsletter role of the Store: subscribers (double opt-in), weekly issues and each recipient's
// delivery, claimed before its SMTP transaction so a resumed send never mails an address twice
// (docs/mail.md).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "core/time.h"
#include "storage/types.h"

namespace longread::storage {

// Newsletter subscribers, issues and deliveries.
// Every method is safe to call from several threads; implementations serialise as needed.
class NewsletterStore {
 public:
  virtual ~NewsletterStore() = default;

  // Newsletter subscribers. add_subscriber is idempotent (an existing address keeps its state; a
  // previously unsubscribed one becomes pending again).
  virtual Result<Subscriber> add_subscriber(std::string_view email, TimePoint now) = 0;
  // false when there is no such (subscribed) address.
  virtual Result<bool> confirm_subscriber(std::string_view email, TimePoint now) = 0;
  virtual Result<bool> unsubscribe(std::string_view email, TimePoint now) = 0;
  virtual Result<std::vector<Subscriber>> confirmed_subscribers() = 0;
  virtual Result<void> record_subscriber_error(std::int64_t subscriber_id, std::string_view error,
                                               TimePoint now) = 0;
  // The issue with this key, created with `article_ids` when it does not exist yet.
  virtual Result<NewsletterIssue> newsletter_issue(std::string_view key,
                                                   const std::vector<std::int64_t>& article_ids,
                                                   TimePoint now) = 0;
  // Takes the right to send `issue_id` to `subscriber_id`: true (and state "sending" committed) when it
  // was never attempted or is waiting for a retry; false when it is sent, failed or was being sent.
  virtual Result<bool> claim_delivery(std::int64_t issue_id, std::int64_t subscriber_id, TimePoint now) = 0;
  virtual Result<void> finish_delivery(std::int64_t issue_id, std::int64_t subscriber_id, DeliveryState state,
                                       std::string_view error, TimePoint now) = 0;
  // Count of deliveries of an issue in `state`.
  virtual Result<std::int64_t> count_deliveries(std::int64_t issue_id, DeliveryState state) = 0;
};

}  // namespace longread::storage
