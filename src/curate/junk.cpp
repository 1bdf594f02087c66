// Junk rules: which feed entries are not long-form articles. Every rule is a keyword check on
// lowercased text (no regular expressions: judge runs for every entry of every crawl), and each has
// tests with the cases it must catch and the neighbours it must keep (junk_test.cpp).
#include <algorithm>
#include <array>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "core/strings.h"
#include "curate/curate.h"

namespace longread::curate {
namespace {

using namespace std::string_view_literals;

// Below this many words a text is "tiny": an undated entry this small is a draft, and a body this
// small that is only a placeholder word is a placeholder.
constexpr int kTinyWords = 50;
// Language is judged only on texts this long: CLD2 guesses on short snippets.
constexpr int kMinLanguageWords = 50;
// Link posts, announcements and comment round-ups are short; longer entries with such a title carry
// enough of their own writing to be kept.
constexpr int kLinkPostMaxWords = 300;
constexpr int kAnnouncementMaxWords = 150;
// Phrase checks on long texts look only at the beginning and the end, where disclosures and
// "cross-posted from" notes sit.
constexpr std::size_t kHeadTailBytes = 1500;
// Link lists (podcast show notes, link newsletters, "archived links" pages): at least this many links
// with fewer words than kLinkListMaxWordsPerLink per link around them, or at least kLinkListMinUrlLines
// paragraphs that are nothing but an address, making up kLinkListMinUrlLineShare of the paragraphs.
// Calibrated on ../shared/corpus/real-feeds (docs/curate.md): essays with many references and
// footnotes stay above 20 words per link; the lists sit at 4-10.
constexpr int kLinkListMinLinks = 15;
constexpr int kLinkListMaxWordsPerLink = 10;
constexpr int kLinkListMinUrlLines = 5;
constexpr double kLinkListMinUrlLineShare = 0.2;

bool contains(std::string_view s, std::string_view needle) {
  return s.find(needle) != std::string_view::npos;
}
bool starts_with_any(std::string_view s, std::initializer_list<std::string_view> prefixes) {
  return std::any_of(prefixes.begin(), prefixes.end(), [&](std::string_view p) { return s.starts_with(p); });
}
bool contains_any(std::string_view s, std::initializer_list<std::string_view> needles) {
  return std::any_of(needles.begin(), needles.end(), [&](std::string_view n) { return contains(s, n); });
}
bool equals_any(std::string_view s, std::initializer_list<std::string_view> words) {
  return std::any_of(words.begin(), words.end(), [&](std::string_view w) { return s == w; });
}
// Is `needle` in `s` as a whole token (not preceded/followed by a letter or digit)?
bool contains_token(std::string_view s, std::string_view needle) {
  auto alnum = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); };
  for (std::size_t pos = s.find(needle); pos != std::string_view::npos; pos = s.find(needle, pos + 1)) {
    const bool left = pos == 0 || !alnum(s[pos - 1]) || !alnum(needle.front());
    const std::size_t end = pos + needle.size();
    const bool right = end == s.size() || !alnum(s[end]);
    if (left && right) return true;
  }
  return false;
}

// Lowercased text with surrounding punctuation, quotes and whitespace removed: "Pending." -> "pending".
std::string bare(std::string_view text) {
  std::string s = to_lower_ascii(trim(text));
  for (;;) {
    if (s.ends_with("…")) {
      s.resize(s.size() - std::string_view("…").size());
    } else if (!s.empty() &&
               std::string_view(".!?:;-*\"'()[] \t\n").find(s.back()) != std::string_view::npos) {
      s.pop_back();
    } else {
      break;
    }
  }
  const std::size_t start = s.find_first_not_of("\"'([* \t\n");
  return start == std::string::npos ? std::string() : s.substr(start);
}

// First few words of a text for an operator-facing reason: "\"Pending.\"".
std::string quote_start(std::string_view text) {
  const std::string folded = collapse_whitespace(text);
  return fmt::format("\"{}\"", truncate_words(folded, 40));
}

