// Reading-list exports. The samples follow the files the services write: Pocket's HTML export ("Unread"
// and "Read Archive" lists of <a time_added tags>), Pocket's 2024 CSV export (title,url,time_added,tags,
// status), Instapaper's CSV export (URL,Title,Selection,Folder,Timestamp) and Firefox's bookmarks.html;
// the links are made up.
#include "feed/bookmarks.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace longread::feed {
namespace {

using ::testing::HasSubstr;

constexpr std::string_view kPocketHtml = R"html(<!DOCTYPE html>
<html>
	<head>
		<meta http-equiv="Content-Type" content="text/html; charset=UTF-8" />
		<title>Pocket Export</title>
	</head>
	<body>
		<h1>Unread</h1>
		<ul>
			<li><a href="https://queues.example/lock-free-2" time_added="1653300000" tags="concurrency">Lock-free queues, part 2 &amp; more</a></li>
			<li><a href="javascript:alert(1)" time_added="1653300001" tags="">Evil</a></li>
			<li><a href="https://caches.example/lines" time_added="1653300002" tags="">  CPU   caches
			    explained </a></li>
		</ul>

		<h1>Read Archive</h1>
		<ul>
			<li><a href="https://maths.example/primes" time_added="1600000000" tags="">Primes</a></li>
			<li><a href="https://queues.example/lock-free-2" time_added="1600000001" tags="">Listed twice</a></li>
		</ul>
	</body>
</html>
)html";

TEST(Bookmarks, ReadsPocketsHtmlExportWithItsArchive) {
  auto parsed = parse_bookmarks(kPocketHtml);
  ASSERT_TRUE(parsed) << parsed.error().message;
  EXPECT_EQ(parsed->format, "netscape-html");
  EXPECT_EQ(parsed->skipped, 1);  // the javascript: link
  ASSERT_EQ(parsed->bookmarks.size(), 3u);
  const auto& first = parsed->bookmarks[0];
  EXPECT_EQ(first.url, "https://queues.example/lock-free-2");
  EXPECT_EQ(first.title, "Lock-free queues, part 2 & more");
  EXPECT_EQ(first.saved_at, from_unix(1653300000));
  EXPECT_FALSE(first.read);
  EXPECT_EQ(parsed->bookmarks[1].title, "CPU caches explained");
  EXPECT_EQ(parsed->bookmarks[2].url, "https://maths.example/primes");
  EXPECT_TRUE(parsed->bookmarks[2].read);
}

TEST(Bookmarks, ReadsABrowsersBookmarkFile) {
  constexpr std::string_view kFirefox = R"(<!DOCTYPE NETSCAPE-Bookmark-file-1>
<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=UTF-8">
<TITLE>Bookmarks</TITLE>
<H1>Bookmarks Menu</H1>
<DL><p>
    <DT><H3 ADD_DATE="1600000000">Reading</H3>
    <DL><p>
        <DT><A HREF="https://blog.example/post" ADD_DATE="1700000000" LAST_MODIFIED="1700000001">A post</A>
        <DT><A HREF="place:parent=toolbar">Smart folder</A>
        <DT><A HREF="https://blog.example/ms" ADD_DATE="1700000000123">Milliseconds</A>
    </DL><p>
</DL><p>
)";
  auto parsed = parse_bookmarks(kFirefox);
  ASSERT_TRUE(parsed) << parsed.error().message;
  ASSERT_EQ(parsed->bookmarks.size(), 2u);
  EXPECT_EQ(parsed->skipped, 1);
  EXPECT_EQ(parsed->bookmarks[0].title, "A post");
  EXPECT_EQ(parsed->bookmarks[0].saved_at, from_unix(1700000000));
  EXPECT_EQ(parsed->bookmarks[1].saved_at, from_unix(1700000000));
  EXPECT_FALSE(parsed->bookmarks[0].read);
}

TEST(Bookmarks, ReadsPocketAndInstapaperCsv) {
  const std::string pocket =
      "title,url,time_added,tags,status\r\n"
      "\"Queues, \"\"lock-free\"\"\",https://queues.example/q,1653300000,concurrency|c++,unread\r\n"
      "Primes,https://maths.example/primes,1600000000,,archive\r\n"
      "\r\n"
      "No link,,1600000000,,unread\r\n";
  auto p = parse_bookmarks(pocket);
  ASSERT_TRUE(p) << p.error().message;
  EXPECT_EQ(p->format, "pocket-csv");
  ASSERT_EQ(p->bookmarks.size(), 2u);
  EXPECT_EQ(p->skipped, 1);
  EXPECT_EQ(p->bookmarks[0].title, "Queues, \"lock-free\"");
  EXPECT_FALSE(p->bookmarks[0].read);
  EXPECT_TRUE(p->bookmarks[1].read);
  EXPECT_EQ(p->bookmarks[1].saved_at, from_unix(1600000000));

  const std::string instapaper =
      "\xEF\xBB\xBFURL,Title,Selection,Folder,Timestamp\n"
      "https://caches.example/lines,CPU caches,\"A quote\nover two lines, with a comma\",Unread,1700000000\n"
      "https://maths.example/primes,Primes,,Archive,1600000000\n"
      "https://self.example/host,Self-hosting,,Homelab,1650000000\n";
  auto i = parse_bookmarks(instapaper);
  ASSERT_TRUE(i) << i.error().message;
  EXPECT_EQ(i->format, "instapaper-csv");
  ASSERT_EQ(i->bookmarks.size(), 3u);
  EXPECT_EQ(i->bookmarks[0].title, "CPU caches");
  EXPECT_FALSE(i->bookmarks[0].read);
  EXPECT_TRUE(i->bookmarks[1].read);
  EXPECT_FALSE(i->bookmarks[2].read);  // a folder of the reader's own is not the archive
}

