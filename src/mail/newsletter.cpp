#include "mail/newsletter.h"

#include <curl/curl.h>
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <chrono>

#include "core/strings.h"
#include "core/url.h"

namespace longread::mail {
namespace {

std::string escape_query(std::string_view s) {
  char* encoded = curl_easy_escape(nullptr, s.data(), static_cast<int>(s.size()));
  std::string out = encoded != nullptr ? encoded : "";
  curl_free(encoded);
  return out;
}

std::string article_path(const model::Article& a) {
  const std::string slug = slugify(a.title);
  return fmt::format("/blog/{}/read/{}{}", a.blog_id, a.id, slug.empty() ? "" : "-" + slug);
}

// About two lines of text (~160 characters), cut at a word boundary.
std::string short_excerpt(const model::Article& a) {
  const std::string& source = a.excerpt.empty() ? a.text : a.excerpt;
  return truncate_words(collapse_whitespace(source), 160);
}

std::string message_id(std::string_view key, std::string_view recipient, std::string_view base_url) {
  const std::string host = url_host(base_url);
  return fmt::format("{}.{}@{}", key, stable_hash_hex(recipient).substr(0, 16),
                     host.empty() ? "localhost" : host);
}

// A reader's own selection when they have personal filters; nullopt when they have none.
Result<std::optional<std::vector<storage::ArticleView>>> personal_selection(storage::Store& store,
                                                                            std::int64_t reader_id,
                                                                            TimePoint now, int count) {
  auto mutes = store.reader_mutes(reader_id);
  if (!mutes) return std::unexpected(mutes.error());
  auto preferences = store.reader_preferences(reader_id);
  if (!preferences) return std::unexpected(preferences.error());
  if (mutes->blogs.empty() && mutes->categories.empty() && preferences->newsletter_categories.empty())
    return std::optional<std::vector<storage::ArticleView>>{};
  auto selected = select_articles(store, now, count, reader_id);
  if (!selected) return std::unexpected(selected.error());
  return std::optional<std::vector<storage::ArticleView>>{std::move(*selected)};
}

}  // namespace

std::string issue_key(TimePoint now) {
  return iso_week_key(now);
}

Result<std::vector<storage::ArticleView>> select_articles(storage::ArticleStore& articles, TimePoint now,
                                                          int count, std::optional<std::int64_t> reader_id) {
  storage::ArticleQuery query;
  query.order = storage::ArticleOrder::kTop;  // votes DESC, then newest first
  query.since = now - std::chrono::days(7);
  query.limit = count;
  if (reader_id) query.reader = storage::ReaderFilter{.reader_id = *reader_id, .newsletter_categories = true};
  return articles.articles(query);
}

std::string unsubscribe_url(const accounts::Accounts& accounts, std::string_view base_url,
                            std::string_view email) {
  return fmt::format("{}/newsletter/unsubscribe?email={}&sig={}", base_url, escape_query(email),
                     accounts.link_signature("unsubscribe", email, 0));
}

MailMessage digest_message(const NewsletterOptions& options,
                           const std::vector<storage::ArticleView>& articles, std::string_view recipient,
                           std::string_view unsubscribe, TimePoint now) {
  MailMessage m;
  m.from = options.from;
  m.to = std::string(recipient);
  m.subject = fmt::format("{} — the week’s {} best long reads ({})", options.site_name, articles.size(),
                          issue_key(now));
  std::string body =
      fmt::format("The {} most voted articles on {} this week.\n\n", articles.size(), options.site_name);
  int n = 0;
  for (const auto& item : articles) {
    const model::Article& a = item.article;
    const std::string blog =
        trim(item.blog_title).empty() ? "an independent blog" : std::string(trim(item.blog_title));
    body += fmt::format("{}. {}\n   from {} · {} {}\n", ++n, collapse_whitespace(a.title),
                        collapse_whitespace(blog), a.votes, a.votes == 1 ? "vote" : "votes");
    const std::string excerpt = short_excerpt(a);
    if (!excerpt.empty()) body += "   " + excerpt + "\n";
    if (is_http_url(a.link)) body += "   Read: " + a.link + "\n";  // never javascript: and friends
    body += "   On " + options.site_name + ": " + options.base_url + article_path(a) + "\n\n";
  }
  body += fmt::format(
      "--\nYou get this because you subscribed to the weekly newsletter of {} ({}).\n"
      "Unsubscribe with one click: {}\n",
      options.site_name, options.base_url, unsubscribe);
  m.body = std::move(body);
  const std::string mailto =
      options.unsubscribe_mailto.empty() ? bare_address(options.from) : options.unsubscribe_mailto;
  // RFC 2369 (List-Unsubscribe with both forms) and RFC 8058 (one-click: the mail client POSTs
  // "List-Unsubscribe=One-Click" to the https URL).
  m.extra_headers.emplace_back("List-Unsubscribe",
                               fmt::format("<{}>, <mailto:{}?subject=unsubscribe>", unsubscribe, mailto));
  m.extra_headers.emplace_back("List-Unsubscribe-Post", "List-Unsubscribe=One-Click");
  return m;
}

MailMessage confirmation_message(const NewsletterOptions& options, std::string_view recipient,
                                 std::string_view confirm_url) {
  MailMessage m;
  m.from = options.from;
  m.to = std::string(recipient);
  m.subject = "Confirm your subscription to " + options.site_name;
  m.body = fmt::format(
      "Someone, probably you, asked to receive the weekly newsletter of {} at this address.\n\n"
      "To confirm, open this link:\n{}\n\n"
      "The link works for 48 hours. If you did not ask for this, ignore this mail: nothing will be sent.\n",
      options.site_name, confirm_url);
  return m;
}

Result<SendSummary> send_newsletter(storage::Store& store, const accounts::Accounts& accounts,
                                    const SmtpSender& sender, const NewsletterOptions& options, TimePoint now,
                                    bool dry_run, const std::function<void(std::string_view)>& print) {
  SendSummary summary;
  summary.issue_key = issue_key(now);
  auto subscribers = store.confirmed_subscribers();
  if (!subscribers) return std::unexpected(subscribers.error());

  std::vector<storage::ArticleView> articles;
  if (dry_run) {
    auto selected = select_articles(store, now, options.articles);
    if (!selected) return std::unexpected(selected.error());
    articles = std::move(*selected);
    summary.articles = static_cast<int>(articles.size());
    const std::string to = subscribers->empty() ? "subscriber@example.org" : subscribers->front().email;
    const auto message =
        digest_message(options, articles, to, unsubscribe_url(accounts, options.base_url, to), now);
    if (print) print(render_message(message, now, message_id(summary.issue_key, to, options.base_url)));
    return summary;
  }

  // The issue's articles are fixed when it is first created: a resumed run sends the same issue.
  auto selected = select_articles(store, now, options.articles);
  if (!selected) return std::unexpected(selected.error());
  std::vector<std::int64_t> ids;
  for (const auto& a : *selected) ids.push_back(a.article.id);
  auto issue = store.newsletter_issue(summary.issue_key, ids, now);
  if (!issue) return std::unexpected(issue.error());
  summary.issue_id = issue->id;
  for (const auto id : issue->article_ids) {
    auto a = store.article(id);
    if (!a) return std::unexpected(a.error());
    if (!*a) continue;
    // An article hidden since the issue was made (an operator junked it, or readers' flags hold it until an
    // operator decides) is left out of the sends that remain.
    const model::Article& article = (*a)->article;
    if (article.keep_override ? !*article.keep_override : article.junk) continue;
    auto flags = store.flag_state(id, std::nullopt);
    if (!flags) return std::unexpected(flags.error());
    if (flags->held) continue;
    articles.push_back(std::move(**a));
  }
  summary.articles = static_cast<int>(articles.size());
  if (articles.empty()) {
    spdlog::info("newsletter: issue {} has no articles; nothing sent", summary.issue_key);
    return summary;
  }

  for (const auto& subscriber : *subscribers) {
    // A reader's own five when they filter (their categories, without what they muted), chosen at their
    // delivery, so the issue's fixed articles stay the same for everyone else however often a run resumes.
    std::optional<std::vector<storage::ArticleView>> own;
    if (subscriber.reader_id) {
      auto personal = personal_selection(store, *subscriber.reader_id, now, options.articles);
      if (!personal) return std::unexpected(personal.error());
      own = std::move(*personal);
    }
    if (own && own->empty()) {
      // Nothing this week in what they chose: no mail rather than articles they asked not to get. Not
      // claimed, so a later run of the same week sends once there is something.
      ++summary.skipped;
      continue;
    }
    auto claimed = store.claim_delivery(issue->id, subscriber.id, now_seconds());
    if (!claimed) return std::unexpected(claimed.error());
    if (!*claimed) {
      ++summary.skipped;
      continue;
    }
    const auto message = digest_message(options, own ? *own : articles, subscriber.email,
                                        unsubscribe_url(accounts, options.base_url, subscriber.email), now);
    const auto outcome = sender.send(
        subscriber.email, render_message(message, now_seconds(),
                                         message_id(summary.issue_key, subscriber.email, options.base_url)));
    storage::DeliveryState state = storage::DeliveryState::kSent;
    if (outcome.kind == SendOutcome::Kind::kSent) {
      ++summary.sent;
    } else if (outcome.kind == SendOutcome::Kind::kTemporary) {
      state = storage::DeliveryState::kRetry;
      ++summary.temporary;
      spdlog::warn("newsletter: temporary failure subscriber_id={} issue={} error=\"{}\"", subscriber.id,
                   summary.issue_key, outcome.detail);
    } else {
      state = storage::DeliveryState::kFailed;
      ++summary.permanent;
      spdlog::warn("newsletter: permanent failure subscriber_id={} issue={} error=\"{}\"", subscriber.id,
                   summary.issue_key, outcome.detail);
      if (auto ok = store.record_subscriber_error(subscriber.id, outcome.detail, now_seconds()); !ok) {
        return std::unexpected(ok.error());
      }
    }
    if (auto ok = store.finish_delivery(issue->id, subscriber.id, state, outcome.detail, now_seconds());
        !ok) {
      return std::unexpected(ok.error());
    }
  }
  return summary;
}

}  // namespace longread::mail