// Path segments of an http(s) URL, lowercased, empty segments dropped ("https://x.org/Tags/Go/" ->
// {"tags", "go"}). Query and fragment ignored.
std::vector<std::string> path_segments(std::string_view link) {
  std::vector<std::string> out;
  const std::size_t scheme = link.find("://");
  if (scheme == std::string_view::npos) return out;
  std::string_view rest = link.substr(scheme + 3);
  const std::size_t slash = rest.find('/');
  if (slash == std::string_view::npos) return out;
  rest = rest.substr(slash);
  rest = rest.substr(0, std::min(rest.find('?'), rest.find('#')));
  for (std::string_view seg : split(rest, '/')) {
    if (seg.empty()) continue;
    // "about.html", "about/index.html" and "about.md" are the same page as "about".
    if (seg == "index.html" || seg == "index.htm" || seg == "index.php") continue;
    const std::size_t dot = seg.rfind('.');
    if (dot != std::string_view::npos && dot > 0) {
      const std::string_view ext = seg.substr(dot);
      if (ext == ".html" || ext == ".htm" || ext == ".php" || ext == ".md") seg = seg.substr(0, dot);
    }
    out.push_back(to_lower_ascii(seg));
  }
  return out;
}

// "about page", "CV", "tag page", ... or "" when the title and link look like an article.
std::string non_article_kind(std::string_view title_lower, std::string_view link) {
  const std::string t = bare(title_lower);
  if (equals_any(
          t, {"about", "about me", "about us", "about this blog", "about this site", "who am i", "colophon"}))
    return "about page";
  if (equals_any(t, {"cv", "resume", "résumé", "curriculum vitae", "my cv", "my resume", "my résumé"}))
    return "CV";
  if (equals_any(t, {"contact", "contact me", "contact us", "get in touch"})) return "contact page";
  if (equals_any(t, {"now", "now page", "what i'm doing now", "what i’m doing now", "what i am doing now"}))
    return "now page";
  if (equals_any(t, {"uses", "/uses", "uses page", "what i use", "things i use", "my setup"}))
    return "uses page";
  if (equals_any(t, {"archive", "archives", "blog archive", "all posts", "tags", "categories", "sitemap"}))
    return "archive page";
  if (t.starts_with("posts tagged ") || t.starts_with("tag: ") || t.starts_with("tagged: "))
    return "tag page";
  if (t.starts_with("category: ") || t.starts_with("posts in category ")) return "category page";

  const std::vector<std::string> segs = path_segments(link);
  if (segs.empty()) return {};
  const std::string& last = segs.back();
  // Listing pages: /tags/, /tags/go/, /blog/tag/go/, /categories/x/ (a post never ends in these).
  const auto listing = [&](std::initializer_list<std::string_view> names) {
    for (std::size_t k = 0; k < segs.size(); ++k) {
      if (equals_any(segs[k], names) && segs.size() - k <= 2) return true;
    }
    return false;
  };
  if (listing({"tags", "tag"})) return "tag page";
  if (listing({"categories", "category"})) return "category page";
  if (equals_any(last, {"archive", "archives"})) return "archive page";
  if (segs.size() <= 2) {
    if (equals_any(last, {"about", "about-me", "about-us", "colophon"})) return "about page";
    if (equals_any(last, {"cv", "resume", "r%c3%a9sum%c3%a9", "résumé", "curriculum-vitae"})) return "CV";
    if (equals_any(last, {"contact", "contact-me"})) return "contact page";
    if (last == "now") return "now page";
    if (last == "uses") return "uses page";
  }
  return {};
}

// A page titled with its author's name, or with the blog's own name: a site generator's page published in
// the feed (Hugo lists pages such as /about/ in index.xml; the page about the author is often titled with
// their name). A name has at least two words, so a one-word blog name that is also a topic is left alone.
bool titled_with_name(std::string_view title_lower, const model::Article& article, const model::Blog& blog) {
  const std::string t = bare(title_lower);
  if (t.find(' ') == std::string::npos) return false;
  for (const std::string_view name :
       {std::string_view(article.author), std::string_view(blog.author), std::string_view(blog.title)}) {
    if (!trim(name).empty() && t == bare(to_lower_ascii(collapse_whitespace(name)))) return true;
  }
  return false;
}

