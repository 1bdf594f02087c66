#include "feed/feed.h"

#include <gtest/gtest.h>

#include <string>

namespace longread::feed {
namespace {
using namespace std::chrono;

Feed parse_ok(std::string_view bytes, const ParseOptions& options = {}) {
  auto result = parse_feed(bytes, options);
  EXPECT_TRUE(result.has_value()) << (result ? "" : result.error().message);
  return result ? *result : Feed{};
}

TEST(FeedRss, ParsesRss20Item) {
  const auto feed = parse_ok(R"(<?xml version="1.0" encoding="utf-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/"
     xmlns:dc="http://purl.org/dc/elements/1.1/">
<channel>
  <title>Example &amp; Co</title>
  <link>https://example.com/</link>
  <description>A blog</description>
  <language>en</language>
  <item>
    <title>First &lt;b&gt;post&lt;/b&gt;</title>
    <link>/posts/first</link>
    <guid isPermaLink="false">tag:example.com,2024:1</guid>
    <description><![CDATA[<p>Short</p>]]></description>
    <content:encoded><![CDATA[<p>Long text</p>]]></content:encoded>
    <dc:creator>Jane Doe</dc:creator>
    <pubDate>Thu, 23 May 2024 10:00:00 GMT</pubDate>
    <category>systems</category>
    <enclosure url="/audio.mp3" length="1234" type="audio/mpeg"/>
  </item>
</channel>
</rss>)",
                             {.base_url = "https://example.com/feed.xml", .content_type = {}});
  EXPECT_EQ(feed.version, "rss20");
  EXPECT_FALSE(feed.bozo);
  EXPECT_EQ(feed.title, "Example & Co");
  EXPECT_EQ(feed.link, "https://example.com/");
  EXPECT_EQ(feed.language, "en");
  EXPECT_EQ(feed.encoding, "utf-8");
  ASSERT_EQ(feed.entries.size(), 1u);
  const Entry& e = feed.entries[0];
  EXPECT_EQ(e.title, "First post");
  EXPECT_EQ(e.link, "https://example.com/posts/first");
  EXPECT_EQ(e.id, "tag:example.com,2024:1");
  EXPECT_EQ(e.summary, "<p>Short</p>");
  EXPECT_EQ(e.content, "<p>Long text</p>");
  EXPECT_EQ(e.author, "Jane Doe");
  EXPECT_EQ(e.published_raw, "Thu, 23 May 2024 10:00:00 GMT");
  EXPECT_EQ(e.published, sys_days{year{2024} / May / 23} + hours{10});
  EXPECT_EQ(e.categories, std::vector<std::string>{"systems"});
  ASSERT_EQ(e.enclosures.size(), 1u);
  EXPECT_EQ(e.enclosures[0].href, "https://example.com/audio.mp3");
  EXPECT_EQ(e.enclosures[0].length, 1234);
  EXPECT_EQ(e.enclosures[0].type, "audio/mpeg");
}

TEST(FeedRss, GuidPermalinkStandsInForMissingLink) {
  const auto feed = parse_ok(R"(<rss version="2.0"><channel><title>t</title>
<item><guid>https://example.com/a</guid><title>A</title></item>
<item><guid isPermaLink="false">urn:x:1</guid><title>B</title></item></channel></rss>)");
  ASSERT_EQ(feed.entries.size(), 2u);
  EXPECT_EQ(feed.entries[0].link, "https://example.com/a");
  EXPECT_EQ(feed.entries[0].id, "https://example.com/a");
  EXPECT_EQ(feed.entries[1].link, "");
  EXPECT_EQ(feed.entries[1].id, "urn:x:1");
}

TEST(FeedRdf, ParsesRss10) {
  const auto feed = parse_ok(R"(<?xml version="1.0"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/"
         xmlns:dc="http://purl.org/dc/elements/1.1/">
  <channel rdf:about="https://example.org/"><title>RDF blog</title><link>https://example.org/</link></channel>
  <item rdf:about="https://example.org/1"><title>One</title><link>https://example.org/1</link>
    <dc:date>2003-12-31T10:14:55Z</dc:date><dc:creator>Ann</dc:creator></item>
</rdf:RDF>)");
  EXPECT_EQ(feed.version, "rss10");
  EXPECT_EQ(feed.title, "RDF blog");
  ASSERT_EQ(feed.entries.size(), 1u);
  EXPECT_EQ(feed.entries[0].id, "https://example.org/1");
  EXPECT_EQ(feed.entries[0].author, "Ann");
  EXPECT_EQ(feed.entries[0].published,
            sys_days{year{2003} / December / 31} + hours{10} + minutes{14} + seconds{55});
}

TEST(FeedAtom, ParsesAtom10WithXmlBase) {
  const auto feed =
      parse_ok(R"(<feed xmlns="http://www.w3.org/2005/Atom" xml:base="https://example.net/blog/">
  <title type="text">Atom &lt;blog&gt;</title>
  <id>urn:uuid:feed</id>
  <link href="./"/>
  <link rel="self" href="atom.xml"/>
  <author><name>Bob</name></author>
  <updated>2024-01-02T03:04:05Z</updated>
  <entry xml:base="posts/">
    <id>urn:uuid:1</id>
    <title type="html">Hello &lt;em&gt;world&lt;/em&gt;</title>
    <link rel="alternate" type="text/html" href="hello.html"/>
    <link rel="enclosure" href="/a.ogg" length="99" type="audio/ogg"/>
    <published>2024-01-01T00:00:00+01:00</published>
    <updated>2024-01-02T00:00:00Z</updated>
    <summary>1 &lt; 2</summary>
    <content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><p>Body</p></div></content>
    <category term="c++"/>
  </entry>
</feed>)");
  EXPECT_EQ(feed.version, "atom10");
  EXPECT_EQ(feed.title, "Atom <blog>");
  EXPECT_EQ(feed.link, "https://example.net/blog/");
  EXPECT_EQ(feed.id, "urn:uuid:feed");
  EXPECT_EQ(feed.author, "Bob");
  ASSERT_EQ(feed.entries.size(), 1u);
  const Entry& e = feed.entries[0];
  EXPECT_EQ(e.id, "urn:uuid:1");
  EXPECT_EQ(e.title, "Hello world");
  EXPECT_EQ(e.link, "https://example.net/blog/posts/hello.html");
  ASSERT_EQ(e.enclosures.size(), 1u);
  EXPECT_EQ(e.enclosures[0].href, "https://example.net/a.ogg");
  EXPECT_EQ(e.author, "Bob");  // inherited from the feed (RFC 4287 section 4.2.1)
  EXPECT_EQ(e.published, sys_days{year{2023} / December / 31} + hours{23});
  EXPECT_EQ(e.summary, "1 &lt; 2");
  EXPECT_EQ(e.content, "<p>Body</p>");
  EXPECT_EQ(e.categories, std::vector<std::string>{"c++"});
}

// RFC 4287 section 4.2.7: atom:link carries its URL in href; a link written RSS-style, the URL as content,
// still names it.
TEST(FeedAtom, LinkWithTheUrlAsContentInsteadOfHref) {
  const auto feed = parse_ok(R"(<feed xmlns="http://www.w3.org/2005/Atom"><title>T</title>
<entry><id>1</id><link rel="enclosure" type="audio/mpeg"> https://example.com/a.mp3 </link>
<link rel="alternate" type="text/html">https://example.com/a</link></entry>
<entry><id>2</id><link href="https://example.com/b">https://example.com/ignored</link></entry></feed>)");
  ASSERT_EQ(feed.entries.size(), 2u);
  EXPECT_EQ(feed.entries[0].link, "https://example.com/a");
  ASSERT_EQ(feed.entries[0].enclosures.size(), 1u);
  EXPECT_EQ(feed.entries[0].enclosures[0].href, "https://example.com/a.mp3");
  EXPECT_EQ(feed.entries[1].link, "https://example.com/b");  // href wins
}

TEST(FeedJson, ParsesJsonFeed11) {
  const auto feed = parse_ok(R"({
  "version": "https://jsonfeed.org/version/1.1",
  "title": "JSON blog",
  "home_page_url": "https://example.org/",
  "authors": [{"name": "Cy"}],
  "items": [
    {"id": 42, "url": "/p/1", "title": "One", "content_text": "a < b", "date_published": "2024-02-03T04:05:06Z",
     "tags": ["x"], "attachments": [{"url": "https://example.org/f.mp3", "mime_type": "audio/mpeg", "size_in_bytes": 7}]}
  ]})",
                             {.base_url = "https://example.org/feed.json", .content_type = {}});
  EXPECT_EQ(feed.version, "json11");
  EXPECT_EQ(feed.title, "JSON blog");
  ASSERT_EQ(feed.entries.size(), 1u);
  const Entry& e = feed.entries[0];
  EXPECT_EQ(e.id, "42");
  EXPECT_EQ(e.link, "https://example.org/p/1");
  EXPECT_EQ(e.content, "a &lt; b");
  EXPECT_EQ(e.summary, "a &lt; b");
  EXPECT_EQ(e.author, "Cy");
  ASSERT_EQ(e.enclosures.size(), 1u);
  EXPECT_EQ(e.enclosures[0].length, 7);
  EXPECT_EQ(e.published, sys_days{year{2024} / February / 3} + hours{4} + minutes{5} + seconds{6});
}

