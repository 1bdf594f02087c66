// The mail outbox (docs/mail.md, "Account mails: the outbox"): a request that must mail someone (sign-up
// confirmation, "you already have an account", password reset, the newsletter's double opt-in) only
// queues the rendered message in the store; `serve` runs a sender loop that delivers due mails over SMTP,
// retries temporary failures (4xx replies, network trouble: RFC 5321 section 4.2.1) with exponential backoff
// until the mail's link expires, and drops mails the server refuses for good (5xx). Queued mails survive
// restarts and kills.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <stop_token>
#include <string>
#include <string_view>

#include "accounts/accounts.h"
#include "core/error.h"
#include "core/time.h"
#include "mail/message.h"
#include "mail/smtp.h"
#include "storage/roles/outbox_store.h"

namespace longread::mail {

struct OutboxOptions {
  // The wait after the first failed attempt, doubled after each further one, never more than retry_max
  // (smtp.retry_initial_seconds, smtp.retry_max_seconds).
  std::chrono::seconds retry_initial{60};
  std::chrono::seconds retry_max{3600};
  // How long a claimed mail is held before a pass may take it again: longer than an SMTP transaction can
  // last (SmtpSender: 10 s to connect, 30 s in all), so only a sender that died hands a mail back this way.
  std::chrono::seconds claim_lease{120};
  // The longest sleep between passes, so mail queued by another process sharing the database is seen.
  std::chrono::seconds idle_poll{60};
};

// The wait after `attempts` (>= 1) failed attempts: retry_initial * 2^(attempts - 1), at most retry_max.
[[nodiscard]] std::chrono::seconds retry_delay(int attempts, const OutboxOptions& options);

// The outbox's name of a kind of account mail: "confirm", "registered", "reset".
[[nodiscard]] std::string_view mail_kind_name(accounts::MailKind kind);
// The outbox's name of the newsletter's double opt-in mail (the "Stay updated" form).
inline constexpr std::string_view kNewsletterConfirmKind = "newsletter";
// The module a log line about a queued mail of `kind` begins with: "newsletter" for the newsletter's
// confirmation, "accounts" for the account mails.
[[nodiscard]] std::string_view mail_log_module(std::string_view kind);

// What logs say of a recipient: "*@example.org". The domain tells an operator which provider has trouble;
// the address itself is not logged (as the rest of the site logs reader and subscriber ids only).
[[nodiscard]] std::string log_recipient(std::string_view address);

// What one pass did.
struct OutboxPass {
  int sent = 0;
  int retry = 0;    // temporary failures, due again later
  int refused = 0;  // permanent (5xx) failures, dropped
  int expired = 0;  // dropped because the link had expired, or would have before the next attempt
};

// The queue and its sender. Thread-safe: the site's request threads enqueue while run() sends.
class Outbox {
 public:
  Outbox(storage::OutboxStore& store, SmtpSender sender, OutboxOptions options = {});
  Outbox(const Outbox&) = delete;
  Outbox& operator=(const Outbox&) = delete;

  // Renders `message` (Date `now`, Message-ID `message_id`: fixed now, so a retry sends the same message),
  // queues it with one INSERT, and wakes run(). Nothing is sent on the caller's thread.
  Result<std::int64_t> enqueue(accounts::MailKind kind, const MailMessage& message,
                               std::string_view message_id, TimePoint now, TimePoint not_after);
  // The same for a kind named by the outbox itself (kNewsletterConfirmKind).
  Result<std::int64_t> enqueue(std::string_view kind, const MailMessage& message, std::string_view message_id,
                               TimePoint now, TimePoint not_after);
  // One pass as of `now`: drops expired mail, then sends due mails one at a time until none is due or
  // `stop` is requested. Each mail is claimed (committed) before its SMTP transaction and deleted after
  // the server's answer, so a mail is sent again only when the process died between the server accepting
  // it and the delete (at least once, never lost).
  Result<OutboxPass> send_due(TimePoint now, std::stop_token stop = {});
  // Passes until `stop`; between them, sleeps until the next mail is due (at most idle_poll), or until
  // enqueue() wakes it.
  void run(std::stop_token stop);
  // Makes run() start a pass now.
  void wake();

 private:
  // send_due with the time read from `clock` for each step.
  Result<OutboxPass> run_pass(const std::function<TimePoint()>& clock, std::stop_token stop);
  Result<void> handle(const storage::OutboxMail& mail, const SendOutcome& outcome, TimePoint now,
                      OutboxPass& pass);

  storage::OutboxStore& store_;
  SmtpSender sender_;
  OutboxOptions options_;
  std::mutex mutex_;
  std::condition_variable_any wake_;
  bool woken_ = false;
};

}  // namespace longread::mail
