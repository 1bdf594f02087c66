#include "core/strings.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

namespace longread {
namespace {

TEST(Strings, SanitizeReplacesInvalidUtf8AndDropsControls) {
  EXPECT_EQ(sanitize_utf8("ok\xff\x01 caf\xC3\xA9"), "ok\xEF\xBF\xBD caf\xC3\xA9");
  EXPECT_EQ(sanitize_utf8("\xC0\xAF"), "\xEF\xBF\xBD\xEF\xBF\xBD");  // overlong '/'
  EXPECT_TRUE(is_valid_utf8("caf\xC3\xA9"));
  EXPECT_FALSE(is_valid_utf8("\xED\xA0\x80"));  // surrogate
}

// A plain decoder written from RFC 3629's table (section 4), byte by byte, with no fast paths: the
// optimised sanitize_utf8 and is_valid_utf8 must agree with it on any input.
std::size_t reference_sequence_length(std::string_view s, std::size_t i) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[i + k]); };
  const auto tail = [&](std::size_t k) { return i + k < s.size() && b(k) >= 0x80 && b(k) <= 0xBF; };
  const auto in = [&](std::size_t k, unsigned lo, unsigned hi) {
    return i + k < s.size() && b(k) >= lo && b(k) <= hi;
  };
  const unsigned c = b(0);
  if (c < 0x80) return 1;
  if (c >= 0xC2 && c <= 0xDF) return tail(1) ? 2 : 0;
  if (c == 0xE0) return in(1, 0xA0, 0xBF) && tail(2) ? 3 : 0;
  if ((c >= 0xE1 && c <= 0xEC) || c == 0xEE || c == 0xEF) return tail(1) && tail(2) ? 3 : 0;
  if (c == 0xED) return in(1, 0x80, 0x9F) && tail(2) ? 3 : 0;
  if (c == 0xF0) return in(1, 0x90, 0xBF) && tail(2) && tail(3) ? 4 : 0;
  if (c >= 0xF1 && c <= 0xF3) return tail(1) && tail(2) && tail(3) ? 4 : 0;
  if (c == 0xF4) return in(1, 0x80, 0x8F) && tail(2) && tail(3) ? 4 : 0;
  return 0;
}

TEST(Strings, Utf8FunctionsAgreeWithAPlainDecoderOnRandomBytes) {
  std::mt19937 random(20261129);
  // Mostly ASCII with newlines (the fast paths), some multi-byte characters, some junk.
  const std::vector<std::string> pieces = {"a",
                                           "word ",
                                           "\n",
                                           "\t",
                                           "\x01",
                                           std::string(1, '\0'),
                                           "\xC3\xA9",
                                           "\xE2\x80\x94",
                                           "\xF0\x9F\x98\x80",
                                           "\xFF",
                                           "\xC3",
                                           "\xED\xA0\x80",
                                           "\xC0\xAF",
                                           "\xF4\x90\x80\x80",
                                           "\x7F",
                                           "12345678"};
  for (int round = 0; round < 20000; ++round) {
    std::string input;
    const int n = static_cast<int>(random() % 40);
    for (int k = 0; k < n; ++k) input += pieces[random() % pieces.size()];
    std::string expected;
    bool valid = true;
    for (std::size_t i = 0; i < input.size();) {
      const auto len = reference_sequence_length(input, i);
      const auto c = static_cast<unsigned char>(input[i]);
      if (len == 0) {
        valid = false;
        expected += "\xEF\xBF\xBD";
        ++i;
      } else {
        if (!(len == 1 && c < 0x20 && c != '\t' && c != '\n' && c != '\r')) expected.append(input, i, len);
        i += len;
      }
    }
    ASSERT_EQ(sanitize_utf8(input), expected) << testing::PrintToString(input);
    ASSERT_EQ(is_valid_utf8(input), valid) << testing::PrintToString(input);
  }
}

TEST(Strings, CollapseWhitespaceFoldsRunsAndNbsp) {
  EXPECT_EQ(collapse_whitespace("  a \n\t b\xC2\xA0\xC2\xA0"
                                "c  "),
            "a b c");
}

