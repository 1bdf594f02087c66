// A pass's totals from its blogs' results, and what the observer is told as they come.
#include "pipeline/pass_summary.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

namespace longread::pipeline {
namespace {

BlogResult outcome(std::int64_t blog, PollOutcome how, std::optional<ErrorKind> kind = std::nullopt) {
  BlogResult r;
  r.blog_id = blog;
  r.outcome = how;
  r.error_kind = kind;
  return r;
}

TEST(PassSummary, EachOutcomeIsCountedAndFailuresByTheirKind) {
  CrawlSummary summary;
  auto fetched = outcome(1, PollOutcome::kFetched);
  fetched.new_articles = 3;
  fetched.updated_articles = 1;
  add_blog_result(summary, fetched);
  add_blog_result(summary, outcome(2, PollOutcome::kNotModified));
  add_blog_result(summary, outcome(3, PollOutcome::kFailed, ErrorKind::kHttpStatus));
  add_blog_result(summary, outcome(4, PollOutcome::kFailed, ErrorKind::kHttpStatus));
  add_blog_result(summary, outcome(5, PollOutcome::kFailed, ErrorKind::kTimeout));
  add_blog_result(summary, outcome(6, PollOutcome::kFailed));  // no kind given: a bug, counted as internal
  add_blog_result(summary, outcome(7, PollOutcome::kStopped));
  auto updated = outcome(8, PollOutcome::kFetched);
  updated.updated_articles = 2;
  add_blog_result(summary, updated);

  EXPECT_EQ(summary.done, 8);
  EXPECT_EQ(summary.fetched, 2);
  EXPECT_EQ(summary.not_modified, 1);
  EXPECT_EQ(summary.failed, 4);
  EXPECT_EQ(summary.stopped, 1);
  EXPECT_EQ(summary.failures_by_kind,
            (std::map<std::string, int>{{"http_status", 2}, {"timeout", 1}, {"internal", 1}}));
  EXPECT_EQ(summary.new_articles, 3);
  EXPECT_EQ(summary.updated_articles, 3);
  EXPECT_EQ(summary.total, 0);  // the pass's, not the results'
}

class RecordingObserver : public CrawlObserver {
 public:
  void on_start(int total) override { started = total; }
  void on_blog_done(const BlogResult& result, const CrawlSummary& so_far) override {
    blogs.push_back(result.blog_id);
    done_so_far.push_back(so_far.done);
  }
  void on_finish(const CrawlSummary& summary) override { finished = summary; }

  int started = -1;
  std::vector<std::int64_t> blogs;
  std::vector<int> done_so_far;
  std::optional<CrawlSummary> finished;
};

TEST(PassSummary, TheObserverSeesEachBlogWithTotalsThatIncludeIt) {
  RecordingObserver observer;
  PassSummary pass(3, &observer);
  EXPECT_EQ(observer.started, 3);
  pass.add(outcome(10, PollOutcome::kNotModified));
  pass.add(outcome(11, PollOutcome::kFailed, ErrorKind::kNetwork));
  EXPECT_EQ(observer.blogs, (std::vector<std::int64_t>{10, 11}));
  EXPECT_EQ(observer.done_so_far, (std::vector<int>{1, 2}));
  EXPECT_FALSE(observer.finished);

  const CrawlSummary summary = pass.finish();
  ASSERT_TRUE(observer.finished);
  EXPECT_EQ(observer.finished->total, 3);
  EXPECT_EQ(summary.total, 3);
  EXPECT_EQ(summary.done, 2);  // a pass may end with blogs not done
  EXPECT_EQ(summary.not_modified, 1);
  EXPECT_EQ(summary.failures_by_kind, (std::map<std::string, int>{{"network", 1}}));
}

TEST(PassSummary, WorksWithoutAnObserver) {
  PassSummary pass(1, nullptr);
  pass.add(outcome(1, PollOutcome::kFetched));
  EXPECT_EQ(pass.finish().fetched, 1);
}

}  // namespace
}  // namespace longread::pipeline
