#include "pipeline/crawler.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <random>
#include <shared_mutex>
#include <thread>
#include <unordered_map>
#include <unordered_set>

#include "fetch/http_client.h"
#include "pipeline/blog_refresh.h"
#include "pipeline/duplicates.h"
#include "pipeline/save_queue.h"
#include "pipeline/similar.h"
#include "pipeline/task_pool.h"
#include "storage/article_body.h"
#include "storage/store.h"

namespace longread::pipeline {
namespace {

using Clock = std::chrono::steady_clock;

std::chrono::milliseconds since(Clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start);
}

std::string host_name() {
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) != 0) return "localhost";
  return host;
}

// The age past which a mark from another host is taken for a dead process (parsing takes seconds).
constexpr auto kForeignMarkLease = std::chrono::hours{1};

}  // namespace

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

void train_first_body_dictionary(storage::Store& store) {
  auto trained = store.train_first_body_dictionary();
  if (!trained) {
    spdlog::warn("bodies: {}", trained.error().message);
  } else if (*trained) {
    spdlog::info(
        "bodies: trained dictionary {} on the newest articles; new bodies are compressed with it "
        "(`longread db compact` packs the older ones again)",
        **trained);
  }
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
  // --all takes every blog at once; otherwise the due blogs are claimed in batches (claim_batch), at most
  // max_blogs_per_pass in all, until none is left.
  int claims_left = options_.max_blogs_per_pass > 0 ? options_.max_blogs_per_pass : -1;
  bool claims_done = options_.all;
  auto claim = [&]() -> Result<std::vector<model::Blog>> {
    if (claims_done || stop_requested_) return std::vector<model::Blog>{};
    const int limit = claims_left < 0 ? std::max(1, options_.claim_batch)
                                      : std::min(claims_left, std::max(1, options_.claim_batch));
    auto claimed = store_.claim_due_blogs(parsing_owner(), now, now + options_.lease, limit);
    if (!claimed) return claimed;
    if (claims_left > 0) claims_left -= static_cast<int>(claimed->size());
    claims_done = std::cmp_less(claimed->size(), limit) || claims_left == 0;
    return claimed;
  };
  auto blogs = options_.all ? store_.blogs() : claim();
  if (!blogs) return std::unexpected(blogs.error());

  const BlogRefreshContext context{.store = store_,
                                   .options = options_,
                                   .curation = curation_,
                                   .now = now,
                                   .stop_requested = &stop_requested_};
  // By the feed request's tag, the blog's id. The fetching thread adds a batch while the pool's tasks look
  // blogs up: `refreshes_mutex` guards the map (its elements never move).
  std::unordered_map<std::uint64_t, BlogRefresh> refreshes;
  std::shared_mutex refreshes_mutex;
  auto requests_for = [&](std::vector<model::Blog>& batch) {
    // A paused blog (`longread blogs pause`) or a quarantined one (it crashed the crawler) is polled by no
    // crawl, --all included; due_blogs leaves them out. One found to have crashed the last crawler backs off.
    std::erase_if(batch, [&](const model::Blog& blog) {
      return blog.paused || blog.quarantined || crashed.contains(blog.id);
    });
    std::vector<fetch::Request> requests;
    requests.reserve(batch.size());
    std::unique_lock lock(refreshes_mutex);
    for (auto& blog : batch) {
      requests.push_back({.url = blog.feed_url,
                          .etag = blog.etag,
                          .last_modified = blog.last_modified,
                          .tag = static_cast<std::uint64_t>(blog.id),
                          // Stored by the operator (import, blogs add / edit) or moved by a 301/308 hop,
                          // which is http(s) only: the one kind of URL that may be file://.
                          .from_operator = true});
      refreshes.try_emplace(static_cast<std::uint64_t>(blog.id), std::move(blog), context);
    }
    return requests;
  };
  std::vector<fetch::Request> requests = requests_for(*blogs);
  PassSummary summary(static_cast<int>(requests.size()), observer, pass_start);
  // Blogs handed to the fetcher and blogs finished (saved, failed or stopped). What lies between holds feed
  // bodies and parsed articles in memory, so no more are claimed while it is over the backlog: the pass's
  // memory stays bounded when saving is slower than fetching and parsing. One claim batch unfinished is
  // enough to keep the writer busy (seconds of saving), and a new batch on top makes at most two.
  int handed_out = static_cast<int>(requests.size());
  std::atomic<int> finished{0};
  const int max_backlog = std::max(1, options_.claim_batch);
  auto more_requests = [&]() -> std::optional<std::vector<fetch::Request>> {
    if (handed_out - finished.load() >= max_backlog) return std::vector<fetch::Request>{};  // none for now
    // Until one comes back with blogs the pass can poll, or none is left.
    for (;;) {
      auto batch = claim();
      if (!batch) {
        spdlog::warn("crawl: cannot claim more due blogs: {}", batch.error().message);
        claims_done = true;
        return std::nullopt;
      }
      if (batch->empty()) return std::nullopt;
      auto more = requests_for(*batch);
      summary.add_total(static_cast<int>(more.size()));
      handed_out += static_cast<int>(more.size());
      if (!more.empty()) return more;
    }
  };
  auto refresh_of = [&](std::uint64_t tag) -> BlogRefresh& {
    std::shared_lock lock(refreshes_mutex);
    return refreshes.at(tag);
  };

  DuplicateIndex duplicates(store_);
  SimilarIndexer similar(store_);
  std::optional<TimePoint> fresh_since;
  if (options_.similar_fresh_days.count() > 0) fresh_since = now - options_.similar_fresh_days;
  // A new site's first pass brings most of its back catalogue at once: the first body dictionary is trained
  // as soon as the pass has stored enough articles to learn from, on the writer's thread (once: a few
  // seconds), so that the rest of the pass is compressed with it.
  int stored_this_pass = 0;
  bool dictionary_asked = false;
  SaveQueue saves(
      duplicates, options_.similar_articles ? &similar : nullptr,
      [&](BlogResult& result) {
        summary.add(result);
        ++finished;
        stored_this_pass += result.new_articles;
        if (!dictionary_asked && stored_this_pass >= storage::kMinBodyDictionarySamples) {
          dictionary_asked = true;
          train_first_body_dictionary(store_);
        }
      },
      fresh_since);
  // A blog whose fetch (feed or full-text page) the pass's stop() cut short: nothing is recorded, so it
  // keeps its schedule, validators and failure count, and the next pass polls it again from scratch.
  auto finish = [&](BlogRefresh& refresh) {
    if (refresh.state() == BlogRefresh::State::kStopped) {
      refresh.result().elapsed = since(refresh.started());
      summary.add(refresh.result());
      ++finished;
    } else {
      // Bodies are compressed here, on a parsing thread, so that the save queue's one writer does less.
      if (auto prepared = store_.prepare_crawl(refresh.record()); !prepared)
        spdlog::warn("crawl: blog_id={} bodies left to the writer: {}", refresh.blog().id,
                     prepared.error().message);
      saves.push(std::move(refresh.record()), std::move(refresh.result()), refresh.started(),
                 !refresh.blog().last_success_at.has_value());
    }
  };
  // A finished blog's refresh is dropped at once, so that the pass holds the blogs in flight, not every
  // blog of a list of tens of thousands. Nothing refers to it any more: its feed and pages are all read.
  auto finish_and_drop = [&](BlogRefresh& refresh) {
    finish(refresh);
    const auto tag = static_cast<std::uint64_t>(refresh.blog().id);
    std::unique_lock lock(refreshes_mutex);
    refreshes.erase(tag);
  };

  // libcurl fetches on this thread; parsing, curation and extraction run on the pool and saving on the
  // save queue's writer thread, so every core works while transfers continue. `mutex` guards the page
  // requests, which the pool's tasks add to.
  std::mutex mutex;
  struct PageJob {
    BlogRefresh* refresh;
    std::size_t page;  // the page's index in refresh->page_requests()
  };
  std::vector<fetch::Request> page_requests;
  std::vector<PageJob> page_jobs;  // by the page request's tag
  {
    TaskPool pool(std::max(1U, std::thread::hardware_concurrency()));
    client_.fetch_all(
        std::move(requests),
        [&](fetch::Response response) {
          auto shared = std::make_shared<fetch::Response>(std::move(response));
          pool.submit([&, shared] {
            BlogRefresh& refresh = refresh_of(shared->tag);
            if (refresh.read_feed(*shared) != BlogRefresh::State::kWaitingForPages)
              return finish_and_drop(refresh);
            std::lock_guard lock(mutex);
            for (fetch::Request request : refresh.page_requests()) {
              page_jobs.push_back({&refresh, request.tag});
              request.tag = page_jobs.size() - 1;
              page_requests.push_back(std::move(request));
            }
          });
        },
        more_requests);
    pool.wait_idle();
    if (!page_requests.empty() && !stop_requested_) {
      client_.fetch_all(std::move(page_requests), [&](fetch::Response response) {
        auto shared = std::make_shared<fetch::Response>(std::move(response));
        pool.submit([&, shared] {
          const PageJob job = page_jobs.at(shared->tag);
          if (job.refresh->read_page(job.page, *shared)) finish_and_drop(*job.refresh);
        });
      });
      pool.wait_idle();
    }
  }
  // Anything still waiting was stopped before its pages were fetched: not recorded (BlogRefresh::stop).
  for (auto& [tag, refresh] : refreshes) {
    if (refresh.state() != BlogRefresh::State::kWaitingForPages) continue;
    refresh.stop();
    finish(refresh);
  }
  saves.wait_idle();
  if (auto written = similar.flush(); !written)
    spdlog::warn("crawl: term counts for similar articles not written: {}", written.error().message);
  // Every blog of the pass is saved or was stopped: none of its marks stands for a parse still running.
  if (auto cleared = store_.clear_parsing_marks(parsing_owner()); !cleared)
    spdlog::warn("crawl: cannot clear parsing marks: {}", cleared.error().message);
  // Recording a blog ended its claim; a blog stopped before it was recorded is due again at once.
  if (auto released = store_.release_blog_claims(parsing_owner()); !released)
    spdlog::warn("crawl: cannot release blog claims: {}", released.error().message);
  return summary.finish();
}

}  // namespace longread::pipeline
