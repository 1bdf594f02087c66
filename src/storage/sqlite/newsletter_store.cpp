// The SQLite side of NewsletterStore: subscribers, issues and deliveries.
#include "storage/sqlite/sqlite_store.h"

#include <string>
#include <vector>

#include "core/strings.h"
#include "storage/sqlite/query_helpers.h"

namespace longread::storage::sqlite {
namespace {

constexpr const char* kUpsertSubscriber =
    "INSERT INTO subscribers (email, email_key, created_at) VALUES (:email, :email_key, :now)"
    " ON CONFLICT (email_key) DO UPDATE SET unsubscribed_at = NULL,"
    "  confirmed_at = CASE WHEN subscribers.unsubscribed_at IS NULL THEN subscribers.confirmed_at END"
    " RETURNING id, email, created_at, confirmed_at";
constexpr const char* kConfirmSubscriber =
    "UPDATE subscribers SET confirmed_at = COALESCE(confirmed_at, :now)"
    " WHERE email_key = :email_key AND unsubscribed_at IS NULL";
constexpr const char* kUnsubscribe =
    "UPDATE subscribers SET unsubscribed_at = :now, confirmed_at = NULL"
    " WHERE email_key = :email_key AND unsubscribed_at IS NULL";
// With the confirmed account of the same address (email_key, as accounts compare addresses), whose
// personal filters shape the subscriber's issue. Only a confirmed account: whoever signs up with someone
// else's address without confirming it cannot change what that subscriber receives.
constexpr const char* kSelectConfirmedSubscribers =
    "SELECT s.id, s.email, s.created_at, s.confirmed_at, r.id FROM subscribers s"
    " LEFT JOIN readers r ON r.email_key = s.email_key AND r.confirmed_at IS NOT NULL"
    " WHERE s.confirmed_at IS NOT NULL AND s.unsubscribed_at IS NULL ORDER BY s.id";
constexpr const char* kSetSubscriberError =
    "UPDATE subscribers SET last_error = :error, last_error_at = :now WHERE id = :id";
constexpr const char* kInsertIssue =
    "INSERT INTO newsletter_issues (issue_key, article_ids, created_at) VALUES (:key, :article_ids, :now)"
    " ON CONFLICT (issue_key) DO NOTHING";
constexpr const char* kSelectIssue =
    "SELECT id, issue_key, article_ids, created_at FROM newsletter_issues WHERE issue_key = :key";
constexpr const char* kSelectDeliveryState =
    "SELECT state FROM newsletter_deliveries WHERE issue_id = :issue_id AND subscriber_id = :subscriber_id";
constexpr const char* kClaimDelivery =
    "INSERT INTO newsletter_deliveries (issue_id, subscriber_id, state, attempts, updated_at)"
    " VALUES (:issue_id, :subscriber_id, 'sending', 1, :now)"
    " ON CONFLICT (issue_id, subscriber_id) DO UPDATE SET state = 'sending',"
    "  attempts = newsletter_deliveries.attempts + 1, updated_at = :now";
constexpr const char* kFinishDelivery =
    "UPDATE newsletter_deliveries SET state = :state, last_error = :error, updated_at = :now"
    " WHERE issue_id = :issue_id AND subscriber_id = :subscriber_id";
constexpr const char* kCountDeliveries =
    "SELECT COUNT(*) FROM newsletter_deliveries WHERE issue_id = :issue_id AND state = :state";

const char* delivery_state_name(DeliveryState state) {
  switch (state) {
    case DeliveryState::kSending:
      return "sending";
    case DeliveryState::kSent:
      return "sent";
    case DeliveryState::kRetry:
      return "retry";
    case DeliveryState::kFailed:
      return "failed";
  }
  return "sending";
}

Subscriber read_subscriber(const Query& q) {
  return {.id = q.int64(0),
          .email = q.text(1),
          .created_at = from_unix(q.int64(2)),
          .confirmed_at = optional_time(q, 3)};
}

}  // namespace

Result<Subscriber> SqliteStore::add_subscriber(std::string_view email, TimePoint now) {
  return with_writer([&](Connection& db) {
    return read_one(
        db, kUpsertSubscriber, "cannot add subscriber",
        [&](Query& q) {
          q.bind(":email", email).bind(":email_key", email_key(email)).bind(":now", to_unix(now));
        },
        read_subscriber);
  });
}

Result<bool> SqliteStore::confirm_subscriber(std::string_view email, TimePoint now) {
  return write_changes(kConfirmSubscriber, "cannot confirm subscriber",
                       [&](Query& q) { q.bind(":email_key", email_key(email)).bind(":now", to_unix(now)); });
}

Result<bool> SqliteStore::unsubscribe(std::string_view email, TimePoint now) {
  return write_changes(kUnsubscribe, "cannot unsubscribe",
                       [&](Query& q) { q.bind(":email_key", email_key(email)).bind(":now", to_unix(now)); });
}

Result<std::vector<Subscriber>> SqliteStore::confirmed_subscribers() {
  return with_reader([](Connection& db) {
    return read_rows(
        db, kSelectConfirmedSubscribers, "cannot list subscribers", [](Query&) {},
        [](const Query& q) {
          Subscriber subscriber = read_subscriber(q);
          subscriber.reader_id = q.optional_int64(4);
          return subscriber;
        });
  });
}

Result<void> SqliteStore::record_subscriber_error(std::int64_t subscriber_id, std::string_view error,
                                                  TimePoint now) {
  return write_one(kSetSubscriberError, "cannot record delivery error", [&](Query& q) {
    q.bind(":error", error).bind(":now", to_unix(now)).bind(":id", subscriber_id);
  });
}

Result<NewsletterIssue> SqliteStore::newsletter_issue(std::string_view key,
                                                      const std::vector<std::int64_t>& article_ids,
                                                      TimePoint now) {
  constexpr std::string_view kFailed = "cannot create issue";
  return in_write_transaction(kFailed, [&](Connection& db) -> Result<NewsletterIssue> {
    std::string ids;
    for (const auto id : article_ids) ids += (ids.empty() ? "" : ",") + std::to_string(id);
    auto inserted = run(db, kInsertIssue, kFailed, [&](Query& q) {
      q.bind(":key", key).bind(":article_ids", ids).bind(":now", to_unix(now));
    });
    if (!inserted) return std::unexpected(inserted.error());
    return read_one(
        db, kSelectIssue, kFailed, [&](Query& q) { q.bind(":key", key); },
        [](const Query& q) {
          NewsletterIssue issue;
          issue.id = q.int64(0);
          issue.key = q.text(1);
          const std::string stored_ids = q.text(2);
          for (const std::string_view id : split(stored_ids, ',')) {
            if (!id.empty()) issue.article_ids.push_back(std::stoll(std::string(id)));
          }
          issue.created_at = from_unix(q.int64(3));
          return issue;
        });
  });
}

Result<bool> SqliteStore::claim_delivery(std::int64_t issue_id, std::int64_t subscriber_id, TimePoint now) {
  constexpr std::string_view kFailed = "cannot claim delivery";
  return with_writer([&](Connection& db) -> Result<bool> {
    // Not in_transaction: a delivery already claimed rolls back rather than commits.
    auto tx = Transaction::begin(db);
    if (!tx) return db_error(kFailed, tx.error());
    auto delivery_state = read_optional(
        db, kSelectDeliveryState, kFailed,
        [&](Query& q) { q.bind(":issue_id", issue_id).bind(":subscriber_id", subscriber_id); },
        [](const Query& q) { return q.text(0); });
    if (!delivery_state) return std::unexpected(delivery_state.error());
    if (*delivery_state && **delivery_state != "retry") return false;
    auto claimed = run(db, kClaimDelivery, kFailed, [&](Query& q) {
      q.bind(":issue_id", issue_id).bind(":subscriber_id", subscriber_id).bind(":now", to_unix(now));
    });
    if (!claimed) return std::unexpected(claimed.error());
    if (auto ok = tx->commit(); !ok) return db_error(kFailed, ok.error());
    return true;
  });
}

Result<void> SqliteStore::finish_delivery(std::int64_t issue_id, std::int64_t subscriber_id,
                                          DeliveryState state, std::string_view error, TimePoint now) {
  return write_one(kFinishDelivery, "cannot record delivery", [&](Query& q) {
    q.bind(":state", delivery_state_name(state)).bind(":error", error).bind(":now", to_unix(now));
    q.bind(":issue_id", issue_id).bind(":subscriber_id", subscriber_id);
  });
}

Result<std::int64_t> SqliteStore::count_deliveries(std::int64_t issue_id, DeliveryState state) {
  return with_reader([&](Connection& db) {
    return read_int64(db, kCountDeliveries, "cannot count deliveries", [&](Query& q) {
      q.bind(":issue_id", issue_id).bind(":state", delivery_state_name(state));
    });
  });
}

}  // namespace longread::storage::sqlite