// JSON Feed titles are plain text by the spec, but WordPress and others write them HTML-escaped
// (netnewswire/pxlnv.json and rose.json in ../shared/corpus/real-feeds): references are decoded once,
// tags and a bare ampersand stay as written.
TEST(FeedJson, HtmlEscapedTitlesAreDecoded) {
  const auto feed = parse_ok(R"({
  "version": "https://jsonfeed.org/version/1.1",
  "title": "Rose &amp; Co",
  "items": [
    {"id": "1", "title": "FCC Says Releasing &#8216;Jokes&#8217; Would &#8216;Harm&#8217; Agency", "content_text": "x"},
    {"id": "2", "title": "Satechi&#039;s charger &hellip; &amp;amp; more", "content_text": "x"},
    {"id": "3", "title": "AT&T, <b>bold</b> & 1 < 2", "content_text": "x"},
    {"id": "4", "title": "  plain   title ", "content_text": "x"}
  ]})",
                             {.base_url = "https://example.org/feed.json", .content_type = {}});
  EXPECT_EQ(feed.title, "Rose & Co");
  ASSERT_EQ(feed.entries.size(), 4u);
  EXPECT_EQ(feed.entries[0].title, "FCC Says Releasing ‘Jokes’ Would ‘Harm’ Agency");
  EXPECT_EQ(feed.entries[1].title, "Satechi's charger … &amp; more");  // decoded once, not twice
  EXPECT_EQ(feed.entries[2].title, "AT&T, <b>bold</b> & 1 < 2");
  EXPECT_EQ(feed.entries[3].title, "plain title");
}

