// The site over real sockets: a server on 127.0.0.1:0 in front of a real SQLite store in a temp dir,
// filled with the fixture blogs through Store::upsert_blog + save_crawl.
#include "ui/site.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <regex>
#include <set>

#include "feed/feed.h"
#include "feed/opml.h"
#include "ui/testing/running_site.h"
#include "ui/view.h"
#include "web/gzip.h"
#include "web/testing/client.h"

namespace longread::ui {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using web::testing::http_get;

class SiteTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    SiteOptions options = testing::test_site_options();
    // When Store::data_version() cannot be read, pages get a 1 s micro-cache; off here so that every test
    // sees the data it just wrote. With the versioned store, caching stays on and must still show fresh data.
    options.unversioned_cache_ttl = std::chrono::milliseconds(0);
    auto running = testing::RunningSite::start("site-test", std::move(options));
    ASSERT_TRUE(running) << running.error().message;
    running_ = std::move(*running);
    store_ = &running_->store();
    ids_ = running_->ids();
    port_ = running_->port();
  }
  static void TearDownTestSuite() { running_.reset(); }

  static web::testing::ClientResponse get(const std::string& target, const web::Fields& headers = {}) {
    auto res = http_get(port_, target, headers);
    EXPECT_TRUE(res.has_value()) << target << ": " << (res ? "" : res.error().message);
    return res ? *res : web::testing::ClientResponse{};
  }

  static std::string article_url(std::int64_t blog, std::int64_t article) {
    return "/blog/" + std::to_string(blog) + "/read/" + std::to_string(article);
  }

  // Saves a crawl of the compiler blog that brings one new programming article, dated now.
  static bool crawl_one_article(const std::string& guid, const std::string& title, const std::string& text) {
    storage::CrawlRecord record;
    record.blog_id = ids_.compiler_blog;
    record.attempted_at = now_seconds();
    record.success = true;
    record.status = "ok";
    model::Article article;
    article.guid = guid;
    article.title = title;
    article.link = "https://compilers.example.net/" + guid;
    article.published = now_seconds();
    article.first_seen = now_seconds();
    article.text = text;
    article.excerpt = article.text;
    article.category = "programming";
    record.articles.push_back(article);
    return store_->save_crawl(record).has_value();
  }

  static inline std::unique_ptr<testing::RunningSite> running_;
  static inline storage::Store* store_ = nullptr;
  static inline testing::FixtureIds ids_;
  static inline std::uint16_t port_ = 0;
};

TEST_F(SiteTest, Healthz) {
  auto res = get("/healthz");
  EXPECT_EQ(res.status, 200);
  EXPECT_EQ(res.body, "ok\n");
}

TEST_F(SiteTest, FrontPageListsNewestArticles) {
  auto res = get("/");
  ASSERT_EQ(res.status, 200);
  EXPECT_THAT(res.header("content-type").value_or(""), HasSubstr("text/html"));
  const std::string& body = res.body;
  EXPECT_THAT(body, HasSubstr("<!doctype html>"));
  EXPECT_THAT(body, HasSubstr("<html lang=\"en\">"));
  EXPECT_THAT(body, HasSubstr("<link rel=\"canonical\" href=\"https://longread.test/\">"));
  EXPECT_THAT(body, HasSubstr("The last voyage of the Hindenburg&#39;s sister ship"));
  EXPECT_THAT(body, HasSubstr(">Field Notes on History</a> in <a href=\"/category/history\">History</a>"));
  EXPECT_THAT(body, HasSubstr("5 minutes ago"));
  EXPECT_THAT(body, HasSubstr("0 votes"));
  EXPECT_THAT(body, HasSubstr("href=\"/?after="));
  EXPECT_THAT(body, Not(HasSubstr("href=\"/top\"")));  // no votes yet: no Top tab
}

