// `longread blogs edit / pause / resume` end to end: the real binary, a real SQLite file read back through
// the Store, and `crawl` against the fixture HTTP server on 127.0.0.1.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "fixture_server/fixture_server.h"
#include "storage/store.h"
#include "testing/command.h"
#include "testing/test_dir.h"

namespace {
namespace fs = std::filesystem;
using longread::model::Blog;

using Outcome = longread::testing::CommandOutcome;

// Three unrelated English paragraphs, each repeated past the junk filter's length rule: the posts must
// differ, or the near-duplicate check would hide all but one of them.
std::string article_html(int seed) {
  static const char* kParagraphs[] = {
      "The garden behind the old school was planted by the pupils of nineteen twelve, who carried soil in "
      "wheelbarrows from the river meadow and argued for a whole spring about where the apple trees should "
      "go.",
      "Night trains across the continent were slow, cheap and oddly sociable: strangers shared bread and "
      "stories in the corridor while the carriages rattled past sleeping towns and frozen lakes until dawn.",
      "Baking sourdough teaches patience, because the starter keeps its own schedule, the dough rises when "
      "it "
      "pleases, and every loaf records the temperature of the kitchen on the day it was made.",
  };
  std::string html;
  for (int p = 0; p < 6; ++p) html += std::string("<p>") + kParagraphs[seed % 3] + "</p>";
  return html;
}

std::string rss(const std::string& name, int count, int seed) {
  std::string items;
  for (int i = 0; i < count; ++i) {
    items += "<item><title>" + name + " post " + std::to_string(i) + "</title><link>https://" + name +
             ".example/p/" + std::to_string(i) + "</link><guid>" + name + "-" + std::to_string(i) +
             "</guid><pubDate>Mon, 23 May 2022 10:00:00 GMT</pubDate><description><![CDATA[" +
             article_html(seed + i) + "]]></description></item>";
  }
  return "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>" + name + "</title><link>https://" +
         name + ".example/</link>" + items + "</channel></rss>";
}

class BlogsEditTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = longread::testing::fresh_test_dir("longread_blogs_edit");
    fs::create_directories(dir_ / "www");
    std::ofstream(dir_ / "www/ann.xml") << rss("ann", 2, 0);
    std::ofstream(dir_ / "www/bob.xml") << rss("bob", 1, 2);
    std::ofstream(dir_ / "www/ann2.xml") << rss("ann", 2, 0);
    auto server = longread::testing::FixtureServer::start(dir_ / "www");
    ASSERT_TRUE(server) << server.error().message;
    server_.emplace(std::move(*server));
    // Ann in "programming", Bob in "essays"; neither paused.
    std::ofstream(dir_ / "list.opml")
        << "<opml version=\"2.0\"><body><outline text=\"programming\"><outline text=\"Ann\" xmlUrl=\""
        << url("/ann.xml") << "\"/></outline><outline text=\"essays\"><outline text=\"Bob\" xmlUrl=\""
        << url("/bob.xml") << "\"/></outline></body></opml>";
    const auto imported = longread("import " + (dir_ / "list.opml").string());
    ASSERT_EQ(imported.status, 0) << imported.out << imported.err;
    ann_ = by_feed(url("/ann.xml")).id;
    bob_ = by_feed(url("/bob.xml")).id;
    ASSERT_NE(ann_, 0);
    ASSERT_NE(bob_, 0);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string url(const std::string& path) const { return server_->url(path); }

  // Runs `longread --db DIR/DB ARGS`, stdout and stderr apart. The fixture server on 127.0.0.1 stands for
  // the public internet: the outbound policy is told to allow exactly that address.
  Outcome longread(const std::string& args, const std::string& db = "t.db") {
    return longread::testing::run_command(
        std::string("LONGREAD_FETCH_ALLOW_NETWORKS=127.0.0.1/32 " LONGREAD_BINARY_DIR
                    "/src/app/longread --db ") +
            (dir_ / db).string() + " " + args,
        dir_ / "stderr");
  }