// RSS 2.0 has no namespace, but some generators declare a default one on <rss> or <channel>: its unprefixed
// elements are still RSS, while Dublin Core, content: and Atom elements keep their meaning.
TEST(FeedRss, ElementsInAnUnknownDefaultNamespaceAreRss) {
  for (const std::string ns : {"http://backend.userland.com/rss2", "http://example.com/some/rss/schema"}) {
    const auto feed = parse_ok(R"(<?xml version="1.0"?>
<rss version="2.0" xmlns=")" + ns +
                               R"(" xmlns:dc="http://purl.org/dc/elements/1.1/"
     xmlns:atom="http://www.w3.org/2005/Atom" xmlns:x="http://example.com/ext">
<channel><title>Namespaced</title><link>https://example.com/</link>
  <atom:link rel="self" href="https://example.com/feed.xml"/>
  <item><title>One</title><link>https://example.com/1</link><dc:creator>Ann</dc:creator>
    <x:title>an extension, not the title</x:title></item>
  <item><title>Two</title><link>https://example.com/2</link><pubDate>Thu, 23 May 2024 10:00:00 GMT</pubDate></item>
</channel></rss>)");
    EXPECT_EQ(feed.version, "rss20") << ns;
    EXPECT_EQ(feed.title, "Namespaced") << ns;
    EXPECT_EQ(feed.link, "https://example.com/") << ns;
    ASSERT_EQ(feed.entries.size(), 2u) << ns;
    EXPECT_EQ(feed.entries[0].title, "One");
    EXPECT_EQ(feed.entries[0].link, "https://example.com/1");
    EXPECT_EQ(feed.entries[0].author, "Ann");
    EXPECT_EQ(feed.entries[1].published, sys_days{year{2024} / May / 23} + hours{10});
  }
  // Declared on <channel> only.
  const auto channel_ns = parse_ok(R"(<rss version="2.0"><channel xmlns="http://example.com/ns">
<title>T</title><item><title>A</title><link>https://example.com/a</link></item></channel></rss>)");
  ASSERT_EQ(channel_ns.entries.size(), 1u);
  EXPECT_EQ(channel_ns.entries[0].title, "A");
}

// A document that holds entries none of which can be read is an error, never an empty feed.
TEST(FeedErrors, ItemsPresentButNoneReadIsAnError) {
  auto prefixed = parse_feed(R"(<rss version="2.0" xmlns:x="http://example.com/x"><channel><title>T</title>
<x:item><x:title>A</x:title></x:item><x:item><x:title>B</x:title></x:item></channel></rss>)");
  ASSERT_FALSE(prefixed);
  EXPECT_EQ(prefixed.error().kind, ErrorKind::kParse);
  EXPECT_EQ(prefixed.error().message, "feed: 2 <item> elements but none could be read");

  auto wrapped = parse_feed(R"(<rss version="2.0"><channel><title>T</title>
<items><item><title>A</title></item></items></channel></rss>)");
  ASSERT_FALSE(wrapped);
  EXPECT_EQ(wrapped.error().message, "feed: 1 <item> element but none could be read");

  auto atom = parse_feed(R"(<feed xmlns="http://www.w3.org/2005/Atom"><title>T</title>
<x:entry xmlns:x="http://example.com/x"><x:title>A</x:title></x:entry></feed>)");
  ASSERT_FALSE(atom);
  EXPECT_EQ(atom.error().message, "feed: 1 <entry> element but none could be read");

  auto json = parse_feed(R"({"version": "https://jsonfeed.org/version/1.1", "title": "T",
"items": ["not an object", 3, null]})");
  ASSERT_FALSE(json);
  EXPECT_EQ(json.error().kind, ErrorKind::kParse);
  EXPECT_EQ(json.error().message, "feed: 3 JSON items but none could be read");

  // A feed with no entries at all is an empty feed, not an error.
  const auto empty = parse_ok(R"(<rss version="2.0"><channel><title>T</title></channel></rss>)");
  EXPECT_TRUE(empty.entries.empty());
  const auto empty_json =
      parse_ok(R"({"version": "https://jsonfeed.org/version/1.1", "title": "T", "items": []})");
  EXPECT_TRUE(empty_json.entries.empty());
}

// A feed read from a file has no web address for "/posts/1" to be relative to: entry links resolve against
// the feed's site link instead of becoming file: URLs; what is still not http(s) is left for the caller to
// drop.
TEST(FeedLinks, RelativeEntryLinksResolveAgainstTheSiteLinkWithoutAnHttpBase) {
  const ParseOptions from_file{.base_url = "file:///srv/feeds/blog.xml", .content_type = {}};
  const auto rss = parse_ok(R"(<rss version="2.0"><channel><title>T</title><link>https://blog.example/</link>
<item><title>A</title><link>/posts/a</link><enclosure url="media/a.mp3" type="audio/mpeg" length="1"/></item>
<item><title>B</title><link>archive/b.html</link></item>
<item><title>C</title><link>https://other.example/c</link></item>
<item><title>D</title><guid>d.html</guid></item>
</channel></rss>)",
                            from_file);
  ASSERT_EQ(rss.entries.size(), 4u);
  EXPECT_EQ(rss.entries[0].link, "https://blog.example/posts/a");
  ASSERT_EQ(rss.entries[0].enclosures.size(), 1u);
  EXPECT_EQ(rss.entries[0].enclosures[0].href, "https://blog.example/media/a.mp3");
  EXPECT_EQ(rss.entries[1].link, "https://blog.example/archive/b.html");
  EXPECT_EQ(rss.entries[2].link, "https://other.example/c");
  EXPECT_EQ(rss.entries[3].link, "https://blog.example/d.html");

  const auto atom = parse_ok(R"(<feed xmlns="http://www.w3.org/2005/Atom"><title>T</title>
<link rel="self" href="https://blog.example/atom.xml"/><link rel="alternate" href="https://blog.example/blog/"/>
<entry><id>1</id><title>A</title><link href="2024/a"/></entry></feed>)",
                             from_file);
  ASSERT_EQ(atom.entries.size(), 1u);
  EXPECT_EQ(atom.entries[0].link, "https://blog.example/blog/2024/a");

  const auto json = parse_ok(R"({"version": "https://jsonfeed.org/version/1.1", "title": "T",
"home_page_url": "https://blog.example/", "items": [{"id": "1", "url": "/p/1", "content_text": "x"}]})",
                             from_file);
  ASSERT_EQ(json.entries.size(), 1u);
  EXPECT_EQ(json.entries[0].link, "https://blog.example/p/1");

  // No document URL at all: same rule, and a relative xml:base is taken relative to the site link.
  const auto no_base =
      parse_ok(R"(<rss version="2.0"><channel><title>T</title><link>https://blog.example/</link>
<item><title>A</title><link>/posts/a</link></item>
<item xml:base="/archive/"><title>B</title><link>b.html</link></item></channel></rss>)");
  ASSERT_EQ(no_base.entries.size(), 2u);
  EXPECT_EQ(no_base.entries[0].link, "https://blog.example/posts/a");
  EXPECT_EQ(no_base.entries[1].link, "https://blog.example/archive/b.html");

  // No http(s) site link either: the link stays what it resolves to, not http(s).
  const auto no_site = parse_ok(R"(<rss version="2.0"><channel><title>T</title>
<item><title>A</title><link>/posts/a</link></item></channel></rss>)",
                                from_file);
  ASSERT_EQ(no_site.entries.size(), 1u);
  EXPECT_FALSE(no_site.entries[0].link.starts_with("http")) << no_site.entries[0].link;

  // An http(s) document URL stays the base (RFC 3986 section 5.1.3), whatever the site link says.
  const auto from_web =
      parse_ok(R"(<rss version="2.0"><channel><title>T</title><link>https://blog.example/</link>
<item><title>A</title><link>posts/a</link></item></channel></rss>)",
               {.base_url = "https://feeds.example/x/feed.xml", .content_type = {}});
  EXPECT_EQ(from_web.entries[0].link, "https://feeds.example/x/posts/a");
}

