// strip_boilerplate: removes the furniture feed generators append to entries. Only the trailing
// paragraphs and the tail of the last one are examined, so the same words inside prose survive.
#include <algorithm>
#include <array>
#include <cctype>
#include <string>
#include <vector>

#include "core/strings.h"
#include "html/html.h"

namespace longread::html {
namespace {

using namespace std::string_view_literals;

constexpr std::string_view kEllipsis = "\xE2\x80\xA6";  // U+2026
// Paragraphs longer than this are prose, never boilerplate.
constexpr std::size_t kMaxBoilerplateBytes = 400;

// The patterns below were regular expressions (ECMAScript, std::regex); they are now plain string checks
// with the same meaning, because std::regex cost more than the rest of the curation of an entry. Each
// check quotes the expression it implements. "\s" is ECMAScript's ASCII white space, "." any byte but a
// line terminator, "\b" a boundary between [A-Za-z0-9_] and anything else.
bool is_regex_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}
bool is_word_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}
bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
// "." of a regex: every byte but the line terminators \n and \r.
bool no_line_terminator(std::string_view s) {
  return s.find_first_of("\n\r") == std::string_view::npos;
}
// Length of the run of \s at the start of s.
std::size_t leading_spaces(std::string_view s) {
  std::size_t n = 0;
  while (n < s.size() && is_regex_space(s[n])) ++n;
  return n;
}
std::string_view trim_trailing_spaces(std::string_view s) {
  while (!s.empty() && is_regex_space(s.back())) s.remove_suffix(1);
  return s;
}
bool one_of(std::string_view s, std::initializer_list<std::string_view> words) {
  for (const auto w : words)
    if (s == w) return true;
  return false;
}
// Strips one of `words` from the front of s (the first that fits); false when none does.
bool consume_one_of(std::string_view& s, std::initializer_list<std::string_view> words) {
  for (const auto w : words) {
    if (s.starts_with(w)) {
      s.remove_prefix(w.size());
      return true;
    }
  }
  return false;
}
// PREFIX followed by \b and at most max_rest bytes without a line terminator: "^PREFIX\b.{0,N}$".
bool prefix_then_short_rest(std::string_view s, std::string_view prefix, std::size_t max_rest,
                            bool word_boundary) {
  if (!s.starts_with(prefix)) return false;
  const std::string_view rest = s.substr(prefix.size());
  if (word_boundary && !rest.empty() && is_word_char(rest.front()) == is_word_char(prefix.back()))
    return false;
  return rest.size() <= max_rest && no_line_terminator(rest);
}

