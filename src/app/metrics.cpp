#include "app/metrics.h"

#include <prometheus/counter.h>
#include <prometheus/family.h>
#include <prometheus/histogram.h>
#include <prometheus/registry.h>
#include <prometheus/text_serializer.h>

#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "core/error.h"

namespace longread::app {
namespace {

// A gauge family with one unlabelled sample, built per scrape from the store's totals.
prometheus::MetricFamily gauge(std::string name, std::string help, double value) {
  prometheus::MetricFamily family{std::move(name), std::move(help), prometheus::MetricType::Gauge, {}};
  prometheus::ClientMetric sample;
  sample.gauge.value = value;
  family.metric.push_back(std::move(sample));
  return family;
}

}  // namespace

struct Metrics::Impl {
  prometheus::Registry registry;
  prometheus::Family<prometheus::Counter>& polls =
      prometheus::BuildCounter()
          .Name("longread_crawl_polls_total")
          .Help("Feed polls by outcome: fetched (200, parsed), not_modified (304) or failed")
          .Register(registry);
  prometheus::Family<prometheus::Counter>& failures =
      prometheus::BuildCounter()
          .Name("longread_crawl_failures_total")
          .Help("Failed feed polls by kind of failure (network, timeout, http_status, parse, forbidden, ...)")
          .Register(registry);
  prometheus::Family<prometheus::Counter>& articles =
      prometheus::BuildCounter()
          .Name("longread_crawl_articles_total")
          .Help("Articles the crawler stored, by change: new or updated")
          .Register(registry);
  prometheus::Family<prometheus::Histogram>& fetch_seconds =
      prometheus::BuildHistogram()
          .Name("longread_fetch_duration_seconds")
          .Help("Time to fetch one feed (all redirect hops), failures and 304s included")
          .Register(registry);
  prometheus::Family<prometheus::Counter>& requests =
      prometheus::BuildCounter()
          .Name("longread_http_requests_total")
          .Help("Answered HTTP requests by route pattern and status")
          .Register(registry);
  prometheus::Family<prometheus::Histogram>& request_seconds =
      prometheus::BuildHistogram()
          .Name("longread_http_request_duration_seconds")
          .Help("Time from a request read to its response written, by route pattern")
          .Register(registry);

  prometheus::Counter& fetched = polls.Add({{"result", "fetched"}});
  prometheus::Counter& not_modified = polls.Add({{"result", "not_modified"}});
  prometheus::Counter& failed = polls.Add({{"result", "failed"}});
  prometheus::Counter& new_articles = articles.Add({{"change", "new"}});
  prometheus::Counter& updated_articles = articles.Add({{"change", "updated"}});
  prometheus::Histogram& fetch_histogram = fetch_seconds.Add(
      {}, prometheus::Histogram::BucketBoundaries{0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60});

  // Each route's histogram and its counters by status, made on the route's first response and found by
  // one map lookup after that (Family::Add builds a label map and, for a histogram, its buckets). Routes
  // are the router's patterns plus "(none)" and "(unread)", and statuses are the server's own, so these
  // maps stay small whatever clients send.
  struct RouteMetrics {
    prometheus::Histogram* seconds = nullptr;
    std::map<int, prometheus::Counter*> by_status;
  };
  std::mutex routes_mutex;
  std::map<std::string, RouteMetrics, std::less<>> routes;

  prometheus::Counter& request_counter(RouteMetrics& route, std::string_view name, int status) {
    auto it = route.by_status.find(status);
    if (it == route.by_status.end()) {
      it = route.by_status
               .emplace(status,
                        &requests.Add({{"route", std::string(name)}, {"status", std::to_string(status)}}))
               .first;
    }
    return *it->second;
  }