// RSS 2.0's <author> is an e-mail address, written with the name in several ways; the name and the address
// are kept apart (the site shows the name), as are atom:name and atom:email (RFC 4287 section 3.2).
TEST(FeedAuthors, NameAndEmailAreSeparated) {
  struct Case {
    std::string written, name, email;
  };
  const std::vector<Case> cases{
      {"jane@example.com (Jane Doe)", "Jane Doe", "jane@example.com"},
      {"Jane Doe (jane@example.com)", "Jane Doe", "jane@example.com"},
      {"Jane Doe &lt;jane.doe+blog@mail.example.com&gt;", "Jane Doe", "jane.doe+blog@mail.example.com"},
      {"jane@example.com", "", "jane@example.com"},
      {"Jane (the editor)", "Jane (the editor)", ""},
      {"@jane on example.social", "@jane on example.social", ""}};
  for (const auto& c : cases) {
    const auto feed = parse_ok("<rss version=\"2.0\"><channel><title>T</title><managingEditor>" + c.written +
                               "</managingEditor><item><title>A</title><author>" + c.written +
                               "</author></item></channel></rss>");
    ASSERT_EQ(feed.entries.size(), 1u);
    EXPECT_EQ(feed.entries[0].author, c.name) << c.written;
    EXPECT_EQ(feed.entries[0].author_email, c.email) << c.written;
    EXPECT_EQ(feed.author, c.name) << c.written;
    EXPECT_EQ(feed.author_email, c.email) << c.written;
  }

  const auto dc = parse_ok(R"(<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel>
<title>T</title><item><title>A</title><dc:creator>Ann (ann@example.org)</dc:creator></item></channel></rss>)");
  ASSERT_EQ(dc.entries.size(), 1u);
  EXPECT_EQ(dc.entries[0].author, "Ann");
  EXPECT_EQ(dc.entries[0].author_email, "ann@example.org");

  const auto atom = parse_ok(R"(<feed xmlns="http://www.w3.org/2005/Atom"><title>T</title>
<author><name>Bob</name><email> bob@example.net </email></author>
<entry><id>urn:x:1</id><title>A</title><author><name>Cy</name><email>cy@example.net</email></author></entry>
<entry><id>urn:x:2</id><title>B</title></entry>
<entry><id>urn:x:3</id><title>C</title><author><name>Di</name></author></entry></feed>)");
  EXPECT_EQ(atom.author, "Bob");
  EXPECT_EQ(atom.author_email, "bob@example.net");
  ASSERT_EQ(atom.entries.size(), 3u);
  EXPECT_EQ(atom.entries[0].author, "Cy");
  EXPECT_EQ(atom.entries[0].author_email, "cy@example.net");
  // RFC 4287 section 4.2.1: an entry without an author has the feed's, the whole person.
  EXPECT_EQ(atom.entries[1].author, "Bob");
  EXPECT_EQ(atom.entries[1].author_email, "bob@example.net");
  EXPECT_EQ(atom.entries[2].author, "Di");
  EXPECT_EQ(atom.entries[2].author_email, "");
}

