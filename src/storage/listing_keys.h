// What both backends' listings share, apart from SQL: the keyset cursors of ArticlePage and HotPage (the
// sort key of the last row a page used), and the cut of the hot order into pages with at most a few
// articles of one blog each.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/error.h"
#include "storage/types.h"

namespace longread::storage {

// One entry of the hot order as hot_page walks it: `position` is its rank in the walk; score and
// display_at (with id, the order's key) make the cursor of the walk.
struct HotEntry {
  std::int64_t id = 0;
  std::int64_t blog_id = 0;
  std::int64_t position = 0;
  double score = 0;
  std::int64_t display_at = 0;
};

// Where a walk of the hot order stands between two pages: the entries held back from the pages cut so far
// (in walk order), and whether the walk has run out.
struct HotCut {
  std::deque<HotEntry> carried;
  bool exhausted = false;
};

// Cuts the next page of `size` entries out of the walk `next` (which yields entries in hot order, then
// nullopt), at most `cap` of one blog per page (HotPageQuery): the entries `state` carries lead, then the
// walk. An entry held back from a full page is carried to the next, so the pages partition the walk.
// Returns the page in walk order.
template <typename Next>
Result<std::vector<HotEntry>> cut_next_hot_page(HotCut& state, Next& next, int size, int cap, bool strict) {
  std::vector<HotEntry> taken;
  std::unordered_map<std::int64_t, int> per_blog;
  std::deque<HotEntry> held;
  auto consider = [&](const HotEntry& e) {
    int& n = per_blog[e.blog_id];
    if (n < cap) {
      ++n;
      taken.push_back(e);
    } else {
      held.push_back(e);
    }
  };
  for (const HotEntry& e : state.carried) {
    if (static_cast<int>(taken.size()) < size) {
      consider(e);
    } else {
      held.push_back(e);
    }
  }
  while (!state.exhausted && static_cast<int>(taken.size()) < size &&
         static_cast<int>(held.size()) <= HotPageQuery::kCapLookahead) {
    auto e = next();
    if (!e) return std::unexpected(e.error());
    if (!*e) {
      state.exhausted = true;
      break;
    }
    consider(**e);
  }
  // One blog floods what is left, or the walk ran out: the held-back entries fill the page in order.
  if (!strict) {
    while (static_cast<int>(taken.size()) < size && !held.empty()) {
      taken.push_back(held.front());
      held.pop_front();
    }
  }
  state.carried = std::move(held);
  std::ranges::sort(taken, {}, &HotEntry::position);
  return taken;
}

// Listing cursors (ArticlePage::next): the sort key of the last row a page used, as integers joined by '.'
// (a double score as its 64 bits, so it round-trips exactly), then for hot_page '_' and the ids it held
// back. Only what the listing itself wrote is accepted: the key's exact arity, integers in range, ids
// above 0, at most kMaxHeld held ids, so a forged cursor costs no more than a real one.
struct Cursor {
  std::vector<std::int64_t> key;
  std::vector<std::int64_t> held;
};

inline constexpr std::size_t kMaxCursorLength = 8192;
inline constexpr std::size_t kMaxHeld = HotPageQuery::kCapLookahead + 1;

std::string encode_cursor(std::span<const std::int64_t> key, std::span<const std::int64_t> held = {});
std::unexpected<Error> bad_cursor();
// `arity` numbers, the last an id; with `allow_held`, the held ids after '_'.
Result<Cursor> parse_cursor(std::string_view text, std::size_t arity, bool allow_held);
// A double score as its 64 bits, so a cursor carries it exactly; and back (kInvalidInput when not finite).
std::int64_t score_bits(double score);
Result<double> score_from_bits(std::int64_t bits);
// The key arity of an ArticleQuery's order: (display_at, id), (votes, display_at, id), (score bits,
// display_at, id), (period votes, votes, display_at, id).
std::size_t cursor_arity(const ArticleQuery& query);

// Cuts page `pages` of the walk (cut_next_hot_page that many times: the earlier pages are dropped), then
// sets `out`'s has_more (looking one entry ahead when nothing is carried) and, when more follow, the cursor
// page + 1 resumes from: the last entry the walk read before that look-ahead, with the ids carried.
// `last_walked` is the caller's record of the walk's last entry, which `next` keeps up to date.
template <typename Next>
Result<std::vector<HotEntry>> cut_hot_page(HotCut& state, Next& next,
                                           const std::optional<HotEntry>& last_walked, int pages, int size,
                                           const HotPageQuery& query, HotPage& out) {
  std::vector<HotEntry> taken;
  for (int p = 1; p <= pages; ++p) {
    auto cut = cut_next_hot_page(state, next, size, query.per_blog_cap, query.strict_cap);
    if (!cut) return std::unexpected(cut.error());
    taken = std::move(*cut);
  }
  const std::optional<HotEntry> resume = last_walked;  // before the look-ahead below moves it
  out.has_more = !state.carried.empty();
  if (!out.has_more && !state.exhausted) {
    auto e = next();
    if (!e) return std::unexpected(e.error());
    out.has_more = e->has_value();
  }
  if (out.has_more && resume) {
    std::vector<std::int64_t> held;
    for (const HotEntry& e : state.carried) held.push_back(e.id);
    out.next = encode_cursor(
        std::vector<std::int64_t>{score_bits(resume->score), resume->display_at, resume->id}, held);
  }
  return taken;
}

}  // namespace longread::storage