// `l` is the paragraph, whitespace collapsed and ASCII-lowercased (the expressions were case-insensitive).
bool is_boilerplate_line(std::string_view l) {
  // ^the post .+ appeared first on .+$  (WordPress, Yoast and core)
  if (l.starts_with("the post ") && no_line_terminator(l)) {
    constexpr std::string_view kMiddle = " appeared first on ";
    const std::size_t at = l.find(kMiddle, 10);  // .+ before it
    if (at != std::string_view::npos && at + kMiddle.size() < l.size()) return true;
  }
  // ^(continue reading|keep reading|read more|read the rest|read the full (post|article|story)|
  //   read full (post|article|story))\b.{0,160}$  (more links as their own paragraph)
  for (const auto prefix : {"continue reading"sv, "keep reading"sv, "read more"sv, "read the rest"sv,
                            "read the full post"sv, "read the full article"sv, "read the full story"sv,
                            "read full post"sv, "read full article"sv, "read full story"sv}) {
    if (prefix_then_short_rest(l, prefix, 160, true)) return true;
  }
  // ^\(?more(…|\.\.\.)\)?$
  {
    std::string_view s = l;
    if (s.starts_with('(')) s.remove_prefix(1);
    if (s.ends_with(')')) s.remove_suffix(1);
    if (s == "more\xE2\x80\xA6" || s == "more...") return true;
  }
  // ^(this entry was posted|posted) in .+$  (post meta)
  for (const auto prefix : {"this entry was posted in "sv, "posted in "sv}) {
    if (l.starts_with(prefix) && l.size() > prefix.size() && no_line_terminator(l.substr(prefix.size())))
      return true;
  }
  // ^(tags|tagged|tagged with|filed under|categories|category)\s*:.*$
  for (const auto prefix :
       {"tags"sv, "tagged"sv, "tagged with"sv, "filed under"sv, "categories"sv, "category"sv}) {
    if (!l.starts_with(prefix)) continue;
    std::string_view rest = l.substr(prefix.size());
    rest.remove_prefix(leading_spaces(rest));
    if (rest.starts_with(':') && no_line_terminator(rest)) return true;
  }
  // ^bookmark the permalink\.?$
  if (one_of(l, {"bookmark the permalink", "bookmark the permalink."})) return true;
  // ^(share this|like this|share|related|related posts|you may also like)\s*:?$  (share and like widgets)
  {
    std::string_view s = l;
    if (s.ends_with(':')) s.remove_suffix(1);
    s = trim_trailing_spaces(s);
    if (one_of(s, {"share this", "like this", "share", "related", "related posts", "you may also like"}))
      return true;
  }
  // ^(twitter|facebook|...|like)$  (share buttons)
  if (one_of(l, {"twitter", "facebook", "email", "print", "linkedin", "reddit", "tumblr", "pinterest",
                 "pocket", "telegram", "whatsapp", "mastodon", "more", "tweet", "like"}))
    return true;
  // ^(like )?loading(…|\.\.\.)?$  (Jetpack's "Like Loading...")
  {
    std::string_view s = l;
    if (s.starts_with("like ")) s.remove_prefix(5);
    if (one_of(s, {"loading", "loading\xE2\x80\xA6", "loading..."})) return true;
  }
  // ^click to .+ \(opens in new window\)$
  {
    constexpr std::string_view kHead = "click to ";
    constexpr std::string_view kTail = " (opens in new window)";
    if (l.size() > kHead.size() + kTail.size() && l.starts_with(kHead) && l.ends_with(kTail) &&
        no_line_terminator(l))
      return true;
  }
  // ^share on .{1,40}$
  if (l.size() > 9 && prefix_then_short_rest(l, "share on ", 40, false)) return true;
  // ^subscribe\b.{0,200}$  (newsletter prompts)
  if (prefix_then_short_rest(l, "subscribe", 200, true)) return true;
  // ^sign up for (my|our|the) newsletter.{0,160}$
  for (const auto prefix :
       {"sign up for my newsletter"sv, "sign up for our newsletter"sv, "sign up for the newsletter"sv}) {
    if (prefix_then_short_rest(l, prefix, 160, false)) return true;
  }
  // ^(\d+|no|one) (comments?|responses?|replies)( so far)?\.?$  (comment footers)
  {
    std::string_view s = l;
    std::size_t digits = 0;
    while (digits < s.size() && is_digit(s[digits])) ++digits;
    if (digits > 0) {
      s.remove_prefix(digits);
    } else if (!consume_one_of(s, {"no", "one"})) {
      s = {};
    }
    if (s.starts_with(' ')) {
      s.remove_prefix(1);
      if (s.ends_with('.')) s.remove_suffix(1);
      if (s.ends_with(" so far")) s.remove_suffix(7);
      if (one_of(s, {"comment", "comments", "response", "responses", "replies"})) return true;
    }
  }
  // ^(leave|add|post) a (comment|reply)\.?$
  {
    std::string_view s = l;
    if (s.ends_with('.')) s.remove_suffix(1);
    if (consume_one_of(s, {"leave a ", "add a ", "post a "}) && one_of(s, {"comment", "reply"})) return true;
  }
  // ^(view )?comments?( \(\d+\))?:?$
  {
    std::string_view s = l;
    if (s.starts_with("view ")) s.remove_prefix(5);
    if (consume_one_of(s, {"comments", "comment"})) {
      if (s.ends_with(':')) s.remove_suffix(1);
      if (s.starts_with(" (") && s.ends_with(')') && s.size() > 3) {
        const std::string_view digits = s.substr(2, s.size() - 3);
        if (std::all_of(digits.begin(), digits.end(), is_digit)) s = {};
      }
      if (s.empty()) return true;
    }
  }
  // Notes sending feed readers to the web page: "[If the formatting looks odd in your feed reader, visit
  // the original article]" (leancrew.com), "(Read this post on the web if your RSS reader ...)". A bracket,
  // "if" or "read/view this" opens them, and they name a feed reader: prose about feed readers is kept.
  if (l.size() <= 200 &&
      (l.starts_with('[') || l.starts_with('(') || l.starts_with("if ") || l.starts_with("read this") ||
       l.starts_with("view this") || l.starts_with("note: ")) &&
      (l.find("feed reader") != std::string_view::npos || l.find("rss reader") != std::string_view::npos ||
       l.find("feedreader") != std::string_view::npos) &&
      (l.find("original") != std::string_view::npos || l.find("on the web") != std::string_view::npos ||
       l.find("website") != std::string_view::npos || l.find("in your browser") != std::string_view::npos ||
       l.find(" site") != std::string_view::npos))
    return true;
  // ^comments (are )?closed\.?$
  if (one_of(l, {"comments closed", "comments closed.", "comments are closed", "comments are closed."}))
    return true;
  return false;
}

