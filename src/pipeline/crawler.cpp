#include "pipeline/crawler.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <memory>
#include <mutex>
#include <new>
#include <random>
#include <thread>
#include <unordered_map>
#include <unordered_set>

#include "core/strings.h"
#include "core/url.h"
#include "feed/feed.h"
#include "fetch/http_client.h"
#include "html/html.h"
#include "pipeline/budgets.h"
#include "pipeline/duplicates.h"
#include "pipeline/ranking.h"
#include "pipeline/similar.h"
#include "pipeline/task_pool.h"
#include "storage/store.h"

namespace longread::pipeline {
namespace {

using Clock = std::chrono::steady_clock;

// Largest group of blogs saved in one transaction (see save_queued in Crawler::run).
constexpr std::size_t kMaxSaveGroup = 32;

std::chrono::milliseconds since(Clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start);
}

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

// A blog whose feed was read and which waits for full-text pages before its record is saved.
struct PendingBlog {
  model::Blog blog;
  storage::CrawlRecord record;
  BlogResult result;
  Clock::time_point started;
  std::optional<double> posts_per_month;  // the blog's rate, for the prior of an article whose page is read
  int pages_outstanding = 0;
  bool cancelled = false;        // a page fetch was cut short by stop(): the blog is not recorded
  std::optional<Error> error{};  // extracting or curating a page threw: the blog fails with this
  std::shared_ptr<const html::FeedTemplate> feed_template{};  // removed from the pages' text too
};

// An exception thrown while working on one blog, as that blog's error: out of memory is a resource the
// feed exhausted (kTooLarge); anything else is a bug (kInternal). Either way only that blog fails.
Error exception_error(std::string_view stage, std::exception_ptr thrown) {
  try {
    std::rethrow_exception(thrown);
  } catch (const std::bad_alloc&) {
    return {ErrorKind::kTooLarge, fmt::format("crawl: out of memory while {}", stage)};
  } catch (const std::exception& e) {
    return {ErrorKind::kInternal, fmt::format("crawl: internal error while {}: {}", stage, e.what())};
  } catch (...) {
  }
  return {ErrorKind::kInternal, fmt::format("crawl: internal error while {}", stage)};
}

std::string host_name() {
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) != 0) return "localhost";
  return host;
}

// The age past which a mark from another host is taken for a dead process (parsing takes seconds).
constexpr auto kForeignMarkLease = std::chrono::hours{1};

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

const std::string& parsing_owner() {
  static const std::string owner = [] {
    std::random_device random;
    const std::uint64_t nonce = (static_cast<std::uint64_t>(random()) << 32) ^ random();
    return fmt::format("{}:{}:{:016x}", host_name(), getpid(), nonce);
  }();
  return owner;
}

bool parsing_owner_alive(std::string_view owner, TimePoint since, TimePoint now) {
  if (owner == parsing_owner()) return true;
  const auto last = owner.rfind(':');
  const auto middle = last == std::string_view::npos ? std::string_view::npos : owner.rfind(':', last - 1);
  if (middle == std::string_view::npos) return false;  // not a mark this code writes: nobody holds it
  const std::string_view host = owner.substr(0, middle);
  const std::string_view pid_text = owner.substr(middle + 1, last - middle - 1);
  if (host != host_name()) return now - since < kForeignMarkLease;
  pid_t pid = 0;
  const auto [end, ec] = std::from_chars(pid_text.data(), pid_text.data() + pid_text.size(), pid);
  if (ec != std::errc{} || end != pid_text.data() + pid_text.size() || pid <= 0) return false;
  // Our own pid with another nonce: an earlier process that had this pid (a restarted container).
  if (pid == getpid()) return false;
  return kill(pid, 0) == 0 || errno == EPERM;
}

std::string status_text(const Error& error) {
  std::string_view text = error.message;
  for (std::string_view prefix : {"fetch: ", "feed: ", "html: ", "crawl: "}) {
    if (text.starts_with(prefix)) {
      text.remove_prefix(prefix.size());
      break;
    }
  }
  return std::string(text);
}

