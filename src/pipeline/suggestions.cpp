#include "pipeline/suggestions.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <utility>

#include "core/url.h"
#include "pipeline/discover.h"

namespace longread::pipeline {

Result<std::optional<model::Blog>> followed_blog(storage::BlogStore& blogs,
                                                 const std::vector<std::string>& feed_urls) {
  std::vector<std::string> keys;
  for (const auto& url : feed_urls) {
    if (url.empty()) continue;
    keys.push_back(url);
    if (auto normal = normalize_url(url)) keys.push_back(std::move(*normal));
  }
  for (const auto& key : keys) {
    auto blog = blogs.blog_by_feed_url(key);
    if (!blog || *blog) return blog;
  }
  return std::optional<model::Blog>{};
}

std::optional<storage::SuggestionFinding> discover_suggestion(fetch::HttpClient& client,
                                                              storage::BlogStore& blogs,
                                                              const storage::Suggestion& suggestion,
                                                              const CurationContext& curation,
                                                              std::size_t recent_posts) {
  storage::SuggestionFinding finding;
  auto found = discover_feeds(client, suggestion.url, {.recent_posts = recent_posts, .curation = &curation});
  finding.at = now_seconds();
  if (!found) {
    if (fetch::HttpClient::is_cancelled(found.error())) return std::nullopt;
    finding.status = found.error().kind == ErrorKind::kForbidden ? storage::SuggestionStatus::kRefused
                                                                 : storage::SuggestionStatus::kFailed;
    finding.error = found.error().display();
    return finding;
  }
  const DiscoveredFeed& chosen = found->chosen();
  finding.feed_url = chosen.feed_url;
  finding.site_url = found->blog_site_url();
  finding.title = found->blog_title();
  finding.format = feed_format_name(chosen.version);
  finding.entries = static_cast<std::int64_t>(chosen.entries);
  finding.newest_post = chosen.newest_post;
  for (const auto& p : chosen.recent) {
    finding.posts.push_back({.title = p.title,
                             .link = p.link,
                             .published = p.published,
                             .junk = p.junk,
                             .junk_reason = p.junk_reason});
  }
  // The same blog may be followed under another of its feeds (the page lists RSS first, the list had
  // Atom): every posts feed found is checked, as `blogs add` does.
  for (const auto& c : found->feeds) {
    if (c.comments && &c != &chosen) continue;
    auto blog = followed_blog(blogs, {c.url, c.final_url, c.feed_url});
    if (!blog) {
      finding.status = storage::SuggestionStatus::kFailed;
      finding.error = blog.error().display();
      return finding;
    }
    if (*blog) {
      finding.status = storage::SuggestionStatus::kFollowed;
      finding.blog_id = (*blog)->id;
      return finding;
    }
  }
  finding.status = storage::SuggestionStatus::kFound;
  return finding;
}

SuggestionWorker::SuggestionWorker(storage::BlogStore& blogs, storage::SuggestionStore& suggestions,
                                   fetch::ClientOptions client, CurationContext curation,
                                   SuggestionWorkerOptions options)
    : blogs_(blogs),
      suggestions_(suggestions),
      client_(std::move(client)),
      curation_(curation),
      options_(options) {}

SuggestionWorker::~SuggestionWorker() {
  stop();
}

void SuggestionWorker::start() {
  std::lock_guard lock(mutex_);
  if (thread_.joinable() || stopping_) return;
  thread_ = std::thread([this] { run(); });
}

void SuggestionWorker::wake() {
  {
    std::lock_guard lock(mutex_);
    woken_ = true;
  }
  wake_.notify_one();
}

void SuggestionWorker::stop() {
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return;
    stopping_ = true;
  }
  client_.cancel();
  wake_.notify_one();
  if (thread_.joinable()) thread_.join();
}

Result<int> SuggestionWorker::run_once() {
  int saved = 0;
  for (;;) {
    const TimePoint now = now_seconds();
    auto claimed =
        suggestions_.claim_suggestions(now, now + options_.lease, options_.batch, options_.max_attempts);
    if (!claimed) return std::unexpected(claimed.error());
    if (claimed->empty()) return saved;
    for (const auto& suggestion : *claimed) {
      auto finding = discover_suggestion(client_, blogs_, suggestion, curation_, options_.recent_posts);
      if (!finding) {
        // Cancelled: the process is stopping. This claim and the ones not started yet go back, so the
        // next run takes them up at once instead of after their leases.
        for (const auto& unfinished : *claimed) {
          if (unfinished.id < suggestion.id) continue;
          if (auto released = suggestions_.release_suggestion(unfinished.id); !released) {
            spdlog::warn("suggest: {}", released.error().message);
          }
        }
        return saved;
      }
      if (auto ok = suggestions_.save_suggestion_finding(suggestion.id, *finding); !ok) {
        // Rejected by an operator while discovery ran: the decision stands.
        if (ok.error().kind != ErrorKind::kConflict) return std::unexpected(ok.error());
        continue;
      }
      ++saved;
      spdlog::info("suggest: suggestion_id={} url={} status={} feed_url={} {}", suggestion.id, suggestion.url,
                   storage::to_string(finding->status), finding->feed_url, finding->error);
    }
  }
}

void SuggestionWorker::run() {
  for (;;) {
    {
      std::lock_guard lock(mutex_);
      if (stopping_) return;
      woken_ = false;
    }
    if (auto pass = run_once(); !pass) spdlog::error("suggest: {}", pass.error().message);
    // Sleep until woken, until the next pending suggestion's lease runs out, or idle_check.
    auto wait = std::chrono::duration_cast<std::chrono::seconds>(options_.idle_check);
    if (auto due = suggestions_.next_suggestion_due(); due && *due) {
      const auto until = std::chrono::duration_cast<std::chrono::seconds>(**due - now_seconds());
      wait = std::clamp(until + std::chrono::seconds(1), std::chrono::seconds(1), wait);
    }
    std::unique_lock lock(mutex_);
    wake_.wait_for(lock, wait, [this] { return woken_ || stopping_; });
  }
}

}  // namespace longread::pipeline
