// Feed autodiscovery over real home pages from the corpus (the links their sites declare) and small inline
// pages for each rule: relative hrefs, <base href>, rel token lists, type variants, comment feeds, hostile
// markup.
#include "html/discover.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>

namespace longread::html {
namespace {

namespace fs = std::filesystem;

std::optional<std::string> corpus_page(const std::string& relative) {
  std::ifstream in(fs::path(LONGREAD_CORPUS_DIR) / "real-pages" / relative, std::ios::binary);
  if (!in) return std::nullopt;
  return std::string(std::istreambuf_iterator<char>(in), {});
}

#define LOAD_OR_SKIP(var, relative)                              \
  if (!fs::exists(fs::path(LONGREAD_CORPUS_DIR) / "real-pages")) \
    GTEST_SKIP() << "skipped: ../shared not present";            \
  const auto var = corpus_page(relative);                        \
  ASSERT_TRUE(var) << relative

std::vector<std::string> urls(const Discovery& d) {
  std::vector<std::string> out;
  for (const auto& f : d.feeds) out.push_back(f.url);
  return out;
}

// --- real pages

TEST(DiscoverRealPages, DaringFireballDeclaresItsAtomFeedWithARelativeHref) {
  LOAD_OR_SKIP(page, "netnewswire/DaringFireball.html");
  const auto d = discover_feeds(*page, "https://daringfireball.net/");
  ASSERT_EQ(d.feeds.size(), 1u);
  EXPECT_EQ(d.feeds[0].url, "https://daringfireball.net/feeds/main");
  EXPECT_EQ(d.feeds[0].type, "application/atom+xml");
  EXPECT_FALSE(d.feeds[0].comments);
  EXPECT_EQ(d.page_title, "Daring Fireball");
}

TEST(DiscoverRealPages, BlogHomePagesWithAbsoluteFeedLinks) {
  {
    LOAD_OR_SKIP(page, "netnewswire/inessential.html");
    const auto d = discover_feeds(*page, "https://inessential.com/");
    EXPECT_EQ(urls(d), std::vector<std::string>{"http://inessential.com/xml/rss.xml"});
    ASSERT_FALSE(d.feeds.empty());
    EXPECT_EQ(d.feeds[0].title, "RSS");
  }
  {
    LOAD_OR_SKIP(page, "netnewswire/furbo.html");
    const auto d = discover_feeds(*page, "https://furbo.org/");
    EXPECT_EQ(urls(d), std::vector<std::string>{"http://furbo.org/feed/"});
  }
  {
    LOAD_OR_SKIP(page, "netnewswire/sixcolors.html");
    const auto d = discover_feeds(*page, "https://sixcolors.com/");
    EXPECT_EQ(urls(d), std::vector<std::string>{"http://feedpress.me/sixcolors"});
  }
}

TEST(DiscoverRealPages, RelativeHrefsResolveAgainstThePageUrl) {
  {
    LOAD_OR_SKIP(page, "feeder/phoronix.html");
    const auto d = discover_feeds(*page, "https://www.phoronix.com/news/SystemV-Filesystem-Removal");
    EXPECT_EQ(urls(d), std::vector<std::string>{"https://www.phoronix.com/rss.php"});
  }
  {
    LOAD_OR_SKIP(page, "netnewswire/coco.html");
    const auto d = discover_feeds(
        *page,
        "https://www.theatlantic.com/entertainment/archive/2017/11/coco-is-among-pixars-best-movies/546695/");
    EXPECT_EQ(urls(d), (std::vector<std::string>{"https://www.theatlantic.com/feed/all/",
                                                 "https://www.theatlantic.com/feed/best-of/"}));
  }
  {
    LOAD_OR_SKIP(page, "feeder/nixos.html");
    const auto d = discover_feeds(*page, "https://nixos.org/");
    EXPECT_EQ(urls(d), std::vector<std::string>{"https://nixos.org/news-rss.xml"});
  }
}

// YouTube declares five rel=alternate links: two mobile pages (no type), two app deep links
// (android-app:, ios-app:) and the RSS feed. Only the feed is one.
TEST(DiscoverRealPages, OnlyFeedTypedAlternatesCount) {
  LOAD_OR_SKIP(page, "netnewswire/YouTubeTheVolvoRocks.html");
  const auto d = discover_feeds(*page, "https://www.youtube.com/user/TheVolvorocks");
  EXPECT_EQ(urls(d), std::vector<std::string>{
                         "https://www.youtube.com/feeds/videos.xml?channel_id=UCct7QF2jcWRY6dhXWMSq9LQ"});
  LOAD_OR_SKIP(slashdot, "feeder/slashdot.html");
  EXPECT_EQ(urls(discover_feeds(*slashdot, "https://slashdot.org/")),
            std::vector<std::string>{"http://rss.slashdot.org/Slashdot/slashdotMain"});
}

// Hugo's default template (cowboyprogrammer.org) declares application/rss, application/json and
// application/atom: older non-registered types, kept because every candidate is parsed before use.
TEST(DiscoverRealPages, HugoTypeVariantsInDocumentOrder) {
  LOAD_OR_SKIP(page, "feeder/cowboyprogrammer.html");
  const auto d = discover_feeds(*page, "https://cowboyprogrammer.org/");
  EXPECT_EQ(urls(d), (std::vector<std::string>{"https://cowboyprogrammer.org/index.xml",
                                               "https://cowboyprogrammer.org/feed.json",
                                               "https://cowboyprogrammer.org/atom.xml"}));
  ASSERT_EQ(d.feeds.size(), 3u);
  EXPECT_EQ(d.feeds[0].type, "application/rss");
  EXPECT_EQ(d.feeds[1].type, "application/json");
}

TEST(DiscoverRealPages, APersonalHomePageWithoutFeedLinks) {
  LOAD_OR_SKIP(page, "dpzmick/index.html");
  const auto d = discover_feeds(*page, "https://dpzmick.com/");
  EXPECT_TRUE(d.feeds.empty());
  EXPECT_EQ(d.page_title, "David Zmick");
}

// --- inline cases

TEST(Discover, RelativeHrefsAgainstTheFinalPageUrl) {
  const std::string page = R"html(<html><head>
<link rel="alternate" type="application/rss+xml" href="feed.xml">
<link rel="alternate" type="application/atom+xml" href="/atom.xml">
<link rel="alternate" type="application/feed+json" href="../feed.json">
<link rel="alternate" type="application/rss+xml" href="//cdn.example.net/rss">
</head><body></body></html>)html";
  EXPECT_EQ(urls(discover_feeds(page, "https://blog.example/posts/index.html")),
            (std::vector<std::string>{"https://blog.example/posts/feed.xml", "https://blog.example/atom.xml",
                                      "https://blog.example/feed.json", "https://cdn.example.net/rss"}));
}

TEST(Discover, BaseHrefDecidesResolution) {
  const std::string page = R"html(<head>
<link rel="alternate" type="application/rss+xml" href="rss.xml">
<base href="/blog/">
<base href="https://other.example/">
</head>)html";
  // The first <base> with an href counts, even for links before it (HTML 2.4.1: the document base URL).
  EXPECT_EQ(urls(discover_feeds(page, "https://site.example/a/b.html")),
            std::vector<std::string>{"https://site.example/blog/rss.xml"});
  // A base without href is skipped; a base that is not http(s) is ignored.
  const std::string no_href = R"html(<base target="_blank"><base href="https://x.example/dir/">
<link rel=alternate type=application/atom+xml href=atom>)html";
  EXPECT_EQ(urls(discover_feeds(no_href, "https://site.example/")),
            std::vector<std::string>{"https://x.example/dir/atom"});
  const std::string script_base =
      R"html(<base href="javascript:alert(1)//"><link rel=alternate type=application/atom+xml href=atom>)html";
  EXPECT_EQ(urls(discover_feeds(script_base, "https://site.example/p/")),
            std::vector<std::string>{"https://site.example/p/atom"});
}