Crawler::Crawler(storage::Store& store, fetch::HttpClient& client, CrawlOptions options,
                 CurationContext curation)
    : store_(store), client_(client), options_(options), curation_(curation) {}

void Crawler::stop() {
  stop_requested_ = true;
  client_.cancel();
}

std::unordered_set<std::int64_t> Crawler::record_crashes(TimePoint now) {
  std::unordered_set<std::int64_t> crashed;
  auto marks = store_.parsing_marks();
  if (!marks) {
    spdlog::warn("crawl: cannot look for crashed crawls: {}", marks.error().message);
    return crashed;
  }
  for (const auto& mark : *marks) {
    if (parsing_owner_alive(mark.owner, mark.since, now)) continue;
    auto blog = store_.blog(mark.blog_id);
    if (!blog || !*blog) continue;
    const model::Blog& b = **blog;
    storage::CrawlerCrash crash{.mark = mark, .crashes = b.crashes + 1, .now = now};
    crash.quarantine = crash.crashes >= kQuarantineAfterCrashes;
    crash.status =
        crash.quarantine
            ? fmt::format(
                  "quarantined: crashed the crawler while parsing ({} of {}); `longread blogs resume "
                  "{}` polls it again",
                  crash.crashes, kQuarantineAfterCrashes, b.id)
            : fmt::format("crashed the crawler while parsing ({} of {})", crash.crashes,
                          kQuarantineAfterCrashes);
    crash.next_due_at = next_due(now, b.consecutive_failures + 1, std::nullopt, options_.schedule);
    auto recorded = store_.record_crawler_crash(crash);
    if (!recorded) {
      spdlog::warn("crawl: blog_id={} cannot record a crashed crawl: {}", b.id, recorded.error().message);
    } else if (*recorded) {
      crashed.insert(b.id);
      spdlog::error("crawl: blog_id={} feed_url={} {} (the crawler {} died parsing it at {})", b.id,
                    b.feed_url, crash.status, mark.owner, format_rfc3339(mark.since));
    }
  }
  return crashed;
}

