// Broken input: what a browser-grade reader must survive, and recover from where it can.
#include <gtest/gtest.h>

#include <string>

#include "core/strings.h"
#include "feed/feed.h"

namespace longread::feed {
namespace {

const std::string kItems = R"(<item><title>One</title><link>https://example.com/1</link></item>
<item><title>Two</title><link>https://example.com/2</link></item>
<item><title>Three</title><link>https://example.com/3</link></item>)";

std::string rss(const std::string& items,
                const std::string& decl = R"(<?xml version="1.0" encoding="utf-8"?>)") {
  return decl + "\n<rss version=\"2.0\"><channel><title>T</title>" + items + "</channel></rss>";
}

TEST(Tolerance, WellFormedIsNotBozo) {
  auto feed = parse_feed(rss(kItems));
  ASSERT_TRUE(feed);
  EXPECT_FALSE(feed->bozo);
  EXPECT_EQ(feed->entries.size(), 3u);
}

TEST(Tolerance, BareAmpersandAndHtmlEntities) {
  auto feed =
      parse_feed(rss("<item><title>Q&A &nbsp;caf&eacute; &mdash; R&amp;D &bogus; &#233;</title></item>"));
  ASSERT_TRUE(feed) << feed.error().message;
  EXPECT_TRUE(feed->bozo);
  EXPECT_NE(feed->bozo_message.find("XML error at line"), std::string::npos) << feed->bozo_message;
  ASSERT_EQ(feed->entries.size(), 1u);
  EXPECT_EQ(feed->entries[0].title, "Q&A caf\u00e9 \u2014 R&D &bogus; \u00e9");
}

TEST(Tolerance, EntitiesInsideCdataAreLeftAlone) {
  auto feed = parse_feed(
      rss("<item><title>a &nbsp; b</title><description><![CDATA[x &amp; y]]></description></item>"));
  ASSERT_TRUE(feed);
  ASSERT_EQ(feed->entries.size(), 1u);
  EXPECT_EQ(feed->entries[0].summary, "x &amp; y");
}

TEST(Tolerance, BrokenCdata) {
  auto feed = parse_feed(
      rss("<item><title>A</title><description><![CDATA[<p>unterminated</description></item>" + kItems));
  ASSERT_TRUE(feed) << feed.error().message;
  EXPECT_TRUE(feed->bozo);
  ASSERT_GE(feed->entries.size(), 1u);
  EXPECT_EQ(feed->entries[0].title, "A");
}

TEST(Tolerance, TruncatedDocumentKeepsEntriesBeforeTheCut) {
  const std::string full = rss(kItems);
  const std::string cut = full.substr(0, full.find("<item><title>Three"));
  auto feed = parse_feed(cut + "<item><tit");
  ASSERT_TRUE(feed) << feed.error().message;
  EXPECT_TRUE(feed->bozo);
  ASSERT_GE(feed->entries.size(), 2u);
  EXPECT_EQ(feed->entries[0].title, "One");
  EXPECT_EQ(feed->entries[1].link, "https://example.com/2");
}

TEST(Tolerance, TruncatedJsonFeedKeepsCompleteItems) {
  const std::string json = R"({"version":"https://jsonfeed.org/version/1","title":"J","items":[
    {"id":"1","title":"One","url":"https://example.com/1"},
    {"id":"2","title":"Two","url":"https://example.com/2"},
    {"id":"3","title":"Thr)";
  auto feed = parse_feed(json);
  ASSERT_TRUE(feed) << feed.error().message;
  EXPECT_TRUE(feed->bozo);
  ASSERT_EQ(feed->entries.size(), 2u);
  EXPECT_EQ(feed->entries[1].title, "Two");
}

TEST(Tolerance, Latin1BytesInDocumentDeclaredUtf8) {
  auto feed = parse_feed(rss("<item><title>Caf\xe9 na\xefve \x93quoted\x94</title></item>"));
  ASSERT_TRUE(feed) << feed.error().message;
  EXPECT_TRUE(feed->bozo);
  ASSERT_EQ(feed->entries.size(), 1u);
  EXPECT_EQ(feed->entries[0].title, "Caf\u00e9 na\u00efve \u201cquoted\u201d");
}

TEST(Tolerance, DeclaredLatin1IsConverted) {
  auto feed = parse_feed(
      rss("<item><title>Caf\xe9</title></item>", R"(<?xml version="1.0" encoding="ISO-8859-1"?>)"));
  ASSERT_TRUE(feed) << feed.error().message;
  EXPECT_FALSE(feed->bozo);
  EXPECT_EQ(feed->encoding, "iso-8859-1");
  EXPECT_EQ(feed->entries.at(0).title, "Caf\u00e9");
}

TEST(Tolerance, HttpCharsetWinsOverDeclaration) {
  auto feed =
      parse_feed(rss("<item><title>Caf\xe9</title></item>", R"(<?xml version="1.0" encoding="utf-8"?>)"),
                 {.base_url = {}, .content_type = "application/rss+xml; charset=windows-1252"});
  ASSERT_TRUE(feed);
  EXPECT_EQ(feed->encoding, "windows-1252");
  EXPECT_EQ(feed->entries.at(0).title, "Caf\u00e9");
}

std::string encode_utf16(std::string_view ascii, bool big_endian, std::size_t width) {
  std::string out;
  for (char c : ascii) {
    std::string unit(width, '\0');
    unit[big_endian ? width - 1 : 0] = c;
    out += unit;
  }
  return out;
}

TEST(Tolerance, ByteOrderMarks) {
  const std::string doc = rss(kItems, R"(<?xml version="1.0"?>)");
  for (const auto& [bom, big, width] : {std::tuple<std::string, bool, std::size_t>{"\xEF\xBB\xBF", false, 1},
                                        {"\xFE\xFF", true, 2},
                                        {"\xFF\xFE", false, 2},
                                        {std::string("\x00\x00\xFE\xFF", 4), true, 4},
                                        {std::string("\xFF\xFE\x00\x00", 4), false, 4}}) {
    const std::string bytes = bom + (width == 1 ? doc : encode_utf16(doc, big, width));
    auto feed = parse_feed(bytes);
    ASSERT_TRUE(feed) << width << ": " << feed.error().message;
    EXPECT_FALSE(feed->bozo) << width << " " << feed->bozo_message;
    EXPECT_EQ(feed->entries.size(), 3u) << width;
  }
}

TEST(Tolerance, InvalidUtf8ComesOutValid) {
  auto feed =
      parse_feed(rss("<item><title>bad \xC3\x28 \xF0\x28\x8C\x28 \xED\xA0\x80 end</title>"
                     "<description>\xff\xfe</description></item>"));
  ASSERT_TRUE(feed);
  ASSERT_EQ(feed->entries.size(), 1u);
  EXPECT_TRUE(is_valid_utf8(feed->entries[0].title));
  EXPECT_TRUE(is_valid_utf8(feed->entries[0].summary));
  EXPECT_TRUE(feed->entries[0].title.starts_with("bad "));
}

TEST(Tolerance, BinaryGarbageIsAnError) {
  std::string garbage;
  for (int i = 0; i < 4096; ++i) garbage.push_back(static_cast<char>((i * 7919) % 251));
  auto feed = parse_feed(garbage);
  ASSERT_FALSE(feed);
  EXPECT_TRUE(feed.error().kind == ErrorKind::kNotAFeed || feed.error().kind == ErrorKind::kParse);
  EXPECT_TRUE(feed.error().message.starts_with("feed: ")) << feed.error().message;
}

TEST(Tolerance, StartTagOnlyIsAnEmptyBozoFeed) {
  // libxml2's recover mode keeps any root whose name it could read, so this is an (empty) feed, not kParse.
  auto feed = parse_feed("<rss <<<< \x01\x02");
  ASSERT_TRUE(feed);
  EXPECT_TRUE(feed->bozo);
  EXPECT_TRUE(feed->entries.empty());
  auto none = parse_feed("<!DOCTYPE rss [<!ENTITY");
  ASSERT_FALSE(none);
  EXPECT_EQ(none.error().message, "feed: not a feed: no root element");
}

TEST(Tolerance, DeepNestingDoesNotOverflowTheStack) {
  std::string deep = "<rss version=\"2.0\"><channel><title>T</title><item><title>A</title><description>";
  for (int i = 0; i < 10000; ++i) deep += "<div>";
  deep += "x";
  for (int i = 0; i < 10000; ++i) deep += "</div>";
  deep += "</description></item></channel></rss>";
  auto feed = parse_feed(deep);
  if (feed)
    EXPECT_TRUE(feed->bozo);  // libxml2 stops at its depth limit and recovers what came before
  else
    EXPECT_EQ(feed.error().kind, ErrorKind::kParse);

  std::string json = R"({"version":"https://jsonfeed.org/version/1","items":[{"id":"1","x":)";
  for (int i = 0; i < 10000; ++i) json += "[";
  for (int i = 0; i < 10000; ++i) json += "]";
  json += "}]}";
  // The only item is cut off at the depth limit, so none can be read: an error that says why, not a crash.
  auto json_feed = parse_feed(json);
  ASSERT_FALSE(json_feed);
  EXPECT_EQ(json_feed.error().kind, ErrorKind::kParse);
  EXPECT_EQ(json_feed.error().message,
            "feed: 1 JSON item but none could be read (JSON error: nesting deeper than 512)");
  // With a readable item beside it, the feed is read and flagged.
  auto partly =
      parse_feed(std::string(R"({"version":"https://jsonfeed.org/version/1","items":[{"id":"0"},)") +
                 json.substr(json.find('[') + 1));
  ASSERT_TRUE(partly) << partly.error().message;
  EXPECT_TRUE(partly->bozo);
  EXPECT_EQ(partly->entries.size(), 1u);
}

TEST(Tolerance, EightMebibyteDocument) {
  std::string items;
  const std::string item = "<item><title>Entry</title><link>https://example.com/x</link><description>" +
                           std::string(4000, 'a') + "</description></item>\n";
  while (items.size() < 8u * 1024 * 1024) items += item;
  auto feed = parse_feed(rss(items));
  ASSERT_TRUE(feed) << feed.error().message;
  EXPECT_FALSE(feed->bozo);
  EXPECT_EQ(feed->entries.size(), items.size() / item.size());
}

TEST(Tolerance, JunkBeforeTheDocument) {
  auto feed = parse_feed("Warning: something in /var/www/feed.php on line 3\n" + rss(kItems, ""));
  ASSERT_TRUE(feed) << feed.error().message;
  EXPECT_TRUE(feed->bozo);
  EXPECT_EQ(feed->entries.size(), 3u);
}

}  // namespace
}  // namespace longread::feed