// The host of an http(s) URL, lowercased ("" when there is none).
std::string host_of(std::string_view link) {
  const std::size_t scheme = link.find("://");
  if (scheme == std::string_view::npos) return {};
  std::string_view rest = link.substr(scheme + 3);
  rest = rest.substr(0, rest.find_first_of("/?#"));
  if (const std::size_t at = rest.rfind('@'); at != std::string_view::npos) rest = rest.substr(at + 1);
  return to_lower_ascii(rest.substr(0, rest.find(':')));
}
bool host_is(std::string_view host, std::string_view domain) {
  return host == domain || (host.size() > domain.size() && host.ends_with(domain) &&
                            host[host.size() - domain.size() - 1] == '.');
}

// "forum thread" or "aggregator story" when the entry is a post in a forum or a link aggregator's
// submission, not an article of the blog's own; else "".
std::string thread_kind(std::string_view title_lower, std::string_view text_lower,
                        const model::Article& article) {
  const std::string_view link = article.link;
  // Forum titles mark a thread's state: "[Solved] WINE does not start at all", "Audio crackles (resolved)".
  if (contains_any(title_lower, {"[solved]", "(solved)", "[resolved]", "(resolved)", "[closed]"}))
    return "forum thread";
  const std::string host = host_of(link);
  const std::vector<std::string> segs = path_segments(link);
  // Reddit: /r/<community>/comments/<id>/...; its feeds end every post "submitted by /u/name [link]
  // [N comments]".
  if (host_is(host, "reddit.com") && segs.size() >= 3 && segs[0] == "r" && segs[2] == "comments")
    return "forum thread";
  // The footer is looked for in the HTML too: the blog's template may have taken it off the text.
  const auto reddit_footer = [](std::string_view tail) {
    const auto by = tail.rfind("submitted by");
    return by != std::string_view::npos && contains(tail.substr(by), "[link]") &&
           contains(tail.substr(by), "comments]");
  };
  if (reddit_footer(text_lower.substr(text_lower.size() > 400 ? text_lower.size() - 400 : 0)))
    return "forum thread";
  for (const std::string_view html :
       {std::string_view(article.content_html), std::string_view(article.summary_html)}) {
    if (html.empty()) continue;
    if (reddit_footer(to_lower_ascii(html.substr(html.size() > 1500 ? html.size() - 1500 : 0))))
      return "forum thread";
  }
  // Forum software's thread pages: phpBB and FluxBB viewtopic.php, vBulletin showthread.php, Invision
  // showtopic, Discuz viewthread, Discourse /t/<slug>/<id>, and anything under /forum/ or /forums/.
  for (std::size_t k = 0; k < segs.size(); ++k) {
    const std::string& seg = segs[k];
    if (equals_any(seg, {"viewtopic", "showthread", "showtopic", "viewthread", "forum", "forums"}))
      return "forum thread";
    if (k == 0 && seg == "t" && segs.size() >= 3 &&
        std::all_of(segs.back().begin(), segs.back().end(), [](char c) { return c >= '0' && c <= '9'; }))
      return "forum thread";
  }
  // Slashdot-style stories: a reader's submission quoting a report elsewhere ("An anonymous reader quotes a
  // report from MacRumors: ...", "Longtime Slashdot reader X writes: ..."), under /story/ on Slashdot.
  if (host_is(host, "slashdot.org") && !segs.empty() && segs[0] == "story") return "aggregator story";
  {
    const std::string_view head = text_lower.substr(0, std::min<std::size_t>(text_lower.size(), 160));
    const std::size_t colon = head.find(':');
    if (colon != std::string_view::npos) {
      const std::string_view intro = head.substr(0, colon);
      if (contains_any(intro, {"anonymous reader", "slashdot reader", "longtime reader", "quotes a report",
                               "shares a report", "has processed a story", "submitted a story"}))
        return "aggregator story";
    }
  }
  return {};
}

bool is_placeholder_body(std::string_view body) {
  return equals_any(body, {"pending",
                           "todo",
                           "to do",
                           "tbd",
                           "tba",
                           "tk",
                           "coming soon",
                           "soon",
                           "draft",
                           "wip",
                           "work in progress",
                           "placeholder",
                           "to be written",
                           "to be continued",
                           "under construction",
                           "stub",
                           "write me",
                           "fill me in",
                           "more soon",
                           "nothing here",
                           "nothing here yet",
                           "empty",
                           "test",
                           "test post",
                           "hello world",
                           "untitled"});
}

