#include "html_equivalence.h"

#include <gtest/gtest.h>

namespace longread::conformance {
namespace {

// Two serialisations of one tree: the shapes feedparser's sanitizer produces from markup as written.
TEST(HtmlEquivalence, SameTreeInAnotherSerialisationIsEqual) {
  EXPECT_TRUE(same_html("a<br/>b", "a<br />b"));
  EXPECT_TRUE(same_html("a<br>b", "a<br />b"));
  EXPECT_TRUE(same_html(R"(<a title='t' href="/x">l</a>)", R"(<a href="/x" title="t">l</a>)"));
  EXPECT_TRUE(same_html("&#X61;", "&#x61;"));
  EXPECT_TRUE(same_html("&#x61;", "a"));
  EXPECT_TRUE(same_html("AT&amp;T", "AT&#38;T"));
  // WHATWG HTML maps the C1 reference &#146; to U+2019 (the windows-1252 character).
  EXPECT_TRUE(same_html("don&#146;t", "don&#x2019;t"));
  EXPECT_TRUE(same_html("<p>one<p>two", "<p>one</p><p>two</p>"));
}

TEST(HtmlEquivalence, ForeignElementsIgnoreNamespaceDeclarations) {
  EXPECT_TRUE(same_html(
      R"(<svg width="3" height="2"><circle r="1" cx="0"/></svg>)",
      R"(<svg height="2" width="3" xmlns="http://www.w3.org/2000/svg"><circle cx="0" r="1"></svg>)"));
  EXPECT_TRUE(same_html(
      R"(<math xmlns='http://www.w3.org/1998/Math/MathML'><mrow xlink:type="simple" xlink:href="h"><mi>a</mi></mrow></math>)",
      R"(<math xmlns="http://www.w3.org/1998/Math/MathML"><mrow xlink:href="h" xlink:type="simple" xmlns:xlink="http://www.w3.org/1999/xlink"><mi>a</mi></mrow></math>)"));
  EXPECT_TRUE(same_html(R"(<svg xmlns:svg="http://www.w3.org/2000/svg"></svg>)", "<svg></svg>"));
}

TEST(HtmlEquivalence, ChangedAttributeValueDiffers) {
  const auto difference = html_difference(R"(<a href="/x">l</a>)", R"(<a href="/y">l</a>)");
  ASSERT_TRUE(difference.has_value());
  EXPECT_NE(difference->find("href"), std::string::npos) << *difference;
  EXPECT_FALSE(same_html(R"(<svg><circle r="1"/></svg>)", R"(<svg><circle r="2"/></svg>)"));
  EXPECT_FALSE(same_html(R"(<mrow xlink:href="a"></mrow>)", R"(<mrow xlink:href="b"></mrow>)"));
}

TEST(HtmlEquivalence, AddedOrMissingAttributeDiffers) {
  EXPECT_FALSE(same_html(R"(<a href="/x">l</a>)", R"(<a href="/x" rel="nofollow">l</a>)"));
  EXPECT_FALSE(same_html(R"(<a href="/x" rel="nofollow">l</a>)", R"(<a href="/x">l</a>)"));
  // Only foreign elements get their namespace declarations ignored.
  EXPECT_FALSE(same_html(R"(<p xmlns="http://www.w3.org/1999/xhtml">x</p>)", "<p>x</p>"));
}

TEST(HtmlEquivalence, ChangedTextDiffers) {
  EXPECT_FALSE(same_html("<p>don't</p>", "<p>don&#x2019;t</p>"));
  EXPECT_FALSE(same_html("<p>a b</p>", "<p>a  b</p>"));
  EXPECT_FALSE(same_html("&amp;amp;", "&amp;"));
  // Escaped markup is text, not an element.
  EXPECT_FALSE(same_html("History of the &lt;blink&gt; tag", "History of the <blink> tag"));
  EXPECT_FALSE(same_html("a<!-- one -->b", "a<!-- two -->b"));
}

TEST(HtmlEquivalence, MissingElementDiffers) {
  const auto difference = html_difference("<p>a</p>", "<p>a</p><p>b</p>");
  ASSERT_TRUE(difference.has_value());
  EXPECT_NE(difference->find("missing"), std::string::npos) << *difference;
  EXPECT_FALSE(same_html("<p>a<b>b</b></p>", "<p>ab</p>"));
  EXPECT_FALSE(same_html("<p>a</p><p>b</p>", "<p>a</p>"));
}

TEST(HtmlEquivalence, DifferentTagDiffers) {
  EXPECT_FALSE(same_html("<b>x</b>", "<strong>x</strong>"));
  EXPECT_FALSE(same_html("<made-up>x</made-up>", "<made-down>x</made-down>"));
  // A prefixed name is an unknown HTML element to an HTML parser, not SVG.
  EXPECT_FALSE(same_html("<svg:svg></svg:svg>", "<svg></svg>"));
  // The fragment is the contents of a <div>: a <title> stays where it is written.
  EXPECT_FALSE(same_html("<title>x</title>", "x"));
}

}  // namespace
}  // namespace longread::conformance