  std::unique_ptr<longread::storage::Store> open(const std::string& db = "t.db") {
    auto store = longread::storage::open_sqlite_store((dir_ / db).string());
    EXPECT_TRUE(store) << store.error().message;
    return store ? std::move(*store) : nullptr;
  }

  Blog by_feed(const std::string& feed_url, const std::string& db = "t.db") {
    auto store = open(db);
    if (!store) return {};
    auto blog = store->blog_by_feed_url(feed_url);
    EXPECT_TRUE(blog && *blog) << feed_url;
    return blog && *blog ? **blog : Blog{};
  }
  Blog by_id(std::int64_t id) {
    auto store = open();
    if (!store) return {};
    auto blog = store->blog(id);
    EXPECT_TRUE(blog && *blog) << id;
    return blog && *blog ? **blog : Blog{};
  }

  // Titles of the visible articles filed under `category`, as the site's category page lists them.
  std::vector<std::string> titles_in(const std::string& category) {
    auto store = open();
    std::vector<std::string> out;
    if (!store) return out;
    auto views = store->articles({.category = category});
    EXPECT_TRUE(views);
    for (const auto& v : views.value_or(std::vector<longread::storage::ArticleView>{}))
      out.push_back(v.article.title);
    std::sort(out.begin(), out.end());
    return out;
  }
  std::vector<std::string> categories() {
    auto store = open();
    std::vector<std::string> out;
    if (!store) return out;
    for (const auto& c : store->categories().value_or(std::vector<longread::model::Category>{}))
      out.push_back(c.slug + "=" + std::to_string(c.article_count));
    return out;
  }

  std::vector<std::string> requested_paths() const {
    std::vector<std::string> out;
    for (const auto& r : nlohmann::json::parse(server_->requests_json())) out.push_back(r["path"]);
    return out;
  }
  static bool contains(const std::vector<std::string>& v, const std::string& s) {
    return std::find(v.begin(), v.end(), s) != v.end();
  }

  void crawl(const std::string& args = "crawl --all") {
    const auto r = longread(args);
    ASSERT_EQ(r.status, 0) << r.out << r.err;
  }

  fs::path dir_;
  std::optional<longread::testing::FixtureServer> server_;
  std::int64_t ann_ = 0;
  std::int64_t bob_ = 0;
};

TEST_F(BlogsEditTest, EditsEachFieldAndKeepsCrawlState) {
  crawl();
  const Blog before = by_id(ann_);
  ASSERT_TRUE(before.last_attempt_at);
  ASSERT_EQ(before.article_count, 2);

  auto r = longread("blogs edit " + std::to_string(ann_) + " --title 'Ann Smith'");
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("title \"Ann\" -> \"Ann Smith\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Ann Smith"), std::string::npos) << r.out;  // the row after the change
  EXPECT_EQ(by_id(ann_).title, "Ann Smith");

  r = longread("blogs edit " + std::to_string(ann_) + " --short-form true");
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_TRUE(by_id(ann_).short_form);
  r = longread("blogs edit " + std::to_string(ann_) + " --short-form false");
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_FALSE(by_id(ann_).short_form);

  // Title and short-form edits keep the crawl state and validators.
  const Blog mid = by_id(ann_);
  EXPECT_EQ(mid.etag, before.etag);
  EXPECT_EQ(mid.last_modified, before.last_modified);
  EXPECT_EQ(mid.next_due_at, before.next_due_at);

  // Given as a "subscribe" link writes it (feed://host/path, with blanks around): the http URL is stored.
  const std::string ann2 = url("/ann2.xml");
  ASSERT_TRUE(ann2.starts_with("http://"));
  r = longread("blogs edit " + std::to_string(ann_) + " --feed-url ' feed:" + ann2.substr(5) + " '");
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_EQ(by_id(ann_).feed_url, ann2);

  // A new feed URL drops the old URL's validators and is due at once; the crawl history stays.
  const Blog after = by_id(ann_);
  EXPECT_EQ(after.title, "Ann Smith");
  EXPECT_EQ(after.category, "programming");
  EXPECT_EQ(after.etag, "");
  EXPECT_EQ(after.last_modified, "");
  EXPECT_FALSE(after.next_due_at.has_value());
  EXPECT_EQ(after.last_attempt_at, before.last_attempt_at);
  EXPECT_EQ(after.last_status, before.last_status);
  EXPECT_EQ(after.article_count, 2);
  EXPECT_EQ(by_id(bob_).title, "Bob");  // only the edited blog changed
}