TEST(Discover, RelIsACaseInsensitiveTokenList) {
  const std::string page = R"html(
<link rel="ALTERNATE" type="application/rss+xml" href="/a">
<link rel="alternate feed" type="application/atom+xml" href="/b">
<link rel="  feed	Alternate " type="application/rss+xml" href="/c">
<link rel="alternates" type="application/rss+xml" href="/not-1">
<link rel="stylesheet alternate-x" type="application/rss+xml" href="/not-2">
<link type="application/rss+xml" href="/not-3">
<link rel="feed" type="application/rss+xml" href="/not-4">
<link rel="alternate stylesheet" type="text/css" href="/not-5.css">)html";
  EXPECT_EQ(urls(discover_feeds(page, "https://s.example/")),
            (std::vector<std::string>{"https://s.example/a", "https://s.example/b", "https://s.example/c"}));
}

TEST(Discover, TypeVariantsAndParameters) {
  const std::string page = R"html(
<link rel="alternate" type="Application/RSS+XML; charset=utf-8" href="/1">
<link rel="alternate" type=" application/atom+xml " href="/2">
<link rel="alternate" type="application/json" href="/3">
<link rel="alternate" type="application/rdf+xml" href="/4">
<link rel="alternate" type="text/xml" href="/5">
<link rel="alternate" type="application/json+oembed" href="/no-oembed">
<link rel="alternate" type="text/html" hreflang="de" href="/no-de">
<link rel="alternate" href="/no-type">)html";
  const auto d = discover_feeds(page, "http://s.example/");
  EXPECT_EQ(urls(d),
            (std::vector<std::string>{"http://s.example/1", "http://s.example/2", "http://s.example/3",
                                      "http://s.example/4", "http://s.example/5"}));
  ASSERT_EQ(d.feeds.size(), 5u);
  EXPECT_EQ(d.feeds[0].type, "application/rss+xml");
  EXPECT_EQ(d.feeds[1].type, "application/atom+xml");
}

