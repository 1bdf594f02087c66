#include "core/strings.h"

#include <bit>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <fmt/format.h>

#include <cstdint>
#include <cstring>

namespace longread {
namespace {
bool is_space(unsigned char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}
char lower(char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
}

// Length of the valid UTF-8 sequence starting at s[i], or 0 when it is invalid.
std::size_t utf8_sequence_length(std::string_view s, std::size_t i) noexcept {
  const auto c0 = static_cast<unsigned char>(s[i]);
  if (c0 < 0x80) return 1;
  std::size_t len = 0;
  char32_t cp = 0;
  if ((c0 & 0xE0) == 0xC0) {
    len = 2;
    cp = c0 & 0x1F;
  } else if ((c0 & 0xF0) == 0xE0) {
    len = 3;
    cp = c0 & 0x0F;
  } else if ((c0 & 0xF8) == 0xF0) {
    len = 4;
    cp = c0 & 0x07;
  } else {
    return 0;
  }
  if (i + len > s.size()) return 0;
  for (std::size_t k = 1; k < len; ++k) {
    const auto c = static_cast<unsigned char>(s[i + k]);
    if ((c & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (c & 0x3F);
  }
  // Reject overlong forms, surrogates and values past U+10FFFF.
  if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000)) return 0;
  if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return len;
}
}  // namespace

std::string_view trim(std::string_view s) noexcept {
  while (!s.empty() && is_space(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && is_space(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::string to_lower_ascii(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = lower(c);
  return out;
}

bool iequals(std::string_view a, std::string_view b) noexcept {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (lower(a[i]) != lower(b[i])) return false;
  return true;
}

bool starts_with_icase(std::string_view s, std::string_view prefix) noexcept {
  return s.size() >= prefix.size() && iequals(s.substr(0, prefix.size()), prefix);
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  while (true) {
    const auto pos = s.find(sep, start);
    if (pos == std::string_view::npos) {
      parts.push_back(s.substr(start));
      return parts;
    }
    parts.push_back(s.substr(start, pos - start));
    start = pos + 1;
  }
}

void append_utf8(std::string& out, char32_t cp) {
  if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) cp = 0xFFFD;
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

bool is_valid_utf8(std::string_view s) noexcept {
  std::size_t i = 0;
  while (i < s.size()) {
    // Eight ASCII bytes at a time: most feed text is ASCII.
    while (i + 8 <= s.size()) {
      std::uint64_t word = 0;
      std::memcpy(&word, s.data() + i, sizeof word);
      if ((word & 0x8080808080808080ULL) != 0) break;
      i += 8;
    }
    if (i >= s.size()) break;
    if (static_cast<unsigned char>(s[i]) < 0x80) {
      ++i;
      continue;
    }
    const auto len = utf8_sequence_length(s, i);
    if (len == 0) return false;
    i += len;
  }
  return true;
}

std::string sanitize_utf8(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  std::size_t run = 0;  // start of the bytes kept as they are, appended in one piece
  std::size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    if ((c >= 0x20 && c < 0x80) || c == '\t' || c == '\n' || c == '\r') {
      ++i;
      continue;
    }
    if (c >= 0x80) {
      if (const auto len = utf8_sequence_length(s, i); len != 0) {
        i += len;
        continue;
      }
    }
    out.append(s.substr(run, i - run));
    if (c >= 0x80) out += "\xEF\xBF\xBD";  // an invalid byte: U+FFFD; a C0 control: dropped
    run = ++i;
  }
  out.append(s.substr(run));
  return out;
}

std::string collapse_whitespace(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  bool pending_space = false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    // U+00A0 NO-BREAK SPACE folds like a space.
    const bool nbsp = c == 0xC2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) == 0xA0;
    if (is_space(c) || nbsp) {
      pending_space = true;
      if (nbsp) ++i;
      continue;
    }
    if (pending_space && !out.empty()) out.push_back(' ');
    pending_space = false;
    out.push_back(static_cast<char>(c));
  }
  return out;
}

std::string_view without_title_heading(std::string_view text, std::string_view title) {
  const std::size_t end = text.find("\n\n");
  if (end == std::string_view::npos || trim(title).empty()) return text;
  const std::string first = to_lower_ascii(collapse_whitespace(text.substr(0, end)));
  const std::string heading = to_lower_ascii(collapse_whitespace(title));
  if (first != heading && first != heading + ":") return text;
  return trim(text.substr(end + 2));
}

std::string truncate_words(std::string_view s, std::size_t max_bytes) {
  s = trim(s);
  if (s.size() <= max_bytes) return std::string(s);
  std::size_t cut = max_bytes;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;  // not mid-sequence
  const auto space = s.substr(0, cut).find_last_of(" \n\t");
  if (space != std::string_view::npos && space > max_bytes / 2) cut = space;
  std::string_view head = trim(s.substr(0, cut));
  while (!head.empty() &&
         (head.back() == ',' || head.back() == ';' || head.back() == ':' || head.back() == '-'))
    head.remove_suffix(1);
  return std::string(head) + "\xE2\x80\xA6";
}

std::size_t count_words(std::string_view s) noexcept {
  // A word starts at each byte that is not white space where the byte before it is (or at the start). Every
  // article's text is counted several times on its way in, so this looks at 16 bytes at once where the
  // processor has SSE2 (every x86-64 one): a mask of the white-space bytes, the word starts among them
  // found with shifts and counted with popcount, the last byte's state carried to the next block.
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  // is_space, as arithmetic: ' ', or '\t' '\n' '\v' '\f' '\r' (9 to 13).
  const auto space = [](unsigned char c) -> unsigned {
    return static_cast<unsigned>(c == ' ') | static_cast<unsigned>(static_cast<unsigned char>(c - 9) <= 4);
  };
  std::size_t words = 0;
  unsigned before = 1;  // the byte before the first counts as white space
  std::size_t i = 0;
#if defined(__SSE2__)
  const __m128i blank = _mm_set1_epi8(' ');
  const __m128i tab = _mm_set1_epi8(9);
  const __m128i four = _mm_set1_epi8(4);
  for (; i + 16 <= s.size(); i += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
    const __m128i shifted = _mm_sub_epi8(v, tab);  // 9..13 become 0..4
    const __m128i controls = _mm_cmpeq_epi8(_mm_min_epu8(shifted, four), shifted);
    const auto spaces =
        static_cast<unsigned>(_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, blank), controls)));
    // Bit k of `follows_space`: the byte before byte k is white space.
    const unsigned follows_space = ((spaces << 1) | before) & 0xFFFFU;
    words += static_cast<std::size_t>(std::popcount(follows_space & ~spaces & 0xFFFFU));
    before = (spaces >> 15) & 1U;
  }
#endif
  for (; i < s.size(); ++i) {
    const unsigned now = space(p[i]);
    words += before & (now ^ 1U);
    before = now;
  }
  return words;
}

std::string slugify(std::string_view s, std::size_t max_len) {
  std::string out;
  bool dash = false;
  for (const char ch : s) {
    const char c = lower(ch);
    if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')) {
      if (dash && !out.empty()) out.push_back('-');
      dash = false;
      out.push_back(c);
      if (out.size() >= max_len) break;
    } else {
      dash = true;
    }
  }
  return out;
}

void append_html_escaped(std::string& out, std::string_view s) {
  for (const char ch : s) {
    switch (ch) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out.push_back(ch);
    }
  }
}

std::string html_escape(std::string_view s) {
  std::string out;
  out.reserve(s.size() + s.size() / 8);
  append_html_escaped(out, s);
  return out;
}

std::string stable_hash_hex(std::string_view s) {
  std::uint64_t h = 1469598103934665603ULL;
  for (const char c : s) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ULL;
  }
  return fmt::format("{:016x}", h);
}

}  // namespace longread
