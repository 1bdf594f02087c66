#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "core/strings.h"
#include "html/compare.h"
#include "html/dom.h"
#include "html/html.h"

namespace longread::html {
namespace {

std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(HtmlToText, ParagraphsAndWhitespaceFolding) {
  EXPECT_EQ(html_to_text("<p>Hello   <b>big</b>\n world</p><p>Second</p>"), "Hello big world\n\nSecond");
  EXPECT_EQ(html_to_text("plain  text"), "plain text");
  EXPECT_EQ(html_to_text(""), "");
  EXPECT_EQ(html_to_text("<div>a<div>b</div>c</div>"), "a\n\nb\n\nc");
}

TEST(HtmlToText, EntitiesAreDecoded) {
  EXPECT_EQ(
      html_to_text("<p>Tom &amp; Jerry &lt;3 &eacute;t&#233; &#x2014; caf&eacute;&nbsp;au&nbsp;lait</p>"),
      "Tom & Jerry <3 \xC3\xA9t\xC3\xA9 \xE2\x80\x94 caf\xC3\xA9 au lait");
}

TEST(HtmlToText, ListsAndHeadingsAreTheirOwnParagraphs) {
  EXPECT_EQ(
      html_to_text("<h2>Title</h2><p>Intro:</p><ul><li>one</li><li>two <em>2</em></li></ul><ol><li>x</ol>"),
      "Title\n\nIntro:\n\none\n\ntwo 2\n\nx");
}

TEST(HtmlToText, BrBreaksAParagraph) {
  EXPECT_EQ(html_to_text("<p>line one<br>line two</p>"), "line one\n\nline two");
}

TEST(HtmlToText, ChromeIsDropped) {
  EXPECT_EQ(html_to_text(
                "<script>var x = '<p>no</p>';</script><style>p{}</style><nav>Home | About</nav>"
                "<p>Body</p><noscript>enable js</noscript><form><input value=q><button>Go</button></form>"
                "<footer>(c) me</footer><aside>ads</aside><iframe src=x></iframe><svg><text>s</text></svg>"),
            "Body");
  EXPECT_EQ(html_to_text("<p>shown</p><p hidden>secret</p><div style='display: none'>gone</div>"
                         "<span aria-hidden=\"true\">icon</span>"),
            "shown");
}

TEST(HtmlToText, NestedBlockquotes) {
  EXPECT_EQ(html_to_text("<blockquote><p>outer</p><blockquote><p>inner</p></blockquote>tail</blockquote>"),
            "outer\n\ninner\n\ntail");
}

TEST(HtmlToText, PreKeepsWhitespace) {
  EXPECT_EQ(html_to_text("<p>Code:</p><pre><code>int main() {\n  return 0;\n}\n</code></pre><p>after</p>"),
            "Code:\n\nint main() {\n  return 0;\n}\n\nafter");
}

TEST(HtmlToText, FiguresKeepCodeAndCaption) {
  EXPECT_EQ(html_to_text("<figure class=highlight><pre>x = 1</pre></figure>"
                         "<figure><img src=a.png><figcaption>A cat</figcaption></figure>"),
            "x = 1\n\nA cat");
}

TEST(HtmlToText, TableCellsAreSeparated) {
  EXPECT_EQ(html_to_text("<table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table>"),
            "a b\n\n1 2");
}

TEST(HtmlToText, FootnoteMarkersAndBackLinksRemoved) {
  // kramdown (Jekyll), goldmark (Hugo) and Wikipedia-style references.
  EXPECT_EQ(html_to_text(
                "<p>Ants move.<sup id=\"fnref:1\"><a href=\"#fn:1\" class=\"footnote\">1</a></sup> Done</p>"
                "<ol><li id=\"fn:1\"><p>Like editors.&nbsp;<a href=\"#fnref:1\" "
                "class=\"reversefootnote\">&#8617;</a></p></li></ol>"),
            "Ants move. Done\n\nLike editors.");
  EXPECT_EQ(html_to_text("<p>Claim<sup id=\"fnref:2\"><a href=\"#fn:2\" class=\"footnote-ref\" "
                         "role=\"doc-noteref\">2</a></sup>.</p><p>Note <a href=\"#fnref:2\" "
                         "class=\"footnote-backref\" role=\"doc-backlink\">&#x21a9;&#xfe0e;</a></p>"),
            "Claim.\n\nNote");
  EXPECT_EQ(html_to_text("<p>Fact<sup><a href=\"#cite_note-1\">[1]</a></sup> more</p>"), "Fact more");
  // A superscript that is not a reference stays: x².
  EXPECT_EQ(html_to_text("<p>x<sup>2</sup></p>"), "x2");
}

TEST(HtmlToText, TrackingPixelsAndImagesGiveNoText) {
  EXPECT_EQ(
      html_to_text("<p>Text</p><img src=\"https://pixel.wp.com/b.gif\" width=\"1\" height=\"1\" alt=\"\">"),
      "Text");
}

TEST(HtmlToText, OutputIsValidUtf8ForInvalidInput) {
  const std::string bad = "<p>caf\xC3 \xFF\xFE ok \xED\xA0\x80 end</p>";
  const auto text = html_to_text(bad);
  EXPECT_TRUE(is_valid_utf8(text));
  EXPECT_NE(text.find("ok"), std::string::npos);
  EXPECT_NE(text.find("end"), std::string::npos);
}

TEST(HtmlToText, InvalidBytesDoNotChangeHowTheRestIsDecoded) {
  // libxml2 would read everything after the first bad byte as Latin-1; the input is cleaned first.
  const auto text = html_to_text("<p>bad \xFF byte</p><p>caf\xC3\xA9 \xE2\x80\x94 done</p>");
  EXPECT_EQ(text, "bad \xEF\xBF\xBD byte\n\ncaf\xC3\xA9 \xE2\x80\x94 done");
  EXPECT_EQ(html_to_text(std::string("<p>nul\0byte</p>", 16)), "nulbyte");
}

TEST(HtmlToText, DeclaredCharsetInsideAnEntryIsIgnored) {
  // Entry HTML is already UTF-8 (the feed parser decoded it); a stray <meta charset> must not re-decode it.
  EXPECT_EQ(html_to_text("<meta charset=\"iso-8859-1\"><p>na\xC3\xAFve r\xC3\xA9sum\xC3\xA9</p>"),
            "na\xC3\xAFve r\xC3\xA9sum\xC3\xA9");
  EXPECT_EQ(html_to_text("<meta http-equiv=\"Content-Type\" content=\"text/html; charset=windows-1252\">"
                         "<p>\xE2\x80\x9Cquoted\xE2\x80\x9D</p>"),
            "\xE2\x80\x9Cquoted\xE2\x80\x9D");
}

TEST(HtmlToText, SelfClosedIframeDoesNotSwallowTheRest) {
  // Blogger writes <iframe ... />. HTML5 has no self-closing iframe, so a browser would read the rest
  // of the entry as the iframe's fallback content; libxml2 closes it, which is what the author meant.
  EXPECT_EQ(html_to_text("<p>before</p><p><iframe src=\"https://www.youtube.com/embed/x\"/></p><p>after</p>"),
            "before\n\nafter");
}

TEST(HtmlToText, MisnestedAndUnclosedMarkup) {
  EXPECT_EQ(html_to_text("<p>one<p>two<ul><li>a<li>b</ul>three"), "one\n\ntwo\n\na\n\nb\n\nthree");
  EXPECT_EQ(html_to_text("<b>bold <i>both</b> italic</i> plain"), "bold both italic plain");
  EXPECT_EQ(html_to_text("</p>stray</div> end tags"), "stray end tags");
  EXPECT_EQ(html_to_text("<p>cut off <a href=\"x"), "cut off");
}

// html_to_text (libxml2, SAX) against the gumbo HTML5 walk on every full page of Readability's test
// corpus: the two parsers may differ only on broken markup.
TEST(HtmlToText, AgreesWithTheHtml5ParserOnRealPages) {
  const std::filesystem::path dir = std::filesystem::path(LONGREAD_CORPUS_DIR) / "readability";
  if (!std::filesystem::is_directory(dir)) GTEST_SKIP() << "skipped: ../shared not present";
  int pages = 0;
  int identical = 0;
  double f1 = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    if (entry.path().filename() != "source.html") continue;
    const std::string html = read_file(entry.path());
    const auto ours = html_to_text(html);
    const auto reference = detail::html_to_text_gumbo(html);
    ++pages;
    if (ours == reference) ++identical;
    const double f = token_f1(ours, reference).f1;
    // Not 0.99: on a page of 40 words a leading BOM, which gumbo keeps as text, is one token in 75.
    EXPECT_GT(f, 0.98) << entry.path();
    f1 += f;
  }
  ASSERT_GT(pages, 50);
  EXPECT_GE(identical * 100, pages * 95) << identical << " of " << pages << " identical";
  EXPECT_GT(f1 / pages, 0.999);
}

TEST(HtmlToText, NoBodyAndFragments) {
  EXPECT_EQ(html_to_text("<html><head><title>T</title></head></html>"), "");
  EXPECT_EQ(html_to_text("just <i>text</i>"), "just text");
}

TEST(HtmlToText, DeepNestingIsFlattenedNotLost) {
  std::string html;
  for (int i = 0; i < 10000; ++i) html += "<div><span>";
  html += "deep words";
  for (int i = 0; i < 10000; ++i) html += "</span></div>";
  html += "<p>after</p>";
  const auto text = html_to_text(html);
  EXPECT_NE(text.find("deep words"), std::string::npos);
  EXPECT_NE(text.find("after"), std::string::npos);
}

TEST(HtmlToText, UnclosedFormattingElementsAtScale) {
  std::string html;
  for (int i = 0; i < 200000; ++i) html += "<b>x";
  const auto text = html_to_text(html);
  EXPECT_EQ(count_words(text), 1u);  // "xxxx..." is one run of letters
}

TEST(HtmlToText, NestedReferenceMarkupAfterALongParagraph) {
  // Each possible footnote marker (<sup>, <a href="#...">) remembers the paragraph so far until its end
  // tag decides; only a few levels of them are tracked, so this costs megabytes, not hundreds of them.
  std::string html = "<p>";
  for (int i = 0; i < 100000; ++i) html += "word ";
  for (int i = 0; i < 500; ++i) html += "<sup><a href=\"#n\">";
  html += "1";
  for (int i = 0; i < 500; ++i) html += "</a></sup>";
  html += " end</p>";
  const auto text = html_to_text(html);
  // The outermost <sup> holds "1" and a fragment link: a reference marker, dropped whole.
  EXPECT_EQ(count_words(text), 100001u);
  EXPECT_TRUE(text.ends_with("word end")) << text.substr(text.size() - 40);
  EXPECT_EQ(text, detail::html_to_text_gumbo(html));
}

TEST(HtmlToText, ScriptEverywhere) {
  std::string html = "<p>start</p>";
  for (int i = 0; i < 50000; ++i) html += "<script>document.write('<p>')</script>w ";
  const auto text = html_to_text(html);
  EXPECT_EQ(count_words(text), 50001u);
  EXPECT_EQ(text.find("document"), std::string::npos);
}

TEST(HtmlToText, HugeInputIsTruncatedToTheCap) {
  std::string html;
  html.reserve(50u << 20);
  while (html.size() < (50u << 20)) html += "<p>word word word word word word word word word</p>\n";
  const detail::Document doc(html);
  EXPECT_TRUE(doc.truncated());
  const auto text = html_to_text(html);
  EXPECT_GT(text.size(), 1000u);
  EXPECT_LT(text.size(), kMaxInputBytes);
}

TEST(LimitNesting, LeavesOrdinaryPagesAlone) {
  EXPECT_FALSE(detail::limit_nesting("<div><p>a<p>b<ul><li>x<li>y</ul></div><img src=x><br/>", 3));
  // Raw text and comments are not markup.
  EXPECT_FALSE(
      detail::limit_nesting("<script>'<div><div><div><div>'</script><!-- <div><div><div><div> -->", 2));
}

TEST(LimitNesting, DropsTagsPastTheLimitAndTheirEndTags) {
  const auto out = detail::limit_nesting("<div><div><div>t</div></div></div><p>x</p>", 2);
  ASSERT_TRUE(out);
  EXPECT_EQ(*out, "<div><div>t</div></div><p>x</p>");
}

TEST(ReadingMinutes, RoundsAndHasAFloor) {
  EXPECT_EQ(reading_minutes(0), 1);
  EXPECT_EQ(reading_minutes(100), 1);
  EXPECT_EQ(reading_minutes(230), 1);
  EXPECT_EQ(reading_minutes(460), 2);
  EXPECT_EQ(reading_minutes(2300), 10);
}

// Golden files: testdata/x.html -> x.html.expected (strip_boilerplate(html_to_text)) and x.html.excerpt
// (make_excerpt of that text, 280 characters). Sources of the inputs: testdata/SOURCES.md.
TEST(Golden, TestdataPairs) {
  const std::filesystem::path dir = std::filesystem::path(LONGREAD_SOURCE_DIR) / "src/html/testdata";
  int checked = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".html") continue;
    SCOPED_TRACE(entry.path().filename().string());
    const auto text = strip_boilerplate(html_to_text(read_file(entry.path())));
    EXPECT_EQ(text + "\n", read_file(entry.path().string() + ".expected"));
    EXPECT_EQ(make_excerpt(text, 280) + "\n", read_file(entry.path().string() + ".excerpt"));
    ++checked;
  }
  EXPECT_GE(checked, 4);
}

}  // namespace
}  // namespace longread::html
