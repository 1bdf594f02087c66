// `longread newsletter send [--dry-run]`, and what `serve` needs for the newsletter and account mails: the
// mail outbox, the site's senders that queue into it (the newsletter's double opt-in and the account
// mails), and the weekly schedule.
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>

#include "accounts/accounts.h"
#include "app/commands.h"
#include "app/store_setup.h"
#include "core/url.h"
#include "mail/account_mail.h"
#include "mail/newsletter.h"
#include "mail/outbox.h"

namespace longread::app {

mail::SmtpOptions smtp_options(const config::Config& config) {
  mail::SmtpOptions smtp;
  smtp.url = config.smtp.url;
  smtp.starttls = config.smtp.starttls;
  smtp.username = config.smtp.username;
  smtp.password = config.smtp.password;
  smtp.from = config.smtp.from;
  return smtp;
}

namespace {

// Message-IDs end in the site's host (RFC 5322 section 3.6.4: the right side makes the id globally unique).
std::string mail_domain(const config::Config& config) {
  const std::string host = url_host(config.site.base_url);
  return host.empty() ? "localhost" : host;
}
std::string message_id(std::string_view kind, std::string_view domain) {
  return fmt::format("{}.{}@{}", kind, accounts::random_token(12), domain);
}

}  // namespace

mail::NewsletterOptions newsletter_options(const config::Config& config) {
  mail::NewsletterOptions options;
  options.site_name = config.site.name;
  options.base_url = config.site.base_url;
  options.from = config.smtp.from;
  options.unsubscribe_mailto = config.newsletter.unsubscribe_mailto;
  return options;
}

int cmd_newsletter_send(const config::Config& config, bool dry_run) {
  if (config.smtp.url.empty() && !dry_run) {
    fmt::print(stderr, "longread: set smtp.url (or LONGREAD_SMTP_URL) to send the newsletter\n");
    return 1;
  }
  auto store = open_store(config);
  if (!store) return 1;
  auto accounts = accounts::Accounts::open(*store, *store, *store, {});
  if (!accounts) {
    return report_failure(accounts.error());
  }
  const mail::SmtpSender sender(smtp_options(config));
  auto summary = mail::send_newsletter(*store, **accounts, sender, newsletter_options(config), now_seconds(),
                                       dry_run, [](std::string_view text) { fmt::print("{}", text); });
  if (!summary) {
    return report_failure(summary.error());
  }
  fmt::print("issue {}: {} articles, {} sent, {} skipped, {} to retry, {} refused\n", summary->issue_key,
             summary->articles, summary->sent, summary->skipped, summary->temporary, summary->permanent);
  return 0;
}

std::function<Result<void>(std::string_view, std::string_view)> confirmation_sender(
    const config::Config& config, mail::Outbox* outbox, std::chrono::seconds link_lifetime) {
  if (outbox == nullptr) return {};
  return [outbox, link_lifetime, options = newsletter_options(config), domain = mail_domain(config)](
             std::string_view email, std::string_view url) -> Result<void> {
    // Queued like the account mails (one INSERT; serve's outbox thread sends and retries it), so the page
    // answers as fast whether or not the SMTP server is up. Worth sending while its link works: the
    // site's confirmation_lifetime, which also signs the link's expiry.
    const auto now = now_seconds();
    const auto message = mail::confirmation_message(options, email, url);
    auto id = outbox->enqueue(mail::kNewsletterConfirmKind, message, message_id("confirm", domain), now,
                              now + link_lifetime);
    if (!id) return std::unexpected(id.error());
    return {};
  };
}

std::unique_ptr<mail::Outbox> account_outbox(const config::Config& config, storage::OutboxStore& store) {
  if (config.smtp.url.empty()) return {};
  return std::make_unique<mail::Outbox>(
      store, mail::SmtpSender(smtp_options(config)),
      mail::OutboxOptions{.retry_initial = config.smtp.retry_initial, .retry_max = config.smtp.retry_max});
}

std::function<Result<void>(accounts::MailKind, std::string_view, std::string_view)> account_mail_sender(
    const config::Config& config, const accounts::AccountsOptions& accounts, mail::Outbox* outbox) {
  if (outbox == nullptr) return {};
  // The mail is worth sending only while its link works: the link lifetime of its kind (a "you already
  // have an account" mail carries a reset link).
  const auto lifetime = [confirm = accounts.confirm_link_lifetime,
                         reset = accounts.reset_link_lifetime](accounts::MailKind kind) {
    return kind == accounts::MailKind::kConfirmAccount ? confirm : reset;
  };
  return [outbox, options = newsletter_options(config), lifetime, domain = mail_domain(config)](
             accounts::MailKind kind, std::string_view email, std::string_view url) -> Result<void> {
    // Queued in the store (one INSERT) and sent by the outbox's thread: the page answers at once, and as
    // fast whether or not a mail goes out; the mail survives an SMTP outage and a restart.
    const auto now = now_seconds();
    const auto hours = std::chrono::duration_cast<std::chrono::hours>(lifetime(kind)).count();
    const auto message = mail::account_message(options, kind, email, url, static_cast<long>(hours));
    auto id = outbox->enqueue(kind, message, message_id("account", domain), now, now + lifetime(kind));
    if (!id) return std::unexpected(id.error());
    return {};
  };
}

void newsletter_loop(std::stop_token stop, const config::Config& config, storage::Store& store) {
  if (config.smtp.url.empty() || !config.newsletter.enabled) return;
  auto accounts = accounts::Accounts::open(store, store, store, {});
  if (!accounts) {
    spdlog::error("newsletter: {}", accounts.error().message);
    return;
  }
  const mail::SmtpSender sender(smtp_options(config));
  std::mutex mutex;
  std::condition_variable_any wake;
  while (!stop.stop_requested()) {
    // Due from the configured weekday and hour (UTC) on; within a week's issue the per-recipient records
    // make repeated runs cheap and safe, and they retry temporary failures.
    const auto now = now_seconds();
    const auto day = std::chrono::floor<std::chrono::days>(now);
    const unsigned weekday = std::chrono::weekday{day}.c_encoding();
    const auto hour = std::chrono::duration_cast<std::chrono::hours>(now - day).count();
    const int days_since = (static_cast<int>(weekday) - config.newsletter.day + 7) % 7;
    if (days_since > 0 || hour >= config.newsletter.hour) {
      auto summary = mail::send_newsletter(store, **accounts, sender, newsletter_options(config), now, false);
      if (!summary) {
        spdlog::error("newsletter: {}", summary.error().message);
      } else if (summary->sent + summary->temporary + summary->permanent > 0) {
        spdlog::info("newsletter: issue {} sent={} retry={} refused={}", summary->issue_key, summary->sent,
                     summary->temporary, summary->permanent);
      }
    }
    std::unique_lock lock(mutex);
    wake.wait_for(lock, stop, std::chrono::minutes{10}, [] { return false; });
  }
}

}  // namespace longread::app
