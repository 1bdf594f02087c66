#include "ui/page_cache.h"

#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <thread>

#include "web/gzip.h"

namespace longread::ui {
namespace {

using std::chrono::milliseconds;

web::Response page(std::string body) {
  return web::Response::text(200, std::move(body), "text/html; charset=utf-8");
}

TEST(PageCacheTest, HitsOnlyForTheSameVersion) {
  PageCache cache(16);
  auto res = page("<p>v1</p>");
  cache.put("/", 1, milliseconds(60000), res);
  auto hit = cache.get("/", 1);
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->payload(), "<p>v1</p>");
  ASSERT_TRUE(hit->gzip_body);
  EXPECT_EQ(web::gzip_decompress(*hit->gzip_body).value(), "<p>v1</p>");
  EXPECT_FALSE(cache.get("/other", 1).has_value());
}

TEST(PageCacheTest, AfterADataChangeOneCallerRendersWhileTheOthersGetThePreviousPage) {
  PageCache cache(16);
  auto v1 = page("<p>v1</p>");
  cache.put("/", 1, milliseconds(60000), v1);
  EXPECT_FALSE(cache.get("/", 2).has_value());  // the data changed: this caller renders
  auto meanwhile = cache.get("/", 2);           // a second connection, during that render
  ASSERT_TRUE(meanwhile.has_value());
  EXPECT_EQ(meanwhile->payload(), "<p>v1</p>");
  auto v2 = page("<p>v2</p>");
  cache.put("/", 2, milliseconds(60000), v2);
  EXPECT_EQ(cache.get("/", 2)->payload(), "<p>v2</p>");
  // A second change while nobody renders: again one caller renders first.
  EXPECT_FALSE(cache.get("/", 3).has_value());
  EXPECT_EQ(cache.get("/", 3)->payload(), "<p>v2</p>");
}

TEST(PageCacheTest, ARenderThatIsNotCachedDropsTheStalePage) {
  PageCache cache(16);
  auto article = page("<h1>An article</h1>");
  cache.put("/a", 1, milliseconds(60000), article);
  EXPECT_FALSE(cache.get("/a", 2).has_value());  // hidden by a moderator: the re-render is a 404
  auto gone = web::Response::text(404, "Not found");
  cache.put("/a", 2, milliseconds(60000), gone);
  EXPECT_FALSE(cache.get("/a", 2).has_value());  // nobody is served the hidden article any more
  EXPECT_FALSE(cache.get("/a", 2).has_value());

  auto front = page("<p>front</p>");
  cache.put("/", 1, milliseconds(60000), front);
  EXPECT_FALSE(cache.get("/", 2).has_value());
  cache.forget("/");  // the re-render set a cookie, or failed
  EXPECT_FALSE(cache.get("/", 2).has_value());
  EXPECT_FALSE(cache.get("/", 2).has_value());
}

TEST(PageCacheTest, StoresOnlySuccessesWithATtl) {
  PageCache cache(16);
  auto missing = web::Response::text(404, "nope");
  cache.put("/x", 1, milliseconds(60000), missing);
  EXPECT_FALSE(cache.get("/x", 1).has_value());
  auto zero_ttl = page("a");
  cache.put("/y", 1, milliseconds(0), zero_ttl);
  EXPECT_FALSE(cache.get("/y", 1).has_value());
}

TEST(PageCacheTest, BoundedSize) {
  PageCache cache(2);
  for (int i = 0; i < 5; ++i) {
    auto res = page("p" + std::to_string(i));
    cache.put("/" + std::to_string(i), 1, milliseconds(60000), res);
  }
  int present = 0;
  for (int i = 0; i < 5; ++i) present += cache.get("/" + std::to_string(i), 1).has_value() ? 1 : 0;
  EXPECT_LE(present, 2);
  EXPECT_TRUE(cache.get("/4", 1).has_value());  // the newest entry is always kept
}

}  // namespace
}  // namespace longread::ui

