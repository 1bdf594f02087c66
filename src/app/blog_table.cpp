#include "app/blog_table.h"

#include <fmt/chrono.h>
#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>

namespace longread::app {
namespace {

std::string time_or_dash(const std::optional<TimePoint>& t) {
  return t ? fmt::format("{:%Y-%m-%d %H:%M}", *t) : std::string("-");
}

// A paused or quarantined blog is polled by no crawl, whatever its stored next_due_at says.
std::string next_due(const model::Blog& b) {
  if (b.paused) return "paused";
  if (b.quarantined) return "quarantined";
  return b.next_due_at ? time_or_dash(b.next_due_at) : "now";
}

}  // namespace

std::string table_cell(std::string_view text, std::size_t width) {
  std::string flat(text);
  std::replace_if(
      flat.begin(), flat.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; },
      ' ');
  std::size_t bytes = 0;
  std::size_t points = 0;
  while (bytes < flat.size() && points < width) {
    ++bytes;
    while (bytes < flat.size() && (static_cast<unsigned char>(flat[bytes]) & 0xC0) == 0x80) ++bytes;
    ++points;
  }
  if (bytes == flat.size()) return flat;
  std::size_t last = bytes - 1;  // replace the last code point with "~"
  while (last > 0 && (static_cast<unsigned char>(flat[last]) & 0xC0) == 0x80) --last;
  return flat.substr(0, last) + "~";
}

void print_blog_table(std::span<const model::Blog> blogs) {
  // The status comes last and whole: it carries the reason for the wait ("not modified (frequency: 24 h,
  // no posts in 4 weeks)") or the error, the part an operator reads the table for.
  constexpr const char* kRow = "{:>5}  {:<28}  {:<13}  {:<44}  {:<16}  {:<16}  {:<16}  {:>8}  {}\n";
  fmt::print(kRow, "id", "title", "category", "feed URL", "last error at", "last success", "next due",
             "articles", "last status");
  const auto cell = [](std::string_view text, std::size_t width) { return table_cell(text, width); };
  for (const auto& b : blogs) {
    fmt::print(kRow, b.id, cell(b.title, 28), cell(b.category, 13), cell(b.feed_url, 44),
               b.last_error.empty() ? std::string("-") : time_or_dash(b.last_error_at),
               time_or_dash(b.last_success_at), next_due(b), b.article_count,
               b.last_status.empty() ? std::string("never crawled") : b.last_status);
  }
}

}  // namespace longread::app
