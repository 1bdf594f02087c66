#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "core/strings.h"
#include "html/compare.h"
#include "html/html.h"

namespace longread::html {
namespace {

std::string paragraphs(int n, std::string_view sentence) {
  std::string s;
  for (int i = 0; i < n; ++i) {
    s += "<p>";
    for (int k = 0; k < 4; ++k) {
      s += sentence;
      s += ' ';
    }
    s += "</p>\n";
  }
  return s;
}

std::string page(std::string_view body) {
  return "<!doctype html><html><head><title>Lock-free queues in practice | Example "
         "Blog</title></head><body>" +
         std::string(body) + "</body></html>";
}

constexpr std::string_view kProse =
    "A queue is a list of things waiting, and a lock-free one lets threads pass each other without waiting, "
    "which matters when latency does.";

TEST(ExtractMainContent, PicksTheArticleOverChrome) {
  const std::string html = page(
      "<div id=\"header\"><a href=\"/\">Home</a> <a href=\"/about\">About</a></div>"
      "<div class=\"sidebar\"><ul><li><a href=\"/a\">Archive one</a></li><li><a href=\"/b\">Archive "
      "two</a></li>"
      "</ul></div>"
      "<div class=\"post-content\"><h2>Why queues</h2>" +
      paragraphs(6, kProse) +
      "<p>See <a href=\"/img/diagram.png\">the diagram</a> and <img src=\"fig1.png\" "
      "alt=\"figure\">.</p></div>"
      "<div class=\"comments\"><p>Great post, thanks, really, really enjoyed it, will share it!</p></div>"
      "<div class=\"share-buttons\"><a href=\"https://twitter.com/share\">Tweet</a></div>");
  const auto r = extract_main_content(html, "https://blog.example.com/2024/queues/");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->title, "Lock-free queues in practice");
  EXPECT_NE(r->text.find("Why queues"), std::string::npos);
  EXPECT_NE(r->text.find("lock-free one lets threads"), std::string::npos);
  EXPECT_EQ(r->text.find("Archive one"), std::string::npos);
  EXPECT_EQ(r->text.find("Great post"), std::string::npos);
  EXPECT_EQ(r->text.find("Tweet"), std::string::npos);
  EXPECT_EQ(r->text.find("About"), std::string::npos);
  EXPECT_GT(r->candidates, 0u);
  // Relative links are resolved against the page URL.
  EXPECT_NE(r->content_html.find("href=\"https://blog.example.com/img/diagram.png\""), std::string::npos);
  EXPECT_NE(r->content_html.find("src=\"https://blog.example.com/2024/queues/fig1.png\""), std::string::npos);
  EXPECT_EQ(r->text, html_to_text(r->content_html));
}

TEST(ExtractMainContent, BaseElementWinsOverPageUrl) {
  const std::string html = "<html><head><base href=\"/static/\"></head><body><article>" +
                           paragraphs(5, kProse) +
                           "<p><a href=\"x.html\">link</a> in a sentence that is long enough to stay.</p>"
                           "</article></body></html>";
  const auto r = extract_main_content(html, "https://example.org/a/b.html");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_NE(r->content_html.find("href=\"https://example.org/static/x.html\""), std::string::npos);
}

TEST(ExtractMainContent, ScriptsStylesAndHandlersAreNotInTheContent) {
  const std::string html = page(
      "<article><script>alert(1)</script><style>p{}</style>" + paragraphs(5, kProse) +
      "<p onclick=\"evil()\" style=\"color:red\"><a href=\"javascript:evil()\">x</a> more prose here, with "
      "commas, to keep.</p></article>");
  const auto r = extract_main_content(html, "https://example.org/");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->content_html.find("<script"), std::string::npos);
  EXPECT_EQ(r->content_html.find("onclick"), std::string::npos);
  EXPECT_EQ(r->content_html.find("style="), std::string::npos);
  EXPECT_EQ(r->content_html.find("javascript:"), std::string::npos);
}