Result<CrawlSummary> Crawler::run(CrawlObserver* observer) {
  const auto pass_start = Clock::now();
  const TimePoint now = now_seconds();
  const auto crashed = record_crashes(now);
  auto blogs = options_.all ? store_.blogs() : store_.due_blogs(now);
  if (!blogs) return std::unexpected(blogs.error());
  // A paused blog (`longread blogs pause`) or a quarantined one (it crashed the crawler) is polled by no
  // crawl, --all included; due_blogs leaves them out. One found to have crashed the last crawler backs off.
  std::erase_if(*blogs, [&](const model::Blog& blog) {
    return blog.paused || blog.quarantined || crashed.contains(blog.id);
  });

  CrawlSummary summary;
  summary.total = static_cast<int>(blogs->size());
  if (observer) observer->on_start(summary.total);

  std::unordered_map<std::uint64_t, model::Blog> by_id;
  std::vector<fetch::Request> requests;
  requests.reserve(blogs->size());
  for (auto& blog : *blogs) {
    requests.push_back({.url = blog.feed_url,
                        .etag = blog.etag,
                        .last_modified = blog.last_modified,
                        .tag = static_cast<std::uint64_t>(blog.id),
                        // Stored by the operator (import, blogs add / edit) or moved by a 301/308 hop, which
                        // is http(s) only: the one kind of URL that may be file://.
                        .from_operator = true});
    by_id.emplace(static_cast<std::uint64_t>(blog.id), std::move(blog));
  }

  // libcurl fetches on this thread; parsing, curation and extraction run on the pool and saving on the
  // writer thread, so every core works while transfers continue. `mutex` guards everything below that the
  // tasks share.
  std::mutex mutex;
  std::unordered_map<std::uint64_t, PendingBlog> pending;  // blogs waiting for full-text pages
  struct PageJob {
    std::uint64_t blog_tag;
    std::size_t article_index;
  };
  std::vector<fetch::Request> page_requests;
  std::vector<PageJob> page_jobs;

  DuplicateIndex duplicates(store_);
  SimilarIndexer similar(store_);

  // Saving runs on its own thread, in the order blogs finish: the store takes one writer at a time, so
  // a worker that has curated a blog hands it over and goes on with the next feed instead of waiting
  // for the database. The writer saves everything that queued up while it was busy as one group (one
  // transaction, Store::save_crawls): when curation outpaces the database, groups grow and each commit
  // carries more blogs.
  struct SaveJob {
    storage::CrawlRecord record;
    BlogResult result;
    Clock::time_point started;
  };
  std::mutex save_mutex;
  std::vector<SaveJob> save_queue;  // guarded by save_mutex
  auto report = [&](BlogResult& result, const Result<storage::SaveStats>& saved, Clock::time_point started) {
    if (!saved) {
      result.outcome = PollOutcome::kFailed;
      result.status = "not saved: " + saved.error().message;
      result.error_kind = saved.error().kind;
      spdlog::error("crawl: cannot save blog_id={} feed_url={}: {}", result.blog_id, result.feed_url,
                    saved.error().message);
    } else {
      result.new_articles = saved->inserted;
      result.updated_articles = saved->updated;
      result.articles_deleted = saved->deleted;
    }
    result.elapsed = since(started);
    std::lock_guard lock(mutex);
    ++summary.done;
    switch (result.outcome) {
      case PollOutcome::kFailed:
        ++summary.failed;
        ++summary.failures_by_kind[to_string(result.error_kind.value_or(ErrorKind::kInternal))];
        break;
      case PollOutcome::kNotModified:
        ++summary.not_modified;
        break;
      case PollOutcome::kFetched:
      case PollOutcome::kStopped:  // counted by report_stopped, never reported here
        ++summary.fetched;
        break;
    }
    summary.new_articles += result.new_articles;
    summary.updated_articles += result.updated_articles;
    summary.elapsed = since(pass_start);
    if (observer) observer->on_blog_done(result, summary);
  };
  // A blog whose fetch (feed or full-text page) the pass's stop() cut short: nothing is recorded, so it
  // keeps its schedule, validators and failure count, and the next pass polls it again from scratch.
  auto report_stopped = [&](BlogResult& result, Clock::time_point started) {
    result.outcome = PollOutcome::kStopped;
    result.status = "stopped";
    result.elapsed = since(started);
    std::lock_guard lock(mutex);
    ++summary.done;
    ++summary.stopped;
    summary.elapsed = since(pass_start);
    if (observer) observer->on_blog_done(result, summary);
  };
  auto save_queued = [&] {
    std::vector<SaveJob> jobs;
    {
      // At most kMaxSaveGroup blogs per transaction, so that other writers (votes, sign-ups) never wait
      // long; every queued record has its own run of this task, so none is left behind.
      std::lock_guard lock(save_mutex);
      const auto n = std::min(save_queue.size(), kMaxSaveGroup);
      jobs.assign(std::make_move_iterator(save_queue.begin()),
                  std::make_move_iterator(save_queue.begin() + static_cast<std::ptrdiff_t>(n)));
      save_queue.erase(save_queue.begin(), save_queue.begin() + static_cast<std::ptrdiff_t>(n));
    }
    if (jobs.empty()) return;  // an earlier run took them
    std::vector<storage::CrawlRecord> records;
    records.reserve(jobs.size());
    for (auto& job : jobs) records.push_back(std::move(job.record));
    std::vector<Result<storage::SaveStats>> saved;
    std::vector<SavedOriginal> originals;
    try {
      saved = duplicates.save_all(records, options_.similar_articles ? &originals : nullptr);
    } catch (...) {
      // Nothing of the group was committed (the transaction rolls back as the exception leaves it).
      const Error error = exception_error("saving", std::current_exception());
      saved.assign(jobs.size(), std::unexpected(error));
      originals.clear();
    }
    // Each new original gets its similar articles now, once, so the article page only reads them
    // (docs/similar.md). A failure costs the picks of that article, never the crawl.
    for (const auto& original : originals) {
      const auto& article = records[original.record].articles[original.article];
      try {
        auto picked = similar.add({.id = original.id,
                                   .blog_id = records[original.record].blog_id,
                                   .simhash = article.simhash,
                                   .title = article.title,
                                   .text = article.text});
        if (!picked)
          spdlog::warn("crawl: no similar articles for article_id={}: {}", original.id,
                       picked.error().message);
      } catch (...) {
        spdlog::warn("crawl: no similar articles for article_id={}: {}", original.id,
                     exception_error("similar articles", std::current_exception()).message);
      }
    }
    for (std::size_t i = 0; i < jobs.size(); ++i) report(jobs[i].result, saved[i], jobs[i].started);
  };
  TaskPool writer(1);
  auto finish_blog = [&](storage::CrawlRecord& record, BlogResult& result, Clock::time_point started) {
    {
      std::lock_guard lock(save_mutex);
      save_queue.push_back({std::move(record), std::move(result), started});
    }
    writer.submit(save_queued);
  };

  // A blog's failure record: stored with its reason, backed off like any failed poll.
  auto failure_record = [&](const model::Blog& blog, const Error& error, std::optional<TimePoint> retry_at,
                            storage::CrawlRecord& record, BlogResult& result) {
    record.success = false;
    record.error = status_text(error);
    record.status = record.error;
    record.consecutive_failures = blog.consecutive_failures + 1;
    record.next_due_at = next_due(now, record.consecutive_failures, retry_at, options_.schedule);
    record.articles.clear();
    // Validators of a body that was not stored would make the next poll a 304 that never stores it.
    record.etag.reset();
    record.last_modified.reset();
    result.outcome = PollOutcome::kFailed;
    result.status = record.status;
    result.error_kind = error.kind;
  };

  auto process_feed_unguarded = [&](const fetch::Response& response) {
    const auto started = Clock::now() - response.elapsed;
    const model::Blog& blog = by_id.at(response.tag);
    storage::CrawlRecord record;
    record.blog_id = blog.id;
    record.attempted_at = now;
    BlogResult result;
    result.blog_id = blog.id;
    result.feed_url = blog.feed_url;
    result.fetch_elapsed = response.elapsed;
    // RFC 9110 15.4.2: a 301/308 moves the stored feed URL, but only to an http(s) URL every hop of which
    // the outbound policy let through (a refused hop fails the fetch and moves nothing).
    if (response.permanent_redirect && *response.permanent_redirect != blog.feed_url &&
        is_http_url(*response.permanent_redirect) &&
        !(response.error && fetch::HttpClient::is_refused(*response.error)))
      record.new_feed_url = response.permanent_redirect;

    auto fail_with = [&](const Error& error) {
      failure_record(blog, error, response.retry_at, record, result);
    };

    // After a 200 or 304: due after the interval (or, with crawl.scheduler = entry_frequency, the blog's
    // average gap between recent posts) or the longer wait the feed / server ask for (capped); the status
    // then says which decided ("not modified (feed: 3 h)", "ok (frequency: 12 h)") so that `longread blogs`
    // explains the date. Called once rec.articles holds this crawl's new and changed articles.
    auto schedule_success = [&](storage::CrawlRecord& rec, PollHints hints) {
      if (options_.schedule.scheduler == Scheduler::kEntryFrequency) {
        const TimePoint since = now - options_.schedule.frequency_window;
        if (auto stored = store_.count_recent_articles(blog.id, since)) {
          // This crawl's new articles are not stored yet, and a blog that just posted is likely active. An
          // undated one counts only after the blog's first crawl: before, it is the back catalogue.
          const bool first_crawl = !blog.last_success_at.has_value();
          const auto fresh = std::ranges::count_if(rec.articles, [&](const model::Article& a) {
            return a.id == 0 && a.display_date() >= since && !(a.undated && first_crawl);
          });
          hints.recent_posts = *stored + static_cast<std::int64_t>(fresh);
        } else {
          spdlog::warn("crawl: blog_id={} feed_url={} cannot count recent posts, due after the interval: {}",
                       blog.id, blog.feed_url, stored.error().message);
        }
      }
      const SuccessWait wait = success_wait(hints, options_.schedule);
      rec.next_due_at = now + wait.wait;
      if (const std::string reason = wait_reason(wait); !reason.empty()) rec.status += " (" + reason + ")";
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
          blog.id, blog.feed_url, wait.wait.count() / 60, decided_by(),
          hints.feed_interval ? hints.feed_interval->count() : 0,
          hints.fresh_for ? hints.fresh_for->count() : 0, hints.recent_posts ? *hints.recent_posts : -1,
          wait.capped);
    };

    if (response.error && stop_requested_ && fetch::HttpClient::is_cancelled(*response.error)) {
      report_stopped(result, started);
      return;
    }
    if (response.error) {
      fail_with(*response.error);
    } else if (response.not_modified()) {
      record.success = true;
      record.status = "not modified";
      if (options_.junk_retention.count() > 0) record.prune_hidden_before = now - options_.junk_retention;
      // A 304 has no body, so the feed's own hint is the one stored from its last parse (migration 0010):
      // the server's Cache-Control / Expires alone would lose a <ttl> on every poll but those that get a 200.
      result.outcome = PollOutcome::kNotModified;
      result.status = record.status;
      schedule_success(record, {.fresh_for = response.fresh_for, .feed_interval = blog.feed_update_interval});
    } else {
      // On disk before the parse starts: if this process dies parsing the body (out of memory, abort), the
      // next pass finds the mark and blames this blog (crash quarantine, Crawler::run).
      if (auto marked = store_.mark_parsing(blog.id, parsing_owner(), now_seconds()); !marked)
        spdlog::warn("crawl: blog_id={} cannot mark it parsing: {}", blog.id, marked.error().message);
      auto parsed = feed::parse_feed(
          response.body, {.base_url = response.final_url.empty() ? blog.feed_url : response.final_url,
                          .content_type = response.content_type,
                          .content_language = response.content_language});
      if (!parsed) {
        fail_with(parsed.error());
      } else {
        record.success = true;
        record.status = parsed->bozo ? "ok (recovered: " + parsed->bozo_message + ")" : "ok";
        // Zero clears a stored hint the feed no longer gives.
        record.feed_update_interval = parsed->update_interval.value_or(std::chrono::minutes{0});
        record.etag = response.etag;
        record.last_modified = response.last_modified;
        record.feed_title = parsed->title;
        record.site_url = parsed->link;
        record.author = parsed->author;
        result.status = "ok";
        result.entries = static_cast<int>(parsed->entries.size());
        // Budgets: the newest entries only, each cut to its byte budget (docs/feed.md, "Budgets").
        const std::size_t dropped = take_newest_entries(parsed->entries, options_.max_entries_per_feed);
        if (dropped > 0) {
          result.entries_dropped = static_cast<int>(dropped);
          record.status += fmt::format(" (newest {} of {} entries: crawl.max_entries_per_feed)",
                                       parsed->entries.size(), result.entries);
        }
        record.max_articles = options_.max_articles_per_blog;
        if (options_.junk_retention.count() > 0) record.prune_hidden_before = now - options_.junk_retention;

        std::unordered_map<std::string, storage::StoredArticleKey> known;
        if (auto keys = store_.article_keys(blog.id)) {
          for (auto& key : *keys) known.emplace(key.guid, std::move(key));
        }
        std::unordered_set<std::string> seen;
        std::vector<const feed::Entry*> unchanged_entries;  // for the template sample
        for (auto& entry : parsed->entries) {
          const bool truncated = cap_entry(entry, options_.max_entry_bytes);
          if (truncated) ++result.entries_truncated;
          std::string identity = entry_identity(entry);
          // Entries repeated within one feed: the first wins, whether or not it changed, so that two
          // posts sharing a guid do not take turns being stored on every crawl.
          if (!seen.insert(identity).second) continue;
          // Unchanged in the feed: keep what is stored (including a full text fetched earlier) and skip
          // the curation work entirely, unless its page failed for a passing reason and is tried again.
          const auto it = known.find(identity);
          std::string hash = entry_hash(entry);
          const bool unchanged = it != known.end() && it->second.content_hash == hash;
          const bool retry_page = unchanged && options_.fetch_full_text && !it->second.full_text_fetched &&
                                  it->second.full_text_failures > 0 &&
                                  it->second.full_text_failures < kFullTextAttempts;
          if (unchanged && !retry_page) {
            unchanged_entries.push_back(&entry);
            continue;
          }
          auto article = build_article(entry, blog, now, curation_);
          article.truncated = truncated;
          article.content_hash = std::move(hash);
          if (article.link.empty() && !trim(entry.link).empty())
            article.full_text_error = unusable_link_reason(entry.link);
          if (retry_page) article.full_text_failures = it->second.full_text_failures;
          if (it != known.end()) {
            article.id = it->second.id;  // an update: lets near-duplicate checks skip the article itself
            known.erase(it);
          }
          record.articles.push_back(std::move(article));
        }
        // Every identity the feed holds now, unchanged ones included: the per-blog cap never deletes those
        // (deleted, they would come back as new on the next crawl).
        record.feed_guids.assign(seen.begin(), seen.end());
        if (result.entries_truncated > 0)
          record.status +=
              fmt::format(" ({} cut to {} KiB: crawl.max_entry_kb)",
                          result.entries_truncated == 1 ? std::string("1 entry")
                                                        : fmt::format("{} entries", result.entries_truncated),
                          options_.max_entry_bytes / 1024);
        // The blog's template, learned from every entry of the feed (and, for a short feed, its stored
        // articles), is removed from the new and changed articles, which were built without it. Nothing to
        // learn when nothing changed.
        std::shared_ptr<const html::FeedTemplate> feed_template;
        if (!record.articles.empty()) {
          std::vector<std::string> sample;
          for (const auto& article : record.articles) sample.push_back(article.text);
          for (const auto* entry : unchanged_entries) sample.push_back(untemplated_text(*entry));
          add_stored_texts(store_, blog, seen, sample);
          feed_template = std::make_shared<const html::FeedTemplate>(html::learn_feed_template(sample));
          CurationContext context = curation_;
          context.feed_template = feed_template.get();
          for (auto& article : record.articles) apply_feed_template(article, blog, context);
        }
        // The hot order's prior (docs/ranking.md): depth from each article's text, and how quiet the blog
        // is, from the dates of every entry the feed holds (changed or not).
        std::vector<TimePoint> dates;
        for (const auto& entry : parsed->entries) {
          const auto date = entry.published ? entry.published : entry.updated;
          if (date && is_plausible_feed_date(*date, now)) dates.push_back(*date);
        }
        const std::optional<double> rate = posts_per_month(dates);
        for (auto& article : record.articles)
          article.rank_prior = rank_prior(article, rate, options_.ranking);
        schedule_success(record, {.fresh_for = response.fresh_for, .feed_interval = parsed->update_interval});

        int budget = options_.fetch_full_text ? options_.max_full_text_per_blog : 0;
        std::vector<std::size_t> wanted;
        for (std::size_t i = 0; i < record.articles.size() && budget > 0; ++i) {
          const auto& article = record.articles[i];
          if (article.link.empty() || article.full_text_fetched) continue;
          const std::string& body =
              article.content_html.empty() ? article.summary_html : article.content_html;
          if (!html::looks_like_summary(body, article.text)) continue;
          wanted.push_back(i);
          --budget;
        }
        if (!wanted.empty() && !stop_requested_) {
          const fetch::SiteRestriction site = blog_site(blog, parsed->link);
          std::lock_guard lock(mutex);
          for (const auto i : wanted) {
            page_requests.push_back({.url = record.articles[i].link,
                                     .tag = static_cast<std::uint64_t>(page_jobs.size()),
                                     .site = site});
            page_jobs.push_back({response.tag, i});
          }
          pending.emplace(response.tag,
                          PendingBlog{blog, std::move(record), std::move(result), started, rate,
                                      static_cast<int>(wanted.size()), false, std::nullopt, feed_template});
          return;
        }
      }
    }
    finish_blog(record, result, started);
  };

  // Whatever goes wrong with one blog stays with that blog: an exception (std::bad_alloc included) while
  // parsing or curating its feed fails it with the reason, and the pass goes on.
  auto process_feed = [&](const fetch::Response& response) {
    try {
      process_feed_unguarded(response);
    } catch (...) {
      const Error error = exception_error("reading the feed", std::current_exception());
      const model::Blog& blog = by_id.at(response.tag);
      spdlog::error("crawl: blog_id={} feed_url={} {}", blog.id, blog.feed_url, error.message);
      storage::CrawlRecord record{.blog_id = blog.id, .attempted_at = now};
      BlogResult result;
      result.blog_id = blog.id;
      result.feed_url = blog.feed_url;
      result.fetch_elapsed = response.elapsed;
      failure_record(blog, error, std::nullopt, record, result);
      finish_blog(record, result, Clock::now() - response.elapsed);
    }
  };

  auto process_page = [&](const fetch::Response& response) {
    PendingBlog* p = nullptr;
    model::Article* article = nullptr;
    {
      std::lock_guard lock(mutex);
      const auto& job = page_jobs.at(response.tag);
      auto it = pending.find(job.blog_tag);
      if (it == pending.end()) return;
      p = &it->second;
      article = &p->record.articles.at(job.article_index);  // each job owns its article; no resize happens
    }
    bool improved = false;
    std::optional<Error> page_error;
    const bool cancelled = response.error && fetch::HttpClient::is_cancelled(*response.error);
    try {
      if (response.ok()) {
        if (auto extracted = html::extract_main_content(response.body, response.final_url)) {
          // Keep the page's text only when it is a real improvement over the feed's summary.
          if (count_words(extracted->text) > static_cast<std::size_t>(article->word_count)) {
            if (cut_html(extracted->content_html, options_.max_entry_bytes)) article->truncated = true;
            article->content_html = std::move(extracted->content_html);
            CurationContext context = curation_;
            context.feed_template = p->feed_template.get();
            curate_article(*article, p->blog, context);
            article->rank_prior = rank_prior(*article, p->posts_per_month, options_.ranking);
            improved = true;
          }
        }
      }
    } catch (...) {
      page_error = exception_error("reading a full-text page", std::current_exception());
      spdlog::error("crawl: blog_id={} page={} {}", p->blog.id, response.final_url, page_error->message);
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
        spdlog::warn("crawl: blog_id={} article_link={} full text {}", p->blog.id, article->link,
                     article->full_text_error);
    }
    std::optional<PendingBlog> done;
    {
      std::lock_guard lock(mutex);
      if (improved) ++p->result.full_text_fetched;
      if (cancelled) p->cancelled = true;
      if (page_error && !p->error) p->error = page_error;
      if (--p->pages_outstanding == 0) {
        const auto it = pending.find(page_jobs.at(response.tag).blog_tag);
        done.emplace(std::move(it->second));
        pending.erase(it);
      }
    }
    if (done && done->cancelled) {
      report_stopped(done->result, done->started);
    } else if (done && done->error) {
      failure_record(done->blog, *done->error, std::nullopt, done->record, done->result);
      finish_blog(done->record, done->result, done->started);
    } else if (done) {
      finish_blog(done->record, done->result, done->started);
    }
  };

  {
    TaskPool pool(std::max(1U, std::thread::hardware_concurrency()));
    client_.fetch_all(std::move(requests), [&](fetch::Response response) {
      auto shared = std::make_shared<fetch::Response>(std::move(response));
      pool.submit([&process_feed, shared] { process_feed(*shared); });
    });
    pool.wait_idle();
    if (!page_requests.empty() && !stop_requested_) {
      client_.fetch_all(std::move(page_requests), [&](fetch::Response response) {
        auto shared = std::make_shared<fetch::Response>(std::move(response));
        pool.submit([&process_page, shared] { process_page(*shared); });
      });
      pool.wait_idle();
    }
  }
  // Anything still pending was stopped before its pages were fetched: not recorded, so that the next pass
  // polls it again and fetches them (saved with its summaries, its unchanged entries would never get them).
  for (auto& [tag, p] : pending) report_stopped(p.result, p.started);
  writer.wait_idle();
  // Every blog of the pass is saved or was stopped: none of its marks stands for a parse still running.
  if (auto cleared = store_.clear_parsing_marks(parsing_owner()); !cleared)
    spdlog::warn("crawl: cannot clear parsing marks: {}", cleared.error().message);

  summary.elapsed = since(pass_start);
  if (observer) observer->on_finish(summary);
  return summary;
}

}  // namespace longread::pipeline
