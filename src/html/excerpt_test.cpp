#include <gtest/gtest.h>

#include <string>

#include "core/strings.h"
#include "html/html.h"

namespace longread::html {
namespace {

std::size_t code_points(const std::string& s) {
  std::size_t n = 0;
  for (const char c : s)
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++n;
  return n;
}

TEST(MakeExcerpt, ShortTextIsReturnedWhole) {
  EXPECT_EQ(make_excerpt("Hello world.", 100), "Hello world.");
  EXPECT_EQ(make_excerpt("One.\n\nTwo.", 100), "One. Two.");
  EXPECT_EQ(make_excerpt("One.\n\nTwo.", 100, true), "One.\n\nTwo.");
}

TEST(MakeExcerpt, EmptyTextGivesEmptyNotDots) {
  EXPECT_EQ(make_excerpt("", 100), "");
  EXPECT_EQ(make_excerpt("   \n\n  ", 100), "");
  EXPECT_EQ(make_excerpt("text", 0), "");
}

TEST(MakeExcerpt, CutsAtAWordBoundaryWithAnEllipsis) {
  EXPECT_EQ(make_excerpt("alpha beta gamma delta", 14), "alpha beta\xE2\x80\xA6");
  EXPECT_EQ(make_excerpt("alpha beta, gamma delta", 13), "alpha beta\xE2\x80\xA6");  // no dangling comma
}

TEST(MakeExcerpt, CountsCodePointsNotBytes) {
  // 10 two-byte letters per word: bytes would cut much earlier than code points.
  const std::string word = "\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9";
  const std::string text = word + " " + word + " " + word;
  const auto out = make_excerpt(text, 25);
  EXPECT_EQ(out, word + " " + word + "\xE2\x80\xA6");
  EXPECT_TRUE(is_valid_utf8(out));
  EXPECT_LE(code_points(out), 25u);
}

TEST(MakeExcerpt, OneHugeWordIsCutInsideButNeverInsideACodePoint) {
  std::string text;
  for (int i = 0; i < 100; ++i) text += "\xE2\x82\xAC";  // euro signs, no spaces
  const auto out = make_excerpt(text, 10);
  EXPECT_TRUE(is_valid_utf8(out));
  EXPECT_EQ(code_points(out), 10u);
  EXPECT_TRUE(out.ends_with("\xE2\x80\xA6"));
}

TEST(MakeExcerpt, LongTextStaysWithinTheLimit) {
  std::string text;
  for (int i = 0; i < 1000; ++i) text += "word" + std::to_string(i) + (i % 50 == 49 ? "\n\n" : " ");
  const auto out = make_excerpt(text, 2000);
  EXPECT_LE(code_points(out), 2000u);
  EXPECT_GT(code_points(out), 1900u);
  EXPECT_EQ(out.find('\n'), std::string::npos);
  const auto kept = make_excerpt(text, 2000, true);
  EXPECT_NE(kept.find("\n\n"), std::string::npos);
}

std::string words(int n) {
  std::string s;
  for (int i = 0; i < n; ++i) s += "word ";
  return std::string(trim(s));
}

TEST(LooksLikeSummary, ShortEntries) {
  EXPECT_TRUE(looks_like_summary("<p>Short.</p>", "Short."));
  EXPECT_TRUE(looks_like_summary("", ""));
}

TEST(LooksLikeSummary, TruncationMarkers) {
  const std::string p1 = words(200);
  const std::string two = p1 + "\n\n" + p1;
  EXPECT_TRUE(looks_like_summary("", two + " \xE2\x80\xA6"));
  EXPECT_TRUE(looks_like_summary("", two + "..."));
  EXPECT_TRUE(looks_like_summary("", two + " [\xE2\x80\xA6]"));
  EXPECT_TRUE(looks_like_summary("", two + " Read more \xC2\xBB"));
  EXPECT_TRUE(looks_like_summary("", two + "\n\nContinue reading My Post \xE2\x86\x92"));
  // The text was already stripped, but the entry HTML still shows the more-link.
  EXPECT_TRUE(looks_like_summary(
      "<p>" + p1 + "</p><p>" + p1 + "</p><p><a class=\"more-link\" href=x>On</a></p>", two));
  EXPECT_TRUE(looks_like_summary("<p>" + p1 + "</p><p>" + p1 + " [&hellip;]</p>", two));
}

TEST(LooksLikeSummary, SingleParagraphOfAPost) {
  const std::string p = words(200) + ".";
  EXPECT_TRUE(looks_like_summary("<p>" + p + "</p>", p));
}

TEST(LooksLikeSummary, FullPostsAreNot) {
  const std::string p = words(200) + ".";
  const std::string text = p + "\n\n" + p + "\n\n" + p;
  EXPECT_FALSE(looks_like_summary("<p>" + p + "</p><p>" + p + "</p><p>" + p + "</p>", text));
  // A long single-paragraph post (over 300 words) is not a summary either.
  const std::string big = words(400) + ".";
  EXPECT_FALSE(looks_like_summary("<p>" + big + "</p>", big));
  // "read more" inside the prose does not make it a summary.
  const std::string prose = text + "\n\nI should read more books this year, and so should you.";
  EXPECT_FALSE(looks_like_summary("", prose));
}

// A caller that made the entry's text already says whether it ended in a marker: that answer is taken
// instead of parsing the entry again, and the other tests still apply.
TEST(LooksLikeSummary, TheEntrysOwnMarkerCanBeGivenByTheCaller) {
  const std::string p = words(200) + ".";
  const std::string text = p + "\n\n" + p + "\n\n" + p;
  const std::string html = "<p>" + p + "</p><p>" + p + "</p><p>" + p + "</p><p>Continue reading</p>";
  EXPECT_TRUE(looks_like_summary(html, text));
  EXPECT_TRUE(looks_like_summary(html, text, true));
  EXPECT_FALSE(looks_like_summary(html, text, false));     // not parsed: the caller's answer stands
  EXPECT_TRUE(looks_like_summary("", words(100), false));  // short
  EXPECT_TRUE(looks_like_summary("", text + " [\xE2\x80\xA6]", false));
  EXPECT_TRUE(ends_with_truncation_marker(html_to_text(html)));
  EXPECT_FALSE(ends_with_truncation_marker(text));
}

}  // namespace
}  // namespace longread::html
