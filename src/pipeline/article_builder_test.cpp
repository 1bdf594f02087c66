// Identity, dates and link policy of feed entries, on real parsed feeds.
#include "pipeline/article_builder.h"

#include <gtest/gtest.h>

#include "feed/feed.h"

namespace longread::pipeline {
namespace {
using namespace std::chrono;

const TimePoint kNow = sys_days{year{2026} / November / 29} + hours{12};

feed::Feed parse(std::string_view xml) {
  auto f = feed::parse_feed(xml, {.base_url = "https://blog.example/feed.xml", .content_type = ""});
  EXPECT_TRUE(f.has_value()) << (f ? "" : f.error().message);
  return f ? *f : feed::Feed{};
}

model::Blog blog() {
  model::Blog b;
  b.id = 7;
  b.category = "programming";
  b.feed_url = "https://blog.example/feed.xml";
  return b;
}

std::string long_text(int words) {
  std::string s;
  for (int i = 0; i < words; ++i) s += "word" + std::to_string(i % 50) + (i % 12 == 11 ? ". " : " ");
  return s;
}

TEST(ArticleBuilder, IdentityPrefersGuidThenLinkThenHash) {
  const auto f = parse(R"(<?xml version="1.0"?><rss version="2.0"><channel><title>B</title>
    <item><title>A</title><guid>urn:a</guid><link>https://blog.example/a</link></item>
    <item><title>B</title><link>https://BLOG.example:443/b</link></item>
    <item><title>C</title><pubDate>Mon, 23 May 2022 10:00:00 GMT</pubDate></item>
    </channel></rss>)");
  ASSERT_EQ(f.entries.size(), 3u);
  EXPECT_EQ(entry_identity(f.entries[0]), "urn:a");
  EXPECT_EQ(entry_identity(f.entries[1]), "https://blog.example/b");
  EXPECT_TRUE(entry_identity(f.entries[2]).starts_with("hash:"));
  // Same title and date: same identity on every crawl.
  EXPECT_EQ(entry_identity(f.entries[2]), entry_identity(parse(R"(<rss version="2.0"><channel>
    <item><title>C</title><pubDate>Mon, 23 May 2022 10:00:00 GMT</pubDate></item></channel></rss>)")
                                                             .entries.at(0)));
}

// A guid or link of any length gives an identity the stores can index (PostgreSQL's B-tree holds at most
// about 2.7 KB an entry): over 1,024 bytes it becomes a hash of itself, the same on every crawl, and two
// long guids that differ only at their end stay two articles.
TEST(ArticleBuilder, AnOverlongGuidOrLinkBecomesAStableHash) {
  feed::Entry entry;
  entry.id = std::string(1024, 'g');
  EXPECT_EQ(entry_identity(entry), entry.id);  // at the bound: kept
  entry.id = std::string(10'000, 'g') + "1";
  const auto identity = entry_identity(entry);
  EXPECT_TRUE(identity.starts_with("hash:"));
  EXPECT_LE(identity.size(), 1024u);
  EXPECT_EQ(entry_identity(entry), identity);
  auto other = entry;
  other.id.back() = '2';
  EXPECT_NE(entry_identity(other), identity);
  feed::Entry linked;
  linked.link = "https://blog.example/" + std::string(5'000, 'p');
  EXPECT_TRUE(entry_identity(linked).starts_with("hash:"));
}

TEST(ArticleBuilder, ImpossibleDatesBecomeUndatedAndTakeFirstSeen) {
  const auto f = parse(R"(<?xml version="1.0"?><rss version="2.0"><channel><title>B</title>
    <item><title>Hugo draft</title><guid>d</guid><pubDate>Mon, 01 Jan 0001 00:00:00 +0000</pubDate></item>
    <item><title>Future</title><guid>f</guid><pubDate>Sat, 01 Jan 2050 00:00:00 GMT</pubDate></item>
    <item><title>Real</title><guid>r</guid><pubDate>Mon, 23 May 2022 10:00:00 GMT</pubDate></item>
    <item><title>None</title><guid>n</guid></item>
    </channel></rss>)");
  const auto articles = build_articles(f, blog(), kNow, {});
  ASSERT_EQ(articles.size(), 4u);
  for (int i : {0, 1, 3}) {
    EXPECT_TRUE(articles[i].undated) << articles[i].title;
    EXPECT_FALSE(articles[i].published.has_value()) << articles[i].title;
    EXPECT_EQ(articles[i].display_date(), kNow);
  }
  EXPECT_FALSE(articles[2].undated);
  EXPECT_EQ(articles[2].published, sys_days{year{2022} / May / 23} + hours{10});
}

TEST(ArticleBuilder, NonHttpLinksAreDroppedButTheEntryKept) {
  const auto f = parse(R"(<rss version="2.0"><channel><title>B</title>
    <item><title>x</title><guid>1</guid><link>javascript:alert(1)</link></item>
    <item><title>y</title><guid>2</guid><link>/posts/y.html</link></item>
    </channel></rss>)");
  const auto articles = build_articles(f, blog(), kNow, {});
  ASSERT_EQ(articles.size(), 2u);
  EXPECT_EQ(articles[0].link, "");
  EXPECT_EQ(articles[0].blog_id, 7);
  EXPECT_EQ(articles[1].link, "https://blog.example/posts/y.html");
}

TEST(ArticleBuilder, DuplicateGuidsInOneFeedKeepTheFirst) {
  const auto f = parse(R"(<rss version="2.0"><channel><title>B</title>
    <item><title>first</title><guid>same</guid></item>
    <item><title>second</title><guid>same</guid></item></channel></rss>)");
  const auto articles = build_articles(f, blog(), kNow, {});
  ASSERT_EQ(articles.size(), 1u);
  EXPECT_EQ(articles[0].title, "first");
}

TEST(ArticleBuilder, TextExcerptAndReadingTimeComeFromTheLongerBody) {
  const std::string body = "<p>" + long_text(460) + "</p>";
  const auto f = parse(
      "<rss version=\"2.0\"><channel><title>B</title><item><title>Deep post</title><guid>1</guid>"
      "<description>Short summary.</description><content:encoded "
      "xmlns:content=\"http://purl.org/rss/1.0/modules/content/\"><![CDATA[" +
      body + "]]></content:encoded></item></channel></rss>");
  const auto articles = build_articles(f, blog(), kNow, {});
  ASSERT_EQ(articles.size(), 1u);
  EXPECT_EQ(articles[0].word_count, 460);
  EXPECT_EQ(articles[0].reading_minutes, 2);
  EXPECT_FALSE(articles[0].junk) << articles[0].junk_reason;
  EXPECT_EQ(articles[0].category, "programming");
  EXPECT_LE(articles[0].excerpt.size(), 2100u);
  EXPECT_TRUE(articles[0].excerpt.ends_with("\xE2\x80\xA6"));
}

// A body that opens with the post's own title as a heading (The Morning Paper, Hodl Hodl's blog in
// ../shared/corpus/real-feeds): the excerpt starts after it; the text keeps it (search, word count).
TEST(ArticleBuilder, ExcerptSkipsABodyHeadingThatRepeatsTheTitle) {
  const std::string body =
      "<h1>HopFS: Scaling  hierarchical file system metadata</h1><p>" + long_text(200) + "</p>";
  const auto f = parse(
      "<rss version=\"2.0\"><channel><title>B</title><item><title>HopFS: Scaling hierarchical file system "
      "metadata</title><guid>1</guid><description><![CDATA[" +
      body + "]]></description></item><item><title>Queues</title><guid>2</guid><description><![CDATA[" +
      "<h2>Queues, part 2</h2><p>" + long_text(200) + "</p>]]></description></item></channel></rss>");
  const auto articles = build_articles(f, blog(), kNow, {});
  ASSERT_EQ(articles.size(), 2u);
  EXPECT_TRUE(articles[0].excerpt.starts_with("word0 word1")) << articles[0].excerpt;
  EXPECT_TRUE(articles[0].text.starts_with("HopFS: Scaling hierarchical")) << articles[0].text;
  EXPECT_EQ(articles[0].word_count, 206);
  // A heading that is not the title is part of the excerpt.
  EXPECT_TRUE(articles[1].excerpt.starts_with("Queues, part 2 word0")) << articles[1].excerpt;
}

}  // namespace
}  // namespace longread::pipeline
