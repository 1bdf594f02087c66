#include "storage/search_terms.h"

#include <algorithm>
#include <cctype>

#include "core/strings.h"
#include "storage/types.h"

namespace longread::storage {

std::vector<std::string> search_terms(std::string_view input) {
  const std::string text = collapse_whitespace(input);
  std::vector<std::string> phrases;
  auto add = [&](std::string_view term) {
    const bool has_token = std::any_of(term.begin(), term.end(), [](char c) {
      const auto u = static_cast<unsigned char>(c);
      return u >= 0x80 || std::isalnum(u) != 0;
    });
    if (!has_token || phrases.size() >= static_cast<std::size_t>(kMaxSearchTerms)) return;
    phrases.emplace_back(term);
  };
  std::size_t i = 0;
  while (i < text.size()) {
    if (text[i] == ' ') {
      ++i;
      continue;
    }
    const std::size_t close = text[i] == '"' ? text.find('"', i + 1) : std::string::npos;
    if (close != std::string::npos) {  // a phrase: its inner text has no quote
      add(trim(std::string_view(text).substr(i + 1, close - i - 1)));
      i = close + 1;
      continue;
    }
    std::size_t end = text.find(' ', i);
    if (end == std::string::npos) end = text.size();
    add(std::string_view(text).substr(i, end - i));
    i = end;
  }
  return phrases;
}

}  // namespace longread::storage
