#include "html/compare.h"

#include <string>
#include <unordered_map>

namespace longread::html {
namespace {

enum class CharClass { kSeparator, kWord, kIdeograph };

// ASCII letters and digits are word characters; Unicode punctuation and spaces separate words; CJK
// ideographs, kana and hangul syllables are words of one character each (those scripts do not put
// spaces between words, so a whole sentence would otherwise be one token); any other code point is
// a word character.
CharClass classify(char32_t cp) {
  if (cp < 0x80) {
    const bool word = (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z') || (cp >= '0' && cp <= '9');
    return word ? CharClass::kWord : CharClass::kSeparator;
  }
  if ((cp >= 0x80 && cp <= 0xBF) || cp == 0xD7 || cp == 0xF7 || (cp >= 0x2000 && cp <= 0x2BFF) ||
      (cp >= 0x3000 && cp <= 0x303F) || (cp >= 0xFE10 && cp <= 0xFE6F) || (cp >= 0xFF00 && cp <= 0xFF0F) ||
      (cp >= 0xFF1A && cp <= 0xFF20) || (cp >= 0xFF3B && cp <= 0xFF40) || (cp >= 0xFF5B && cp <= 0xFF65))
    return CharClass::kSeparator;
  if ((cp >= 0x2E80 && cp <= 0x2FFF) || (cp >= 0x3040 && cp <= 0x31FF) || (cp >= 0x3400 && cp <= 0x4DBF) ||
      (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0xAC00 && cp <= 0xD7AF) || (cp >= 0xF900 && cp <= 0xFAFF) ||
      (cp >= 0x20000 && cp <= 0x2FFFF))
    return CharClass::kIdeograph;
  return CharClass::kWord;
}

// Decodes one UTF-8 sequence at s[i] (lenient: a stray byte is returned as itself).
char32_t decode(std::string_view s, std::size_t& i) {
  const auto c0 = static_cast<unsigned char>(s[i++]);
  int extra = 0;
  char32_t cp = c0;
  if ((c0 & 0xE0) == 0xC0) {
    extra = 1;
    cp = c0 & 0x1F;
  } else if ((c0 & 0xF0) == 0xE0) {
    extra = 2;
    cp = c0 & 0x0F;
  } else if ((c0 & 0xF8) == 0xF0) {
    extra = 3;
    cp = c0 & 0x07;
  }
  for (; extra > 0 && i < s.size() && (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80; --extra, ++i)
    cp = (cp << 6) | (static_cast<unsigned char>(s[i]) & 0x3F);
  return cp;
}

std::unordered_map<std::string, int> bag(std::string_view s, std::size_t& total) {
  std::unordered_map<std::string, int> out;
  std::string token;
  total = 0;
  auto flush = [&] {
    if (token.empty()) return;
    ++out[token];
    ++total;
    token.clear();
  };
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t start = i;
    const char32_t cp = decode(s, i);
    switch (classify(cp)) {
      case CharClass::kSeparator:
        flush();
        break;
      case CharClass::kIdeograph:
        flush();
        token.assign(s.substr(start, i - start));
        flush();
        break;
      case CharClass::kWord:
        if (cp >= 'A' && cp <= 'Z') {
          token += static_cast<char>(cp - 'A' + 'a');
        } else {
          token.append(s.substr(start, i - start));
        }
        break;
    }
  }
  flush();
  return out;
}

}  // namespace

TokenScore token_f1(std::string_view got, std::string_view expected) {
  std::size_t got_total = 0;
  std::size_t expected_total = 0;
  const auto g = bag(got, got_total);
  const auto e = bag(expected, expected_total);
  if (got_total == 0 && expected_total == 0) return {1, 1, 1};
  if (got_total == 0 || expected_total == 0) return {};
  std::size_t common = 0;
  for (const auto& [token, count] : g) {
    const auto it = e.find(token);
    if (it != e.end()) common += static_cast<std::size_t>(std::min(count, it->second));
  }
  TokenScore s;
  s.precision = static_cast<double>(common) / static_cast<double>(got_total);
  s.recall = static_cast<double>(common) / static_cast<double>(expected_total);
  s.f1 = (s.precision + s.recall) > 0 ? 2 * s.precision * s.recall / (s.precision + s.recall) : 0;
  return s;
}

}  // namespace longread::html