// Link-post markers in a title: "Link: ...", "→ ...", "[link] ...", "Linkpost: ...".
bool link_post_title(std::string_view t) {
  return starts_with_any(t, {"link: ", "links: ", "link - ", "[link]", "(link)", "linkpost",
                             "link post:", "→", "➡", "⇒", "🔗", "linked: ", "via: "}) ||
         t.ends_with(" →") || t.ends_with("[link]") || t.ends_with("(link)");
}

// Counts <a href= in an HTML fragment (case-insensitive enough for feed HTML).
int count_links(std::string_view html) {
  int n = 0;
  for (std::size_t pos = 0; (pos = html.find("<a", pos)) != std::string_view::npos; pos += 2) {
    if (pos + 2 < html.size() && (html[pos + 2] == ' ' || html[pos + 2] == '\n' || html[pos + 2] == '\t'))
      ++n;
  }
  for (std::size_t pos = 0; (pos = html.find("<A", pos)) != std::string_view::npos; pos += 2) {
    if (pos + 2 < html.size() && html[pos + 2] == ' ') ++n;
  }
  return n;
}

// Counts the links of an HTML fragment that lead away from the text: <a> tags with an href that is
// not a fragment (footnote marks and their back-references are "#fn1", "#fnref:1").
int count_outbound_links(std::string_view html) {
  int n = 0;
  for (std::size_t pos = 0; (pos = html.find('<', pos)) != std::string_view::npos; ++pos) {
    if (pos + 2 >= html.size() || (html[pos + 1] != 'a' && html[pos + 1] != 'A')) continue;
    const char after = html[pos + 2];
    if (after != ' ' && after != '\n' && after != '\t' && after != '\r') continue;
    // Only the first 400 bytes of a tag are read: hostile markup with no '>' stays linear.
    const std::string_view window = html.substr(pos, 400);
    const std::string tag = to_lower_ascii(window.substr(0, window.find('>')));
    std::size_t href = tag.find("href");
    if (href == std::string::npos) continue;
    href = tag.find_first_not_of(" \t\r\n", href + 4);
    if (href == std::string::npos || tag[href] != '=') continue;
    href = tag.find_first_not_of(" \t\r\n\"'", href + 1);
    if (href != std::string::npos && tag[href] != '#') ++n;
  }
  return n;
}

// Paragraphs of a plain text, and how many of them are nothing but an http(s) address.
struct UrlLines {
  int paragraphs = 0;
  int urls = 0;
};
UrlLines count_url_lines(std::string_view text) {
  UrlLines counts;
  while (!text.empty()) {
    const std::size_t nl = text.find('\n');
    const std::string_view line = trim(text.substr(0, nl));
    text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
    if (line.empty()) continue;
    ++counts.paragraphs;
    if ((line.starts_with("http://") || line.starts_with("https://")) &&
        line.find_first_of(" \t") == std::string_view::npos)
      ++counts.urls;
  }
  return counts;
}

// A shop's product page syndicated as an entry (Shopify's collection feeds start every entry with
// "Vendor: ... Type: ... Price: ...").
// The HTML's labels are read too: they are the same in every entry of such a feed, so the blog's template
// takes them off the text.
bool product_listing(const model::Article& article) {
  const std::string_view text = article.text;
  const std::string_view link = article.link;
  const std::string head = to_lower_ascii(text.substr(0, std::min<std::size_t>(text.size(), 300)));
  const std::string_view html = article.content_html.size() >= article.summary_html.size()
                                    ? article.content_html
                                    : article.summary_html;
  const std::string html_head = to_lower_ascii(html.substr(0, std::min<std::size_t>(html.size(), 1500)));
  if (!head.starts_with("price:") && !contains(head, "\nprice:") && !contains(html_head, ">price:"))
    return false;
  return head.starts_with("vendor:") || head.starts_with("sku:") || contains(html_head, ">vendor:") ||
         contains(html_head, ">sku:") || contains(link, "/products/") || contains(link, "/product/");
}

