// make_excerpt and looks_like_summary.
#include <string>
#include <vector>

#include "core/strings.h"
#include "html/html.h"

namespace longread::html {
namespace {

constexpr std::string_view kEllipsis = "\xE2\x80\xA6";  // U+2026

bool is_continuation(unsigned char c) {
  return (c & 0xC0) == 0x80;
}

std::size_t count_code_points(std::string_view s) {
  std::size_t n = 0;
  for (const char c : s)
    if (!is_continuation(static_cast<unsigned char>(c))) ++n;
  return n;
}

// Byte offset of the code point with index `cp_index` (or s.size()).
std::size_t byte_offset(std::string_view s, std::size_t cp_index) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (is_continuation(static_cast<unsigned char>(s[i]))) continue;
    if (n == cp_index) return i;
    ++n;
  }
  return s.size();
}

std::vector<std::string> paragraphs_of(std::string_view text) {
  std::vector<std::string> out;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    auto end = text.find("\n\n", pos);
    if (end == std::string_view::npos) end = text.size();
    std::string p = collapse_whitespace(text.substr(pos, end - pos));
    if (!p.empty()) out.push_back(std::move(p));
    pos = end + 2;
  }
  return out;
}

}  // namespace

bool ends_with_truncation_marker(std::string_view t) {
  t = trim(t);
  for (std::string_view m : {std::string_view(kEllipsis), std::string_view("..."), std::string_view("[…]"),
                             std::string_view("[...]"), std::string_view("(more…)")})
    if (t.ends_with(m)) return true;
  // More-links, possibly followed by an arrow: "Read more »", "Continue reading →".
  const auto tail = to_lower_ascii(t.substr(t.size() > 200 ? t.size() - 200 : 0));
  for (std::string_view link : {"read more", "continue reading", "read the rest", "keep reading"}) {
    const auto at = tail.rfind(link);
    if (at == std::string::npos) continue;
    const auto rest = std::string_view(tail).substr(at + link.size());
    if (rest.size() <= 40 && (link == "continue reading" || trim(rest).size() <= 4)) return true;
  }
  return false;
}

std::string make_excerpt(std::string_view text, std::size_t max_chars, bool keep_paragraphs) {
  // Paragraphs are folded and joined only until there are more than max_chars code points: the cut
  // below looks no further than that (one code point past the limit), so a 10,000-word post costs the
  // same as a 300-word one.
  std::string joined;
  std::size_t joined_chars = 0;
  for (std::size_t pos = 0; pos <= text.size() && joined_chars <= max_chars;) {
    auto end = text.find("\n\n", pos);
    if (end == std::string_view::npos) end = text.size();
    const std::string p = collapse_whitespace(text.substr(pos, end - pos));
    pos = end + 2;
    if (p.empty()) continue;
    if (!joined.empty()) {
      joined += keep_paragraphs ? "\n\n" : " ";
      joined_chars += keep_paragraphs ? 2 : 1;
    }
    joined += p;
    joined_chars += count_code_points(p);
  }
  if (joined.empty() || max_chars == 0) return {};
  if (count_code_points(joined) <= max_chars) return joined;
  // Room for the ellipsis; then back up to the last word boundary unless that loses over half.
  const std::size_t limit = max_chars - 1;
  const std::size_t cut = byte_offset(joined, limit);
  std::string_view head = std::string_view(joined).substr(0, cut);
  const bool at_boundary = cut < joined.size() && (joined[cut] == ' ' || joined[cut] == '\n');
  if (!at_boundary) {
    const auto space = head.find_last_of(" \n");
    if (space != std::string_view::npos && count_code_points(head.substr(0, space)) >= limit / 2)
      head = head.substr(0, space);
  }
  // No dangling separators or a half-open sentence mark before the ellipsis.
  while (!head.empty() && (head.back() == ' ' || head.back() == '\n' || head.back() == ',' ||
                           head.back() == ';' || head.back() == ':' || head.back() == '-'))
    head.remove_suffix(1);
  if (head.empty()) return std::string(kEllipsis);
  return std::string(head) + std::string(kEllipsis);
}

namespace {

// looks_like_summary without the entry HTML's own text, the one costly test.
bool summary_by_its_text(std::string_view entry_html, std::string_view text) {
  constexpr std::size_t kShortWords = 150;
  constexpr std::size_t kSingleParagraphWords = 300;
  const std::size_t words = count_words(text);
  if (words < kShortWords) return true;
  if (ends_with_truncation_marker(text)) return true;
  // The raw entry may carry markers that strip_boilerplate already removed from `text`.
  if (entry_html.find("more-link") != std::string_view::npos ||
      entry_html.find("<!--more") != std::string_view::npos)
    return true;
  return words < kSingleParagraphWords && paragraphs_of(text).size() <= 1;
}

}  // namespace

bool looks_like_summary(std::string_view entry_html, std::string_view text) {
  return summary_by_its_text(entry_html, text) || ends_with_truncation_marker(html_to_text(entry_html));
}

bool looks_like_summary(std::string_view entry_html, std::string_view text, bool html_text_ends_with_marker) {
  return html_text_ends_with_marker || summary_by_its_text(entry_html, text);
}

}  // namespace longread::html
