#include "storage/postgres/newsletter_store.h"

#include <cctype>
#include <charconv>
#include <string>

#include "core/strings.h"
#include "storage/postgres/statement.h"

namespace longread::storage::postgres {
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
// DO NOTHING on a key another process is inserting waits for that transaction, so the SELECT after it
// (a new snapshot under READ COMMITTED) always finds the issue, whoever created it.
constexpr const char* kInsertIssue =
    "INSERT INTO newsletter_issues (issue_key, article_ids, created_at) VALUES (:key, :article_ids, :now)"
    " ON CONFLICT (issue_key) DO NOTHING";
constexpr const char* kSelectIssue =
    "SELECT id, issue_key, article_ids, created_at FROM newsletter_issues WHERE issue_key = :key";
// A delivery is claimed when it has no row yet or its row says "retry"; the WHERE of DO UPDATE reads the
// conflicting row under its lock, so of two senders claiming one delivery at once only one changes a row.
constexpr const char* kClaimDelivery =
    "INSERT INTO newsletter_deliveries (issue_id, subscriber_id, state, attempts, updated_at)"
    " VALUES (:issue_id, :subscriber_id, 'sending', 1, :now)"
    " ON CONFLICT (issue_id, subscriber_id) DO UPDATE SET state = 'sending',"
    "  attempts = newsletter_deliveries.attempts + 1, updated_at = :now"
    " WHERE newsletter_deliveries.state = 'retry'";
constexpr const char* kFinishDelivery =
    "UPDATE newsletter_deliveries SET state = :state, last_error = :error, updated_at = :now"
    " WHERE issue_id = :issue_id AND subscriber_id = :subscriber_id";
constexpr const char* kCountDeliveries =
    "SELECT COUNT(*) FROM newsletter_deliveries WHERE issue_id = :issue_id AND state = :state";

// Emails are matched case-insensitively (ASCII lower-casing), as the SQLite backend and accounts do.
std::string email_key(std::string_view email) {
  std::string key(email);
  for (char& c : key) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return key;
}

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

Subscriber read_subscriber(const Rows& rows, int r) {
  return {.id = rows.int64(r, 0),
          .email = rows.string(r, 1),
          .created_at = rows.time(r, 2),
          .confirmed_at = rows.optional_time(r, 3)};
}

Result<bool> changed(Pool& pool, const char* sql, std::string_view what, std::string_view email,
                     TimePoint now) {
  auto rows = run_pooled(pool, sql, what,
                         [&](Query& q) { q.bind(":email_key", email_key(email)).bind(":now", now); });
  if (!rows) return std::unexpected(rows.error());
  return rows->affected() > 0;
}

}  // namespace

Result<Subscriber> PgNewsletterStore::add_subscriber(std::string_view email, TimePoint now) {
  auto rows = run_pooled(db_.pool(), kUpsertSubscriber, "cannot add subscriber", [&](Query& q) {
    q.bind(":email", email).bind(":email_key", email_key(email)).bind(":now", now);
  });
  if (!rows) return std::unexpected(rows.error());
  return read_subscriber(*rows, 0);
}

Result<bool> PgNewsletterStore::confirm_subscriber(std::string_view email, TimePoint now) {
  return changed(db_.pool(), kConfirmSubscriber, "cannot confirm subscriber", email, now);
}

Result<bool> PgNewsletterStore::unsubscribe(std::string_view email, TimePoint now) {
  return changed(db_.pool(), kUnsubscribe, "cannot unsubscribe", email, now);
}

Result<std::vector<Subscriber>> PgNewsletterStore::confirmed_subscribers() {
  auto rows = run_pooled(db_.pool(), kSelectConfirmedSubscribers, "cannot list subscribers");
  if (!rows) return std::unexpected(rows.error());
  std::vector<Subscriber> out;
  for (int r = 0; r < rows->size(); ++r) {
    Subscriber subscriber = read_subscriber(*rows, r);
    subscriber.reader_id = rows->optional_int64(r, 4);
    out.push_back(std::move(subscriber));
  }
  return out;
}

Result<void> PgNewsletterStore::record_subscriber_error(std::int64_t subscriber_id, std::string_view error,
                                                        TimePoint now) {
  auto rows = run_pooled(db_.pool(), kSetSubscriberError, "cannot record delivery error", [&](Query& q) {
    q.bind(":error", error).bind(":now", now).bind(":id", subscriber_id);
  });
  if (!rows) return std::unexpected(rows.error());
  return {};
}

Result<NewsletterIssue> PgNewsletterStore::newsletter_issue(std::string_view key,
                                                            const std::vector<std::int64_t>& article_ids,
                                                            TimePoint now) {
  constexpr std::string_view kFailed = "cannot create issue";
  std::string ids;
  for (const auto id : article_ids) ids += (ids.empty() ? "" : ",") + std::to_string(id);
  NewsletterIssue issue;
  auto done = in_transaction(db_.pool(), [&](Connection& c) -> Result<void> {
    issue = NewsletterIssue{};
    if (auto ok =
            run_query(c, kInsertIssue, kFailed,
                      [&](Query& q) { q.bind(":key", key).bind(":article_ids", ids).bind(":now", now); });
        !ok) {
      return std::unexpected(ok.error());
    }
    auto rows = run_query(c, kSelectIssue, kFailed, [&](Query& q) { q.bind(":key", key); });
    if (!rows) return std::unexpected(rows.error());
    issue.id = rows->int64(0, 0);
    issue.key = rows->string(0, 1);
    for (const std::string_view id : split(rows->text(0, 2), ',')) {
      std::int64_t n = 0;
      if (!id.empty() && std::from_chars(id.data(), id.data() + id.size(), n).ec == std::errc{})
        issue.article_ids.push_back(n);
    }
    issue.created_at = rows->time(0, 3);
    return {};
  });
  if (!done) return std::unexpected(done.error());
  return issue;
}

Result<bool> PgNewsletterStore::claim_delivery(std::int64_t issue_id, std::int64_t subscriber_id,
                                               TimePoint now) {
  auto rows = run_pooled(db_.pool(), kClaimDelivery, "cannot claim delivery", [&](Query& q) {
    q.bind(":issue_id", issue_id).bind(":subscriber_id", subscriber_id).bind(":now", now);
  });
  if (!rows) return std::unexpected(rows.error());
  return rows->affected() > 0;
}

Result<void> PgNewsletterStore::finish_delivery(std::int64_t issue_id, std::int64_t subscriber_id,
                                                DeliveryState state, std::string_view error, TimePoint now) {
  auto rows = run_pooled(db_.pool(), kFinishDelivery, "cannot record delivery", [&](Query& q) {
    q.bind(":state", delivery_state_name(state)).bind(":error", error).bind(":now", now);
    q.bind(":issue_id", issue_id).bind(":subscriber_id", subscriber_id);
  });
  if (!rows) return std::unexpected(rows.error());
  return {};
}

Result<std::int64_t> PgNewsletterStore::count_deliveries(std::int64_t issue_id, DeliveryState state) {
  auto rows = run_pooled(db_.pool(), kCountDeliveries, "cannot count deliveries", [&](Query& q) {
    q.bind(":issue_id", issue_id).bind(":state", delivery_state_name(state));
  });
  if (!rows) return std::unexpected(rows.error());
  return rows->int64(0, 0);
}

}  // namespace longread::storage::postgres