TEST(Strings, WithoutTitleHeadingSkipsAFirstParagraphThatRepeatsTheTitle) {
  EXPECT_EQ(without_title_heading("HopFS: Scaling  metadata\n\nNiazi et al.", "HopFS: scaling metadata"),
            "Niazi et al.");
  EXPECT_EQ(without_title_heading("Standard Ebooks:\n\nA volunteer project.", "Standard Ebooks"),
            "A volunteer project.");
  // Anything else stays: another heading, a title that is only the start, a text of one paragraph, no title.
  EXPECT_EQ(without_title_heading("Queues, part 2\n\nBody.", "Queues"), "Queues, part 2\n\nBody.");
  EXPECT_EQ(without_title_heading("Queues are fun. More.\n\nBody.", "Queues"),
            "Queues are fun. More.\n\nBody.");
  EXPECT_EQ(without_title_heading("Queues", "Queues"), "Queues");
  EXPECT_EQ(without_title_heading("\n\nBody.", ""), "\n\nBody.");
}

TEST(Strings, TruncateWordsCutsAtWordBoundaryWithEllipsis) {
  EXPECT_EQ(truncate_words("short", 10), "short");
  EXPECT_EQ(truncate_words("the quick brown fox jumps", 12), "the quick\xE2\x80\xA6");
  const std::string accented = "\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9";  // no spaces, 2-byte chars
  const auto cut = truncate_words(accented, 5);
  EXPECT_TRUE(is_valid_utf8(cut));
}

TEST(Strings, CountWordsAndSlug) {
  EXPECT_EQ(count_words("  one two\nthree "), 3u);
  EXPECT_EQ(count_words(""), 0u);
  EXPECT_EQ(slugify("Lock-free Queues, part 2!"), "lock-free-queues-part-2");
}

// Every byte value, in random texts of every length up to 200 (so both the counting loop and its edges are
// crossed), against a word count written the plain way: a word starts where a byte that is not one of
// ' ', '\t', '\n', '\v', '\f', '\r' follows one that is, or starts the text. Bytes 8 and 14 (just outside
// the control range) and 0xA0 (a UTF-8 continuation byte, not a space) are words' bytes.
TEST(Strings, CountWordsAgreesWithAWordByWordCountOnEveryByte) {
  const auto plain = [](std::string_view s) {
    std::size_t words = 0;
    bool in_word = false;
    for (const char ch : s) {
      const bool space = ch == ' ' || ch == '\t' || ch == '\n' || ch == '\v' || ch == '\f' || ch == '\r';
      if (!space && !in_word) ++words;
      in_word = !space;
    }
    return words;
  };
  EXPECT_EQ(count_words("\x08\x0e\xa0"), 1u);
  EXPECT_EQ(count_words("a\x0b"
                        "b\x0c"
                        "c\rd"),
            4u);
  EXPECT_EQ(count_words(" \t\n"), 0u);
  std::mt19937 rng(7);
  for (int round = 0; round < 4000; ++round) {
    std::string s(static_cast<std::size_t>(round % 201), '\0');
    // Half the rounds draw from all 256 byte values, half mostly from white space, so runs of both occur.
    for (char& c : s) {
      c = round % 2 == 0 ? static_cast<char>(rng() & 0xFF) : " \t\nx\x0b\x0c\ry\x08\x0e"[rng() % 10];
    }
    ASSERT_EQ(count_words(s), plain(s)) << "round " << round;
  }
}

TEST(Strings, StableHashIsStableAndDistinct) {
  EXPECT_EQ(stable_hash_hex("abc"), stable_hash_hex("abc"));
  EXPECT_NE(stable_hash_hex("abc"), stable_hash_hex("abd"));
  EXPECT_EQ(stable_hash_hex("").size(), 16u);
}

}  // namespace
}  // namespace longread

namespace longread {
namespace {
TEST(Strings, HtmlEscapeCoversTextAndBothAttributeQuotes) {
  EXPECT_EQ(html_escape("<a href=\"x\" title='y'>&</a>"),
            "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;");
  EXPECT_EQ(html_escape("caf\xC3\xA9"), "caf\xC3\xA9");
}
}  // namespace
}  // namespace longread