// The category pages follow the edit at once: Ann's articles (filed under her blog's category, there being
// no classifier) move from "programming" to "history"; "programming", now empty, is no longer listed.
// A short-form change judges the blog's stored articles again: the short note the length rule hid comes
// back, and goes again when the flag is cleared. `rejudge` applies a changed curate.min_words to what is
// stored (a dry run first, which changes nothing).
TEST_F(BlogsEditTest, ShortFormJudgesStoredArticlesAgainAndRejudgeAppliesNewSettings) {
  const std::string essay =
      "<p>Lighthouse keepers kept logs of every passing ship, the weather at each watch and the oil burned "
      "through the night, and those logs now tell historians how busy the coast was a century ago.</p>";
  std::string long_html;
  for (int i = 0; i < 6; ++i) long_html += essay;
  const std::string note =
      "<p>A quick note: the apple trees behind the school finally bloomed this week, three years after we "
      "planted them.</p>";
  std::ofstream(dir_ / "www/cal.xml")
      << "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>cal</title><link>https://cal.example/"
         "</link><item><title>Keepers</title><guid>cal-1</guid><pubDate>Mon, 23 May 2022 10:00:00 "
         "GMT</pubDate>"
         "<description><![CDATA["
      << long_html
      << "]]></description></item><item><title>Blossom</title><guid>cal-2</guid><pubDate>Tue, 24 May 2022 "
         "10:00:00 GMT</pubDate><description><![CDATA["
      << note << "]]></description></item></channel></rss>";
  auto r = longread("blogs add " + url("/cal.xml") + " --category essays");
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  const auto cal = by_feed(url("/cal.xml")).id;
  r = longread("crawl");
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  const auto visible = [&](std::optional<std::int64_t> blog) {
    return open()->count_articles({.blog_id = blog}).value();
  };
  ASSERT_EQ(visible(cal), 1);  // the note is too short for a long-form blog
  r = longread("junk");
  EXPECT_NE(r.out.find("too short: "), std::string::npos) << r.out;

  r = longread("blogs edit " + std::to_string(cal) + " --short-form true");
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("short-form false -> true (its stored articles are judged again)"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("\"Blossom\": junk (too short: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("rejudged 2 articles: 1 verdicts changed, 0 left the site, 1 returned to it\n"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(visible(cal), 2);

  r = longread("blogs edit " + std::to_string(cal) + " --short-form false");
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("rejudged 2 articles: 1 verdicts changed, 1 left the site, 0 returned to it\n"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(visible(cal), 1);

  // Every blog's posts are 100-200 words: a minimum of 1000 hides them all.
  const auto total = visible(std::nullopt);
  ASSERT_GT(total, 0);
  const std::string stricter =
      "LONGREAD_CURATE_MIN_WORDS=1000 LONGREAD_FETCH_ALLOW_NETWORKS=127.0.0.1/32 " LONGREAD_BINARY_DIR
      "/src/app/longread --db " +
      (dir_ / "t.db").string() + " ";
  r = longread::testing::run_command(stricter + "rejudge --dry-run", dir_ / "stderr");
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(
      r.out.find(fmt::format("would rejudge {} articles: {} verdicts would change, {} would leave the site, "
                             "0 would return to it (dry run: nothing stored)\n",
                             total + 1, total, total)),
      std::string::npos)
      << r.out;
  EXPECT_EQ(visible(std::nullopt), total);
  r = longread::testing::run_command(stricter + "rejudge", dir_ / "stderr");
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_EQ(visible(std::nullopt), 0);
  // Back to the default minimum, one blog only: its posts return, the others stay hidden.
  r = longread("rejudge --blog " + std::to_string(ann_));
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_EQ(visible(ann_), 2);
  EXPECT_EQ(visible(std::nullopt), 2);
  // --text: the crawl's texts already match the stored HTML, so nothing is rebuilt or changes.
  r = longread("rejudge --text --blog " + std::to_string(ann_));
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("rebuilt 0 article texts from their stored HTML\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(" 0 verdicts changed"), std::string::npos) << r.out;
  EXPECT_EQ(visible(std::nullopt), 2);
  r = longread("rejudge --blog 999");
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "longread: no blog with id 999 (see `longread blogs`)\n");
}

TEST_F(BlogsEditTest, CategoryChangeRefilesTheBlogsArticles) {
  crawl();
  ASSERT_EQ(titles_in("programming"), (std::vector<std::string>{"ann post 0", "ann post 1"}));
  ASSERT_EQ(categories(), (std::vector<std::string>{"essays=1", "programming=2"}));

  auto r = longread("blogs edit " + std::to_string(ann_) + " --category history");
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.err.find("\"history\" is a new category"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("category programming -> history"), std::string::npos) << r.out;
  EXPECT_EQ(by_id(ann_).category, "history");
  EXPECT_EQ(titles_in("history"), (std::vector<std::string>{"ann post 0", "ann post 1"}));
  EXPECT_TRUE(titles_in("programming").empty());
  EXPECT_EQ(categories(), (std::vector<std::string>{"essays=1", "history=2"}));

  // Into Bob's category: both blogs' articles listed there.
  r = longread("blogs edit " + std::to_string(ann_) + " --category essays");
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_EQ(r.err.find("new category"), std::string::npos) << r.err;
  EXPECT_EQ(titles_in("essays"), (std::vector<std::string>{"ann post 0", "ann post 1", "bob post 0"}));
  EXPECT_EQ(categories(), (std::vector<std::string>{"essays=3"}));
}

TEST_F(BlogsEditTest, RefusesBadSlugTakenFeedUrlUnknownIdAndNothingToDo) {
  auto r = longread("blogs edit " + std::to_string(ann_) + " --category 'Machine Learning'");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("category \"Machine Learning\" is not a slug"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("\"machine-learning\""), std::string::npos) << r.err;
  EXPECT_EQ(by_id(ann_).category, "programming");

  r = longread("blogs edit " + std::to_string(ann_) + " --title X --feed-url " + url("/bob.xml"));
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("is already followed as blog " + std::to_string(bob_)), std::string::npos) << r.err;
  EXPECT_EQ(by_id(ann_).feed_url, url("/ann.xml"));
  EXPECT_EQ(by_id(ann_).title, "Ann");  // nothing of the edit was applied

  r = longread("blogs edit " + std::to_string(ann_) + " --feed-url ftp://x.example/feed");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("not an http(s) URL"), std::string::npos) << r.err;
  // Without a scheme the URL is taken as https (nothing is fetched to try http instead).
  r = longread("blogs edit " + std::to_string(bob_) + " --feed-url bob.example/rss");
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_EQ(by_id(bob_).feed_url, "https://bob.example/rss");

  for (const std::string command : {"blogs edit 999 --title X", "blogs pause 999", "blogs resume 999"}) {
    r = longread(command);
    EXPECT_EQ(r.status, 1) << command;
    EXPECT_NE(r.err.find("no blog with id 999"), std::string::npos) << command << ": " << r.err;
  }

  r = longread("blogs edit " + std::to_string(ann_));
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("nothing to change"), std::string::npos) << r.err;
}