// WordPress declares the posts feed, the site's comments feed and, on a post, that post's comments feed.
TEST(Discover, WordPressCommentFeedsAreMarked) {
  const std::string page = R"html(<head>
<link rel="alternate" type="application/rss+xml" title="A Blog &raquo; Feed" href="https://a.example/feed/" />
<link rel="alternate" type="application/rss+xml" title="A Blog &raquo; Comments Feed" href="https://a.example/comments/feed/" />
<link rel="alternate" type="application/rss+xml" title="A Blog &raquo; On Caching Comments Feed" href="https://a.example/2024/05/on-caching/feed/" />
<link rel="alternate" type="application/json" href="https://a.example/wp-json/wp/v2/posts/12" />
</head>)html";
  const auto d = discover_feeds(page, "https://a.example/2024/05/on-caching/");
  ASSERT_EQ(d.feeds.size(), 4u);
  EXPECT_FALSE(d.feeds[0].comments);
  EXPECT_EQ(d.feeds[0].title, "A Blog \xC2\xBB Feed");
  EXPECT_TRUE(d.feeds[1].comments);
  EXPECT_TRUE(d.feeds[2].comments);
  EXPECT_FALSE(d.feeds[3].comments);  // not a comment feed; parsing it later shows it is no feed at all
}

TEST(Discover, CommentFeedHeuristics) {
  EXPECT_TRUE(looks_like_comment_feed("https://x.example/feeds/comments/default", ""));  // Blogger
  EXPECT_TRUE(
      looks_like_comment_feed("https://x.example/?feed=comments-rss2", ""));  // WordPress, no pretty URLs
  EXPECT_TRUE(looks_like_comment_feed("https://x.example/comments.xml", ""));
  EXPECT_TRUE(looks_like_comment_feed("https://x.example/feed", "Comments on: A post"));
  EXPECT_TRUE(looks_like_comment_feed("https://x.example/feed", "Comments for A Blog"));
  EXPECT_FALSE(
      looks_like_comment_feed("https://comments.example/feed.xml", "Notes"));  // the host does not count
  EXPECT_FALSE(looks_like_comment_feed("https://x.example/2020/on-commenting/feed.xml", "No comment"));
  EXPECT_FALSE(looks_like_comment_feed("https://x.example/feed.xml", "A Blog"));
}

