// `longread mail queue | retry [ID] | drop ID`: the operator's view of the mail outbox (docs/mail.md,
// "Operator commands"). The queue is what `serve`'s sender has still to send; these commands only read and
// write the outbox table, so they work while `serve` runs (SQLite WAL) and never send mail themselves.
#include <fmt/chrono.h>
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "app/blog_table.h"
#include "app/commands.h"
#include "app/store_setup.h"
#include "core/time.h"
#include "mail/outbox.h"
#include "storage/store.h"

namespace longread::app {
namespace {

// How long serve's sender sleeps at most between two looks at the queue (mail::OutboxOptions::idle_poll):
// another process cannot wake it, so a mail made due here is sent within this long.
constexpr std::chrono::seconds kSenderPoll = mail::OutboxOptions{}.idle_poll;
constexpr std::size_t kErrorWidth = 60;
constexpr std::size_t kRecipientWidth = 24;

// "45 s", "4 min", "5 h", "2 d": one unit, rounded down, minutes up to two hours and hours up to two days
// (a 48 h link reads "47 h", not "1 d").
std::string span_text(std::chrono::seconds span) {
  const auto s = span.count();
  if (s < 60) return fmt::format("{} s", s);
  if (s < 2 * 3600) return fmt::format("{} min", s / 60);
  if (s < 2 * 86400) return fmt::format("{} h", s / 3600);
  return fmt::format("{} d", s / 86400);
}

std::string cell(std::string_view s, std::size_t width) {
  return table_cell(s, width);
}

// The last error as the logs would show it: an SMTP reply may quote the address ("<kim@example.org>:
// mailbox full"), so the address is replaced by its "*@domain" form, as in the recipient column.
std::string error_text(const storage::OutboxMail& mail) {
  if (mail.last_error.empty()) return "-";
  std::string text = mail.last_error;
  const std::string masked = mail::log_recipient(mail.recipient);
  if (!mail.recipient.empty()) {
    for (auto at = text.find(mail.recipient); at != std::string::npos;
         at = text.find(mail.recipient, at + masked.size()))
      text.replace(at, mail.recipient.size(), masked);
  }
  return cell(text, kErrorWidth);
}

std::string describe(const storage::OutboxMail& mail) {
  return fmt::format("mail {} ({} to {})", mail.id, mail.kind, mail::log_recipient(mail.recipient));
}

std::optional<storage::OutboxMail> find_mail(const std::vector<storage::OutboxMail>& mails, std::int64_t id) {
  const auto it = std::find_if(mails.begin(), mails.end(), [id](const auto& m) { return m.id == id; });
  if (it == mails.end()) return std::nullopt;
  return *it;
}

int unknown_mail(std::int64_t id) {
  fmt::print(stderr,
             "longread: no mail {} in the queue (a mail leaves it once sent, refused or expired; see "
             "`longread mail queue`)\n",
             id);
  return 1;
}

// Queued mail goes nowhere without smtp.url: serve runs no sender then.
void warn_without_smtp(const config::Config& config) {
  if (config.smtp.url.empty())
    fmt::print(stderr, "longread: smtp.url is not set, so `longread serve` sends no queued mail\n");
}

}  // namespace

int cmd_mail_queue(const config::Config& config) {
  auto store = open_store(config);
  if (!store) return 1;
  auto mails = store->outbox_mails();
  if (!mails) return report_failure(mails.error());
  if (mails->empty()) {
    fmt::print("no mail queued\n");
    return 0;
  }
  const TimePoint now = now_seconds();
  constexpr const char* kRow = "{:>6}  {:<10}  {:<24}  {:<16}  {:>8}  {:<12}  {:<10}  {}\n";
  fmt::print(kRow, "id", "kind", "recipient", "created (UTC)", "attempts", "next attempt", "expires",
             "last error");
  for (const auto& m : *mails) {
    const bool expired = m.not_after <= now;
    // Expired mail is never sent: serve's next pass deletes it.
    const std::string next =
        expired ? "-" : (m.next_attempt_at <= now ? "now" : "in " + span_text(m.next_attempt_at - now));
    fmt::print(kRow, m.id, cell(m.kind, 10), cell(mail::log_recipient(m.recipient), kRecipientWidth),
               fmt::format("{:%Y-%m-%d %H:%M}", m.created_at), m.attempts, next,
               expired ? std::string("expired") : "in " + span_text(m.not_after - now), error_text(m));
  }
  fmt::print("{} {} queued\n", mails->size(), mails->size() == 1 ? "mail" : "mails");
  warn_without_smtp(config);
  return 0;
}

int cmd_mail_retry(const config::Config& config, std::optional<std::int64_t> mail_id) {
  auto store = open_store(config);
  if (!store) return 1;
  auto mails = store->outbox_mails();
  if (!mails) return report_failure(mails.error());
  const TimePoint now = now_seconds();
  std::optional<storage::OutboxMail> mail;
  if (mail_id) {
    mail = find_mail(*mails, *mail_id);
    if (!mail) return unknown_mail(*mail_id);
  }
  auto matched = store->retry_mails(mail_id, now);
  if (!matched) return report_failure(matched.error());
  if (mail_id && *matched == 0) return unknown_mail(*mail_id);  // sent or dropped since it was read
  if (*matched == 0) {
    fmt::print("no mail queued\n");
    return 0;
  }
  const std::string when = fmt::format(
      "a running `longread serve` sends {} within {} s (its sender looks at the queue at least that often; "
      "another process cannot wake it)",
      *matched == 1 ? "it" : "them", kSenderPoll.count());
  if (mail && mail->not_after <= now) {
    fmt::print("{} has expired (its link no longer works): `longread serve` drops it unsent\n",
               describe(*mail));
  } else if (mail) {
    fmt::print("{} is due now: {}\n", describe(*mail), when);
  } else {
    const auto expired =
        std::count_if(mails->begin(), mails->end(), [now](const auto& m) { return m.not_after <= now; });
    fmt::print("{} {} due now: {}\n", *matched, *matched == 1 ? "mail is" : "mails are", when);
    if (expired > 0)
      fmt::print("{} of them {} expired and will be dropped unsent\n", expired,
                 expired == 1 ? "has" : "have");
  }
  warn_without_smtp(config);
  return 0;
}

int cmd_mail_drop(const config::Config& config, std::int64_t mail_id) {
  auto store = open_store(config);
  if (!store) return 1;
  auto mails = store->outbox_mails();
  if (!mails) return report_failure(mails.error());
  const auto mail = find_mail(*mails, mail_id);
  if (!mail) return unknown_mail(mail_id);
  auto deleted = store->delete_mail(mail_id);
  if (!deleted) return report_failure(deleted.error());
  if (!*deleted) return unknown_mail(mail_id);  // sent or dropped since it was read
  fmt::print("dropped {}: it will not be sent\n", describe(*mail));
  return 0;
}

}  // namespace longread::app