bool is_boilerplate_paragraph(std::string_view p) {
  if (p.size() > kMaxBoilerplateBytes) return false;
  return is_boilerplate_line(to_lower_ascii(collapse_whitespace(p)));
}

// Where a trailing "[…]" marker (with the white space around it) begins in `tail`, or npos:
// \s*\[\s*(…|\.\.\.|&hellip;|&#8230;)\s*\]\s*$  (case-insensitive)
std::size_t trailing_marker_start(std::string_view tail) {
  std::string_view s = trim_trailing_spaces(tail);
  if (!s.ends_with(']')) return std::string_view::npos;
  s = trim_trailing_spaces(s.substr(0, s.size() - 1));
  bool marker = false;
  for (const auto m : {"\xE2\x80\xA6"sv, "..."sv, "&hellip;"sv, "&#8230;"sv}) {
    if (s.size() >= m.size() && iequals(s.substr(s.size() - m.size()), m)) {
      s.remove_suffix(m.size());
      marker = true;
      break;
    }
  }
  if (!marker) return std::string_view::npos;
  s = trim_trailing_spaces(s);
  if (!s.ends_with('[')) return std::string_view::npos;
  return trim_trailing_spaces(s.substr(0, s.size() - 1)).size();
}

// Length of the "more" tokens \s*((\.\.\.|…|→|»|›|>|:|\))\s*)* at the start of s when they run to its end,
// else npos.
bool only_more_markers(std::string_view s) {
  while (!s.empty()) {
    if (is_regex_space(s.front())) {
      s.remove_prefix(1);
    } else if (!consume_one_of(s, {"..."sv, "\xE2\x80\xA6"sv, "\xE2\x86\x92"sv, "\xC2\xBB"sv,
                                   "\xE2\x80\xBA"sv, ">"sv, ":"sv, ")"sv})) {
      return false;
    }
  }
  return true;
}