// A paused blog is not fetched by `crawl --all` (the server sees no request for it and its last attempt
// does not move), its articles stay listed, `blogs` shows it paused; resumed, the next plain `crawl`
// fetches it.
TEST_F(BlogsEditTest, PausedBlogIsNotCrawledUntilResumed) {
  crawl();
  ASSERT_TRUE(contains(requested_paths(), "/ann.xml"));
  const Blog crawled = by_id(ann_);

  auto r = longread("blogs pause " + std::to_string(ann_));
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("its 2 articles stay on the site"), std::string::npos) << r.out;
  EXPECT_TRUE(by_id(ann_).paused);
  r = longread("blogs pause " + std::to_string(ann_));
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("already paused"), std::string::npos) << r.out;

  r = longread("blogs");
  ASSERT_EQ(r.status, 0) << r.err;
  std::string ann_row, bob_row;
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);) {
    if (line.find("/ann.xml") != std::string::npos) ann_row = line;
    if (line.find("/bob.xml") != std::string::npos) bob_row = line;
  }
  EXPECT_NE(ann_row.find("paused"), std::string::npos) << r.out;
  EXPECT_EQ(bob_row.find("paused"), std::string::npos) << r.out;

  server_->reset();
  sleep(1);  // so a fetch would move last_attempt_at (whole seconds)
  crawl();
  EXPECT_FALSE(contains(requested_paths(), "/ann.xml"));
  EXPECT_TRUE(contains(requested_paths(), "/bob.xml"));
  EXPECT_EQ(by_id(ann_).last_attempt_at, crawled.last_attempt_at);
  EXPECT_EQ(titles_in("programming"), (std::vector<std::string>{"ann post 0", "ann post 1"}));

  r = longread("blogs resume " + std::to_string(ann_));
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("due at the next crawl"), std::string::npos) << r.out;
  const Blog resumed = by_id(ann_);
  EXPECT_FALSE(resumed.paused);
  EXPECT_FALSE(resumed.next_due_at);
  EXPECT_EQ(resumed.etag, crawled.etag);

  server_->reset();
  crawl("crawl");  // only due blogs: Ann (due at once), not Bob (crawled a moment ago)
  EXPECT_TRUE(contains(requested_paths(), "/ann.xml"));
  EXPECT_FALSE(contains(requested_paths(), "/bob.xml"));
  EXPECT_GT(*by_id(ann_).last_attempt_at, *crawled.last_attempt_at);
}