// What each bad file gets: an error naming the problem, never a partial import.
TEST(Bookmarks, BadFilesGetAClearError) {
  auto message = [](std::string_view bytes, BookmarkLimits limits = {}) {
    auto r = parse_bookmarks(bytes, limits);
    EXPECT_FALSE(r) << bytes;
    return r ? std::string() : r.error().message;
  };
  EXPECT_EQ(message(""), "bookmarks: empty file");
  EXPECT_EQ(message("\xEF\xBB\xBF \r\n"), "bookmarks: empty file");
  EXPECT_THAT(message("name,link\nA,https://a.example/\n"), HasSubstr("no URL column"));
  EXPECT_THAT(message("url,title\nhttps://a.example/,\"never closed\n"), HasSubstr("never closed"));
  std::string many = "url\n";
  for (int n = 0; n < 11; ++n) many += "https://a.example/" + std::to_string(n) + "\n";
  EXPECT_THAT(message(many, {.max_links = 10}), HasSubstr("more than 10 links"));
  // Duplicates do not count against the limit.
  std::string same = "url\n";
  for (int n = 0; n < 50; ++n) same += "https://a.example/same\n";
  EXPECT_TRUE(parse_bookmarks(same, {.max_links = 10}));
  // An overlong URL is skipped, an overlong title cut.
  auto long_ones = parse_bookmarks("url,title\nhttps://a.example/" + std::string(3000, 'x') +
                                   ",t\nhttps://b.example/," + std::string(1000, 'y') + "\n");
  ASSERT_TRUE(long_ones);
  EXPECT_EQ(long_ones->skipped, 1);
  ASSERT_EQ(long_ones->bookmarks.size(), 1u);
  EXPECT_LE(long_ones->bookmarks[0].title.size(), 304u);
}

TEST(Bookmarks, DeeplyNestedHtmlIsReadWithoutRecursion) {
  std::string deep;
  for (int n = 0; n < 100000; ++n) deep += "<ul><li>";
  deep += "<a href=\"https://deep.example/\">Deep</a>";
  auto parsed = parse_bookmarks(deep);
  ASSERT_TRUE(parsed);  // libxml2 may cut the tree at its depth limit; nothing may crash
  EXPECT_LE(parsed->bookmarks.size(), 1u);
}

TEST(Bookmarks, WrittenFileReadsBackTheSame) {
  const std::vector<Bookmark> list{
      {.url = "https://a.example/?x=1&y=\"2\"",
       .title = "<b>Bold</b> & \"quoted\"",
       .saved_at = from_unix(1700000000)},
      {.url = "https://b.example/", .title = "", .saved_at = from_unix(1600000000), .read = true},
      {.url = "https://c.example/", .title = "Undated"},
  };
  const std::string file = write_netscape_bookmarks(list, "Reading list & more");
  EXPECT_THAT(file, HasSubstr("<!DOCTYPE NETSCAPE-Bookmark-file-1>"));
  EXPECT_THAT(file, HasSubstr("<TITLE>Reading list &amp; more</TITLE>"));
  auto back = parse_bookmarks(file);
  ASSERT_TRUE(back) << back.error().message;
  ASSERT_EQ(back->bookmarks.size(), 3u);
  // Unread first, then the read archive.
  EXPECT_EQ(back->bookmarks[0].url, list[0].url);
  EXPECT_EQ(back->bookmarks[0].title, list[0].title);
  EXPECT_EQ(back->bookmarks[0].saved_at, list[0].saved_at);
  EXPECT_FALSE(back->bookmarks[0].read);
  EXPECT_EQ(back->bookmarks[1].url, list[2].url);
  EXPECT_FALSE(back->bookmarks[1].saved_at);
  EXPECT_EQ(back->bookmarks[2].url, list[1].url);
  EXPECT_EQ(back->bookmarks[2].title, list[1].url);  // an untitled link shows its URL
  EXPECT_TRUE(back->bookmarks[2].read);
}

TEST(Bookmarks, CsvFieldsRoundTripAndNeverRunAsFormulas) {
  const std::vector<std::string> values{
      "plain", "with, comma", "with \"quote\"", "two\nlines", "=HYPERLINK(1)", "+1", "-2", "@SUM(A1)", ""};
  std::string line;
  for (std::size_t i = 0; i < values.size(); ++i) line += (i ? "," : "") + csv_field(values[i]);
  auto rows = parse_csv(line + "\r\n");
  ASSERT_TRUE(rows);
  ASSERT_EQ(rows->size(), 1u);
  ASSERT_EQ(rows->front().size(), values.size());
  for (std::size_t i = 0; i < 4; ++i) EXPECT_EQ(rows->front()[i], values[i]);
  EXPECT_EQ(rows->front()[4], "'=HYPERLINK(1)");
  EXPECT_EQ(rows->front()[7], "'@SUM(A1)");
  EXPECT_EQ(rows->front()[8], "");
}

}  // namespace
}  // namespace longread::feed
