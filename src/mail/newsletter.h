// The weekly newsletter: which articles an issue carries, the plain-text digest (no tracking), the
// double opt-in confirmation mail, and a send run that reaches each confirmed subscriber at most once.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "accounts/accounts.h"
#include "core/error.h"
#include "mail/message.h"
#include "mail/smtp.h"
#include "storage/roles/article_store.h"
#include "storage/store.h"

namespace longread::mail {

struct NewsletterOptions {
  std::string site_name = "longread";
  std::string base_url = "http://127.0.0.1:8080";  // for article links and the unsubscribe link
  std::string from = "longread <newsletter@localhost>";
  // Address for List-Unsubscribe's mailto (RFC 2369); empty: the From address.
  std::string unsubscribe_mailto;
  int articles = 5;
};

// "2024-W21": the ISO 8601 week of `now` (an issue per week).
std::string issue_key(TimePoint now);
// The articles of the past 7 days with the most votes, ties broken by recency (newest first). With
// `reader_id`, from the categories that reader chose for their newsletter (all when none) and without the
// blogs and categories they muted.
Result<std::vector<storage::ArticleView>> select_articles(
    storage::ArticleStore& articles, TimePoint now, int count,
    std::optional<std::int64_t> reader_id = std::nullopt);
// The one-click unsubscribe URL for `email` (signed, never expires): base_url +
// "/newsletter/unsubscribe?email=...&sig=...", the path the site serves.
std::string unsubscribe_url(const accounts::Accounts& accounts, std::string_view base_url,
                            std::string_view email);

// The digest for one recipient: title, blog, a two-line excerpt, the original link and the site link for
// each article; List-Unsubscribe (URL and mailto) and List-Unsubscribe-Post (RFC 8058) headers and the
// unsubscribe link in the body.
MailMessage digest_message(const NewsletterOptions& options,
                           const std::vector<storage::ArticleView>& articles, std::string_view recipient,
                           std::string_view unsubscribe, TimePoint now);
// The double opt-in mail with the confirmation link.
MailMessage confirmation_message(const NewsletterOptions& options, std::string_view recipient,
                                 std::string_view confirm_url);

struct SendSummary {
  std::string issue_key;
  std::int64_t issue_id = 0;
  int articles = 0;
  int sent = 0;
  int skipped = 0;    // already sent, failed for good, or claimed by an interrupted run
  int temporary = 0;  // will be retried by the next run
  int permanent = 0;  // refused with 5xx, recorded against the address
};

// Sends this week's issue to every confirmed subscriber who has not had it. A subscriber whose confirmed
// account has personal filters (mutes, newsletter categories) gets their own five, chosen when their
// delivery is claimed (select_articles with their reader id); everyone else gets the issue's articles. Each
// delivery is claimed in the store (committed) before its SMTP transaction, so a run killed mid-send and
// started again never sends an address the same issue twice. With `dry_run`, the first recipient's message
// (or a sample) is passed to `print` and nothing is sent or recorded. An issue without articles is not sent.
// Takes the whole store: it reads subscribers, issues and deliveries (NewsletterStore), articles
// (ArticleStore), their flags (ModerationStore) and subscribers' filters (ReaderStore).
Result<SendSummary> send_newsletter(storage::Store& store, const accounts::Accounts& accounts,
                                    const SmtpSender& sender, const NewsletterOptions& options, TimePoint now,
                                    bool dry_run, const std::function<void(std::string_view)>& print = {});

}  // namespace longread::mail