namespace longread::ui {
namespace {

TEST(PageCacheTest, ExpiredEntryIsRefreshedByOneCallerWhileOthersGetItStale) {
  PageCache cache(16);
  auto res = page("old");
  cache.put("/", 7, milliseconds(1), res);
  // Wait until the entry has certainly expired (ordering, not a timing threshold: 1 ms TTL, 20 ms wait).
  std::this_thread::sleep_for(milliseconds(20));
  EXPECT_FALSE(cache.get("/", 7).has_value());  // the first caller re-renders
  auto stale = cache.get("/", 7);               // everyone else meanwhile: the stale page
  ASSERT_TRUE(stale.has_value());
  EXPECT_EQ(stale->payload(), "old");
  auto fresh = page("new");
  cache.put("/", 7, milliseconds(60000), fresh);
  EXPECT_EQ(cache.get("/", 7)->payload(), "new");
  EXPECT_FALSE(cache.get("/", 8).has_value());  // after a data change, the first caller renders
}

}  // namespace
}  // namespace longread::ui

namespace longread::ui {
namespace {

// Starts render_once("/s", 1) on another thread with a render that waits for `release`, stores `body` when
// `stores`, and counts itself in `renders`; returns once that render has begun.
std::future<Result<web::Response>> start_slow_render(PageCache& cache, std::shared_future<void> release,
                                                     std::atomic<int>& renders, bool stores) {
  auto entered = std::make_shared<std::promise<void>>();
  auto begun = entered->get_future();
  auto leader = std::async(std::launch::async, [&cache, release, &renders, stores, entered] {
    return cache.render_once("/s", 1, [&]() -> Result<web::Response> {
      ++renders;
      entered->set_value();
      release.wait();
      if (!stores) return fail(ErrorKind::kStorage, "test: the search failed", "Try again.");
      auto res = page("<p>results</p>");
      cache.put("/s", 1, milliseconds(60000), res);
      return res;
    });
  });
  begun.wait();
  return leader;
}

// Waits until `n` render_once calls wait for the render of "/s"; false if they do not within 10 s (they
// rendered by themselves instead).
bool until_waiting(PageCache& cache, int n) {
  const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (cache.waiting_for("/s") < n) {
    if (std::chrono::steady_clock::now() > end) return false;
    std::this_thread::yield();
  }
  return true;
}

TEST(PageCacheTest, APageAskedForByManyAtOnceIsRenderedOnce) {
  PageCache cache(16);
  std::promise<void> release;
  std::atomic<int> renders{0};
  auto leader = start_slow_render(cache, release.get_future().share(), renders, true);
  std::vector<std::future<Result<web::Response>>> others;
  for (int i = 0; i < 3; ++i) {
    others.push_back(std::async(std::launch::async, [&cache, &renders] {
      return cache.render_once("/s", 1, [&renders]() -> Result<web::Response> {
        ++renders;
        return page("<p>rendered again</p>");
      });
    }));
  }
  const bool waited = until_waiting(cache, 3);
  release.set_value();
  ASSERT_TRUE(waited) << "the other calls did not wait for the render under way";
  EXPECT_EQ(leader.get()->payload(), "<p>results</p>");
  for (auto& other : others) EXPECT_EQ(other.get()->payload(), "<p>results</p>");
  EXPECT_EQ(renders.load(), 1);
  EXPECT_EQ(cache.waiting_for("/s"), 0);
}

TEST(PageCacheTest, AWaiterRendersItselfWhenTheRenderItWaitedForStoredNothing) {
  PageCache cache(16);
  std::promise<void> release;
  std::atomic<int> renders{0};
  auto leader = start_slow_render(cache, release.get_future().share(), renders, false);
  auto other = std::async(std::launch::async, [&cache, &renders] {
    return cache.render_once("/s", 1, [&renders]() -> Result<web::Response> {
      ++renders;
      return page("<p>its own</p>");
    });
  });
  const bool waited = until_waiting(cache, 1);
  release.set_value();
  ASSERT_TRUE(waited);
  EXPECT_FALSE(leader.get().has_value());  // the first render's error is its own caller's
  EXPECT_EQ(other.get()->payload(), "<p>its own</p>");
  EXPECT_EQ(renders.load(), 2);
  // A later call finds no render under way and renders at once.
  EXPECT_EQ(cache.render_once("/s", 1, [] { return Result<web::Response>(page("<p>later</p>")); })->payload(),
            "<p>later</p>");
}

}  // namespace
}  // namespace longread::ui