// The link to the page after this one (a cursor link), or "" when there is none.
std::string next_link(const std::string& body) {
  static const std::regex next(R"re(<a class="next" rel="next" href="([^"]+)">)re");
  std::smatch m;
  return std::regex_search(body, m, next) ? m[1].str() : "";
}

// Every article link of a listing page, in order.
std::vector<std::string> article_links(const std::string& body) {
  static const std::regex link(R"re(href="(/blog/\d+/read/\d+)[^"]*")re");
  std::vector<std::string> out;
  for (auto it = std::sregex_iterator(body.begin(), body.end(), link); it != std::sregex_iterator(); ++it) {
    if (out.empty() || out.back() != (*it)[1].str()) out.push_back((*it)[1].str());
  }
  return out;
}

std::size_t count(const std::string& haystack, const std::string& needle) {
  std::size_t n = 0;
  for (auto pos = haystack.find(needle); pos != std::string::npos; pos = haystack.find(needle, pos + 1)) ++n;
  return n;
}

// Every page carries what HTML5 and the brief ask of it: doctype, lang, charset, viewport, title,
// description, canonical link, exactly one h1.
void expect_well_formed_page(const std::string& body, const std::string& canonical) {
  EXPECT_TRUE(body.starts_with("<!doctype html>\n<html lang=\"en\">")) << body.substr(0, 80);
  EXPECT_THAT(body, HasSubstr("<meta charset=\"utf-8\">"));
  EXPECT_THAT(body, HasSubstr("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"));
  EXPECT_THAT(body, HasSubstr("<meta name=\"description\" content=\""));
  EXPECT_THAT(body, HasSubstr("<link rel=\"canonical\" href=\"https://longread.test" + canonical + "\">"));
  EXPECT_EQ(count(body, "<title>"), 1u);
  EXPECT_EQ(count(body, "<h1"), 1u);
  EXPECT_TRUE(body.ends_with("</html>\n"));
}

TEST_F(SiteTest, FrontPagePagination) {
  const auto first = get("/");
  const std::string next = next_link(first.body);
  ASSERT_TRUE(next.starts_with("/?after=")) << next;
  EXPECT_THAT(first.body, HasSubstr("href=\"" + next + "\">More &rarr;</a>"));
  EXPECT_THAT(first.body, Not(HasSubstr("class=\"prev\"")));
  auto page2 = get(next);
  ASSERT_EQ(page2.status, 200);
  expect_well_formed_page(page2.body, next);
  // Hot is a ranked list: its pager goes back to the first page and on, not to "newer" and "older".
  EXPECT_THAT(page2.body, HasSubstr("<a class=\"prev\" href=\"/\">&larr; First page</a>"));
  EXPECT_THAT(page2.body, Not(HasSubstr("Newer")));
  EXPECT_THAT(page2.body, HasSubstr("Lock-free queues, part 2"));  // the oldest article is on the last page
  // The two pages share no article.
  const auto on_first = article_links(first.body);
  for (const auto& link : article_links(page2.body)) EXPECT_EQ(std::ranges::count(on_first, link), 0) << link;
  // Old page-number links still work and lead on by cursor.
  auto old_page2 = get("/?page=2");
  ASSERT_EQ(old_page2.status, 200);
  expect_well_formed_page(old_page2.body, "/?page=2");
  EXPECT_EQ(article_links(old_page2.body), article_links(page2.body));
  EXPECT_EQ(get("/?page=99").status, 404);
  EXPECT_EQ(get("/?page=abc").status, 400);
  EXPECT_EQ(get("/?page=0").status, 400);
}

// A forged or damaged cursor is a 400 (or a page from where it points), never a 500.
TEST_F(SiteTest, BadListingCursorsAreRefused) {
  const std::string blog = "/blog/" + std::to_string(ids_.ada_blog);
  for (const std::string& path : {std::string("/"), std::string("/newest"), std::string("/category/history"),
                                  blog, std::string("/top?period=all")}) {
    const char joiner = path.find('?') == std::string::npos ? '?' : '&';
    for (const std::string& bad :
         {std::string("x"), std::string(""), std::string("1.2.3.4.5"),
          std::string("99999999999999999999999.1"), std::string("-1.-1"), std::string("1.-1.-1"),
          std::string("%00"), std::string("1.1.1_"), std::string(9000, '9')}) {
      EXPECT_EQ(get(path + joiner + "after=" + bad).status, 400) << path << " after=" << bad;
    }
  }
  // A hot cursor whose score is not a number.
  EXPECT_EQ(get("/?after=9221120237041090560.1.1").status, 400);
  EXPECT_EQ(get("/category/history?after=9221120237041090560.1.1").status, 400);
  // Well formed but past the end: no such page.
  EXPECT_EQ(get("/newest?after=-9223372036854775808.1").status, 404);
}  // "/newest" lists strictly by date, whatever the votes, with its own pagination.
TEST_F(SiteTest, NewestPageListsByDate) {
  auto res = get("/newest");
  ASSERT_EQ(res.status, 200);
  expect_well_formed_page(res.body, "/newest");
  EXPECT_THAT(res.body, HasSubstr("<h1 class=\"page-title\">Newest articles</h1>"));
  const auto hindenburg = res.body.find("The last voyage of the Hindenburg");
  const auto compiler = res.body.find("Register allocation, week 1");
  ASSERT_NE(hindenburg, std::string::npos);
  ASSERT_NE(compiler, std::string::npos);
  EXPECT_LT(hindenburg, compiler);  // 5 minutes ago before 3 hours ago
  const std::string next = next_link(res.body);
  ASSERT_TRUE(next.starts_with("/newest?after=")) << next;
  EXPECT_THAT(res.body, HasSubstr("href=\"" + next + "\">Older &rarr;</a>"));
  auto page2 = get(next);
  EXPECT_THAT(page2.body, HasSubstr("Lock-free queues, part 2"));
  EXPECT_THAT(page2.body, HasSubstr("<a class=\"prev\" href=\"/newest\">&larr; Newest</a>"));
  EXPECT_EQ(article_links(get("/newest?page=2").body), article_links(page2.body));
  EXPECT_EQ(get("/newest?page=99").status, 404);
}

TEST_F(SiteTest, ArticlePage) {
  const std::string canonical =
      article_url(ids_.ada_blog, ids_.lock_free_article) + "-lock-free-queues-part-2";
  auto res = get(canonical);
  ASSERT_EQ(res.status, 200);
  const std::string& body = res.body;
  expect_well_formed_page(body, canonical);
  EXPECT_THAT(body, HasSubstr("<title>Lock-free queues, part 2 — longread</title>"));
  EXPECT_THAT(body, HasSubstr("<h1>Lock-free queues, part 2</h1>"));
  // Each control shows its shortcut beside it, as the original does.
  EXPECT_THAT(body, HasSubstr("from <a href=\"/blog/" + std::to_string(ids_.ada_blog) +
                              "\" data-shortcut=\"blog\" aria-keyshortcuts=\"Alt+Shift+B\">Ada&#39;s "
                              "Notebook</a> <span class=\"key\" aria-hidden=\"true\">[alt+shift+b]</span> in "
                              "<a href=\"/category/programming\">Programming</a>"));
  EXPECT_THAT(body, HasSubstr("23rd May 2022"));
  EXPECT_THAT(body, HasSubstr("8 min read"));
  // The preview keeps the article's paragraphs (the stored excerpt has them on one line) ...
  EXPECT_THAT(body, HasSubstr("<div class=\"body excerpt-long\">\n<p>A queue that never takes a lock sounds "
                              "like a free lunch"));
  EXPECT_THAT(body, HasSubstr("really does terminate.</p>\n<p>The first part of this series"));
  // ... shows a code block as code (the fixture's third paragraph, from <pre>) ...
  EXPECT_THAT(body, HasSubstr("<pre tabindex=\"0\">while (!tail.compare_exchange_weak(expected, desired, "
                              "std::memory_order_release,\n                                    "
                              "std::memory_order_relaxed)) {\n  desired-&gt;next = expected;\n}</pre>"));
  // ... and is cut at a word boundary, ending with an ellipsis.
  EXPECT_TRUE(std::regex_search(body, std::regex("[a-z]…</p>\n</div>"))) << body;
  EXPECT_THAT(
      body,
      HasSubstr(
          "<a href=\"https://ada.example.com/2022/lock-free-queues-2\" rel=\"noopener\" "
          "class=\"button primary\" data-shortcut=\"read\" data-read-now aria-keyshortcuts=\"ArrowRight\">"
          "Read now <span class=\"key\" aria-hidden=\"true\">[&rarr;]</span></a>"));
  EXPECT_THAT(body, HasSubstr("action=\"/reading-list/" + std::to_string(ids_.lock_free_article) + "\""));
  EXPECT_THAT(body, HasSubstr("Add to reading list <span class=\"key\" aria-hidden=\"true\">[alt+a]</span>"));
  // This site cannot send mail: no newsletter box, which would end on "not set up" (ReadersTest has it).
  EXPECT_THAT(body, Not(HasSubstr("Stay updated")));
  EXPECT_THAT(body, Not(HasSubstr("action=\"/newsletter\"")));
  EXPECT_THAT(body, HasSubstr("More from Ada&#39;s Notebook"));
  EXPECT_THAT(body, HasSubstr("Notebook entry 1"));
  EXPECT_THAT(body, HasSubstr("More in Programming"));
  EXPECT_THAT(body, HasSubstr("Register allocation, week 1"));
  EXPECT_THAT(body, HasSubstr("<p class=\"excerpt\">The paper is at https:"));
  // The same article is not listed under "More from" itself.
  EXPECT_EQ(count(body, "href=\"" + canonical + "\""), 0u);
}

TEST_F(SiteTest, ArticleSlugsAndWrongBlogs) {
  const std::string canonical =
      article_url(ids_.ada_blog, ids_.lock_free_article) + "-lock-free-queues-part-2";
  for (const std::string& target : {article_url(ids_.ada_blog, ids_.lock_free_article),
                                    article_url(ids_.ada_blog, ids_.lock_free_article) + "-wrong-slug"}) {
    auto res = get(target);
    EXPECT_EQ(res.status, 301) << target;
    EXPECT_EQ(res.header("location"), canonical) << target;
  }
  // An article id under another blog's path is not found.
  auto other = get(article_url(ids_.history_blog, ids_.lock_free_article) + "-lock-free-queues-part-2");
  EXPECT_EQ(other.status, 404);
  EXPECT_THAT(other.body, HasSubstr("<h1 class=\"page-title\">Not found</h1>"));
  expect_well_formed_page(other.body, "/");
  for (const char* missing : {"/blog/1/read/999999", "/blog/1/read/abc", "/blog/999999", "/blog/x",
                              "/category/no-such-category", "/no/such/page", "/static/site.css"}) {
    auto res = get(missing);
    EXPECT_EQ(res.status, 404) << missing;
    EXPECT_THAT(res.body, HasSubstr("Not found")) << missing;
  }
}

TEST_F(SiteTest, UndatedArticleSaysDateUnknown) {
  auto res = get(article_url(ids_.history_blog, ids_.undated_article) + "-notes-on-medieval-bookkeeping");
  ASSERT_EQ(res.status, 200);
  EXPECT_THAT(res.body, HasSubstr("date unknown"));
}

TEST_F(SiteTest, FeedMarkupIsEscapedAndUnsafeLinksUnlinked) {
  auto front = get("/");
  EXPECT_THAT(front.body, HasSubstr("&lt;script&gt;alert(1)&lt;/script&gt;"));
  EXPECT_THAT(front.body, Not(HasSubstr("<script>alert")));
  EXPECT_THAT(front.body, Not(HasSubstr("<img")));

  auto article = get(article_url(ids_.evil_blog, ids_.evil_article) + "-script-alert-1-script");
  ASSERT_EQ(article.status, 200) << article.body.substr(0, 300);
  EXPECT_THAT(article.body, HasSubstr("<h1>&lt;script&gt;alert(1)&lt;/script&gt;</h1>"));
  EXPECT_THAT(article.body, HasSubstr("&lt;img src=x onerror=alert(1)&gt;"));
  EXPECT_THAT(article.body, Not(HasSubstr("javascript:")));
  EXPECT_THAT(article.body, Not(HasSubstr("data-shortcut=\"read\"")));  // no link to the original at all
  EXPECT_THAT(article.body, Not(HasSubstr("<script>alert")));

  auto blog = get("/blog/" + std::to_string(ids_.evil_blog));
  ASSERT_EQ(blog.status, 200);
  EXPECT_THAT(blog.body, HasSubstr("<h1 class=\"page-title\">&lt;script&gt;alert(1)&lt;/script&gt;</h1>"));
  EXPECT_THAT(blog.body, Not(HasSubstr("javascript:")));
  // A website address that is not http(s) is left out rather than shown as dead text; the feed is linked.
  EXPECT_THAT(blog.body, Not(HasSubstr("Website")));
  EXPECT_THAT(blog.body, HasSubstr("<a href=\"https://evil.example/feed\" rel=\"noopener\">Feed</a>"));
}

TEST_F(SiteTest, BlogCategoryCategoriesAboutPages) {
  auto blog = get("/blog/" + std::to_string(ids_.ada_blog));
  ASSERT_EQ(blog.status, 200);
  expect_well_formed_page(blog.body, "/blog/" + std::to_string(ids_.ada_blog));
  EXPECT_THAT(blog.body, HasSubstr("<h1 class=\"page-title\">Ada&#39;s Notebook</h1>"));
  EXPECT_THAT(blog.body, HasSubstr("<a href=\"https://ada.example.com/\" rel=\"noopener\">Website</a>"));
  EXPECT_THAT(blog.body, HasSubstr("<a href=\"https://ada.example.com/feed.xml\" rel=\"noopener\">Feed</a>"));
  EXPECT_THAT(blog.body, HasSubstr("30 articles"));
  // The blog's 30 articles, page by page by cursor: each once, newest first, none left out.
  std::vector<std::string> listed = article_links(blog.body);
  for (std::string next = next_link(blog.body); !next.empty();) {
    ASSERT_TRUE(next.starts_with("/blog/" + std::to_string(ids_.ada_blog) + "?after=")) << next;
    auto page = get(next);
    ASSERT_EQ(page.status, 200);
    for (const auto& link : article_links(page.body)) listed.push_back(link);
    next = next_link(page.body);
  }
  EXPECT_EQ(listed.size(), 30u);
  EXPECT_EQ(std::set<std::string>(listed.begin(), listed.end()).size(), 30u);

  auto category = get("/category/history");
  ASSERT_EQ(category.status, 200);
  expect_well_formed_page(category.body, "/category/history");
  EXPECT_THAT(category.body, HasSubstr("<h1 class=\"page-title\">History</h1>"));
  EXPECT_THAT(category.body, HasSubstr("Notes on medieval bookkeeping"));
  EXPECT_THAT(category.body, Not(HasSubstr("Notebook entry")));

  auto categories = get("/categories");
  ASSERT_EQ(categories.status, 200);
  expect_well_formed_page(categories.body, "/categories");
  EXPECT_THAT(categories.body, HasSubstr("<a href=\"/category/programming\">"));
  EXPECT_THAT(categories.body, HasSubstr("33 articles"));  // 30 from Ada + 3 from Compiler Diaries
  EXPECT_THAT(categories.body, HasSubstr("2 articles"));   // history

  auto about = get("/about");
  ASSERT_EQ(about.status, 200);
  expect_well_formed_page(about.body, "/about");
  EXPECT_THAT(about.body, HasSubstr("follows 4 personal blogs"));
}

TEST_F(SiteTest, SearchHighlightsMatches) {
  auto empty = get("/search");
  ASSERT_EQ(empty.status, 200);
  EXPECT_THAT(empty.body, HasSubstr("<input id=\"search-q\" type=\"search\" name=\"q\" value=\"\""));
  EXPECT_THAT(empty.body, Not(HasSubstr("<mark>")));

  auto res = get("/search?q=zeppelin");
  ASSERT_EQ(res.status, 200);
  expect_well_formed_page(res.body, "/search?q=zeppelin");
  EXPECT_THAT(res.body, HasSubstr("The last voyage of the Hindenburg&#39;s sister ship"));
  EXPECT_TRUE(std::regex_search(res.body, std::regex("<mark>[Zz]eppelin</mark>"))) << res.body;

  auto none = get("/search?q=%3Cb%3Enothingmatchesthis");
  ASSERT_EQ(none.status, 200);
  EXPECT_THAT(none.body, HasSubstr("Nothing matches “&lt;b&gt;nothingmatchesthis”"));
}

TEST_F(SiteTest, ConditionalGetAndGzip) {
  auto first = get("/about");
  const std::string etag(first.header("etag").value_or(""));
  ASSERT_FALSE(etag.empty());
  EXPECT_EQ(first.header("cache-control"), "no-cache");
  auto again = get("/about", {{"If-None-Match", etag}});
  EXPECT_EQ(again.status, 304);
  EXPECT_TRUE(again.body.empty());

  auto gz = get("/", {{"Accept-Encoding", "gzip"}});
  ASSERT_EQ(gz.status, 200);
  EXPECT_EQ(gz.header("content-encoding"), "gzip");
  auto plain = web::gzip_decompress(gz.body);
  ASSERT_TRUE(plain.has_value());
  EXPECT_EQ(*plain, get("/").body);
}

TEST_F(SiteTest, StaticAssetsUnderHashedUrls) {
  auto front = get("/");
  std::smatch match;
  ASSERT_TRUE(
      std::regex_search(front.body, match, std::regex("href=\"(/static/site\\.[0-9a-f]{12}\\.css)\"")));
  auto css = get(match[1].str(), {{"Accept-Encoding", "gzip"}});
  ASSERT_EQ(css.status, 200);
  EXPECT_THAT(css.header("content-type").value_or(""), HasSubstr("text/css"));
  EXPECT_EQ(css.header("cache-control"), "public, max-age=31536000, immutable");
  auto plain = web::gzip_decompress(css.body);
  ASSERT_TRUE(plain.has_value());
  EXPECT_THAT(*plain, HasSubstr("prefers-color-scheme: dark"));
  auto not_modified = get(match[1].str(), {{"Accept-Encoding", "gzip"},
                                           {"If-None-Match", std::string(css.header("etag").value_or("x"))}});
  EXPECT_EQ(not_modified.status, 304);
}

TEST_F(SiteTest, MalformedRequestAndKeepAlive) {
  auto raw = web::testing::raw_exchange(port_, "GARBAGE\r\n\r\n");
  ASSERT_TRUE(raw.has_value());
  EXPECT_TRUE(raw->starts_with("HTTP/1.1 400 ")) << *raw;

  auto client = web::testing::Client::connect(port_);
  ASSERT_TRUE(client.has_value());
  auto a = client->request("GET", "/about");
  auto b = client->request("GET", "/categories");
  ASSERT_TRUE(a.has_value() && b.has_value());
  EXPECT_EQ(a->status, 200);
  EXPECT_EQ(b->status, 200);
  EXPECT_THAT(b->body, HasSubstr("<h1 class=\"page-title\">Categories</h1>"));
}

TEST_F(SiteTest, NewArticlesShowUpAfterACrawl) {
  ASSERT_THAT(get("/").body, Not(HasSubstr("A freshly crawled essay")));
  ASSERT_TRUE(crawl_one_article("fresh-1", "A freshly crawled essay", "Fresh text about compilers."));
  EXPECT_THAT(get("/").body, HasSubstr("A freshly crawled essay"));
}

// The page cache hands the previous render out while one request re-renders after a change, so a page
// that has become a 404 must not go on being served from it.
TEST_F(SiteTest, AnArticleTheOperatorJunksIsGoneForEveryRequestAfter) {
  ASSERT_TRUE(crawl_one_article("cached-then-junked", "An essay read from the page cache",
                                "An essay about register allocation, cached by the site."));
  std::smatch link;
  const std::string front = get("/").body;
  ASSERT_TRUE(std::regex_search(front, link,
                                std::regex("href=\"(/blog/[0-9]+/read/([0-9]+)[^\"]*)\"[^>]*>An "
                                           "essay read from the page cache")));
  const std::string url = link[1];
  ASSERT_EQ(get(url).status, 200);
  ASSERT_EQ(get(url).status, 200);  // now from the cache
  ASSERT_TRUE(store_->set_keep_override(std::stoll(link[2]), false).has_value());
  EXPECT_EQ(get(url).status, 404);
  EXPECT_EQ(get(url).status, 404);  // not the cached page of before
  EXPECT_THAT(get("/").body, Not(HasSubstr("An essay read from the page cache")));
}

// The site's own Atom feeds, read back with longread's own feed parser (the one that reads the blogs).
TEST_F(SiteTest, AtomFeedsFollowTheSiteAndEachCategory) {
  auto res = get("/feed.atom");
  ASSERT_EQ(res.status, 200);
  EXPECT_EQ(res.header("Content-Type").value_or(""), "application/atom+xml; charset=utf-8");
  // The feed title "<script>alert(1)</script>" is text in the XML, never markup.
  EXPECT_THAT(res.body, HasSubstr("<title>&lt;script&gt;alert(1)&lt;/script&gt;</title>"));
  EXPECT_THAT(res.body, Not(HasSubstr("<script>")));
  EXPECT_THAT(res.body, Not(HasSubstr("javascript:")));
  auto feed = feed::parse_feed(res.body, {.base_url = "https://longread.test/feed.atom"});
  ASSERT_TRUE(feed) << feed.error().message;
  EXPECT_EQ(feed->version, "atom10");
  EXPECT_FALSE(feed->bozo) << feed->bozo_message;
  EXPECT_EQ(feed->title, "longread");
  EXPECT_EQ(feed->link, "https://longread.test/newest");

  // The newest visible articles, in the site's order; each links to the original when it is http(s),
  // else to its page on the site, and has a stable id without the title's slug.
  auto newest = store_->articles({.limit = 50});
  ASSERT_TRUE(newest);
  ASSERT_EQ(feed->entries.size(), newest->size());
  ASSERT_GT(newest->size(), 10u);
  bool saw_evil = false;
  for (std::size_t i = 0; i < newest->size(); ++i) {
    const auto& a = (*newest)[i].article;
    const auto& e = feed->entries[i];
    EXPECT_EQ(e.title, a.title.empty() ? "Untitled" : a.title);
    EXPECT_EQ(e.id,
              "https://longread.test/blog/" + std::to_string(a.blog_id) + "/read/" + std::to_string(a.id));
    if (a.id == ids_.evil_article) {
      saw_evil = true;
      EXPECT_EQ(e.link, "https://longread.test" + article_path(a));  // its link is javascript:
    } else {
      EXPECT_EQ(e.link, a.link);
    }
    ASSERT_TRUE(e.published);
    EXPECT_EQ(*e.published, std::chrono::floor<std::chrono::seconds>(a.display_date()));
    EXPECT_FALSE(e.author.empty());
  }
  EXPECT_TRUE(saw_evil);

  // Unchanged: a conditional GET costs a 304.
  const std::string etag(res.header("ETag").value_or(""));
  ASSERT_FALSE(etag.empty());
  EXPECT_EQ(get("/feed.atom", {{"If-None-Match", etag}}).status, 304);

  // A category's feed holds that category only; an unknown category is a 404.
  auto history = get("/category/history/feed.atom");
  ASSERT_EQ(history.status, 200);
  auto parsed = feed::parse_feed(history.body);
  ASSERT_TRUE(parsed);
  auto in_history = store_->articles({.category = "history", .limit = 50});
  ASSERT_TRUE(in_history);
  EXPECT_EQ(parsed->entries.size(), in_history->size());
  for (const auto& e : parsed->entries) EXPECT_EQ(e.categories, std::vector<std::string>{"history"});
  EXPECT_EQ(get("/category/no-such-thing/feed.atom").status, 404);

  // Pages point feed readers at the feeds.
  EXPECT_THAT(
      get("/").body,
      HasSubstr(
          "<link rel=\"alternate\" type=\"application/atom+xml\" title=\"longread\" href=\"/feed.atom\">"));
  EXPECT_THAT(get("/category/history").body, HasSubstr("href=\"/category/history/feed.atom\""));
}

// The blogs followed, as a page and as OPML (read back with longread's own OPML reader).
TEST_F(SiteTest, BlogsPageAndOpmlListTheBlogsWithArticles) {
  auto all = store_->blogs();
  ASSERT_TRUE(all);
  std::vector<model::Blog> shown;
  for (const auto& b : *all) {
    if (b.article_count > 0) shown.push_back(b);
  }
  ASSERT_GE(shown.size(), 3u);

  auto page = get("/blogs");
  ASSERT_EQ(page.status, 200);
  EXPECT_THAT(page.body, HasSubstr("<a href=\"/blogs\" aria-current=\"page\">Blogs</a>"));
  EXPECT_THAT(page.body, HasSubstr(std::to_string(shown.size()) + " personal blogs with articles here"));
  for (const auto& b : shown) {
    EXPECT_THAT(page.body, HasSubstr("<a href=\"/blog/" + std::to_string(b.id) + "\">"));
  }
  EXPECT_THAT(page.body, HasSubstr("<a href=\"/category/history\">History</a>"));
  EXPECT_THAT(page.body, HasSubstr("&lt;script&gt;alert(1)&lt;/script&gt;"));
  EXPECT_THAT(page.body, Not(HasSubstr("<script>alert")));

  auto opml = get("/blogs.opml");
  ASSERT_EQ(opml.status, 200);
  EXPECT_EQ(opml.header("Content-Type").value_or(""), "text/x-opml; charset=utf-8");
  auto parsed = feed::parse_opml(opml.body);
  ASSERT_TRUE(parsed) << parsed.error().message;
  ASSERT_EQ(parsed->size(), shown.size());
  std::vector<std::string> want, got;
  for (const auto& b : shown) want.push_back(b.feed_url + " " + b.category);
  for (const auto& b : *parsed) got.push_back(b.feed_url + " " + b.category);
  std::sort(want.begin(), want.end());
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, want);
}

// Every response carries the security headers, pages, feeds, assets and error pages alike (the server's
// own 400 for a garbage request line too: web_test covers ServerOptions::extra_headers).
// A meta tag's content in `body` ("" when absent): <meta property|name="key" content="...">.
std::string meta_content(const std::string& body, const std::string& attribute, const std::string& key) {
  const std::string start = "<meta " + attribute + "=\"" + key + "\" content=\"";
  const auto pos = body.find(start);
  if (pos == std::string::npos) return "";
  const auto from = pos + start.size();
  return body.substr(from, body.find('"', from) - from);
}

// Open Graph (ogp.me) and the Twitter card: a shared link shows a title card.
TEST_F(SiteTest, OpenGraphTagsDescribeEachPage) {
  const std::string path = article_url(ids_.ada_blog, ids_.lock_free_article) + "-lock-free-queues-part-2";
  auto article = get(path);
  ASSERT_EQ(article.status, 200);
  EXPECT_EQ(meta_content(article.body, "property", "og:type"), "article");
  EXPECT_EQ(meta_content(article.body, "property", "og:title"), "Lock-free queues, part 2");
  EXPECT_EQ(meta_content(article.body, "property", "og:url"), "https://longread.test" + path);
  EXPECT_EQ(meta_content(article.body, "property", "og:site_name"), "longread");
  EXPECT_EQ(meta_content(article.body, "name", "twitter:card"), "summary");
  EXPECT_EQ(meta_content(article.body, "property", "article:published_time"), "2022-05-23T09:30:00Z");
  // The description is the article's own opening words, the same as the meta description.
  const std::string description = meta_content(article.body, "property", "og:description");
  EXPECT_TRUE(description.starts_with("A queue that never takes a lock sounds like a free lunch"))
      << description;
  EXPECT_EQ(description, meta_content(article.body, "name", "description"));

  auto blog = get("/blog/" + std::to_string(ids_.ada_blog));
  EXPECT_EQ(meta_content(blog.body, "property", "og:type"), "website");
  EXPECT_EQ(meta_content(blog.body, "property", "og:title"), "Ada&#39;s Notebook");
  EXPECT_EQ(meta_content(blog.body, "property", "og:url"),
            "https://longread.test/blog/" + std::to_string(ids_.ada_blog));
  EXPECT_EQ(meta_content(blog.body, "property", "article:published_time"), "");
  auto front = get("/");
  EXPECT_EQ(meta_content(front.body, "property", "og:title"), "longread");
  EXPECT_EQ(meta_content(front.body, "property", "og:url"), "https://longread.test/");
  EXPECT_NE(meta_content(front.body, "property", "og:description"), "");
  // An error page has no address worth sharing.
  auto missing = get("/no/such/page");
  EXPECT_EQ(missing.status, 404);
  EXPECT_THAT(missing.body, Not(HasSubstr("og:")));
}

// Without a mail sender there is no newsletter: no box, and its pages are not found.
TEST_F(SiteTest, NoNewsletterWithoutMail) {
  EXPECT_EQ(get("/newsletter").status, 404);
  auto client = web::testing::Client::connect(port_);
  ASSERT_TRUE(client.has_value());
  auto posted =
      client->request("POST", "/newsletter", {{"Content-Type", "application/x-www-form-urlencoded"}},
                      "email=a%40example.org");
  ASSERT_TRUE(posted.has_value());
  EXPECT_EQ(posted->status, 404);
  EXPECT_THAT(posted->body, HasSubstr("This site has no newsletter."));
  EXPECT_TRUE(store_->confirmed_subscribers().value().empty());
}

// The display controls and shortcut hints do nothing without JavaScript, so the stylesheet hides them
// until theme.js marks the page; the overlay lists the account keys to visitors only (ReadersTest).
TEST_F(SiteTest, ControlsAreLabelledAndNeedJavaScript) {
  auto res = get("/about");
  ASSERT_EQ(res.status, 200);
  EXPECT_THAT(res.body, HasSubstr("<div class=\"controls js-only\""));
  EXPECT_THAT(res.body,
              HasSubstr(">Full Width <span class=\"key\" aria-hidden=\"true\">[alt+shift+f]</span>"));
  EXPECT_THAT(res.body,
              HasSubstr(">Dark Mode <span class=\"key\" aria-hidden=\"true\">[alt+shift+d]</span>"));
  EXPECT_THAT(res.body,
              HasSubstr(">Shortcuts <span class=\"key\" aria-hidden=\"true\">[alt+shift+k]</span>"));
  EXPECT_THAT(res.body, Not(HasSubstr("&harr;")));
  EXPECT_THAT(res.body, HasSubstr("<dialog id=\"shortcuts\""));
  EXPECT_THAT(res.body, HasSubstr("<dd>Sign up</dd>"));
  auto css =
      get(res.body.substr(res.body.find("/static/site."), res.body.find('"', res.body.find("/static/site.")) -
                                                              res.body.find("/static/site.")));
  ASSERT_EQ(css.status, 200);
  EXPECT_THAT(css.body,
              HasSubstr(":root:not([data-js]) .js-only, :root:not([data-js]) .key { display: none"));
}

TEST_F(SiteTest, EveryResponseCarriesTheSecurityHeaders) {
  const auto front = get("/");
  const std::string asset = [&] {
    std::smatch m;
    return std::regex_search(front.body, m, std::regex("href=\"(/static/site[^\"]+\\.css)\""))
               ? m[1].str()
               : std::string();
  }();
  ASSERT_FALSE(asset.empty());
  for (const std::string& target : {std::string("/"), std::string("/feed.atom"), asset,
                                    std::string("/no/such/page"), std::string("/healthz")}) {
    const auto res = get(target);
    EXPECT_EQ(res.header("Content-Security-Policy").value_or(""),
              "default-src 'self'; img-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
              "frame-ancestors 'none'")
        << target;
    EXPECT_EQ(res.header("X-Content-Type-Options").value_or(""), "nosniff") << target;
  }
  // The pages keep to the policy: no inline script or style, no event-handler attributes.
  EXPECT_FALSE(std::regex_search(front.body, std::regex("<script(?![^>]*\\bsrc=)[^>]*>")));
  EXPECT_FALSE(std::regex_search(front.body, std::regex("<style|\\sstyle=\"|\\son[a-z]+=\"")));
}

// "More in <category>" and Top, on a site of their own (votes and extra blogs would change what the other
// tests see): two more programming blogs beside the fixture's Ada's Notebook and Compiler Diaries.
class RelatedAndTopTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    SiteOptions options = testing::test_site_options();
    options.unversioned_cache_ttl = std::chrono::milliseconds(0);
    auto running = testing::RunningSite::start("related-top-test", std::move(options));
    ASSERT_TRUE(running) << running.error().message;
    running_ = std::move(*running);
    store_ = &running_->store();
    ids_ = running_->ids();
    port_ = running_->port();
    const TimePoint now = now_seconds();
    for (const std::string name : {"Quiet Systems", "Type Theory Weekly"}) {
      auto blog = store_->upsert_blog({.feed_url = "https://" + name.substr(0, 4) + ".example/feed",
                                       .title = name,
                                       .category = "programming"});
      ASSERT_TRUE(blog) << blog.error().message;
      storage::CrawlRecord record{.blog_id = *blog, .attempted_at = now, .success = true, .status = "ok"};
      for (int i = 0; i < 3; ++i) {
        model::Article a;
        a.guid = name + std::to_string(i);
        a.title = name + " post " + std::to_string(i);
        a.link = "https://example.org/" + std::to_string(*blog) + "/" + std::to_string(i);
        a.published = now - std::chrono::hours(4 + i);
        a.first_seen = now;
        a.text = "An excerpt of " + a.title + " about allocators and proofs.";
        a.excerpt = a.text;
        a.word_count = 9;
        a.category = "programming";
        record.articles.push_back(a);
      }
      ASSERT_TRUE(store_->save_crawl(record));
    }
  }
  static void TearDownTestSuite() { running_.reset(); }

  static web::testing::ClientResponse get(const std::string& target) {
    auto res = http_get(port_, target);
    EXPECT_TRUE(res.has_value()) << target;
    return res ? *res : web::testing::ClientResponse{};
  }

  static inline std::unique_ptr<testing::RunningSite> running_;
  static inline storage::Store* store_ = nullptr;
  static inline testing::FixtureIds ids_;
  static inline std::uint16_t port_ = 0;
};