// `rest` follows "Continue reading": \s+.{1,140}\s*(→|»|›|…|\.\.\.)\s*$  or  \s+["“'‘].{1,140}$
bool continue_reading_title(std::string_view rest) {
  const std::size_t lead = leading_spaces(rest);
  if (lead == 0) return false;
  // A quoted title: \s+["“'‘].{1,140}$. std::regex read that bracket byte by byte, as the set
  // {", ', E2, 80, 9C, 98}: after white space, a straight quote or any character from U+2000 to U+2FFF
  // (curly quotes, dashes, arrows). That is what the crawl has always done, so it stays.
  {
    const std::string_view q = rest.substr(lead);
    const auto quote_byte = [](unsigned char c) {
      return c == '"' || c == '\'' || c == 0xE2 || c == 0x80 || c == 0x9C || c == 0x98;
    };
    if (q.size() >= 2 && quote_byte(static_cast<unsigned char>(q.front())) && q.size() - 1 <= 140 &&
        no_line_terminator(q.substr(1)))
      return true;
  }
  // A title ending in an arrow or an ellipsis: \s+.{1,140}\s*(→|»|›|…|\.\.\.)\s*$
  std::string_view z = trim_trailing_spaces(rest);
  bool marker = false;
  for (const auto m : {"\xE2\x86\x92"sv, "\xC2\xBB"sv, "\xE2\x80\xBA"sv, "\xE2\x80\xA6"sv, "..."sv}) {
    if (z.ends_with(m)) {
      z.remove_suffix(m.size());
      marker = true;
      break;
    }
  }
  if (!marker) return false;
  // z = \s+ X \s* with X 1..140 bytes free of line terminators: X is smallest as the part between the
  // leading and trailing white space; when z is all white space X is one of its non-terminator spaces
  // after the first.
  const std::size_t z_lead = leading_spaces(z);
  if (z_lead == 0) return false;
  if (z_lead == z.size()) return z.substr(1).find_first_not_of("\n\r") != std::string_view::npos;
  const std::string_view core = trim_trailing_spaces(z.substr(z_lead));
  return core.size() <= 140 && no_line_terminator(core);
}

// Does one of the more-link expressions match `tail` from `pos` to its end? Each begins with
// (^|([.!?:\]\)"]|…|”|»)\s*|\s) before the link text.
bool more_link_at(std::string_view tail, std::size_t pos) {
  std::array<std::size_t, 3> starts{};  // where the link text may begin
  std::size_t n = 0;
  if (pos == 0) starts[n++] = 0;
  std::string_view at = tail.substr(pos);
  if (at.empty()) return false;
  {
    std::string_view punct = at;
    if (consume_one_of(punct, {"."sv, "!"sv, "?"sv, ":"sv, "]"sv, ")"sv, "\""sv, "\xE2\x80\xA6"sv,
                               "\xE2\x80\x9D"sv, "\xC2\xBB"sv})) {
      starts[n++] = tail.size() - punct.size() + leading_spaces(punct);
    }
  }
  if (is_regex_space(at.front())) starts[n++] = pos + 1;
  for (std::size_t k = 0; k < n; ++k) {
    const std::string_view text = tail.substr(starts[k]);
    // (Read more|Read More|READ MORE|Read the rest of this entry|Read the rest|Keep reading|
    //  Continue reading|Continue Reading) followed only by markers.
    for (const auto link :
         {"Read more"sv, "Read More"sv, "READ MORE"sv, "Read the rest of this entry"sv, "Read the rest"sv,
          "Keep reading"sv, "Continue reading"sv, "Continue Reading"sv}) {
      if (text.starts_with(link) && only_more_markers(text.substr(link.size()))) return true;
    }
    // (Continue reading|Continue Reading) followed by a title.
    for (const auto link : {"Continue reading"sv, "Continue Reading"sv}) {
      if (text.starts_with(link) && continue_reading_title(text.substr(link.size()))) return true;
    }
  }
  return false;
}

