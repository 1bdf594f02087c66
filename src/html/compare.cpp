#include "html/compare.h"

#include <string>
#include <unordered_map>

namespace longread::html {
namespace {

bool is_token_byte(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c >= 0x80;
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
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (is_token_byte(c)) {
      token += (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : ch;
    } else {
      flush();
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