TEST_F(RelatedAndTopTest, MoreInTheCategoryShowsExcerptsOfOtherBlogsWithVoteButtons) {
  auto res = get("/blog/" + std::to_string(ids_.ada_blog) + "/read/" +
                 std::to_string(ids_.lock_free_article) + "-lock-free-queues-part-2");
  ASSERT_EQ(res.status, 200);
  const auto start = res.body.find("<section class=\"related more-in-category\">");
  ASSERT_NE(start, std::string::npos) << res.body;
  const std::string section = res.body.substr(start, res.body.find("</section>", start) - start);
  EXPECT_THAT(section, HasSubstr("<h2>More in Programming</h2>"));
  // One article from each other programming blog, the current one (Ada's) never.
  EXPECT_EQ(count(section, "<li class=\"item\""), 3u) << section;
  EXPECT_EQ(count(section, ">Compiler Diaries</a>"), 1u);
  EXPECT_EQ(count(section, ">Quiet Systems</a>"), 1u);
  EXPECT_EQ(count(section, ">Type Theory Weekly</a>"), 1u);
  EXPECT_THAT(section, Not(HasSubstr("Ada&#39;s Notebook")));
  EXPECT_THAT(section, Not(HasSubstr("Notebook entry")));
  // Excerpts, and the listings' vote control (a form that posts the vote), one per item.
  EXPECT_EQ(count(section, "<p class=\"excerpt\">"), 3u);
  EXPECT_THAT(section, HasSubstr("An excerpt of Quiet Systems post 0 about allocators"));
  EXPECT_EQ(count(section, "class=\"vote\" data-vote"), 3u);
  EXPECT_TRUE(
      std::regex_search(section, std::regex("<form method=\"post\" action=\"/articles/[0-9]+/vote\"")));
}

