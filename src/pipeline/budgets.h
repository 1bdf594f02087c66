// Per-feed budgets against hostile or runaway feeds (docs/feed.md, "Budgets"): how many entries one crawl
// takes from a feed, and how many bytes one entry may bring.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace longread::feed {
struct Entry;
}

namespace longread::pipeline {

// Keeps the `max_entries` newest entries (by published date, else updated; undated entries after the dated
// ones, in feed order), in their feed order; returns how many were dropped. A feed of 20,000 entries whose
// guids change on every poll then adds at most `max_entries` articles per crawl.
std::size_t take_newest_entries(std::vector<feed::Entry>& entries, std::size_t max_entries);

// Cuts an entry to `max_bytes` of HTML (content first, the summary gets what is left) and its one-line
// fields (id, title, link, author) to kMaxEntryFieldBytes each. Cuts fall on a UTF-8 boundary and never
// inside an HTML tag. Returns true when anything was cut (stored as Article::truncated).
bool cap_entry(feed::Entry& entry, std::size_t max_bytes);

inline constexpr std::size_t kMaxEntryFieldBytes = 4096;

// Cuts HTML to at most `max_bytes` on a UTF-8 boundary, before a tag the cut would split; true when cut.
bool cut_html(std::string& html, std::size_t max_bytes);

}  // namespace longread::pipeline
