#include "mail/outbox.h"

#include <spdlog/spdlog.h>

#include <algorithm>

namespace longread::mail {

std::chrono::seconds retry_delay(int attempts, const OutboxOptions& options) {
  // Doubling stops once the cap is reached, so no shift overflows however many attempts a mail had.
  std::chrono::seconds delay = std::max(options.retry_initial, std::chrono::seconds{1});
  for (int i = 1; i < attempts && delay < options.retry_max; ++i) delay *= 2;
  return std::min(delay, std::max(options.retry_max, std::chrono::seconds{1}));
}

std::string_view mail_kind_name(accounts::MailKind kind) {
  switch (kind) {
    case accounts::MailKind::kConfirmAccount:
      return "confirm";
    case accounts::MailKind::kAlreadyRegistered:
      return "registered";
    case accounts::MailKind::kPasswordReset:
      return "reset";
  }
  return "confirm";
}

std::string_view mail_log_module(std::string_view kind) {
  return kind == kNewsletterConfirmKind ? "newsletter" : "accounts";
}

std::string log_recipient(std::string_view address) {
  const auto at = address.rfind('@');
  return at == std::string_view::npos ? std::string("*") : "*" + std::string(address.substr(at));
}

Outbox::Outbox(storage::OutboxStore& store, SmtpSender sender, OutboxOptions options)
    : store_(store), sender_(std::move(sender)), options_(options) {}

Result<std::int64_t> Outbox::enqueue(accounts::MailKind kind, const MailMessage& message,
                                     std::string_view message_id, TimePoint now, TimePoint not_after) {
  return enqueue(mail_kind_name(kind), message, message_id, now, not_after);
}

Result<std::int64_t> Outbox::enqueue(std::string_view kind, const MailMessage& message,
                                     std::string_view message_id, TimePoint now, TimePoint not_after) {
  auto id = store_.enqueue_mail({.kind = std::string(kind),
                                 .recipient = message.to,
                                 .message = render_message(message, now, message_id),
                                 .created_at = now,
                                 .not_after = not_after,
                                 .next_attempt_at = now});
  if (id) wake();
  return id;
}

Result<OutboxPass> Outbox::send_due(TimePoint now, std::stop_token stop) {
  return run_pass([now] { return now; }, stop);
}

Result<OutboxPass> Outbox::run_pass(const std::function<TimePoint()>& clock, std::stop_token stop) {
  OutboxPass pass;
  auto expired = store_.drop_expired_mails(clock());
  if (!expired) return std::unexpected(expired.error());
  for (const auto& mail : *expired) {
    ++pass.expired;
    spdlog::warn("{}: mail dropped reason=expired mail_id={} kind={} to={} attempts={} error=\"{}\"",
                 mail_log_module(mail.kind), mail.id, mail.kind, log_recipient(mail.recipient), mail.attempts,
                 mail.last_error);
  }
  // One mail per claim: a stop between two mails leaves no claimed mail waiting for its lease to run out.
  while (!stop.stop_requested()) {
    // The time of each claim, not of the pass: a pass through many slow transactions keeps full leases.
    const TimePoint now = clock();
    auto claimed = store_.claim_due_mails(now, now + options_.claim_lease, 1);
    if (!claimed) return std::unexpected(claimed.error());
    if (claimed->empty()) break;
    const storage::OutboxMail& mail = claimed->front();
    const SendOutcome outcome = sender_.send(mail.recipient, mail.message);
    if (auto ok = handle(mail, outcome, clock(), pass); !ok) return std::unexpected(ok.error());
  }
  return pass;
}

Result<void> Outbox::handle(const storage::OutboxMail& mail, const SendOutcome& outcome, TimePoint now,
                            OutboxPass& pass) {
  const std::string to = log_recipient(mail.recipient);
  const std::string_view module = mail_log_module(mail.kind);
  if (outcome.kind == SendOutcome::Kind::kSent) {
    ++pass.sent;
    spdlog::info("{}: mail sent mail_id={} kind={} to={} attempts={}", module, mail.id, mail.kind, to,
                 mail.attempts);
    // The link must not linger in the database once the server has the mail.
    if (auto deleted = store_.delete_mail(mail.id); !deleted) return std::unexpected(deleted.error());
    return {};
  }
  if (outcome.kind == SendOutcome::Kind::kPermanent) {
    ++pass.refused;
    spdlog::warn("{}: mail dropped reason=refused mail_id={} kind={} to={} attempts={} error=\"{}\"", module,
                 mail.id, mail.kind, to, mail.attempts, outcome.detail);
    if (auto deleted = store_.delete_mail(mail.id); !deleted) return std::unexpected(deleted.error());
    return {};
  }
  const auto delay = retry_delay(mail.attempts, options_);
  if (now + delay >= mail.not_after) {
    // The next attempt would come after the link stopped working: a mail with a dead link helps nobody.
    ++pass.expired;
    spdlog::warn("{}: mail dropped reason=expired mail_id={} kind={} to={} attempts={} error=\"{}\"", module,
                 mail.id, mail.kind, to, mail.attempts, outcome.detail);
    if (auto deleted = store_.delete_mail(mail.id); !deleted) return std::unexpected(deleted.error());
    return {};
  }
  ++pass.retry;
  spdlog::warn(
      "{}: mail not sent, will retry mail_id={} kind={} to={} attempts={} retry_in_s={} "
      "error=\"{}\"",
      module, mail.id, mail.kind, to, mail.attempts, delay.count(), outcome.detail);
  return store_.mark_mail_failed(mail.id, outcome.detail, now + delay);
}

void Outbox::wake() {
  {
    std::lock_guard lock(mutex_);
    woken_ = true;
  }
  wake_.notify_all();
}

void Outbox::run(std::stop_token stop) {
  while (!stop.stop_requested()) {
    std::chrono::seconds wait = options_.idle_poll;
    if (auto pass = run_pass(now_seconds, stop); !pass) {
      // The store is in trouble (disk full, locked): try again later rather than spin.
      spdlog::error("accounts: outbox pass failed: {}", pass.error().message);
      wait = std::min(options_.retry_initial, options_.idle_poll);
    } else if (auto due = store_.next_mail_due(); !due) {
      spdlog::error("accounts: outbox pass failed: {}", due.error().message);
      wait = std::min(options_.retry_initial, options_.idle_poll);
    } else if (*due) {
      // A second at least: times are whole seconds, and a mail due "now" was just claimed or handled.
      wait = std::clamp(**due - now_seconds(), std::chrono::seconds{1}, options_.idle_poll);
    }
    std::unique_lock lock(mutex_);
    wake_.wait_for(lock, stop, wait, [this] { return woken_; });
    woken_ = false;
  }
}

}  // namespace longread::mail