bool open_thread_title(std::string_view t) {
  if (contains_any(t, {"open thread", "link roundup", "links roundup", "link round-up", "links round-up",
                       "assorted links", "link dump", "links of the week", "highlights from the comments",
                       "weekly links", "reader comments", "ask here", "discussion thread", "weekly thread",
                       "megathread", "questions thread", "q&a thread"}))
    return true;
  if (starts_with_any(
          t, {"links for ",      "links from ",    "links i liked", "links i like",    "interesting links",
              "friday links",    "saturday links", "sunday links",  "monday links",    "tuesday links",
              "wednesday links", "thursday links", "weekend links", "weekly link",     "monthly links",
              "some links",      "quick links",    "links, ",       "links (",         "links #",
              "links -",         "links –",        "links:",        "comment roundup", "comments roundup",
              "mailbag"}))
    return true;
  // "Links 12/2023", "Links 2024-05-01", "Links 42"
  if (t.starts_with("links ") && t.size() > 6 && t[6] >= '0' && t[6] <= '9') return true;
  return false;
}

bool announcement(std::string_view t, std::string_view text) {
  if (starts_with_any(t, {"new post:", "new post -", "new blog post:", "new article:", "elsewhere:",
                          "cross-posted:", "crosspost:", "over at "}))
    return true;
  return contains_any(text, {"wrote a new post",
                             "new post over at",
                             "new post up at",
                             "new post on my",
                             "i've written a post",
                             "i have written a post",
                             "i wrote a post over at",
                             "i've got a new post",
                             "new blog post over at",
                             "new article over at",
                             "new piece over at",
                             "cross-posted from",
                             "crossposted from",
                             "cross-posted to",
                             "this post originally appeared",
                             "read the rest at",
                             "read the full post at",
                             "read the full post here",
                             "read it over at",
                             "continue reading at",
                             "check out my new post",
                             "i wrote about this over at",
                             "i've written about this at"});
}

bool sponsored(std::string_view t, std::string_view head_tail) {
  if (t == "sponsored" || t == "sponsor" ||
      starts_with_any(t, {"sponsor:", "sponsored:", "sponsored post", "[sponsor]", "(sponsor)", "[sponsored]",
                          "(sponsored)", "[ad]", "ad:", "advertisement", "thanks to our sponsor",
                          "thanks to our sponsors"}) ||
      contains_any(t, {"[sponsor]", "(sponsor)", "[sponsored]", "(sponsored)", "— sponsor", "- sponsor"}) ||
      t.ends_with(": sponsored") || t.ends_with(" [ad]") || t.ends_with(" (ad)"))
    return true;
  // The phrases that hold "sponsor" are looked for only in a text that does: one pass over it instead of a
  // pass for each (this runs on every article a crawl stores).
  if (contains(head_tail, "sponsor") &&
      contains_any(
          head_tail,
          {"this post is sponsored by", "this post was sponsored by", "this article is sponsored by",
           "this article was sponsored by", "this is a sponsored post", "sponsored post", "sponsored content",
           "sponsored article", "sponsored feature", "for sponsoring", "thanks to our sponsor",
           "thank you to our sponsor", "this week's sponsor", "this week’s sponsor", "sponsor of the week"}))
    return true;
  if (contains_any(head_tail,
                   {"this is an advertorial", "paid partnership", "paid promotion", "i was paid to write"}))
    return true;
  return contains_token(head_tail, "#ad") || contains_token(head_tail, "#sponsored");
}

}  // namespace

