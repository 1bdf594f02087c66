#include "pipeline/budgets.h"

#include <algorithm>
#include <numeric>
#include <string>

#include "feed/feed.h"

namespace longread::pipeline {
namespace {

// The longest prefix of `s` of at most `max` bytes that ends on a UTF-8 boundary.
std::size_t utf8_cut(const std::string& s, std::size_t max) {
  if (s.size() <= max) return s.size();
  std::size_t cut = max;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
  return cut;
}

bool cut_text(std::string& s, std::size_t max) {
  if (s.size() <= max) return false;
  s.resize(utf8_cut(s, max));
  return true;
}

}  // namespace

// As cut_text, and a cut that would leave half a tag ("<a hre") ends before that tag instead.
bool cut_html(std::string& html, std::size_t max) {
  if (html.size() <= max) return false;
  std::size_t cut = utf8_cut(html, max);
  const std::size_t open = html.rfind('<', cut == 0 ? 0 : cut - 1);
  const std::size_t close = html.rfind('>', cut == 0 ? 0 : cut - 1);
  if (open != std::string::npos && (close == std::string::npos || close < open)) cut = open;
  html.resize(cut);
  return true;
}

std::size_t take_newest_entries(std::vector<feed::Entry>& entries, std::size_t max_entries) {
  if (entries.size() <= max_entries) return 0;
  std::vector<std::size_t> order(entries.size());
  std::iota(order.begin(), order.end(), 0);
  const auto date = [&](std::size_t i) {
    const auto& e = entries[i];
    return e.published ? e.published : e.updated;
  };
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const auto da = date(a);
    const auto db = date(b);
    if (da.has_value() != db.has_value()) return da.has_value();
    return da && *da > *db;
  });
  std::vector<bool> keep(entries.size(), false);
  for (std::size_t i = 0; i < max_entries; ++i) keep[order[i]] = true;
  std::vector<feed::Entry> kept;
  kept.reserve(max_entries);
  for (std::size_t i = 0; i < entries.size(); ++i)
    if (keep[i]) kept.push_back(std::move(entries[i]));
  const std::size_t dropped = entries.size() - kept.size();
  entries = std::move(kept);
  return dropped;
}

bool cap_entry(feed::Entry& entry, std::size_t max_bytes) {
  bool cut = false;
  for (std::string* field : {&entry.id, &entry.title, &entry.link, &entry.author})
    cut = cut_text(*field, kMaxEntryFieldBytes) || cut;
  cut = cut_html(entry.content, max_bytes) || cut;
  cut = cut_html(entry.summary, max_bytes - entry.content.size()) || cut;
  return cut;
}

}  // namespace longread::pipeline
