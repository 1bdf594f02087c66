#include "feed/opml.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace longread::feed {
namespace {
namespace fs = std::filesystem;

const fs::path kCorpus = LONGREAD_CORPUS_DIR;

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(Opml, NestedOutlinesGiveCategories) {
  auto blogs = parse_opml(R"(<?xml version="1.0"?>
<opml version="2.0" xmlns:longread="https://longread.invalid/ns/opml"><head><title>t</title></head><body>
  <outline text="Programming">
    <outline text="Systems"><outline type="rss" text="Deep" xmlUrl="https://deep.example/feed" /></outline>
    <outline type="rss" title="Dan &amp; Co" text="ignored" xmlUrl="https://dan.example/rss" htmlUrl="https://dan.example/" longread:shortForm="true"/>
  </outline>
  <outline type="rss" text="Loose" xmlurl="https://loose.example/atom.xml" category="/History/Ancient,/Other"/>
  <outline type="rss" text="Plain" xmlUrl="https://plain.example/feed"/>
</body></opml>)");
  ASSERT_TRUE(blogs) << blogs.error().message;
  ASSERT_EQ(blogs->size(), 4u);
  EXPECT_EQ((*blogs)[0].category, "Programming");  // the top-level folder, not "Systems"
  EXPECT_EQ((*blogs)[0].title, "Deep");
  EXPECT_EQ((*blogs)[1].title, "Dan & Co");
  EXPECT_EQ((*blogs)[1].site_url, "https://dan.example/");
  EXPECT_TRUE((*blogs)[1].short_form);
  EXPECT_FALSE((*blogs)[0].short_form);
  EXPECT_EQ((*blogs)[2].feed_url, "https://loose.example/atom.xml");
  EXPECT_EQ((*blogs)[2].category, "History");
  EXPECT_EQ((*blogs)[3].category, "");
}

TEST(Opml, WriteRoundTrips) {
  const std::vector<OpmlBlog> blogs{
      {"https://a.example/feed?x=1&y=2", "https://a.example/", "A <&> \"quoted\"", "Programming", true},
      {"https://b.example/rss", "", "B", "", false},
      {"https://c.example/atom", "https://c.example/", "C", "History", false},
      {"https://d.example/feed", "https://d.example/", "Dé", "Programming", false},
  };
  const std::string xml = write_opml(blogs, "longread blogs");
  auto back = parse_opml(xml);
  ASSERT_TRUE(back) << back.error().message;
  ASSERT_EQ(back->size(), blogs.size());
  // Grouped: uncategorised first, then categories in order of first appearance.
  const std::vector<std::string> order{"https://b.example/rss", "https://a.example/feed?x=1&y=2",
                                       "https://d.example/feed", "https://c.example/atom"};
  for (std::size_t i = 0; i < order.size(); ++i) {
    const auto& got = (*back)[i];
    EXPECT_EQ(got.feed_url, order[i]);
    const auto it = std::find_if(blogs.begin(), blogs.end(),
                                 [&](const OpmlBlog& b) { return b.feed_url == got.feed_url; });
    ASSERT_NE(it, blogs.end());
    EXPECT_EQ(got.title, it->title);
    EXPECT_EQ(got.site_url, it->site_url);
    EXPECT_EQ(got.category, it->category);
    EXPECT_EQ(got.short_form, it->short_form);
  }
}

// A paused blog is written with longread:paused="true" and read back; an outline that does not say leaves
// it unset (an import keeps the database's state), and an explicit "false" reads as false.
TEST(Opml, PausedRoundTripsAndAbsentStaysUnset) {
  std::vector<OpmlBlog> blogs{{"https://a.example/feed", "", "A", "essays", false},
                              {"https://b.example/feed", "", "B", "essays", true}};
  blogs[0].paused = true;
  blogs[1].paused = false;
  const std::string xml = write_opml(blogs, "t");
  EXPECT_NE(xml.find("longread:paused=\"true\""), std::string::npos) << xml;
  EXPECT_EQ(xml.find("paused=\"false\""), std::string::npos) << xml;
  auto back = parse_opml(xml);
  ASSERT_TRUE(back) << back.error().message;
  ASSERT_EQ(back->size(), 2u);
  EXPECT_EQ((*back)[0].paused, std::optional<bool>(true));
  EXPECT_EQ((*back)[1].paused, std::nullopt);
  EXPECT_TRUE((*back)[1].short_form);

  auto read =
      parse_opml(R"(<opml version="2.0" xmlns:longread="https://longread.invalid/ns/opml"><body>)"
                 R"(<outline xmlUrl="https://c.example/feed" longread:paused="false"/>)"
                 R"(<outline xmlUrl="https://d.example/feed" longread:paused="TRUE"/></body></opml>)");
  ASSERT_TRUE(read) << read.error().message;
  ASSERT_EQ(read->size(), 2u);
  EXPECT_EQ((*read)[0].paused, std::optional<bool>(false));
  EXPECT_EQ((*read)[1].paused, std::optional<bool>(true));
}

// A retired blog is written with longread:retired="<reason>" (escaped like any attribute) and read back;
// an outline that does not say, or says nothing, leaves it unset.
TEST(Opml, RetiredRoundTripsWithItsReasonAndAbsentStaysUnset) {
  std::vector<OpmlBlog> blogs{{"https://a.example/feed", "", "A", "essays", false},
                              {"https://b.example/feed", "", "B", "essays", false}};
  blogs[0].retired = "no post in 12 months & \"moved\" <away>";
  const std::string xml = write_opml(blogs, "t");
  EXPECT_NE(xml.find("longread:retired=\"no post in 12 months &amp; &quot;moved&quot; &lt;away&gt;\""),
            std::string::npos)
      << xml;
  auto back = parse_opml(xml);
  ASSERT_TRUE(back) << back.error().message;
  ASSERT_EQ(back->size(), 2u);
  EXPECT_EQ((*back)[0].retired, std::optional<std::string>("no post in 12 months & \"moved\" <away>"));
  EXPECT_EQ((*back)[1].retired, std::nullopt);

  auto read = parse_opml(R"(<opml version="2.0" xmlns:longread="https://longread.invalid/ns/opml"><body>)"
                         R"(<outline xmlUrl="https://c.example/feed" longread:retired="  "/></body></opml>)");
  ASSERT_TRUE(read) << read.error().message;
  EXPECT_EQ(read->at(0).retired, std::nullopt);
}

TEST(Opml, AllowedHostsRoundTripAndAbsentStaysUnset) {
  std::vector<OpmlBlog> blogs{{"https://a.example/feed", "", "A", "essays", false},
                              {"https://b.example/feed", "", "B", "essays", false}};
  blogs[0].allowed_hosts = std::vector<std::string>{"cdn.a.example", "img.example.net"};
  const std::string xml = write_opml(blogs, "t");
  EXPECT_NE(xml.find("longread:allowHosts=\"cdn.a.example img.example.net\""), std::string::npos) << xml;
  auto back = parse_opml(xml);
  ASSERT_TRUE(back) << back.error().message;
  ASSERT_EQ(back->size(), 2u);
  EXPECT_EQ((*back)[0].allowed_hosts, (std::vector<std::string>{"cdn.a.example", "img.example.net"}));
  EXPECT_EQ((*back)[1].allowed_hosts, std::nullopt);  // not said: an import keeps what is stored
  auto cleared =
      parse_opml(R"(<opml version="2.0" xmlns:longread="https://longread.invalid/ns/opml"><body>)"
                 R"(<outline xmlUrl="https://c.example/feed" longread:allowHosts=""/></body></opml>)");
  ASSERT_TRUE(cleared) << cleared.error().message;
  ASSERT_EQ(cleared->size(), 1u);
  EXPECT_EQ((*cleared)[0].allowed_hosts, std::vector<std::string>{});
}

TEST(Opml, Errors) {
  EXPECT_EQ(parse_opml("").error().message, "opml: empty document");
  EXPECT_EQ(parse_opml("<rss version=\"2.0\"/>").error().message, "opml: not an OPML document");
  EXPECT_EQ(parse_opml("\x01\x02 garbage").error().kind, ErrorKind::kInvalidInput);
}

TEST(Opml, RealSubscriptionLists) {
  if (!fs::exists(kCorpus / "real-feeds/opml")) GTEST_SKIP() << "skipped: ../shared not present";
  struct Case {
    const char* file;
    std::size_t min_blogs;
  };
  for (const auto& c : {Case{"Flym_auto_backup.opml", 5}, Case{"Programming.opml", 20}, Case{"Subs.opml", 50},
                        Case{"SubsNoTitleAttributes.opml", 50}, Case{"antennapod-feeds.opml", 5},
                        Case{"rssguard_1.opml", 5}, Case{"rssguard_2.opml", 5}}) {
    auto blogs = parse_opml(read_file(kCorpus / "real-feeds/opml" / c.file));
    ASSERT_TRUE(blogs) << c.file << ": " << blogs.error().message;
    EXPECT_GE(blogs->size(), c.min_blogs) << c.file;
    for (const auto& b : *blogs) {
      EXPECT_FALSE(b.feed_url.empty()) << c.file;
      EXPECT_FALSE(b.title.empty()) << c.file << " " << b.feed_url;
    }
  }
  auto flym = parse_opml(read_file(kCorpus / "real-feeds/opml/Flym_auto_backup.opml"));
  ASSERT_TRUE(flym);
  EXPECT_EQ(flym->front().title, "SMBC");
  EXPECT_EQ(flym->front().feed_url, "http://www.smbc-comics.com/rss.php");
  EXPECT_EQ(flym->front().category, "black humor");
}

TEST(Opml, HackerNewsPersonalBlogs) {
  const auto path = kCorpus / "blog-lists/hn-personal-blogs/list.opml";
  if (!fs::exists(path)) GTEST_SKIP() << "skipped: ../shared not present";
  const std::string bytes = read_file(path);
  auto blogs = parse_opml(bytes);
  ASSERT_TRUE(blogs) << blogs.error().message;
  // Count the xmlUrl attributes independently of the parser.
  std::size_t expected = 0;
  for (auto pos = bytes.find("xmlUrl="); pos != std::string::npos; pos = bytes.find("xmlUrl=", pos + 1))
    ++expected;
  EXPECT_EQ(blogs->size(), expected);
  EXPECT_GE(blogs->size(), 1000u);
  EXPECT_EQ(blogs->front().title, "jgrahamc");
  EXPECT_EQ(blogs->front().feed_url, "https://blog.jgc.org/feeds/posts/default");
  EXPECT_EQ(blogs->front().category, "HN Personal Blogs");  // the single enclosing folder outline
  const auto again = parse_opml(write_opml(*blogs, "HN"));
  ASSERT_TRUE(again);
  EXPECT_EQ(again->size(), blogs->size());
}

}  // namespace
}  // namespace longread::feed
