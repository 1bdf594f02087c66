#include "ui/page_cache.h"

#include <gtest/gtest.h>

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
