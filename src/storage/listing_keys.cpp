#include "storage/listing_keys.h"

#include <bit>
#include <charconv>
#include <cmath>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace longread::storage {
namespace {

Result<std::vector<std::int64_t>> parse_cursor_numbers(std::string_view text) {
  std::vector<std::int64_t> out;
  for (;;) {
    const std::size_t dot = text.find('.');
    const std::string_view part = text.substr(0, dot);
    std::int64_t value = 0;
    const auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), value);
    if (part.empty() || ec != std::errc{} || end != part.data() + part.size()) return bad_cursor();
    out.push_back(value);
    if (dot == std::string_view::npos) break;
    text.remove_prefix(dot + 1);
  }
  return out;
}

}  // namespace

std::string encode_cursor(std::span<const std::int64_t> key, std::span<const std::int64_t> held) {
  std::string out = fmt::format("{}", fmt::join(key, "."));
  if (!held.empty()) out += fmt::format("_{}", fmt::join(held, "."));
  return out;
}

std::unexpected<Error> bad_cursor() {
  return fail(ErrorKind::kInvalidInput, "store: bad listing cursor", "That page link is not valid.");
}

Result<Cursor> parse_cursor(std::string_view text, std::size_t arity, bool allow_held) {
  if (text.size() > kMaxCursorLength) return bad_cursor();
  Cursor cursor;
  const std::size_t underscore = text.find('_');
  auto key = parse_cursor_numbers(text.substr(0, underscore));
  if (!key || key->size() != arity || key->back() <= 0) return bad_cursor();
  cursor.key = std::move(*key);
  if (underscore != std::string_view::npos) {
    if (!allow_held) return bad_cursor();
    auto held = parse_cursor_numbers(text.substr(underscore + 1));
    if (!held || held->size() > kMaxHeld || std::ranges::any_of(*held, [](auto id) { return id <= 0; }))
      return bad_cursor();
    cursor.held = std::move(*held);
  }
  return cursor;
}

std::int64_t score_bits(double score) {
  return std::bit_cast<std::int64_t>(score);
}

Result<double> score_from_bits(std::int64_t bits) {
  const double score = std::bit_cast<double>(bits);
  if (!std::isfinite(score)) return bad_cursor();
  return score;
}

std::size_t cursor_arity(const ArticleQuery& query) {
  if (query.vote_period) return 4;
  return query.order == ArticleOrder::kNewest ? 2 : 3;
}

}  // namespace longread::storage