  RouteMetrics& route_metrics(std::string_view name) {
    auto it = routes.find(name);
    if (it == routes.end()) {
      RouteMetrics metrics;
      metrics.seconds = &request_seconds.Add({{"route", std::string(name)}},
                                             prometheus::Histogram::BucketBoundaries{
                                                 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1});
      it = routes.emplace(std::string(name), std::move(metrics)).first;
    }
    return it->second;
  }
};

Metrics::Metrics() : impl_(std::make_unique<Impl>()) {}
Metrics::~Metrics() = default;

void Metrics::blog_polled(const pipeline::BlogResult& result) {
  switch (result.outcome) {
    case pipeline::PollOutcome::kStopped:
      return;
    case pipeline::PollOutcome::kFailed:
      impl_->failed.Increment();
      impl_->failures.Add({{"kind", to_string(result.error_kind.value_or(ErrorKind::kInternal))}})
          .Increment();
      break;
    case pipeline::PollOutcome::kNotModified:
      impl_->not_modified.Increment();
      break;
    case pipeline::PollOutcome::kFetched:
      impl_->fetched.Increment();
      break;
  }
  impl_->new_articles.Increment(result.new_articles);
  impl_->updated_articles.Increment(result.updated_articles);
  if (result.fetch_elapsed.count() > 0) {
    impl_->fetch_histogram.Observe(std::chrono::duration<double>(result.fetch_elapsed).count());
  }
}

void Metrics::http_response(std::string_view route, int status, double seconds) {
  prometheus::Counter* counter = nullptr;
  prometheus::Histogram* histogram = nullptr;
  {
    std::lock_guard lock(impl_->routes_mutex);
    auto& metrics = impl_->route_metrics(route);
    counter = &impl_->request_counter(metrics, route, status);
    histogram = metrics.seconds;
  }
  counter->Increment();
  histogram->Observe(seconds);
}

std::string Metrics::render(storage::DatabaseStore& store, TimePoint now) {
  std::vector<prometheus::MetricFamily> families = impl_->registry.Collect();
  const auto stats = store.site_stats(now);
  families.push_back(gauge("longread_store_up", "1 when the store answered this scrape", stats ? 1 : 0));
  if (stats) {
    const auto add = [&](const char* name, const char* help, std::int64_t value) {
      families.push_back(gauge(name, help, static_cast<double>(value)));
    };
    add("longread_blogs", "Followed blogs", stats->blogs);
    add("longread_blogs_due", "Blogs due for a poll now (neither paused nor quarantined)", stats->blogs_due);
    add("longread_blogs_paused", "Blogs an operator paused", stats->blogs_paused);
    add("longread_blogs_quarantined", "Blogs quarantined after crashing the crawler",
        stats->blogs_quarantined);
    add("longread_blogs_failing", "Blogs whose last poll failed", stats->blogs_failing);
    add("longread_articles_visible", "Articles shown on the site", stats->articles_visible);
    add("longread_articles_junk", "Articles judged junk (hidden)", stats->articles_junk);
    add("longread_articles_held", "Articles hidden by readers' flags until an operator decides",
        stats->articles_held);
    add("longread_readers", "Reader accounts", stats->readers);
    add("longread_newsletter_subscribers", "Confirmed newsletter subscribers", stats->subscribers);
    add("longread_mail_outbox_queued", "Account mails waiting in the outbox", stats->outbox_queued);
    if (stats->last_newsletter_sent) {
      add("longread_newsletter_last_sent_timestamp_seconds",
          "When the latest newsletter delivery was sent (Unix time)", to_unix(*stats->last_newsletter_sent));
    }
  }
  return prometheus::TextSerializer().Serialize(families);
}

void MetricsCrawlObserver::on_start(int total) {
  if (next_ != nullptr) next_->on_start(total);
}

void MetricsCrawlObserver::on_blog_done(const pipeline::BlogResult& result,
                                        const pipeline::CrawlSummary& so_far) {
  metrics_.blog_polled(result);
  if (next_ != nullptr) next_->on_blog_done(result, so_far);
}

void MetricsCrawlObserver::on_finish(const pipeline::CrawlSummary& summary) {
  if (next_ != nullptr) next_->on_finish(summary);
}

}  // namespace longread::app