TEST(Discover, OnlyHttpUrlsAreKept) {
  const std::string page = R"html(
<link rel="alternate" type="application/rss+xml" href="javascript:alert(1)">
<link rel="alternate" type="application/rss+xml" href="  JavaScript:alert(2)">
<link rel="alternate" type="application/rss+xml" href="data:application/rss+xml,<rss/>">
<link rel="alternate" type="application/rss+xml" href="file:///etc/passwd">
<link rel="alternate" type="application/rss+xml" href="feed://x.example/rss">
<link rel="alternate" type="application/rss+xml" href="mailto:a@b.example">
<link rel="alternate" type="application/rss+xml" href="">
<link rel="alternate" type="application/rss+xml" href="#top">
<link rel="alternate" type="application/rss+xml" href="http://[bad">
<link rel="alternate" type="application/rss+xml" href="https://ok.example/rss">)html";
  EXPECT_EQ(urls(discover_feeds(page, "https://s.example/")),
            std::vector<std::string>{"https://ok.example/rss"});
}

TEST(Discover, DuplicatesOnceInDocumentOrder) {
  const std::string page = R"html(
<link rel="alternate" type="application/atom+xml" href="/atom.xml">
<link rel="alternate" type="application/rss+xml" href="/rss.xml">
<link rel="alternate" type="application/atom+xml" href="https://s.example/atom.xml">)html";
  EXPECT_EQ(urls(discover_feeds(page, "https://s.example/")),
            (std::vector<std::string>{"https://s.example/atom.xml", "https://s.example/rss.xml"}));
}

// An SVG <title> is the drawing's, not the document's (HTML 4.2.2: the first title element in the HTML
// namespace).
TEST(Discover, PageTitleIsTheFirstHtmlTitle) {
  const std::string page =
      "<body><svg><title>Logo</title></svg><title>  The\n Page </title><title>Second</title></body>";
  EXPECT_EQ(discover_feeds(page, "https://s.example/").page_title, "The Page");
}

TEST(Discover, NoLinksEmptyAndNonHtmlInput) {
  EXPECT_TRUE(discover_feeds("", "https://s.example/").feeds.empty());
  EXPECT_TRUE(discover_feeds("<p>hello</p>", "https://s.example/").feeds.empty());
  EXPECT_TRUE(discover_feeds(std::string("\0\xff\xfe<link", 7), "https://s.example/").feeds.empty());
  EXPECT_TRUE(
      discover_feeds("<rss><channel><title>x</title></channel></rss>", "https://s.example/").feeds.empty());
}

TEST(Discover, HostileMarkup) {
  // Unclosed tags and attributes: gumbo recovers as a browser does.
  const std::string unclosed =
      R"html(<html><head><title>Broken<link rel=alternate type=application/rss+xml href=/t></head>)"
      R"html(<body><div><p><link rel="alternate" type="application/atom+xml" href="/in-body"><div><span)html";
  // An unclosed <title> is RCDATA to the end of the input, as in a browser: its "links" are text.
  const auto d = discover_feeds(unclosed, "https://s.example/");
  EXPECT_EQ(urls(d), std::vector<std::string>{});
  const std::string body_link =
      R"html(<div><p><link rel="alternate" type="application/atom+xml" href="/in-body"><div><span><a href="x)html";
  EXPECT_EQ(urls(discover_feeds(body_link, "https://s.example/")),
            std::vector<std::string>{"https://s.example/in-body"});

  // 10,000 feed links: at most kMaxFeedLinks come back, the first ones in document order.
  std::string many = "<head>";
  for (int i = 0; i < 10000; ++i) {
    many += "<link rel=alternate type=application/rss+xml href=/f" + std::to_string(i) + ">";
  }
  const auto lots = discover_feeds(many, "https://s.example/");
  ASSERT_EQ(lots.feeds.size(), kMaxFeedLinks);
  EXPECT_EQ(lots.feeds.front().url, "https://s.example/f0");
  EXPECT_EQ(lots.feeds.back().url, "https://s.example/f" + std::to_string(kMaxFeedLinks - 1));

  // Deep nesting does not overflow anything (the Document flattens it).
  std::string deep(200000, ' ');
  for (std::size_t i = 0; i < deep.size(); i += 5) deep.replace(i, 5, "<div>");
  deep += "<link rel=alternate type=application/rss+xml href=/deep>";
  EXPECT_EQ(urls(discover_feeds(deep, "https://s.example/")),
            std::vector<std::string>{"https://s.example/deep"});
}

