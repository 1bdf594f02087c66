#include "ui/html.h"

#include <gtest/gtest.h>

#include <type_traits>

namespace longread::ui {
namespace {

TEST(HtmlTest, TextIsEscaped) {
  EXPECT_EQ(text("<script>alert(1)</script>").str(), "&lt;script&gt;alert(1)&lt;/script&gt;");
  EXPECT_EQ(text("a & \"b\" 'c'").str(), "a &amp; &quot;b&quot; &#39;c&#39;");
  EXPECT_EQ(attr("x\" onmouseover=\"y").str(), "x&quot; onmouseover=&quot;y");
  EXPECT_EQ(text("plain ünïcode").str(), "plain ünïcode");
}

TEST(HtmlTest, TemplateOnlyTakesHtmlArguments) {
  const Html link = html("<a href=\"{}\">{}</a>", *href("/blog/1"), text("<b>"));
  EXPECT_EQ(link.str(), "<a href=\"/blog/1\">&lt;b&gt;</a>");
  // A runtime std::string cannot become Html, nor be passed as an argument of html().
  static_assert(!std::is_constructible_v<Html, std::string>);
  static_assert(!std::is_constructible_v<Html, const char*>);
  static_assert(!std::is_convertible_v<std::string, Html>);
  static_assert(!std::is_constructible_v<TrustedLiteral, std::string>);
}

TEST(HtmlTest, HrefAcceptsOnlyHttpAndSitePaths) {
  EXPECT_EQ(href("https://example.com/a?b=1&c=2")->str(), "https://example.com/a?b=1&amp;c=2");
  EXPECT_EQ(href("http://example.com/")->str(), "http://example.com/");
  EXPECT_EQ(href("/category/x")->str(), "/category/x");
  EXPECT_FALSE(href("javascript:alert(1)").has_value());
  EXPECT_FALSE(href("JavaScript:alert(1)").has_value());
  EXPECT_FALSE(href("data:text/html,<b>").has_value());
  EXPECT_FALSE(href("//evil.example/").has_value());
  EXPECT_FALSE(href("/\\evil.example").has_value());
  EXPECT_FALSE(href("").has_value());
  EXPECT_FALSE(href("relative/path").has_value());
}

TEST(HtmlTest, ExternalLinkUnlinksUnsafeUrls) {
  EXPECT_EQ(external_link("https://a.example/x", text("A")).str(),
            "<a href=\"https://a.example/x\" rel=\"noopener\">A</a>");
  EXPECT_EQ(external_link("javascript:alert(1)", text("A")).str(), "A");
  EXPECT_EQ(external_link("https://a.example/", text("A"), Html::literal("class=\"b\"")).str(),
            "<a href=\"https://a.example/\" rel=\"noopener\" class=\"b\">A</a>");
}

TEST(HtmlTest, SnippetMarkersBecomeMarksAfterEscaping) {
  EXPECT_EQ(marked_snippet("a \x01<lock>\x02 free").str(), "a <mark>&lt;lock&gt;</mark> free");
  EXPECT_EQ(marked_snippet("\x01open").str(), "<mark>open</mark>");
  EXPECT_EQ(marked_snippet("stray\x02 \x01\x01x\x02").str(), "stray <mark>x</mark>");
}

TEST(HtmlTest, ParagraphsSplitOnBlankLines) {
  EXPECT_EQ(paragraphs("one  two\n\n<three>\n\n\n").str(), "<p>one two</p>\n<p>&lt;three&gt;</p>\n");
  // Lines inside a paragraph come from <pre>: kept, with their indentation, escaped.
  EXPECT_EQ(
      paragraphs("Like this:\n\nint main() {\n    return a < b;\n}\n\nDone.").str(),
      "<p>Like this:</p>\n<pre tabindex=\"0\">int main() {\n    return a &lt; b;\n}</pre>\n<p>Done.</p>\n");
  EXPECT_EQ(paragraphs("").str(), "");
}

TEST(HtmlTest, JoinAndConcatenate) {
  Html a = text("a<");
  a += Html::literal("<br>");
  EXPECT_EQ(a.str(), "a&lt;<br>");
  EXPECT_EQ(join({text("x"), text("y"), text("z")}, Html::literal(", ")).str(), "x, y, z");
  EXPECT_EQ(number(-42).str(), "-42");
}

}  // namespace
}  // namespace longread::ui