TEST_F(RelatedAndTopTest, TopCountsVotesByWhenTheyWereCastAndSaysWhenAPeriodHasNone) {
  for (const auto& [target, empty] :
       std::vector<std::pair<std::string, std::string>>{{"/top", "No votes this week yet."},
                                                        {"/top?period=month", "No votes this month yet."},
                                                        {"/top?period=all", "No votes yet."}}) {
    auto res = get(target);
    ASSERT_EQ(res.status, 200) << target;
    EXPECT_THAT(res.body, HasSubstr("<p class=\"empty\">" + empty + "</p>")) << target;
    EXPECT_EQ(count(res.body, "<li class=\"item\""), 0u) << target << ": padded with unvoted articles";
  }
  // A vote cast now for an article of 2022 is this week's: Top lists it in every period, and only it.
  auto reader = store_->create_reader("top@example.org", "$argon2id$fake", now_seconds(), now_seconds());
  ASSERT_TRUE(reader) << reader.error().message;
  ASSERT_TRUE(store_->set_vote(*reader, ids_.lock_free_article, true, now_seconds()));
  for (const std::string target : {"/top", "/top?period=month", "/top?period=all"}) {
    auto res = get(target);
    ASSERT_EQ(res.status, 200);
    EXPECT_EQ(count(res.body, "<li class=\"item\""), 1u) << target;
    EXPECT_THAT(res.body, HasSubstr("Lock-free queues, part 2")) << target;
    EXPECT_THAT(res.body, Not(HasSubstr("class=\"empty\""))) << target;
  }
}

}  // namespace
}  // namespace longread::ui
