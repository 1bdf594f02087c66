// Refreshing one blog on its own: feed responses built here from the fixtures in testdata/blog_refresh/
// (no HTTP server: BlogRefresh fetches nothing), read against a real SQLite store.
#include "pipeline/blog_refresh.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "testing/store_test.h"

namespace longread::pipeline {
namespace {

const std::string kTestdata = LONGREAD_SOURCE_DIR "/src/pipeline/testdata/blog_refresh";

std::string fixture(const std::string& name) {
  std::ifstream in(kTestdata + "/" + name, std::ios::binary);
  EXPECT_TRUE(in) << "cannot read " << name;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// After the fixtures' dates (May 2024), so that they are plausible.
const TimePoint kNow = from_unix(1'717'243'200);  // 2024-06-01T12:00:00Z

class BlogRefreshTest : public testing::StoreTest {
 protected:
  BlogRefreshTest() : StoreTest("longread_blog_refresh") {}

  void SetUp() override {
    StoreTest::SetUp();
    const auto id = add_blog("queues");
    auto blog = store_->blog(id);
    ASSERT_TRUE(blog && *blog);
    blog_ = **blog;
  }

  BlogRefreshContext context() {
    return {
        .store = *store_, .options = options_, .curation = curation_, .now = kNow, .stop_requested = &stop_};
  }

  // The feed's answer: a 200 with the fixture's body.
  fetch::Response feed(const std::string& name) {
    fetch::Response response;
    response.tag = static_cast<std::uint64_t>(blog_.id);
    response.url = response.final_url = blog_.feed_url;
    response.status = 200;
    response.body = fixture(name);
    response.content_type = "application/rss+xml";
    response.etag = "\"v1\"";
    return response;
  }

  static fetch::Response failed(const std::string& url, long status, Error error) {
    fetch::Response response;
    response.url = response.final_url = url;
    response.status = status;
    response.error = std::move(error);
    return response;
  }

  model::Blog blog_;
  CrawlOptions options_;
  CurationContext curation_;
  std::atomic<bool> stop_{false};
};

std::vector<std::string> titles(const storage::CrawlRecord& record) {
  std::vector<std::string> out;
  for (const auto& article : record.articles) out.push_back(article.title);
  return out;
}

TEST_F(BlogRefreshTest, AFeedBecomesARecordOfItsEntriesWithTheFirstOfARepeatedGuid) {
  BlogRefresh refresh(blog_, context());
  ASSERT_EQ(refresh.read_feed(feed("feed.xml")), BlogRefresh::State::kDone);
  EXPECT_TRUE(refresh.page_requests().empty());  // full posts: no page to fetch

  const BlogResult& result = refresh.result();
  EXPECT_EQ(result.blog_id, blog_.id);
  EXPECT_EQ(result.outcome, PollOutcome::kFetched);
  EXPECT_EQ(result.status, "ok");
  EXPECT_EQ(result.entries, 3);
  EXPECT_FALSE(result.error_kind);

  const storage::CrawlRecord& record = refresh.record();
  EXPECT_EQ(record.blog_id, blog_.id);
  EXPECT_EQ(record.attempted_at, kNow);
  EXPECT_TRUE(record.success);
  EXPECT_EQ(record.etag, "\"v1\"");
  EXPECT_EQ(record.feed_title, "Queues and Caches");
  EXPECT_EQ(record.site_url, "https://queues.example/");
  EXPECT_EQ(record.feed_update_interval, std::chrono::minutes{180});
  EXPECT_EQ(record.next_due_at, kNow + std::chrono::minutes{180});  // the feed's <ttl>, over the hour
  EXPECT_EQ(titles(record),
            (std::vector<std::string>{"Bounded queues under load", "What a cache line costs"}));
  ASSERT_EQ(record.articles.size(), 2u);
  EXPECT_EQ(record.articles[0].link, "https://queues.example/posts/bounded-queues");
  EXPECT_NE(record.articles[0].text.find("A bounded queue is a promise about memory."), std::string::npos);
  EXPECT_EQ(record.articles[1].link, "https://queues.example/posts/cache-lines");
  auto guids = record.feed_guids;
  std::ranges::sort(guids);
  EXPECT_EQ(guids, (std::vector<std::string>{"https://queues.example/posts/bounded-queues",
                                             "https://queues.example/posts/cache-lines"}));

  // The record is the store's to save as it is.
  auto saved = store_->save_crawl(refresh.record());
  ASSERT_TRUE(saved) << saved.error().message;
  EXPECT_EQ(saved->inserted, 2);
}

TEST_F(BlogRefreshTest, AFeedUnchangedSinceItsSaveHasNothingToCurate) {
  BlogRefresh first(blog_, context());
  ASSERT_EQ(first.read_feed(feed("feed.xml")), BlogRefresh::State::kDone);
  ASSERT_TRUE(store_->save_crawl(first.record()));

  BlogRefresh second(blog_, context());
  ASSERT_EQ(second.read_feed(feed("feed.xml")), BlogRefresh::State::kDone);
  EXPECT_EQ(second.result().outcome, PollOutcome::kFetched);
  EXPECT_EQ(second.result().entries, 3);
  EXPECT_TRUE(second.record().articles.empty());
  EXPECT_EQ(second.record().feed_guids.size(), 2u);  // still the feed's: the per-blog cap keeps them
}

TEST_F(BlogRefreshTest, ANotModifiedResponseIsNotModifiedAndKeepsNothingNew) {
  fetch::Response response;
  response.url = response.final_url = blog_.feed_url;
  response.status = 304;
  response.etag = "\"v1\"";
  BlogRefresh refresh(blog_, context());
  ASSERT_EQ(refresh.read_feed(response), BlogRefresh::State::kDone);
  EXPECT_EQ(refresh.result().outcome, PollOutcome::kNotModified);
  EXPECT_EQ(refresh.result().status, "not modified");
  EXPECT_TRUE(refresh.record().success);
  EXPECT_TRUE(refresh.record().status.starts_with("not modified"));
  EXPECT_TRUE(refresh.record().articles.empty());
  EXPECT_EQ(refresh.record().next_due_at, kNow + options_.schedule.interval);
}

TEST_F(BlogRefreshTest, APageInsteadOfAFeedIsAFailureThatKeepsNothing) {
  auto response = feed("not_a_feed.html");
  response.content_type = "text/html";
  response.last_modified = "Sat, 01 Jun 2024 10:00:00 GMT";
  BlogRefresh refresh(blog_, context());
  ASSERT_EQ(refresh.read_feed(response), BlogRefresh::State::kDone);
  EXPECT_EQ(refresh.result().outcome, PollOutcome::kFailed);
  EXPECT_EQ(refresh.result().error_kind, ErrorKind::kNotAFeed);
  EXPECT_EQ(refresh.result().status, "not a feed: got an HTML page");  // without the module's prefix
  const storage::CrawlRecord& record = refresh.record();
  EXPECT_FALSE(record.success);
  EXPECT_EQ(record.error, "not a feed: got an HTML page");
  EXPECT_TRUE(record.articles.empty());
  // Validators of a body that was not stored would make the next poll a 304 that never stores it.
  EXPECT_FALSE(record.etag);
  EXPECT_FALSE(record.last_modified);
  EXPECT_EQ(record.consecutive_failures, 1);
  EXPECT_GT(record.next_due_at, kNow);
}

TEST_F(BlogRefreshTest, AFetchErrorIsTheBlogsFailureAndWaitsForRetryAfter) {
  auto response = failed(blog_.feed_url, 503, {ErrorKind::kHttpStatus, "fetch: HTTP 503"});
  response.retry_at = kNow + std::chrono::hours{6};
  BlogRefresh refresh(blog_, context());
  ASSERT_EQ(refresh.read_feed(response), BlogRefresh::State::kDone);
  EXPECT_EQ(refresh.result().outcome, PollOutcome::kFailed);
  EXPECT_EQ(refresh.result().error_kind, ErrorKind::kHttpStatus);
  EXPECT_EQ(refresh.record().status, "HTTP 503");
  ASSERT_TRUE(refresh.record().next_due_at);
  EXPECT_GE(*refresh.record().next_due_at, kNow + std::chrono::hours{6});
}

TEST_F(BlogRefreshTest, AFeedFetchCancelledByStopIsAStopNotAFailure) {
  const auto cancelled = failed(blog_.feed_url, 0, {ErrorKind::kTimeout, "fetch: cancelled"});
  {
    BlogRefresh refresh(blog_, context());  // not stopping: a cancelled fetch is a timeout like any other
    ASSERT_EQ(refresh.read_feed(cancelled), BlogRefresh::State::kDone);
    EXPECT_EQ(refresh.result().outcome, PollOutcome::kFailed);
  }
  stop_ = true;
  BlogRefresh refresh(blog_, context());
  ASSERT_EQ(refresh.read_feed(cancelled), BlogRefresh::State::kStopped);
  EXPECT_EQ(refresh.result().outcome, PollOutcome::kStopped);
  EXPECT_EQ(refresh.result().status, "stopped");
}

TEST_F(BlogRefreshTest, ASummaryOnlyEntryAsksForItsPageAndThePageCompletesIt) {
  BlogRefresh refresh(blog_, context());
  ASSERT_EQ(refresh.read_feed(feed("summary.xml")), BlogRefresh::State::kWaitingForPages);
  ASSERT_EQ(refresh.page_requests().size(), 1u);
  const fetch::Request& request = refresh.page_requests()[0];
  EXPECT_EQ(request.url, "https://queues.example/posts/fences");
  EXPECT_EQ(request.tag, 0u);
  EXPECT_FALSE(request.from_operator);  // a link from a feed never reads a local file
  ASSERT_TRUE(request.site);            // and stays on the blog's site
  EXPECT_NE(std::ranges::find(request.site->sites, "queues.example"), request.site->sites.end());
  ASSERT_EQ(refresh.record().articles.size(), 1u);
  EXPECT_FALSE(refresh.record().articles[0].full_text_fetched);

  fetch::Response page;
  page.url = page.final_url = request.url;
  page.status = 200;
  page.content_type = "text/html; charset=utf-8";
  page.body = fixture("deep.html");
  EXPECT_TRUE(refresh.read_page(0, page));  // the blog's only page: it is complete
  EXPECT_EQ(refresh.state(), BlogRefresh::State::kDone);
  EXPECT_EQ(refresh.result().outcome, PollOutcome::kFetched);
  EXPECT_EQ(refresh.result().full_text_fetched, 1);
  const model::Article& article = refresh.record().articles[0];
  EXPECT_TRUE(article.full_text_fetched);
  EXPECT_TRUE(article.full_text_error.empty());
  EXPECT_NE(article.text.find("A fence orders the stores before it against the loads after it"),
            std::string::npos);
  EXPECT_EQ(article.text.find("Copyright"), std::string::npos);  // the page's footer is not the post
  EXPECT_GT(article.word_count, 200);  // the page's four paragraphs, not the summary's eleven words
}

TEST_F(BlogRefreshTest, APageThatFailsForAPassingReasonKeepsTheSummaryAndIsTriedAgain) {
  BlogRefresh refresh(blog_, context());
  ASSERT_EQ(refresh.read_feed(feed("summary.xml")), BlogRefresh::State::kWaitingForPages);
  const auto page = failed(refresh.page_requests()[0].url, 503, {ErrorKind::kHttpStatus, "fetch: HTTP 503"});
  EXPECT_TRUE(refresh.read_page(0, page));
  EXPECT_EQ(refresh.state(), BlogRefresh::State::kDone);
  EXPECT_EQ(refresh.result().full_text_fetched, 0);
  const model::Article& article = refresh.record().articles[0];
  EXPECT_FALSE(article.full_text_fetched);  // asked for again at the next poll
  EXPECT_EQ(article.full_text_failures, 1);
  EXPECT_EQ(article.full_text_error, "HTTP 503");
  EXPECT_NE(article.text.find("The first lines of a long post about memory fences"), std::string::npos);
}

TEST_F(BlogRefreshTest, APageCancelledByStopLeavesTheBlogUnrecorded) {
  BlogRefresh refresh(blog_, context());
  ASSERT_EQ(refresh.read_feed(feed("summary.xml")), BlogRefresh::State::kWaitingForPages);
  EXPECT_TRUE(refresh.read_page(
      0, failed(refresh.page_requests()[0].url, 0, {ErrorKind::kTimeout, "fetch: cancelled"})));
  EXPECT_EQ(refresh.state(), BlogRefresh::State::kStopped);
  EXPECT_EQ(refresh.result().outcome, PollOutcome::kStopped);
}

TEST_F(BlogRefreshTest, APassThatEndsBeforeThePagesLeavesTheBlogUnrecorded) {
  BlogRefresh refresh(blog_, context());
  ASSERT_EQ(refresh.read_feed(feed("summary.xml")), BlogRefresh::State::kWaitingForPages);
  refresh.stop();
  EXPECT_EQ(refresh.state(), BlogRefresh::State::kStopped);
  EXPECT_EQ(refresh.result().status, "stopped");
}

TEST_F(BlogRefreshTest, AStopBeforeTheFeedIsReadAsksForNoPage) {
  stop_ = true;
  BlogRefresh refresh(blog_, context());
  ASSERT_EQ(refresh.read_feed(feed("summary.xml")), BlogRefresh::State::kDone);  // saved with its summary
  EXPECT_TRUE(refresh.page_requests().empty());
  ASSERT_EQ(refresh.record().articles.size(), 1u);
  EXPECT_FALSE(refresh.record().articles[0].full_text_fetched);
}

}  // namespace
}  // namespace longread::pipeline