// A relative id stays as written (the identity must not change when the document moves, RFC 4287 section
// 4.2.6); the base in effect where it was found is kept beside it, for resolving it by XML Base.
TEST(FeedIds, RelativeIdKeptAsGivenWithTheBaseInEffect) {
  const auto atom =
      parse_ok(R"(<feed xmlns="http://www.w3.org/2005/Atom" xml:base="https://example.net/blog/">
<id>feed</id><title>T</title>
<entry xml:base="posts/"><id xml:base="/ids/">1</id><title>A</title></entry>
<entry xml:base="posts/"><id>2</id><title>B</title></entry>
<entry><id>tag:example.net,2024:3</id><title>C</title></entry></feed>)",
               {.base_url = "https://example.com/atom.xml", .content_type = {}});
  EXPECT_EQ(atom.id, "feed");
  EXPECT_EQ(atom.id_base, "https://example.net/blog/");
  ASSERT_EQ(atom.entries.size(), 3u);
  EXPECT_EQ(atom.entries[0].id, "1");
  EXPECT_EQ(atom.entries[0].id_base, "https://example.net/ids/");
  EXPECT_EQ(atom.entries[1].id, "2");
  EXPECT_EQ(atom.entries[1].id_base, "https://example.net/blog/posts/");
  EXPECT_EQ(atom.entries[2].id, "tag:example.net,2024:3");

  // No xml:base: the document URL.
  const auto plain = parse_ok(R"(<feed xmlns="http://www.w3.org/2005/Atom"><id>/f</id><title>T</title>
<entry><id>/relative/link</id><title>A</title></entry></feed>)",
                              {.base_url = "https://example.com/feeds/atom.xml", .content_type = {}});
  EXPECT_EQ(plain.id_base, "https://example.com/feeds/atom.xml");
  ASSERT_EQ(plain.entries.size(), 1u);
  EXPECT_EQ(plain.entries[0].id, "/relative/link");
  EXPECT_EQ(plain.entries[0].id_base, "https://example.com/feeds/atom.xml");

  // RSS: a guid is a URL unless isPermaLink="false"; rdf:about is an identifier.
  const auto rss = parse_ok(R"(<rss version="2.0"><channel><title>T</title>
<item><guid>post/1</guid><title>A</title></item>
<item><guid isPermaLink="false">post/2</guid><title>B</title></item></channel></rss>)",
                            {.base_url = "https://example.com/blog/feed.xml", .content_type = {}});
  ASSERT_EQ(rss.entries.size(), 2u);
  EXPECT_EQ(rss.entries[0].id, "post/1");
  EXPECT_EQ(rss.entries[0].id_base, "https://example.com/blog/feed.xml");
  EXPECT_EQ(rss.entries[1].id, "post/2");
  EXPECT_EQ(rss.entries[1].id_base, "");
  const auto rdf = parse_ok(R"(<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"
xmlns="http://purl.org/rss/1.0/"><channel rdf:about="https://example.org/"><title>T</title></channel>
<item rdf:about="1"><title>One</title><link>https://example.org/1</link></item></rdf:RDF>)",
                            {.base_url = "https://example.org/index.rdf", .content_type = {}});
  ASSERT_EQ(rdf.entries.size(), 1u);
  EXPECT_EQ(rdf.entries[0].id, "1");
  EXPECT_EQ(rdf.entries[0].id_base, "");
}

