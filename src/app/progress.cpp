#include "app/progress.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdio>

namespace longread::app {
namespace {

double seconds_of(std::chrono::milliseconds ms) {
  return static_cast<double>(ms.count()) / 1000.0;
}

class ProgressBar final : public pipeline::CrawlObserver {
 public:
  void on_start(int total) override {
    pipeline::CrawlSummary none;
    none.total = total;
    draw(none);
  }
  void on_blog_done(const pipeline::BlogResult& /*result*/, const pipeline::CrawlSummary& s) override {
    draw(s);
  }
  void on_finish(const pipeline::CrawlSummary& s) override {
    draw(s);
    std::fputs("\n", stderr);
  }

 private:
  void draw(const pipeline::CrawlSummary& s) {
    constexpr int kWidth = 30;
    // The total grows while a pass claims more blogs: each line shows the one it has so far.
    const int filled = s.total > 0 ? kWidth * std::min(s.done, s.total) / s.total : kWidth;
    const double secs = seconds_of(s.elapsed);
    const double rate = secs > 0 ? s.done / secs : 0.0;
    fmt::print(stderr, "\r[{}{}] {}/{} blogs, {} failed, {} new articles, {:.1f} blogs/s ",
               std::string(filled, '#'), std::string(kWidth - filled, '.'), s.done, s.total, s.failed,
               s.new_articles, rate);
    std::fflush(stderr);
  }
};

class LogLines final : public pipeline::CrawlObserver {
 public:
  void on_start(int total) override {
    spdlog::info("crawl: start blogs={} (a pass claims more as it goes)", total);
  }
  void on_blog_done(const pipeline::BlogResult& r, const pipeline::CrawlSummary& /*s*/) override {
    if (r.error_kind) {
      spdlog::warn("crawl: blog_id={} feed_url={} status=\"{}\" error_kind={} elapsed_ms={}", r.blog_id,
                   r.feed_url, r.status, to_string(*r.error_kind), r.elapsed.count());
    } else {
      spdlog::info(
          "crawl: blog_id={} feed_url={} status=\"{}\" entries={} new={} updated={} full_text={} "
          "elapsed_ms={}",
          r.blog_id, r.feed_url, r.status, r.entries, r.new_articles, r.updated_articles, r.full_text_fetched,
          r.elapsed.count());
    }
  }
};

}  // namespace

std::unique_ptr<pipeline::CrawlObserver> make_crawl_observer(bool terminal) {
  if (terminal) return std::make_unique<ProgressBar>();
  return std::make_unique<LogLines>();
}

std::string format_summary(const pipeline::CrawlSummary& s) {
  std::string failures;
  for (const auto& [kind, count] : s.failures_by_kind) {
    failures += fmt::format("{}{} {}", failures.empty() ? " (" : ", ", count, kind);
  }
  if (!failures.empty()) failures += ")";
  // A pass stopped by SIGTERM/Ctrl-C: the blogs it did not finish are not failures and stay due.
  const std::string stopped =
      s.stopped > 0 ? fmt::format(", {} not polled (stopped; still due)", s.stopped) : std::string();
  return fmt::format(
      "crawled {} blogs in {:.1f} s: {} fetched, {} not modified, {} failed{}{}; {} new articles, {} updated",
      s.done, seconds_of(s.elapsed), s.fetched, s.not_modified, s.failed, failures, stopped, s.new_articles,
      s.updated_articles);
}

}  // namespace longread::app
