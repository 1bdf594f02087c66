// learn_feed_template / strip_feed_template: a blog's recurring furniture found by comparing its entries
// with each other, not by a list of phrases. A footer that says "Thank you for reading via RSS" on one
// blog and "Merci de votre lecture" on another is found the same way: it is in most of that blog's posts.
#include <algorithm>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/strings.h"
#include "html/html.h"

namespace longread::html {
namespace {

bool is_ascii_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}
bool is_ascii_letter(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
bool is_ascii_digit(char c) {
  return c >= '0' && c <= '9';
}

// Does `s` hold a letter: an ASCII one, or a code point from U+00C0 up that is not punctuation, a symbol
// or an emoji (general punctuation, arrows, dashes and box drawing U+2000-U+2BFF, CJK punctuation
// U+3000-U+303F, variation selectors and specials U+FE00-U+FFFF, emoji from U+1F000)?
bool has_letter(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      if (is_ascii_letter(static_cast<char>(c))) return true;
      ++i;
      continue;
    }
    std::size_t len = 1;
    char32_t cp = 0;
    if ((c & 0xE0) == 0xC0) {
      len = 2;
      cp = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
      len = 3;
      cp = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
      len = 4;
      cp = c & 0x07;
    } else {
      ++i;  // a stray continuation byte
      continue;
    }
    if (i + len > s.size()) break;
    for (std::size_t k = 1; k < len; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
    i += len;
    if (cp < 0xC0 || cp == 0xD7 || cp == 0xF7) continue;
    if ((cp >= 0x2000 && cp <= 0x2BFF) || (cp >= 0x3000 && cp <= 0x303F) || (cp >= 0xFE00 && cp <= 0xFFFF) ||
        cp >= 0x1F000)
      continue;
    return true;
  }
  return false;
}

// Is this token (lowercased, surrounding punctuation removed) an address?
bool is_address(std::string_view t) {
  if (t.find("://") != std::string_view::npos) return true;
  if (t.starts_with("www.") || t.starts_with("mailto:")) return true;
  // A path: "/u/name", "/r/funny" (Reddit's user and community names are paths of reddit.com).
  if (t.size() > 1 && t.front() == '/' && t[1] != '/') return true;
  // An e-mail address or a fediverse handle: "luke@example.com", "@luke@typo.social".
  if (const auto at = t.rfind('@'); at != std::string_view::npos && at + 1 < t.size()) {
    const std::string_view host = t.substr(at + 1);
    const auto dot = host.find('.');
    if (dot != std::string_view::npos && dot > 0 && dot + 1 < host.size()) return true;
  }
  // A host with a path and no scheme: "ko-fi.com/name", "typo.social/@luke".
  if (const auto slash = t.find('/'); slash != std::string_view::npos && slash > 0) {
    const std::string_view host = t.substr(0, slash);
    const auto dot = host.find('.');
    const bool host_chars = std::all_of(host.begin(), host.end(), [](char c) {
      return is_ascii_letter(c) || is_ascii_digit(c) || c == '.' || c == '-';
    });
    if (host_chars && dot != std::string_view::npos && dot > 0 && host.back() != '.') return true;
  }
  return false;
}

constexpr std::string_view kOpeners = "([{<\"'";
constexpr std::string_view kClosers = ")]}>\"'.,;:!?";

// Most tokens of prose are a plain word: ASCII letters, perhaps inside brackets or quotes and followed by
// sentence punctuation ("word", "(word", "word.", "word),"). Such a token holds a letter, no digit, and is no
// address (every address holds "/", "@", ":" or a dot before its end), so its key is the token lowercased.
// Appends that and returns true; returns false, appending nothing, for any other token.
bool append_plain_word(std::string& out, std::string_view token) {
  bool letter = false;
  std::size_t end = token.size();
  while (end > 0 && token[end - 1] == '.') --end;  // dots end a sentence; one before the end may be a host's
  for (std::size_t i = 0; i < end; ++i) {
    const char c = token[i];
    if (is_ascii_letter(c)) {
      letter = true;
    } else if (c != ',' && c != ';' && c != '!' && c != '?' && c != '"' && c != '\'' && c != '(' &&
               c != ')' && c != '[' && c != ']' && c != '{' && c != '}' && c != '<' && c != '>') {
      return false;
    }
  }
  if (!letter) return false;
  const std::size_t start = out.size();
  out += token;
  for (std::size_t i = start; i < out.size(); ++i)
    if (out[i] >= 'A' && out[i] <= 'Z') out[i] = static_cast<char>(out[i] - 'A' + 'a');
  return true;
}

// Appends `token` to a key: lowercased, an address as "<url>" (its surrounding punctuation kept), each run of
// digits as '#'. Written straight into `out`, since a key is made for every paragraph and line of every entry
// a crawl reads. `letters` becomes true once a token holds a letter.
void append_token(std::string& out, std::string_view token, bool& letters, bool plain_words) {
  if (!out.empty()) out += ' ';
  if (plain_words && append_plain_word(out, token)) {
    letters = true;
    return;
  }
  const std::size_t start = out.size();
  for (const char c : token) out += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  const std::string_view t(out.data() + start, out.size() - start);
  std::size_t b = 0;
  std::size_t e = t.size();
  while (b < e && kOpeners.find(t[b]) != std::string_view::npos) ++b;
  while (e > b && kClosers.find(t[e - 1]) != std::string_view::npos) --e;
  if (e > b && is_address(t.substr(b, e - b))) {
    const std::string closers(t.substr(e));
    out.resize(start + b);
    out += "<url>";
    out += closers;
    return;
  }
  if (!letters && has_letter(t)) letters = true;
  std::size_t w = start;
  for (std::size_t i = start; i < out.size(); ++i) {
    if (is_ascii_digit(out[i])) {
      while (i + 1 < out.size() && is_ascii_digit(out[i + 1])) ++i;
      out[w++] = '#';
    } else {
      out[w++] = out[i];
    }
  }
  out.resize(w);
}

// The paragraphs of a text apart at "\n\n", surrounding newlines and trailing blanks removed, empty ones
// dropped (the same split strip_boilerplate makes).
std::vector<std::string_view> paragraphs_of(std::string_view text) {
  std::vector<std::string_view> out;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    auto end = text.find("\n\n", pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view p = text.substr(pos, end - pos);
    while (!p.empty() && (p.front() == '\n' || p.front() == '\r')) p.remove_prefix(1);
    while (!p.empty() && is_ascii_space(p.back())) p.remove_suffix(1);
    if (!trim(p).empty()) out.push_back(p);
    pos = end + 2;
  }
  return out;
}

// Is `s` (a paragraph or a line) template? Never when it is long or has no letters.
bool is_template(std::string_view s, const FeedTemplate& t) {
  if (s.size() > kTemplateMaxParagraphBytes) return false;
  const std::string key = template_key(s);
  return !key.empty() && t.keys.contains(key);
}

std::string_view trim_lines(std::string_view s) {
  while (!s.empty() && is_ascii_space(s.front()) && s.front() != ' ' && s.front() != '\t') s.remove_prefix(1);
  while (!s.empty() && is_ascii_space(s.back())) s.remove_suffix(1);
  return s;
}

}  // namespace

