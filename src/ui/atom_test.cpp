// atom_document: RFC 4287 structure and well-formed XML whatever the values hold.
#include "ui/atom.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <libxml/parser.h>

namespace longread::ui {
namespace {

using ::testing::HasSubstr;

bool well_formed(const std::string& xml) {
  xmlDoc* doc = xmlReadMemory(xml.data(), static_cast<int>(xml.size()), nullptr, nullptr, XML_PARSE_NONET);
  const bool ok = doc != nullptr;
  xmlFreeDoc(doc);
  return ok;
}

TEST(Atom, ValuesAreEscapedAndCharactersXmlForbidsAreDropped) {
  AtomFeed feed{.id = "https://l.test/newest",
                .title = "longread",
                .author = "longread",
                .self = "https://l.test/feed.atom",
                .alternate = "https://l.test/newest",
                .updated = from_unix(1'700'000'000)};
  feed.entries.push_back({.id = "https://l.test/blog/1/read/2",
                          .title = "Tabs\tand <b>tags</b> & \x01"
                                   "control\x1f characters\xEF\xBF\xBF",
                          .link = "https://blog.test/post?a=1&b=2",
                          .related = "https://l.test/blog/1/read/2-tabs",
                          .author = "Ada \"the\" Blogger",
                          .category = "programming",
                          .summary = "Line one\nline two ]]> done",
                          .published = from_unix(1'600'000'000)});
  const std::string xml = atom_document(feed);
  ASSERT_TRUE(well_formed(xml)) << xml;
  EXPECT_THAT(xml, HasSubstr("<feed xmlns=\"http://www.w3.org/2005/Atom\">"));
  EXPECT_THAT(xml, HasSubstr("<title>Tabs\tand &lt;b&gt;tags&lt;/b&gt; &amp; control characters</title>"));
  EXPECT_THAT(xml, HasSubstr("href=\"https://blog.test/post?a=1&amp;b=2\""));
  EXPECT_THAT(xml, HasSubstr("<name>Ada &quot;the&quot; Blogger</name>"));
  EXPECT_THAT(xml, HasSubstr("<summary>Line one\nline two ]]&gt; done</summary>"));
  EXPECT_THAT(xml, HasSubstr("<published>2020-09-13T12:26:40Z</published>"));
  EXPECT_THAT(xml, HasSubstr("<updated>2023-11-14T22:13:20Z</updated>"));
  EXPECT_THAT(xml, HasSubstr("<category term=\"programming\"/>"));
  EXPECT_THAT(
      xml,
      HasSubstr("<link rel=\"related\" type=\"text/html\" href=\"https://l.test/blog/1/read/2-tabs\"/>"));
}

TEST(Atom, AnEmptyFeedIsStillAFeed) {
  const std::string xml = atom_document({.id = "https://l.test/",
                                         .title = "t",
                                         .author = "a",
                                         .self = "s",
                                         .alternate = "a",
                                         .updated = from_unix(0)});
  ASSERT_TRUE(well_formed(xml));
  EXPECT_THAT(xml, HasSubstr("<updated>1970-01-01T00:00:00Z</updated>"));
  EXPECT_THAT(xml, ::testing::Not(HasSubstr("<entry>")));
  EXPECT_THAT(xml, ::testing::Not(HasSubstr("rel=\"next\"")));
}

// RFC 5005 section 3: a page links the first page and the next (older) one.
TEST(Atom, PagedFeedsLinkTheFirstAndNextPages) {
  const std::string xml = atom_document({.id = "https://l.test/",
                                         .title = "t",
                                         .author = "a",
                                         .self = "https://l.test/feed.atom?after=1-2",
                                         .alternate = "https://l.test/newest",
                                         .first = "https://l.test/feed.atom",
                                         .next = "https://l.test/feed.atom?after=3-4",
                                         .updated = from_unix(0)});
  ASSERT_TRUE(well_formed(xml));
  EXPECT_THAT(
      xml,
      HasSubstr("<link rel=\"first\" type=\"application/atom+xml\" href=\"https://l.test/feed.atom\"/>"));
  EXPECT_THAT(
      xml,
      HasSubstr(
          "<link rel=\"next\" type=\"application/atom+xml\" href=\"https://l.test/feed.atom?after=3-4\"/>"));
}

}  // namespace
}  // namespace longread::ui