Verdict judge(const model::Article& article, const model::Blog& blog, const JunkOptions& options) {
  auto junk = [](std::string reason) { return Verdict{true, std::move(reason)}; };
  const int words = article.word_count > 0 ? article.word_count : static_cast<int>(count_words(article.text));
  const std::string title = std::string(trim(to_lower_ascii(collapse_whitespace(article.title))));

  // 1. Pages that are not articles (about, CV, tags, archives, contact, now).
  if (std::string kind = non_article_kind(title, article.link); !kind.empty()) {
    return junk("not an article: " + kind);
  }
  if (titled_with_name(title, article, blog)) return junk("not an article: about page");
  if (product_listing(article)) return junk("not an article: product listing");

  // 2. Drafts and placeholders.
  if (words < kTinyWords) {
    const std::string body = bare(article.text);
    if (body.empty() && words == 0 && article.undated && !article.published) {
      return junk("draft placeholder: undated, empty");
    }
    if (is_placeholder_body(body) ||
        starts_with_any(body,
                        {"todo:", "todo -", "tbd:", "draft:", "wip:", "coming soon:", "placeholder:"})) {
      return junk("draft placeholder: " + quote_start(article.text));
    }
    if (article.undated && !article.published) {
      return junk(fmt::format("draft placeholder: undated, {} words", words));
    }
    if (equals_any(bare(title),
                   {"draft", "untitled", "todo", "tbd", "wip", "placeholder", "test", "test post"})) {
      return junk("draft placeholder: " + quote_start(article.title));
    }
  }
  // Lorem ipsum anywhere in the first paragraph marks a theme demo or an unfinished draft.
  {
    const std::string head =
        to_lower_ascii(article.text.substr(0, std::min<std::size_t>(article.text.size(), 600)));
    if (contains(head, "lorem ipsum")) return junk("draft placeholder: lorem ipsum");
  }

  // Lowercased text (its head and tail only when long) for the phrase rules below.
  std::string text_lower;
  if (article.text.size() <= 2 * kHeadTailBytes) {
    text_lower = to_lower_ascii(article.text);
  } else {
    text_lower = to_lower_ascii(std::string_view(article.text).substr(0, kHeadTailBytes));
    text_lower += "\n";
    text_lower += to_lower_ascii(std::string_view(article.text).substr(article.text.size() - kHeadTailBytes));
  }

  // 2b. Forum threads and link aggregators' stories: other people's posts, whatever their length.
  if (std::string kind = thread_kind(title, text_lower, article); !kind.empty()) return junk(kind);

  // 3. Sponsored posts and paid disclosures.
  if (sponsored(title, text_lower)) return junk("sponsored");

  // 4. Open threads, comment and link round-ups.
  if (open_thread_title(title)) return junk("open thread");
  if (title.starts_with("comments on ") &&
      (contains(text_lower, "commenter") || contains(text_lower, "in the comments") ||
       words < kAnnouncementMaxWords)) {
    return junk("open thread");
  }

  // 5. Pure announcements of a post published elsewhere.
  if (words < kAnnouncementMaxWords && announcement(title, text_lower)) {
    return junk("announcement of another post");
  }

  // 6. Link posts: a marked title, or a short text around one link ("via ...").
  if (words < kLinkPostMaxWords && link_post_title(title)) return junk("link post");
  if (words < 100) {
    const std::string_view html = article.content_html.empty() ? article.summary_html : article.content_html;
    const int links = count_links(html);
    const bool via = text_lower.starts_with("via ") || contains(text_lower, "(via ") ||
                     contains(text_lower, " via @") || contains(text_lower, "\nvia ") ||
                     contains(text_lower, "[via ") || contains(text_lower, "— via ") ||
                     contains(text_lower, "h/t ") || contains(text_lower, "hat tip");
    const bool bare_url = text_lower.starts_with("http://") || text_lower.starts_with("https://");
    if ((links >= 1 && links <= 3 && via) || bare_url || (links == 1 && words < 40 && !blog.short_form)) {
      return junk("link post");
    }
  }

  // 6b. Link lists: many links with little writing around each, at any length.
  {
    const std::string_view html = article.content_html.empty() ? article.summary_html : article.content_html;
    const int links = count_outbound_links(html);
    if (links >= kLinkListMinLinks && words < kLinkListMaxWordsPerLink * links) {
      return junk(fmt::format("link list: {} links in {} words", links, words));
    }
    if (contains(article.text, "http")) {
      const UrlLines lines = count_url_lines(article.text);
      if (lines.urls >= kLinkListMinUrlLines &&
          lines.urls >= kLinkListMinUrlLineShare * static_cast<double>(lines.paragraphs)) {
        return junk(
            fmt::format("link list: {} of {} paragraphs are bare links", lines.urls, lines.paragraphs));
      }
    }
  }

  // 7. Languages readers did not ask for (only when the text is long enough to tell).
  if (!options.languages.empty() && words >= kMinLanguageWords) {
    const std::string lang = detect_language(article.text);
    if (!lang.empty()) {
      const std::string_view primary = std::string_view(lang).substr(0, lang.find('-'));
      const bool wanted = std::any_of(
          options.languages.begin(), options.languages.end(),
          [&](const std::string& l) { return iequals(std::string_view(l).substr(0, l.find('-')), primary); });
      if (!wanted) return junk("language: " + lang);
    }
  }

  // 8. Too short for a long-form blog.
  if (!blog.short_form && words < options.min_words) return junk(fmt::format("too short: {} words", words));

  return {};
}

}  // namespace longread::curate