// Where a more-link at the end of the last paragraph begins in `tail` (after a sentence boundary), or
// npos. "Read more" may only be followed by markers, "Continue reading" also by a title that ends in an
// arrow or is quoted; "(more…)" may end any paragraph. The leftmost start wins, as with regex_search.
std::size_t more_link_start(std::string_view tail) {
  // \s*\((more|More)(…|\.\.\.)\)\s*$
  std::size_t paren_more = std::string_view::npos;
  {
    std::string_view s = trim_trailing_spaces(tail);
    for (const auto m : {"(more\xE2\x80\xA6)"sv, "(more...)"sv, "(More\xE2\x80\xA6)"sv, "(More...)"sv}) {
      if (s.ends_with(m)) {
        paren_more = trim_trailing_spaces(s.substr(0, s.size() - m.size())).size();
        break;
      }
    }
  }
  // Every other form needs one of these words; most paragraphs have none, so skip the scan.
  const bool has_link_text =
      tail.find("Read") != std::string_view::npos || tail.find("READ MORE") != std::string_view::npos ||
      tail.find("Keep reading") != std::string_view::npos || tail.find("Continue") != std::string_view::npos;
  if (!has_link_text) return paren_more;
  for (std::size_t pos = 0; pos < tail.size() && pos < paren_more; ++pos) {
    if (more_link_at(tail, pos)) return pos;
  }
  return paren_more;
}

// Strips a more-link or "[…]" from the end of the paragraph; true when something changed.
bool strip_tail(std::string& p) {
  constexpr std::size_t kWindow = 240;
  std::size_t start = p.size() > kWindow ? p.size() - kWindow : 0;
  while (start > 0 && (static_cast<unsigned char>(p[start]) & 0xC0) == 0x80) ++start;  // whole code points
  const std::string_view tail = std::string_view(p).substr(start);
  if (const std::size_t at = trailing_marker_start(tail); at != std::string_view::npos) {
    p.resize(start + at);
    while (!p.empty() && (p.back() == ' ' || p.back() == '\n')) p.pop_back();
    if (!p.empty() && !p.ends_with(kEllipsis) && !p.ends_with(".")) p += kEllipsis;
    return true;
  }
  if (const std::size_t cut = more_link_start(tail); cut != std::string_view::npos) {
    // Keep the sentence punctuation the match began with, drop the link text itself.
    const std::string_view matched = tail.substr(cut);
    std::size_t keep = 0;
    while (keep < matched.size() && !std::isalpha(static_cast<unsigned char>(matched[keep])) &&
           matched[keep] != '(')
      ++keep;
    p.resize(start + cut + keep);
    while (!p.empty() && (p.back() == ' ' || p.back() == '\n' || p.back() == '\t')) p.pop_back();
    return true;
  }
  return false;
}

}  // namespace

std::string strip_boilerplate(std::string_view text) {
  std::vector<std::string> paragraphs;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    auto end = text.find("\n\n", pos);
    if (end == std::string_view::npos) end = text.size();
    const auto p = text.substr(pos, end - pos);
    // Strip surrounding newlines only: a <pre> paragraph keeps its indentation.
    std::size_t b = 0;
    std::size_t e = p.size();
    while (b < e && (p[b] == '\n' || p[b] == '\r')) ++b;
    while (e > b && (p[e - 1] == '\n' || p[e - 1] == '\r' || p[e - 1] == ' ' || p[e - 1] == '\t')) --e;
    if (!trim(p.substr(b, e - b)).empty()) paragraphs.emplace_back(p.substr(b, e - b));
    pos = end + 2;
  }
  bool changed = true;
  while (changed && !paragraphs.empty()) {
    changed = false;
    if (is_boilerplate_paragraph(paragraphs.back())) {
      paragraphs.pop_back();
      changed = true;
      continue;
    }
    if (strip_tail(paragraphs.back())) {
      if (trim(paragraphs.back()).empty()) paragraphs.pop_back();
      changed = true;
    }
  }
  std::string out;
  for (const auto& p : paragraphs) {
    if (!out.empty()) out += "\n\n";
    out += p;
  }
  return out;
}

}  // namespace longread::html