// HTTP Content-Language (RFC 9110 section 8.5) is the feed's language when the document declares none.
TEST(FeedLanguage, ContentLanguageHeaderWhenTheDocumentDeclaresNone) {
  const std::string atom = R"(<feed xmlns="http://www.w3.org/2005/Atom"><title>T</title></feed>)";
  const std::string rss = R"(<rss version="2.0"><channel><title>T</title></channel></rss>)";
  const std::string json = R"({"version": "https://jsonfeed.org/version/1.1", "title": "T", "items": []})";
  for (const auto& doc : {atom, rss, json}) {
    const ParseOptions options{.base_url = {}, .content_type = {}, .content_language = " de-CH "};
    EXPECT_EQ(parse_ok(doc, options).language, "de-CH") << doc;
    EXPECT_EQ(parse_ok(doc).language, "") << doc;
  }
  // The document's own declaration wins.
  const ParseOptions german{.base_url = {}, .content_type = {}, .content_language = "de"};
  EXPECT_EQ(
      parse_ok(R"(<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="fr"><title>T</title></feed>)", german)
          .language,
      "fr");
  EXPECT_EQ(
      parse_ok(R"(<rss version="2.0"><channel><title>T</title><language>en-us</language></channel></rss>)",
               german)
          .language,
      "en-us");
  // A list is for several audiences, not one feed language; what is no language tag is ignored.
  for (const std::string& header :
       std::vector<std::string>{"en, fr", "de;q=1", "<script>", "x-" + std::string(40, 'a')}) {
    const ParseOptions options{.base_url = {}, .content_type = {}, .content_language = header};
    EXPECT_EQ(parse_ok(atom, options).language, "") << header;
  }
  const ParseOptions underscore{.base_url = {}, .content_type = {}, .content_language = "en_GB"};
  EXPECT_EQ(parse_ok(atom, underscore).language, "en-GB");
}