// export writes longread:paused="true" and import reads it back; an OPML without the attribute leaves the
// database's paused state alone, while title and category follow the list (import's rule for every field a
// list gives).
TEST_F(BlogsEditTest, PausedRoundTripsThroughOpmlAndReimportKeepsIt) {
  ASSERT_EQ(longread("blogs pause " + std::to_string(ann_)).status, 0);
  const auto exported = longread("export");
  ASSERT_EQ(exported.status, 0) << exported.err;
  EXPECT_NE(exported.out.find("longread:paused=\"true\""), std::string::npos) << exported.out;
  std::ofstream(dir_ / "export.opml") << exported.out;

  const auto into_new = longread("import " + (dir_ / "export.opml").string(), "other.db");
  ASSERT_EQ(into_new.status, 0) << into_new.out << into_new.err;
  EXPECT_TRUE(by_feed(url("/ann.xml"), "other.db").paused);
  EXPECT_FALSE(by_feed(url("/bob.xml"), "other.db").paused);
  EXPECT_EQ(by_feed(url("/ann.xml"), "other.db").category, "programming");

  ASSERT_EQ(longread("blogs edit " + std::to_string(ann_) + " --title Renamed --category history").status, 0);
  const auto again = longread("import " + (dir_ / "list.opml").string());
  ASSERT_EQ(again.status, 0) << again.out << again.err;
  const Blog ann = by_id(ann_);
  EXPECT_TRUE(ann.paused);
  EXPECT_EQ(ann.title, "Ann");
  EXPECT_EQ(ann.category, "programming");
}

}  // namespace