TEST(Discover, WellKnownPathsBesideThePageThenAtTheRoot) {
  const auto in_blog = well_known_feed_urls("https://s.example/blog/index.html?x=1#top");
  ASSERT_FALSE(in_blog.empty());
  EXPECT_EQ(in_blog.front(), "https://s.example/blog/feed.xml");
  EXPECT_NE(std::find(in_blog.begin(), in_blog.end(), "https://s.example/blog/feed/"), in_blog.end());
  EXPECT_NE(std::find(in_blog.begin(), in_blog.end(), "https://s.example/feed.xml"), in_blog.end());
  EXPECT_NE(std::find(in_blog.begin(), in_blog.end(), "https://s.example/rss"), in_blog.end());
  // Beside-the-page ones come first.
  EXPECT_LT(std::find(in_blog.begin(), in_blog.end(), "https://s.example/blog/feed.json"),
            std::find(in_blog.begin(), in_blog.end(), "https://s.example/feed.xml"));
  // At the root the two lists are the same URLs, each once.
  const auto root = well_known_feed_urls("https://s.example/");
  EXPECT_EQ(root.size(), in_blog.size() / 2);
  EXPECT_EQ(root.front(), "https://s.example/feed.xml");
  EXPECT_TRUE(well_known_feed_urls("not a url").empty());
}

// Found by fuzz/discover_fuzz.cpp: libcurl keeps a host's raw bytes, so a page URL with a non-UTF-8 byte in
// its host (a hostile redirect) gave feed URLs that were not valid UTF-8. Such URLs are dropped; a link to
// another, valid host still counts.
TEST(Discover, NoUrlThatIsNotUtf8FromAPageUrlThatIsNot) {
  const std::string page_url = "https://bl\x92g.example/2024/post/";
  const auto found = discover_feeds(
      "<link rel=alternate type=application/rss+xml href=feed.xml>"
      "<link rel=alternate type=application/atom+xml href=https://ok.example/atom.xml>",
      page_url);
  EXPECT_EQ(urls(found), std::vector<std::string>{"https://ok.example/atom.xml"});
  EXPECT_TRUE(well_known_feed_urls(page_url).empty());
  // The same page at a valid host keeps both, so the test above cannot pass by dropping everything.
  EXPECT_EQ(urls(discover_feeds("<link rel=alternate type=application/rss+xml href=feed.xml>",
                                "https://blog.example/2024/post/")),
            std::vector<std::string>{"https://blog.example/2024/post/feed.xml"});
  EXPECT_FALSE(well_known_feed_urls("https://blog.example/2024/post/").empty());
}

TEST(Discover, HtmlIsRecognisedByTypeOrFirstBytes) {
  EXPECT_TRUE(looks_like_html("", "text/html; charset=utf-8"));
  EXPECT_TRUE(looks_like_html("", "application/xhtml+xml"));
  EXPECT_TRUE(looks_like_html("\xEF\xBB\xBF  <!DOCTYPE html>\n<html>", "application/octet-stream"));
  EXPECT_TRUE(looks_like_html("<HTML lang=en>", ""));
  EXPECT_TRUE(looks_like_html("\n<head>\n<title>x", ""));
  EXPECT_TRUE(looks_like_html("<p>Hello", "text/plain"));
  EXPECT_FALSE(looks_like_html("<rss version=\"2.0\">", "application/xml"));
  EXPECT_FALSE(looks_like_html("<pre>x", ""));  // not one of the patterns
  EXPECT_FALSE(looks_like_html("<html", ""));   // no terminating byte
  EXPECT_FALSE(looks_like_html("Not found", "text/plain"));
  EXPECT_FALSE(looks_like_html("{\"version\": 1}", "application/json"));
}

}  // namespace
}  // namespace longread::html
