// The crawl's closing line: what operators read after `longread crawl` and in serve's log.
#include "app/progress.h"

#include <gtest/gtest.h>

namespace longread::app {
namespace {

TEST(CrawlSummaryLine, CountsEachOutcome) {
  pipeline::CrawlSummary s;
  s.done = 12;
  s.fetched = 7;
  s.not_modified = 2;
  s.failed = 3;
  s.failures_by_kind = {{"http_status", 2}, {"timeout", 1}};
  s.new_articles = 40;
  s.updated_articles = 1;
  s.elapsed = std::chrono::milliseconds(2340);
  EXPECT_EQ(format_summary(s),
            "crawled 12 blogs in 2.3 s: 7 fetched, 2 not modified, 3 failed (2 http_status, 1 timeout); "
            "40 new articles, 1 updated");
}

// A pass stopped by SIGTERM: the blogs it did not finish are reported apart from the failures.
TEST(CrawlSummaryLine, StoppedBlogsAreNotFailures) {
  pipeline::CrawlSummary s;
  s.done = 387;
  s.failed = 49;
  s.failures_by_kind = {{"network", 49}};
  s.stopped = 338;
  s.elapsed = std::chrono::milliseconds(15000);
  EXPECT_EQ(format_summary(s),
            "crawled 387 blogs in 15.0 s: 0 fetched, 0 not modified, 49 failed (49 network), 338 not polled "
            "(stopped; still due); 0 new articles, 0 updated");
}

}  // namespace
}  // namespace longread::app