namespace {

// A feed of summary-only posts whose pages are at `links` (the crawler fetches each for its full text).
std::string summary_feed(const std::vector<std::string>& links) {
  std::string items;
  for (std::size_t i = 0; i < links.size(); ++i) {
    items += "<item><title>Page " + std::to_string(i) + "</title><guid>page-" + std::to_string(i) +
             "</guid><link>" + links[i] +
             "</link><description>The first lines of a long post […]</description></item>";
  }
  return "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>ann</title>" + items +
         "</channel></rss>";
}

// Full-text pages come only from the blog's own site (here 127.0.0.1, its feed's host); `--allow-host`
// adds a host for the pages found after it, `blogs edit` shows the list, `--disallow-host` takes it back.
TEST_F(BlogsEditTest, AllowHostLetsFullTextPagesComeFromAnotherHost) {
  std::string page = "<html><body><article>";
  for (int i = 0; i < 6; ++i) page += "<p>" + article_html(i) + "</p>";
  std::ofstream(dir_ / "www/page.html") << page << "</article></body></html>";
  const std::string elsewhere = server_->url_with_host("localhost", "/page.html");
  std::ofstream(dir_ / "www/ann.xml") << summary_feed({elsewhere});
  crawl();
  auto store = open();
  ASSERT_TRUE(store);
  auto first = store->articles({.blog_id = ann_, .include_junk = true});
  ASSERT_TRUE(first);
  ASSERT_EQ(first->size(), 1u);
  auto stored = store->article((*first)[0].article.id);
  ASSERT_TRUE(stored && *stored);
  const std::string id = std::to_string(ann_);
  EXPECT_EQ((*stored)->article.full_text_error,
            "refused: localhost is not on blog " + id +
                "'s site (127.0.0.1) (allow it with `longread blogs edit " + id +
                " --allow-host localhost`)");
  EXPECT_LT((*stored)->article.word_count, 50);  // the summary stays

  auto r = longread("blogs edit " + id + " --allow-host LocalHost. --allow-host cdn.example.net");
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("allowed hosts (none) -> localhost, cdn.example.net"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("full-text pages also allowed from: localhost, cdn.example.net"), std::string::npos)
      << r.out;
  EXPECT_EQ(by_id(ann_).allowed_hosts, (std::vector<std::string>{"localhost", "cdn.example.net"}));

  // A new post on the allowed host: its page is read.
  std::ofstream(dir_ / "www/ann.xml") << summary_feed({elsewhere, elsewhere + "?second"});
  crawl();
  store = open();
  auto second = store->articles({.blog_id = ann_, .include_junk = true});
  ASSERT_TRUE(second);
  ASSERT_EQ(second->size(), 2u);
  bool read_one = false;
  for (const auto& v : *second) {
    auto full = store->article(v.article.id);
    ASSERT_TRUE(full && *full);
    if ((*full)->article.guid == "page-1") {
      EXPECT_EQ((*full)->article.full_text_error, "");
      EXPECT_GT((*full)->article.word_count, 200);
      read_one = true;
    }
  }
  EXPECT_TRUE(read_one);

  r = longread("blogs edit " + id + " --disallow-host localhost");
  ASSERT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("allowed hosts localhost, cdn.example.net -> cdn.example.net"), std::string::npos)
      << r.out;
  EXPECT_EQ(by_id(ann_).allowed_hosts, (std::vector<std::string>{"cdn.example.net"}));

  // The list round-trips through OPML (longread:allowHosts).
  const auto exported = longread("export");
  ASSERT_EQ(exported.status, 0) << exported.err;
  EXPECT_NE(exported.out.find("longread:allowHosts=\"cdn.example.net\""), std::string::npos) << exported.out;
  std::ofstream(dir_ / "exported.opml") << exported.out;
  ASSERT_EQ(longread("import " + (dir_ / "exported.opml").string(), "u.db").status, 0);
  EXPECT_EQ(by_feed(url("/ann.xml"), "u.db").allowed_hosts, (std::vector<std::string>{"cdn.example.net"}));

  for (const char* bad : {"'http://x.example/'", "x.example/path", "x.example:8080", "''"}) {
    r = longread("blogs edit " + id + " --allow-host " + bad);
    EXPECT_EQ(r.status, 1) << bad;
    EXPECT_NE(r.err.find("not a host name or address"), std::string::npos) << bad << ": " << r.err;
  }
  EXPECT_EQ(by_id(ann_).allowed_hosts, (std::vector<std::string>{"cdn.example.net"}));
}

}  // namespace