std::string template_key(std::string_view paragraph) {
  return detail::template_key(paragraph, true);
}

std::string detail::template_key(std::string_view paragraph, bool plain_words) {
  std::string out;
  out.reserve(paragraph.size());
  bool letters = false;
  std::size_t i = 0;
  while (i < paragraph.size()) {
    while (i < paragraph.size() && is_ascii_space(paragraph[i])) ++i;
    const std::size_t start = i;
    while (i < paragraph.size() && !is_ascii_space(paragraph[i])) ++i;
    if (i > start) append_token(out, paragraph.substr(start, i - start), letters, plain_words);
  }
  return letters ? out : std::string();
}

FeedTemplate learn_feed_template(const std::vector<std::string>& texts) {
  FeedTemplate result;
  // A post that the feed repeats (the same text under several links) is one post.
  std::unordered_set<std::string_view> distinct;
  for (const auto& t : texts)
    if (!trim(t).empty()) distinct.insert(t);
  result.sample = distinct.size();
  if (result.sample < kTemplateMinSample) return result;

  // Each key's number of texts, and the last text that counted it, so a key a text repeats counts once for
  // it without a set of the text's keys: one lookup a paragraph, and no copy of a key already counted.
  struct Count {
    std::size_t texts = 0;
    std::size_t last_text = 0;  // 1-based; 0: none yet
  };
  std::unordered_map<std::string, Count> counts;
  std::size_t text_number = 0;
  const auto count = [&](std::string key) {
    if (key.empty()) return;
    Count& c = counts.try_emplace(std::move(key)).first->second;
    if (c.last_text == text_number) return;
    c.last_text = text_number;
    ++c.texts;
  };
  for (const std::string_view text : distinct) {
    ++text_number;
    for (const std::string_view p : paragraphs_of(text)) {
      if (p.size() > kTemplateMaxParagraphBytes) continue;
      count(template_key(p));
      if (p.find('\n') == std::string_view::npos) continue;
      for (const std::string_view line : split(p, '\n')) count(template_key(line));
    }
  }
  // "Most" entries: more than half of them (at least 3, as the sample has at least 5).
  for (auto& [key, c] : counts) {
    if (2 * c.texts > result.sample) result.keys.insert(key);
  }
  return result;
}

std::string strip_feed_template(std::string_view text, const FeedTemplate& feed_template) {
  if (feed_template.empty()) return std::string(text);
  std::vector<std::string_view> paragraphs = paragraphs_of(text);
  bool removed = false;
  // From the end: whole paragraphs, else the last line of the last paragraph.
  while (!paragraphs.empty()) {
    std::string_view& p = paragraphs.back();
    if (is_template(p, feed_template)) {
      paragraphs.pop_back();
      removed = true;
      continue;
    }
    const auto nl = p.rfind('\n');
    if (nl != std::string_view::npos && is_template(p.substr(nl + 1), feed_template)) {
      p = trim_lines(p.substr(0, nl));
      if (trim(p).empty()) paragraphs.pop_back();
      removed = true;
      continue;
    }
    break;
  }
  // From the start: whole paragraphs, else the first line of the first paragraph.
  std::size_t first = 0;
  while (first < paragraphs.size()) {
    std::string_view& p = paragraphs[first];
    if (is_template(p, feed_template)) {
      ++first;
      removed = true;
      continue;
    }
    const auto nl = p.find('\n');
    if (nl != std::string_view::npos && is_template(p.substr(0, nl), feed_template)) {
      p = trim_lines(p.substr(nl + 1));
      if (trim(p).empty()) ++first;
      removed = true;
      continue;
    }
    break;
  }
  if (!removed) return std::string(text);
  const bool words_left =
      std::any_of(paragraphs.begin() + static_cast<std::ptrdiff_t>(first), paragraphs.end(),
                  [](std::string_view p) { return !template_key(p).empty(); });
  if (!words_left) return std::string(text);
  std::string out;
  for (std::size_t k = first; k < paragraphs.size(); ++k) {
    if (!out.empty()) out += "\n\n";
    out += paragraphs[k];
  }
  return out;
}

}  // namespace longread::html
