#include "core/strings.h"

#include <gtest/gtest.h>

namespace longread {
namespace {

TEST(Strings, SanitizeReplacesInvalidUtf8AndDropsControls) {
  EXPECT_EQ(sanitize_utf8("ok\xff\x01 caf\xC3\xA9"), "ok\xEF\xBF\xBD caf\xC3\xA9");
  EXPECT_EQ(sanitize_utf8("\xC0\xAF"), "\xEF\xBF\xBD\xEF\xBF\xBD");  // overlong '/'
  EXPECT_TRUE(is_valid_utf8("caf\xC3\xA9"));
  EXPECT_FALSE(is_valid_utf8("\xED\xA0\x80"));  // surrogate
}

TEST(Strings, CollapseWhitespaceFoldsRunsAndNbsp) {
  EXPECT_EQ(collapse_whitespace("  a \n\t b\xC2\xA0\xC2\xA0"
                                "c  "),
            "a b c");
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
