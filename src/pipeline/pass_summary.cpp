#include "pipeline/pass_summary.h"

namespace longread::pipeline {

void add_blog_result(CrawlSummary& summary, const BlogResult& result) {
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
      ++summary.fetched;
      break;
    case PollOutcome::kStopped:
      ++summary.stopped;
      break;
  }
  summary.new_articles += result.new_articles;
  summary.updated_articles += result.updated_articles;
}

PassSummary::PassSummary(int total, CrawlObserver* observer, Clock::time_point pass_start)
    : observer_(observer), pass_start_(pass_start) {
  summary_.total = total;
  if (observer_) observer_->on_start(total);
}

std::chrono::milliseconds PassSummary::elapsed() const {
  return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - pass_start_);
}

void PassSummary::add_total(int more) {
  std::lock_guard lock(mutex_);
  summary_.total += more;
}

void PassSummary::add(const BlogResult& result) {
  std::lock_guard lock(mutex_);
  add_blog_result(summary_, result);
  summary_.elapsed = elapsed();
  // Under the lock, so that the observer sees the blogs one at a time with totals that only grow.
  if (observer_) observer_->on_blog_done(result, summary_);
}

CrawlSummary PassSummary::finish() {
  std::lock_guard lock(mutex_);
  summary_.elapsed = elapsed();
  if (observer_) observer_->on_finish(summary_);
  return summary_;
}

}  // namespace longread::pipeline
