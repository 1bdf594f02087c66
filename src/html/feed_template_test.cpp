// Per-blog template detection: what recurs across most of one blog's entries is furniture, whatever it says.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "core/strings.h"
#include "html/html.h"

namespace longread::html {
namespace {

// A paragraph of prose no other paragraph repeats: the words are drawn by `seed`.
std::string prose(int seed, int words = 40) {
  static const char* kWords[] = {"river",  "engine", "garden",  "signal", "ledger", "harbour", "lantern",
                                 "copper", "meadow", "circuit", "thread", "winter", "archive", "compass",
                                 "pepper", "quarry", "rocket",  "saddle", "timber", "violet",  "walnut"};
  std::string s;
  for (int i = 0; i < words; ++i) {
    if (!s.empty()) s += ' ';
    s += kWords[(seed * 13 + i * (seed % 5 + 2) + i / 3) % 21];
  }
  return s + ".";
}

std::string body(int blog, int post) {
  return prose(blog * 100 + post * 3) + "\n\n" + prose(blog * 100 + post * 3 + 1) + "\n\n" +
         prose(blog * 100 + post * 3 + 2);
}

// Three blogs, three invented footers in three styles and languages; each carries the post's number and
// address, so no two are byte-identical, and none uses a phrase a fixed list would know.
std::string english_newsletter(int post) {
  return body(1, post) + "\n\nThat was issue #" + std::to_string(40 + post) +
         " of the Quarry Letter. Forward it to a friend who likes rocks.\n\nArchive: "
         "https://quarry.example/" +
         std::to_string(40 + post) + "/\nWrite back: editor@quarry.example";
}
std::string french_signoff(int post) {
  return "Billet n\xC2\xB0" + std::to_string(post) +
         " de la s\xC3\xA9rie, publi\xC3\xA9 sur https://carnet.example/b/" + std::to_string(post) + "\n\n" +
         body(2, post) +
         "\n\nMerci de votre fid\xC3\xA9lit\xC3\xA9 ! Soutenez ce carnet sur liberapay.com/carnet";
}
std::string german_forum(int post) {
  return body(3, post) + "\n\nEingereicht von /u/nutzer" + std::to_string(post * 7) +
         " in /r/werkstatt\n[Link] [" + std::to_string(post * 3 + 1) + " Kommentare]";
}

std::vector<std::string> posts(std::string (*make)(int), int n) {
  std::vector<std::string> out;
  for (int i = 1; i <= n; ++i) out.push_back(make(i));
  return out;
}

TEST(FeedTemplate, ThreeBlogsWithFootersInDifferentWordsEachLoseTheirOwn) {
  struct Blog {
    std::string (*make)(int);
    int number;
  };
  for (const Blog blog : {Blog{english_newsletter, 1}, Blog{french_signoff, 2}, Blog{german_forum, 3}}) {
    const auto texts = posts(blog.make, 8);
    const FeedTemplate t = learn_feed_template(texts);
    EXPECT_EQ(t.sample, 8U);
    ASSERT_FALSE(t.empty()) << blog.number;
    for (int post = 1; post <= 8; ++post) {
      EXPECT_EQ(strip_feed_template(texts[static_cast<std::size_t>(post - 1)], t), body(blog.number, post))
          << "blog " << blog.number << " post " << post;
    }
    // A new post of the same blog, not in the sample, loses the footer too.
    EXPECT_EQ(strip_feed_template(blog.make(20), t), body(blog.number, 20));
  }
  // What one blog learned removes nothing of another's posts: the template is the blog's, not a phrase list.
  const FeedTemplate english = learn_feed_template(posts(english_newsletter, 8));
  EXPECT_EQ(strip_feed_template(french_signoff(3), english), french_signoff(3));
  EXPECT_EQ(strip_feed_template(german_forum(3), english), german_forum(3));
  const FeedTemplate german = learn_feed_template(posts(german_forum, 8));
  EXPECT_EQ(strip_feed_template(english_newsletter(3), german), english_newsletter(3));
}

TEST(FeedTemplate, KeysFoldNumbersAndAddresses) {
  EXPECT_EQ(template_key("Issue #12:  see https://a.example/x?id=3 or www.a.example"),
            template_key("issue #13: see http://b.example/y or www.b.example/z"));
  EXPECT_EQ(template_key("Issue #12: see https://a.example/x"), "issue ##: see <url>");
  EXPECT_EQ(template_key("submitted by /u/alice to /r/rust"),
            template_key("submitted by /u/bob to /r/golang"));
  EXPECT_EQ(template_key("mail luke@example.com or @luke@typo.social (ko-fi.com/luke)."),
            "mail <url> or <url> (<url>).");
  EXPECT_EQ(template_key("[link] [275 comments]"), template_key("[link]\n[3 comments]"));
  // Nothing but numbers, addresses and punctuation: never template by itself.
  EXPECT_EQ(template_key("https://example.org/1"), "");
  EXPECT_EQ(template_key("2024 \xE2\x80\x94 42"), "");
  // Words stay words: "and/or" is no address, and letters outside ASCII count.
  EXPECT_EQ(template_key("this and/or that"), "this and/or that");
  EXPECT_EQ(template_key("\xC3\xA9t\xC3\xA9 2024"), "\xC3\xA9t\xC3\xA9 #");
}

TEST(FeedTemplate, FewerThanFiveDistinctEntriesTeachNothing) {
  auto texts = posts(german_forum, 4);
  EXPECT_TRUE(learn_feed_template(texts).empty());
  EXPECT_EQ(learn_feed_template(texts).sample, 4U);
  // The same post repeated is one post.
  texts.push_back(texts.front());
  texts.push_back(texts.front());
  EXPECT_TRUE(learn_feed_template(texts).empty());
  texts.push_back(german_forum(5));
  EXPECT_FALSE(learn_feed_template(texts).empty());
}

TEST(FeedTemplate, MostMeansMoreThanHalf) {
  auto with_footer = [](int post, bool footer) {
    return body(4, post) + (footer ? "\n\nPosted from my garden shed, post " + std::to_string(post) : "");
  };
  std::vector<std::string> half;
  std::vector<std::string> most;
  for (int i = 0; i < 6; ++i) {
    half.push_back(with_footer(i, i < 3));
    most.push_back(with_footer(i, i < 4));
  }
  EXPECT_EQ(strip_feed_template(half[0], learn_feed_template(half)), half[0]);
  EXPECT_EQ(strip_feed_template(most[0], learn_feed_template(most)), body(4, 0));
}

TEST(FeedTemplate, AnEntryThatIsOnlyTemplateIsLeftWhole) {
  const FeedTemplate t = learn_feed_template(posts(german_forum, 6));
  ASSERT_FALSE(t.empty());
  const std::string only_footer = "Eingereicht von /u/jemand in /r/werkstatt\n[Link] [0 Kommentare]";
  EXPECT_EQ(strip_feed_template(only_footer, t), only_footer);
  // Template with nothing but an address besides it: still nothing of the entry's own.
  const std::string footer_and_link = "https://example.org/photo.jpg\n\n" + only_footer;
  EXPECT_EQ(strip_feed_template(footer_and_link, t), footer_and_link);
  // A one-paragraph article that recurs across the blog (a photo blog's caption) stays.
  std::vector<std::string> captions;
  for (int i = 0; i < 6; ++i) captions.push_back("A photo from the walk, number " + std::to_string(i) + ".");
  const FeedTemplate photo = learn_feed_template(captions);
  ASSERT_FALSE(photo.empty());
  EXPECT_EQ(strip_feed_template(captions[2], photo), captions[2]);
}

TEST(FeedTemplate, TemplateBetweenTheEntrysOwnParagraphsStays) {
  // A heading and a code line every post has are inside the posts: only the edges are furniture.
  std::vector<std::string> texts;
  for (int i = 0; i < 6; ++i)
    texts.push_back(prose(i * 2) + "\n\nConclusion\n\nfunc main() {\n  run(" + std::to_string(i) +
                    ")\n}\n\n" + prose(i * 2 + 1) + "\n\nSee you next week!");
  const FeedTemplate t = learn_feed_template(texts);
  EXPECT_EQ(strip_feed_template(texts[1], t),
            prose(2) + "\n\nConclusion\n\nfunc main() {\n  run(1)\n}\n\n" + prose(3));
}

TEST(FeedTemplate, LinesAtTheEdgesOfAParagraphGoAndTheRestStays) {
  std::vector<std::string> texts;
  for (int i = 0; i < 6; ++i) texts.push_back(prose(50 + i) + "\n\n" + prose(60 + i) + "\nShared by Kim");
  const FeedTemplate t = learn_feed_template(texts);
  EXPECT_EQ(strip_feed_template(texts[0], t), prose(50) + "\n\n" + prose(60));
}

TEST(FeedTemplate, NothingLearnedOrNothingFoundLeavesTheTextByteForByte) {
  const std::string text = "  indented first line\n\n\n\nsecond paragraph  \n";
  EXPECT_EQ(strip_feed_template(text, FeedTemplate{}), text);
  const FeedTemplate t = learn_feed_template(posts(english_newsletter, 6));
  EXPECT_EQ(strip_feed_template(text, t), text);
  EXPECT_EQ(strip_feed_template("", t), "");
}

// The shortcut for plain words gives the key the whole of the rules gives. Tokens are drawn from pieces
// that sit on each rule's edge: letters of both cases, digits, every opener and closer, the characters an
// address needs ("/", "@", ":", "."), "www." and "mailto:", a non-ASCII letter and a non-ASCII dash, and the
// white space that separates tokens.
TEST(FeedTemplate, PlainWordsTakeAShortcutToTheSameKey) {
  const std::vector<std::string> pieces = {
      "word", "Word", "WWW", "www.", "mailto:", "x", "a1", "2024",         "(",           ")",     "[", "]",
      "{",    "}",    "<",   ">",    "\"",      "'", ".",  "..",           ",",           ";",     ":", "!",
      "?",    "/",    "//",  "@",    "://",     "-", "é",  "\xE2\x80\x94", "ko-fi.com/x", "Émile", " ", "\n"};
  std::mt19937 rng(11);
  int plain = 0;
  for (int round = 0; round < 20000; ++round) {
    std::string paragraph;
    const int n = 1 + static_cast<int>(rng() % 8);
    for (int i = 0; i < n; ++i) paragraph += pieces[rng() % pieces.size()];
    const std::string quick = detail::template_key(paragraph, true);
    ASSERT_EQ(quick, detail::template_key(paragraph, false)) << "paragraph: " << paragraph;
    if (!quick.empty() && quick == to_lower_ascii(paragraph)) ++plain;
  }
  // Many draws give a key that is the paragraph lowercased, the shape of a paragraph of plain words, so the
  // comparison above covers the shortcut often.
  EXPECT_GT(plain, 1000);
  EXPECT_EQ(template_key("(Word), and Another."), "(word), and another.");
  EXPECT_EQ(template_key("see www.example.org."), "see <url>.");
}

}  // namespace
}  // namespace longread::html
