// strip_boilerplate: removes the furniture feed generators append to entries. Only the trailing
// paragraphs and the tail of the last one are examined, so the same words inside prose survive.
#include <regex>
#include <string>
#include <vector>

#include "core/strings.h"
#include "html/html.h"

namespace longread::html {
namespace {

constexpr std::string_view kEllipsis = "\xE2\x80\xA6";  // U+2026
// Paragraphs longer than this are prose, never boilerplate (and regexes only see short strings).
constexpr std::size_t kMaxBoilerplateBytes = 400;

// The whole-paragraph patterns, compiled once per call site (std::regex is only used on short text).
struct Patterns {
  std::vector<std::regex> paragraph;
  std::regex trailing_marker;  // "[…]" at the end
  std::regex more_link;        // "Continue reading …" / "Read more »" at the end of the last paragraph

  Patterns() {
    const auto flags = std::regex::ECMAScript | std::regex::icase | std::regex::optimize;
    const char* const kParagraph[] = {
        // WordPress (Yoast and core): "The post <title> appeared first on <site>."
        R"(^the post .+ appeared first on .+$)",
        // More links as their own paragraph: "Continue reading →", "Continue reading <title>".
        R"(^(continue reading|keep reading|read more|read the rest|read the full (post|article|story)|read full (post|article|story))\b.{0,160}$)",
        R"(^\(?more(…|\.\.\.)\)?$)",
        // Post meta lines.
        R"(^(this entry was posted|posted) in .+$)",
        R"(^(tags|tagged|tagged with|filed under|categories|category)\s*:.*$)",
        R"(^bookmark the permalink\.?$)",
        // Share and like widgets (Jetpack: "Share this:", buttons, "Like this:", "Like Loading...").
        R"(^(share this|like this|share|related|related posts|you may also like)\s*:?$)",
        R"(^(twitter|facebook|email|print|linkedin|reddit|tumblr|pinterest|pocket|telegram|whatsapp|mastodon|more|tweet|like)$)",
        R"(^(like )?loading(…|\.\.\.)?$)",
        R"(^click to .+ \(opens in new window\)$)",
        R"(^share on .{1,40}$)",
        // Newsletter prompts.
        R"(^subscribe\b.{0,200}$)",
        R"(^sign up for (my|our|the) newsletter.{0,160}$)",
        // Comment footers.
        R"(^(\d+|no|one) (comments?|responses?|replies)( so far)?\.?$)",
        R"(^(leave|add|post) a (comment|reply)\.?$)",
        R"(^(view )?comments?( \(\d+\))?:?$)",
        R"(^comments (are )?closed\.?$)",
    };
    for (const char* p : kParagraph) paragraph.emplace_back(p, flags);
    trailing_marker = std::regex(R"(\s*\[\s*(…|\.\.\.|&hellip;|&#8230;)\s*\]\s*$)", flags);
    // A more-link at the end of the last paragraph, after a sentence boundary; "Read more" may only be
    // followed by markers, "Continue reading" also by a title that ends in an arrow or is quoted.
    more_link = std::regex(
        R"re((^|([.!?:\]\)"]|…|”|»)\s*|\s)(Read more|Read More|READ MORE|Read the rest of this entry|Read the rest|Keep reading|Continue reading|Continue Reading)\s*((\.\.\.|…|→|»|›|>|:|\))\s*)*$|)re"
        R"re((^|([.!?:\]\)"]|…|”|»)\s*|\s)(Continue reading|Continue Reading)\s+.{1,140}\s*(→|»|›|…|\.\.\.)\s*$|)re"
        R"re((^|([.!?:\]\)"]|…|”|»)\s*|\s)(Continue reading|Continue Reading)\s+["“'‘].{1,140}$|)re"
        R"re(\s*\((more|More)(…|\.\.\.)\)\s*$)re",
        std::regex::ECMAScript | std::regex::optimize);
  }
};

const Patterns& patterns() {
  static const Patterns kPatterns;  // immutable constant tables, built on first use
  return kPatterns;
}

bool is_boilerplate_paragraph(std::string_view p) {
  if (p.size() > kMaxBoilerplateBytes) return false;
  const std::string s = collapse_whitespace(p);
  for (const auto& re : patterns().paragraph)
    if (std::regex_match(s, re)) return true;
  return false;
}

// Strips a more-link or "[…]" from the end of the paragraph; true when something changed.
bool strip_tail(std::string& p) {
  constexpr std::size_t kWindow = 240;
  std::size_t start = p.size() > kWindow ? p.size() - kWindow : 0;
  while (start > 0 && (static_cast<unsigned char>(p[start]) & 0xC0) == 0x80) ++start;  // whole code points
  const std::string tail = p.substr(start);
  std::smatch m;
  if (std::regex_search(tail, m, patterns().trailing_marker)) {
    p.resize(start + static_cast<std::size_t>(m.position(0)));
    while (!p.empty() && (p.back() == ' ' || p.back() == '\n')) p.pop_back();
    if (!p.empty() && !p.ends_with(kEllipsis) && !p.ends_with(".")) p += kEllipsis;
    return true;
  }
  if (std::regex_search(tail, m, patterns().more_link)) {
    // Keep the sentence punctuation the match began with, drop the link text itself.
    std::size_t cut = static_cast<std::size_t>(m.position(0));
    const std::string matched = m.str(0);
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
