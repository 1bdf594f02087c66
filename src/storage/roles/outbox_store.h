// The outbox role of the Store (migration 0013, docs/mail.md): account mails queued with a live link, claimed
// with a lease by the sender, deleted once sent, refused for good or expired.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "core/time.h"
#include "storage/types.h"

namespace longread::storage {

// The account-mail outbox. A row is due when next_attempt_at <= now < not_after.
// Every method is safe to call from several threads; implementations serialise as needed.
class OutboxStore {
 public:
  virtual ~OutboxStore() = default;

  // Queues a mail (one INSERT; id, attempts and last_error of `mail` are ignored) and returns its id.
  virtual Result<std::int64_t> enqueue_mail(const OutboxMail& mail) = 0;
  // Takes up to `limit` due mails, oldest due first, in one transaction: each one's attempts is counted
  // and its next_attempt_at moved to `lease_until`, so no other sender takes it meanwhile, and a sender
  // that dies mid-send hands it back when the lease runs out. Returned as they are after the claim.
  virtual Result<std::vector<OutboxMail>> claim_due_mails(TimePoint now, TimePoint lease_until,
                                                          int limit) = 0;
  // Deletes a mail: sent (the SMTP server accepted it), or refused for good. false when it was gone.
  virtual Result<bool> delete_mail(std::int64_t id) = 0;
  // After a temporary failure: records `error` and when to try again.
  virtual Result<void> mark_mail_failed(std::int64_t id, std::string_view error,
                                        TimePoint next_attempt_at) = 0;
  // Deletes every mail whose link has expired (not_after <= now) and returns them (for the log).
  virtual Result<std::vector<OutboxMail>> drop_expired_mails(TimePoint now) = 0;
  // Every queued mail, by id (for tests and the operator).
  virtual Result<std::vector<OutboxMail>> outbox_mails() = 0;
  // The earliest next_attempt_at of any queued mail, nullopt when the outbox is empty.
  virtual Result<std::optional<TimePoint>> next_mail_due() = 0;
  // The operator's `mail retry`: makes the queued mail `id` (nullopt: every queued mail) due at `now`,
  // moving no mail's next attempt later. Returns how many mails it matched (0: no mail `id` is queued).
  virtual Result<int> retry_mails(std::optional<std::int64_t> id, TimePoint now) = 0;
};

}  // namespace longread::storage
