#include "pipeline/blog_refresh.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "core/strings.h"
#include "core/url.h"
#include "feed/feed.h"
#include "html/html.h"
#include "pipeline/budgets.h"
#include "pipeline/ranking.h"

namespace longread::pipeline {
namespace {

// The hash of an entry as the feed gave it, before any full-text replacement: decides whether a
// re-crawled entry changed (and lets an unchanged one skip curation).
std::string entry_hash(const feed::Entry& e) {
  return stable_hash_hex(e.title + "\x1f" + e.link + "\x1f" + e.published_raw + "\x1f" + e.summary + "\x1f" +
                         e.content);
}

// Attempts at a summary-only entry's page, counting the first (migration 0014).
constexpr int kFullTextAttempts = 3;

// A failure that may pass by the next poll: no answer in time, the network, or the server asking to come
// back (429, 5xx). A 404 or a page too large stays so.
bool transient_failure(const fetch::Response& response) {
  if (!response.error) return false;
  switch (response.error->kind) {
    case ErrorKind::kNetwork:
    case ErrorKind::kTimeout:
    case ErrorKind::kRateLimited:
      return true;
    case ErrorKind::kHttpStatus:
      return response.status == 429 || response.status >= 500;
    default:
      return false;
  }
}

// The sites a blog's full-text pages may come from: the registrable domain of its feed URL and of its
// site URL (the stored one; the feed's own link until one is stored), and the hosts the operator allowed
// for it. A link in a feed is the feed's choice: without this, any feed could make longread fetch, and
// publish, any page anywhere.
fetch::SiteRestriction blog_site(const model::Blog& blog, const std::string& feed_link) {
  fetch::SiteRestriction site;
  const auto add = [&](std::string name) {
    if (!name.empty() && std::ranges::find(site.sites, name) == site.sites.end())
      site.sites.push_back(std::move(name));
  };
  add(site_of_host(url_host(blog.feed_url)));
  const std::string& site_url = blog.site_url.empty() ? feed_link : blog.site_url;
  if (is_http_url(site_url)) add(site_of_host(url_host(site_url)));
  for (const auto& host : blog.allowed_hosts) add(canonical_host(host));
  site.owner = fmt::format("blog {}'s site", blog.id);
  site.allow_command = fmt::format("longread blogs edit {} --allow-host", blog.id);
  return site;
}

// A link a feed gives that is not http(s) (file:, javascript:, data:) is never fetched; the article keeps
// it out of its link and says why, cut to a readable length.
std::string unusable_link_reason(std::string_view link) {
  constexpr std::size_t kShown = 200;
  const std::string shown = sanitize_utf8(link.substr(0, kShown));
  return fmt::format("refused: {}{} is not an http(s) link", shown, link.size() > kShown ? "..." : "");
}

// A blog's template is learned from the entries of its feed; a feed with fewer than this many is topped up
// with the blog's latest stored articles (their stored HTML, so what was fetched for them counts too).
constexpr std::size_t kTemplateSample = 10;

// The untemplated texts of the blog's latest stored articles, newest first, leaving out `skip` (guids
// whose text the sample has from the feed), until `sample` holds kTemplateSample texts.
void add_stored_texts(storage::Store& store, const model::Blog& blog,
                      const std::unordered_set<std::string>& skip, std::vector<std::string>& sample) {
  if (sample.size() >= kTemplateSample) return;
  auto latest = store.articles(
      {.blog_id = blog.id, .include_junk = true, .limit = static_cast<int>(kTemplateSample + skip.size())});
  if (!latest) {
    spdlog::warn("crawl: blog_id={} feed_url={} cannot read stored articles for its template: {}", blog.id,
                 blog.feed_url, latest.error().message);
    return;
  }
  for (const auto& view : *latest) {
    if (sample.size() >= kTemplateSample) break;
    if (skip.contains(view.article.guid)) continue;
    auto stored = store.article(view.article.id);
    if (!stored || !*stored) continue;  // removed meanwhile, or unreadable: the sample is smaller
    sample.push_back(untemplated_text((*stored)->article));
  }
}

}  // namespace

BlogRefresh::BlogRefresh(model::Blog blog, BlogRefreshContext context)
    : blog_(std::move(blog)), context_(context) {}

bool BlogRefresh::stopping() const {
  return context_.stop_requested && context_.stop_requested->load();
}

BlogRefresh::State BlogRefresh::state() const {
  std::lock_guard lock(mutex_);
  return state_;
}

void BlogRefresh::mark_stopped() {
  result_.outcome = PollOutcome::kStopped;
  result_.status = "stopped";
  state_ = State::kStopped;
}

void BlogRefresh::stop() {
  std::lock_guard lock(mutex_);
  if (state_ == State::kWaitingForPages) mark_stopped();
}

void BlogRefresh::fail(const Error& error, std::optional<TimePoint> retry_at) {
  record_.success = false;
  record_.error = status_text(error);
  record_.status = record_.error;
  record_.consecutive_failures = blog_.consecutive_failures + 1;
  record_.next_due_at =
      next_due(context_.now, record_.consecutive_failures, retry_at, context_.options.schedule);
  record_.articles.clear();
  // Validators of a body that was not stored would make the next poll a 304 that never stores it.
  record_.etag.reset();
  record_.last_modified.reset();
  result_.outcome = PollOutcome::kFailed;
  result_.status = record_.status;
  result_.error_kind = error.kind;
}

// After a 200 or 304: due after the interval (or, with crawl.scheduler = entry_frequency, the blog's
// average gap between recent posts) or the longer wait the feed / server ask for (capped); the status
// then says which decided ("not modified (feed: 3 h)", "ok (frequency: 12 h)") so that `longread blogs`
// explains the date. Called once record_.articles holds this crawl's new and changed articles.
void BlogRefresh::schedule_success(PollHints hints) {
  const ScheduleOptions& schedule = context_.options.schedule;
  const TimePoint now = context_.now;
  if (schedule.scheduler == Scheduler::kEntryFrequency) {
    const TimePoint since = now - schedule.frequency_window;
    if (auto stored = context_.store.count_recent_articles(blog_.id, since)) {
      // This crawl's new articles are not stored yet, and a blog that just posted is likely active. An
      // undated one counts only after the blog's first crawl: before, it is the back catalogue.
      const bool first_crawl = !blog_.last_success_at.has_value();
      const auto fresh = std::ranges::count_if(record_.articles, [&](const model::Article& a) {
        return a.id == 0 && a.display_date() >= since && !(a.undated && first_crawl);
      });
      hints.recent_posts = *stored + static_cast<std::int64_t>(fresh);
    } else {
      spdlog::warn("crawl: blog_id={} feed_url={} cannot count recent posts, due after the interval: {}",
                   blog_.id, blog_.feed_url, stored.error().message);
    }
  }
  const SuccessWait wait = success_wait(hints, schedule);
  record_.next_due_at = now + wait.wait;
  if (const std::string reason = wait_reason(wait); !reason.empty()) record_.status += " (" + reason + ")";
  const auto decided_by = [&] {
    switch (wait.source) {
      case SuccessWait::Source::kFrequency:
        return "frequency";
      case SuccessWait::Source::kFeed:
        return "feed";
      case SuccessWait::Source::kHttp:
        return "http";
      case SuccessWait::Source::kInterval:
        break;
    }
    return "interval";
  };
  spdlog::debug(
      "crawl: blog_id={} feed_url={} next_due_in_min={} decided_by={} feed_hint_min={} "
      "http_fresh_for_s={} recent_posts={} capped={}",
      blog_.id, blog_.feed_url, wait.wait.count() / 60, decided_by(),
      hints.feed_interval ? hints.feed_interval->count() : 0, hints.fresh_for ? hints.fresh_for->count() : 0,
      hints.recent_posts ? *hints.recent_posts : -1, wait.capped);
}

// Whatever goes wrong with one blog stays with that blog: an exception (std::bad_alloc included) while
// parsing or curating its feed fails it with the reason, and the pass goes on.
BlogRefresh::State BlogRefresh::read_feed(const fetch::Response& response) {
  try {
    return read_feed_unguarded(response);
  } catch (...) {
    const Error error = exception_error("reading the feed", std::current_exception());
    spdlog::error("crawl: blog_id={} feed_url={} {}", blog_.id, blog_.feed_url, error.message);
    std::lock_guard lock(mutex_);
    started_ = Clock::now() - response.elapsed;
    record_ = {.blog_id = blog_.id, .attempted_at = context_.now};
    result_ = {};
    result_.blog_id = blog_.id;
    result_.feed_url = blog_.feed_url;
    result_.fetch_elapsed = response.elapsed;
    page_requests_.clear();
    page_articles_.clear();
    pages_outstanding_ = 0;
    fail(error, std::nullopt);
    state_ = State::kDone;
    return state_;
  }
}

BlogRefresh::State BlogRefresh::read_feed_unguarded(const fetch::Response& response) {
  const CrawlOptions& options = context_.options;
  const TimePoint now = context_.now;
  started_ = Clock::now() - response.elapsed;
  record_.blog_id = blog_.id;
  record_.attempted_at = now;
  result_.blog_id = blog_.id;
  result_.feed_url = blog_.feed_url;
  result_.fetch_elapsed = response.elapsed;
  // RFC 9110 15.4.2: a 301/308 moves the stored feed URL, but only to an http(s) URL every hop of which
  // the outbound policy let through (a refused hop fails the fetch and moves nothing).
  if (response.permanent_redirect && *response.permanent_redirect != blog_.feed_url &&
      is_http_url(*response.permanent_redirect) &&
      !(response.error && fetch::HttpClient::is_refused(*response.error)))
    record_.new_feed_url = response.permanent_redirect;

  std::lock_guard lock(mutex_);
  if (response.error && stopping() && fetch::HttpClient::is_cancelled(*response.error)) {
    mark_stopped();
    return state_;
  }
  state_ = State::kDone;
  if (response.error) {
    fail(*response.error, response.retry_at);
    return state_;
  }
  if (response.not_modified()) {
    record_.success = true;
    record_.status = "not modified";
    if (options.junk_retention.count() > 0) record_.prune_hidden_before = now - options.junk_retention;
    // A 304 has no body, so the feed's own hint is the one stored from its last parse (migration 0010):
    // the server's Cache-Control / Expires alone would lose a <ttl> on every poll but those that get a 200.
    result_.outcome = PollOutcome::kNotModified;
    result_.status = record_.status;
    schedule_success({.fresh_for = response.fresh_for, .feed_interval = blog_.feed_update_interval});
    return state_;
  }
  // On disk before the parse starts: if this process dies parsing the body (out of memory, abort), the
  // next pass finds the mark and blames this blog (crash quarantine, Crawler::run).
  if (auto marked = context_.store.mark_parsing(blog_.id, parsing_owner(), now_seconds()); !marked)
    spdlog::warn("crawl: blog_id={} cannot mark it parsing: {}", blog_.id, marked.error().message);
  auto parsed = feed::parse_feed(
      response.body, {.base_url = response.final_url.empty() ? blog_.feed_url : response.final_url,
                      .content_type = response.content_type,
                      .content_language = response.content_language});
  if (!parsed) {
    fail(parsed.error(), response.retry_at);
    return state_;
  }
  record_.success = true;
  record_.status = parsed->bozo ? "ok (recovered: " + parsed->bozo_message + ")" : "ok";
  // Zero clears a stored hint the feed no longer gives.
  record_.feed_update_interval = parsed->update_interval.value_or(std::chrono::minutes{0});
  record_.etag = response.etag;
  record_.last_modified = response.last_modified;
  record_.feed_title = parsed->title;
  record_.site_url = parsed->link;
  record_.author = parsed->author;
  result_.status = "ok";
  result_.entries = static_cast<int>(parsed->entries.size());
  // Budgets: the newest entries only, each cut to its byte budget (docs/feed.md, "Budgets").
  const std::size_t dropped = take_newest_entries(parsed->entries, options.max_entries_per_feed);
  if (dropped > 0) {
    result_.entries_dropped = static_cast<int>(dropped);
    record_.status += fmt::format(" (newest {} of {} entries: crawl.max_entries_per_feed)",
                                  parsed->entries.size(), result_.entries);
  }
  record_.max_articles = options.max_articles_per_blog;
  if (options.junk_retention.count() > 0) record_.prune_hidden_before = now - options.junk_retention;

  std::unordered_map<std::string, storage::StoredArticleKey> known;
  if (auto keys = context_.store.article_keys(blog_.id)) {
    for (auto& key : *keys) known.emplace(key.guid, std::move(key));
  }
  std::unordered_set<std::string> seen;
  std::vector<const feed::Entry*> unchanged_entries;  // for the template sample
  std::vector<bool> body_text_ends_with_marker;       // of each article of record_.articles
  for (auto& entry : parsed->entries) {
    const bool truncated = cap_entry(entry, options.max_entry_bytes);
    if (truncated) ++result_.entries_truncated;
    std::string identity = entry_identity(entry);
    // Entries repeated within one feed: the first wins, whether or not it changed, so that two
    // posts sharing a guid do not take turns being stored on every crawl.
    if (!seen.insert(identity).second) continue;
    // Unchanged in the feed: keep what is stored (including a full text fetched earlier) and skip
    // the curation work entirely, unless its page failed for a passing reason and is tried again.
    const auto it = known.find(identity);
    std::string hash = entry_hash(entry);
    const bool unchanged = it != known.end() && it->second.content_hash == hash;
    const bool retry_page = unchanged && options.fetch_full_text && !it->second.full_text_fetched &&
                            it->second.full_text_failures > 0 &&
                            it->second.full_text_failures < kFullTextAttempts;
    if (unchanged && !retry_page) {
      unchanged_entries.push_back(&entry);
      continue;
    }
    auto [article, marker] = build_article_with_signs(entry, blog_, now, context_.curation);
    body_text_ends_with_marker.push_back(marker);
    article.truncated = truncated;
    article.content_hash = std::move(hash);
    if (article.link.empty() && !trim(entry.link).empty())
      article.full_text_error = unusable_link_reason(entry.link);
    if (retry_page) article.full_text_failures = it->second.full_text_failures;
    if (it != known.end()) {
      article.id = it->second.id;  // an update: lets near-duplicate checks skip the article itself
      known.erase(it);
    }
    record_.articles.push_back(std::move(article));
  }
  // Every identity the feed holds now, unchanged ones included: the per-blog cap never deletes those
  // (deleted, they would come back as new on the next crawl).
  record_.feed_guids.assign(seen.begin(), seen.end());
  if (result_.entries_truncated > 0)
    record_.status +=
        fmt::format(" ({} cut to {} KiB: crawl.max_entry_kb)",
                    result_.entries_truncated == 1 ? std::string("1 entry")
                                                   : fmt::format("{} entries", result_.entries_truncated),
                    options.max_entry_bytes / 1024);
  // The blog's template, learned from every entry of the feed (and, for a short feed, its stored
  // articles), is removed from the new and changed articles, which were built without it. Nothing to
  // learn when nothing changed.
  if (!record_.articles.empty()) {
    std::vector<std::string> sample;
    for (const auto& article : record_.articles) sample.push_back(article.text);
    for (const auto* entry : unchanged_entries) sample.push_back(untemplated_text(*entry));
    add_stored_texts(context_.store, blog_, seen, sample);
    feed_template_ = std::make_shared<const html::FeedTemplate>(html::learn_feed_template(sample));
    CurationContext curation = context_.curation;
    curation.feed_template = feed_template_.get();
    for (auto& article : record_.articles) apply_feed_template(article, blog_, curation);
  }
  // The hot order's prior (docs/ranking.md): depth from each article's text, and how quiet the blog
  // is, from the dates of every entry the feed holds (changed or not).
  std::vector<TimePoint> dates;
  for (const auto& entry : parsed->entries) {
    const auto date = entry.published ? entry.published : entry.updated;
    if (date && is_plausible_feed_date(*date, now)) dates.push_back(*date);
  }
  posts_per_month_ = posts_per_month(dates);
  for (auto& article : record_.articles)
    article.rank_prior = rank_prior(article, posts_per_month_, options.ranking);
  schedule_success({.fresh_for = response.fresh_for, .feed_interval = parsed->update_interval});

  int budget = options.fetch_full_text ? options.max_full_text_per_blog : 0;
  std::vector<std::size_t> wanted;
  for (std::size_t i = 0; i < record_.articles.size() && budget > 0; ++i) {
    const auto& article = record_.articles[i];
    if (article.link.empty() || article.full_text_fetched) continue;
    if (!html::looks_like_summary(article_body(article), article.text, body_text_ends_with_marker.at(i)))
      continue;
    wanted.push_back(i);
    --budget;
  }
  if (!wanted.empty() && !stopping()) {
    const fetch::SiteRestriction site = blog_site(blog_, parsed->link);
    for (const auto i : wanted) {
      page_requests_.push_back({.url = record_.articles[i].link,
                                .tag = static_cast<std::uint64_t>(page_articles_.size()),
                                .site = site});
      page_articles_.push_back(i);
    }
    pages_outstanding_ = static_cast<int>(wanted.size());
    state_ = State::kWaitingForPages;
  }
  return state_;
}

bool BlogRefresh::read_page(std::size_t page, const fetch::Response& response) {
  // Each page owns its article, and the articles are not resized meanwhile: pages of one blog are read at
  // once without the lock.
  model::Article* article = &record_.articles.at(page_articles_.at(page));
  bool improved = false;
  std::optional<Error> page_error;
  const bool cancelled = response.error && fetch::HttpClient::is_cancelled(*response.error);
  try {
    if (response.ok()) {
      if (auto extracted = html::extract_main_content(response.body, response.final_url)) {
        // Keep the page's text only when it is a real improvement over the feed's summary.
        if (count_words(extracted->text) > static_cast<std::size_t>(article->word_count)) {
          if (cut_html(extracted->content_html, context_.options.max_entry_bytes)) article->truncated = true;
          article->content_html = std::move(extracted->content_html);
          CurationContext curation = context_.curation;
          curation.feed_template = feed_template_.get();
          curate_article(*article, blog_, curation);
          article->rank_prior = rank_prior(*article, posts_per_month_, context_.options.ranking);
          improved = true;
        }
      }
    }
  } catch (...) {
    page_error = exception_error("reading a full-text page", std::current_exception());
    spdlog::error("crawl: blog_id={} page={} {}", blog_.id, response.final_url, page_error->message);
  }
  // Done with the page when it was read or failed for good (404, not HTML, too large); a failure that may
  // pass (timeout, network, 429, 5xx) is tried again at the next read of the feed, kFullTextAttempts in
  // all. A failed page keeps the summary meanwhile.
  // A page the outbound policy refused is final too (kForbidden is not a passing failure): the same link
  // is refused the same way next time.
  if (!cancelled && !response.ok() && transient_failure(response) &&
      ++article->full_text_failures < kFullTextAttempts) {
    article->full_text_fetched = false;
  } else {
    article->full_text_fetched = true;
  }
  if (response.ok()) {
    article->full_text_error.clear();
  } else if (!cancelled) {
    article->full_text_error =
        response.error ? status_text(*response.error) : fmt::format("HTTP {}", response.status);
    if (response.error && fetch::HttpClient::is_refused(*response.error))
      spdlog::warn("crawl: blog_id={} article_link={} full text {}", blog_.id, article->link,
                   article->full_text_error);
  }
  std::lock_guard lock(mutex_);
  if (improved) ++result_.full_text_fetched;
  if (cancelled) cancelled_ = true;
  if (page_error && !error_) error_ = page_error;
  // Already stopped (stop()): whoever stopped it has finished it.
  if (--pages_outstanding_ > 0 || state_ != State::kWaitingForPages) return false;
  if (cancelled_) {
    mark_stopped();
  } else {
    if (error_) fail(*error_, std::nullopt);
    state_ = State::kDone;
  }
  return true;
}

}  // namespace longread::pipeline