// A server that does not say the document is XML (RFC 7303's XML media types, or a +xml suffix): read all
// the same, and flagged.
TEST(FeedErrors, NonXmlMediaTypeIsReadAndFlagged) {
  const std::string doc = R"(<rss version="2.0"><channel><title>T</title>
<item><title>A</title><link>https://example.com/a</link></item></channel></rss>)";
  for (const std::string type : {"text/plain", "text/html; charset=utf-8", "application/octet-stream"}) {
    const auto feed = parse_ok(doc, {.base_url = {}, .content_type = type});
    EXPECT_TRUE(feed.bozo) << type;
    EXPECT_EQ(feed.bozo_message, "served as " + type.substr(0, type.find(';')) + ", not an XML media type");
    EXPECT_EQ(feed.entries.size(), 1u) << type;
  }
  for (const std::string type : {"", "application/xml", "text/xml; charset=utf-8", "application/rss+xml",
                                 "text/atom+xml", "Application/RDF+XML", "application/xml-dtd"}) {
    const auto feed = parse_ok(doc, {.base_url = {}, .content_type = type});
    EXPECT_FALSE(feed.bozo) << type << ": " << feed.bozo_message;
  }
  // JSON Feed is not XML and is not judged by it.
  const auto json = parse_ok(R"({"version": "https://jsonfeed.org/version/1.1", "title": "T", "items": []})",
                             {.base_url = {}, .content_type = "application/json"});
  EXPECT_FALSE(json.bozo);
}

TEST(FeedErrors, HtmlPageIsNotAFeed) {
  auto r = parse_feed("<!DOCTYPE html><html><head><title>x</title></head><body></body></html>");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::kNotAFeed);
  EXPECT_EQ(r.error().message, "feed: not a feed: got an HTML page");
  auto r2 = parse_feed("\n  <html><body>hi</body></html>");
  ASSERT_FALSE(r2);
  EXPECT_EQ(r2.error().message, "feed: not a feed: got an HTML page");
}

TEST(FeedErrors, EmptyDocument) {
  auto r = parse_feed("  \n ");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::kNotAFeed);
  EXPECT_EQ(r.error().message, "feed: not a feed: empty document");
  EXPECT_FALSE(parse_feed(""));
}

}  // namespace
}  // namespace longread::feed