TEST(ExtractMainContent, EmptyOrChromeOnlyPagesHaveNoContent) {
  for (const char* html : {"", "<html></html>", "<html><head><title>x</title></head></html>",
                           "<script>var a = 1;</script><nav><a href=/>Home</a></nav>"}) {
    SCOPED_TRACE(html);
    const auto r = extract_main_content(html, "https://example.org/");
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().kind, ErrorKind::kNotFound);
    EXPECT_EQ(r.error().message, "html: no main content found");
  }
}

TEST(ExtractMainContent, NoBodyElementStillWorks) {
  const auto r = extract_main_content(paragraphs(5, kProse), "https://example.org/");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_NE(r->text.find("lock-free one"), std::string::npos);
}

TEST(ExtractMainContent, RefusesInputOverTheCap) {
  const std::string html(kMaxInputBytes + 1, 'a');
  const auto r = extract_main_content(html, "https://example.org/");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, ErrorKind::kTooLarge);
}

TEST(ExtractMainContent, HostileInputsReturn) {
  // 10,000-level nesting around the article.
  std::string deep;
  for (int i = 0; i < 10000; ++i) deep += "<div>";
  deep += paragraphs(5, kProse);
  for (int i = 0; i < 10000; ++i) deep += "</div>";
  auto r = extract_main_content(deep, "https://example.org/");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_NE(r->text.find("lock-free one"), std::string::npos);

  // <script> everywhere.
  std::string scripts;
  for (int i = 0; i < 20000; ++i) scripts += "<script>document.write('<div>')</script><p>w, x</p>";
  r = extract_main_content(scripts, "https://example.org/");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->text.find("document"), std::string::npos);

  // Invalid UTF-8 throughout.
  std::string bad =
      page(paragraphs(5, "caf\xC3 \xFF\xFE na\xEF\xBF ve, text \xED\xA0\x80 here and there, more."));
  r = extract_main_content(bad, "https://example.org/");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_TRUE(is_valid_utf8(r->text));
  EXPECT_TRUE(is_valid_utf8(r->content_html));

  // Just under the cap: a page of 9.9 MB of paragraphs.
  std::string big = "<html><body><article>";
  const std::string para = "<p>" + std::string(kProse) + "</p>\n";
  while (big.size() + para.size() < kMaxInputBytes - 1024) big += para;
  big += "</article></body></html>";
  r = extract_main_content(big, "https://example.org/");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_GT(r->text.size(), 1'000'000u);
}

TEST(TokenF1, BagOfWordsOverlap) {
  EXPECT_DOUBLE_EQ(token_f1("The cat sat.", "the  CAT, sat").f1, 1.0);
  EXPECT_DOUBLE_EQ(token_f1("", "").f1, 1.0);
  EXPECT_DOUBLE_EQ(token_f1("a", "").f1, 0.0);
  const auto s = token_f1("a b c d", "a b");
  EXPECT_DOUBLE_EQ(s.precision, 0.5);
  EXPECT_DOUBLE_EQ(s.recall, 1.0);
  EXPECT_NEAR(s.f1, 2.0 / 3.0, 1e-9);
  // Multiset: a repeated word counts as often as it appears on both sides.
  EXPECT_DOUBLE_EQ(token_f1("a a a a", "a").precision, 0.25);
}

// The pages in the corpus whose expected output is a known article: the extractor must find it.
TEST(ExtractMainContent, RealPagesFromTheCorpus) {
  const std::filesystem::path dir = std::filesystem::path(LONGREAD_CORPUS_DIR) / "real-pages/dpzmick";
  if (!std::filesystem::exists(dir)) GTEST_SKIP() << "skipped: ../shared not present";
  std::ifstream in(dir / "2019-05-25-pin-rs-cpp.html", std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  const auto r = extract_main_content(ss.str(), "https://dpzmick.com/posts/2019-05-25-pin-rs-cpp.html");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_GT(count_words(r->text), 500u);
}

}  // namespace
}  // namespace longread::html
