#include "pipeline/duplicates.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <unordered_set>

#include "curate/curate.h"

namespace longread::pipeline {

DuplicateIndex::DuplicateIndex(storage::ArticleStore& articles) : articles_(articles) {
  enabled_ = load();
}

bool DuplicateIndex::load() {
  // The log's place first: an original logged between the two reads is then read twice (harmless), never
  // missed.
  auto head = articles_.near_duplicate_log_head();
  if (!head) {
    spdlog::warn("crawl: near-duplicate detection off: {}", head.error().message);
    return false;
  }
  auto loaded = articles_.simhash_index();
  if (!loaded) {
    spdlog::warn("crawl: near-duplicate detection off: {}", loaded.error().message);
    return false;
  }
  entries_.clear();
  removed_.clear();
  index_ = curate::SimhashIndex();
  for (const auto& entry : *loaded) remember(entry);
  log_read_ = *head;
  own_places_.reset();
  return true;
}

void DuplicateIndex::remember(const storage::SimhashEntry& entry) {
  index_.add(entry.simhash, static_cast<std::uint32_t>(entries_.size()));
  entries_.push_back(entry);
  removed_.push_back(false);
}

Result<void> DuplicateIndex::catch_up(storage::DuplicateDecision& decision) {
  auto logged = decision.originals_since(log_read_);
  if (!logged) return std::unexpected(logged.error());
  if (!logged->complete) {
    // Others logged more than the log keeps since this process last saved: what it missed is in the
    // articles themselves.
    spdlog::info("crawl: the near-duplicate log moved past this crawler's place; reading the whole index");
    if (!load()) return fail(ErrorKind::kStorage, "crawl: cannot read the near-duplicate index again");
    return {};
  }
  for (const auto& original : logged->originals) {
    if (own_places_ && original.seq >= own_places_->first && original.seq <= own_places_->second) continue;
    remember(original.entry);
  }
  log_read_ = logged->last_seq;
  // Everything up to the log's newest place is read, this process's own places included.
  own_places_.reset();
  return {};
}

Result<void> DuplicateIndex::decide(storage::DuplicateDecision& decision,
                                    std::span<const storage::CrawlRecord> records,
                                    std::span<const Result<storage::SaveStats>> results,
                                    Decision& out) const {
  out = Decision{};
  auto mark = [&](std::int64_t copy, std::int64_t original) {
    out.marks.emplace_back(copy, original);
    out.copies.insert(copy);
  };
  // A new original of an earlier record of this group.
  struct Pending {
    std::size_t record;
    std::int64_t id;
    std::uint64_t simhash;
    TimePoint date;
  };
  std::vector<Pending> pending;
  for (std::size_t r = 0; r < records.size(); ++r) {
    const storage::CrawlRecord& record = records[r];
    // A failed record stored nothing. The save tells each article's row and the rows it deleted (the blog's
    // cap), so the blog's rows need no read here.
    if (!results[r]) continue;
    const storage::SaveStats& saved = *results[r];
    out.deleted.insert(out.deleted.end(), saved.deleted_ids.begin(), saved.deleted_ids.end());
    const std::unordered_set<std::int64_t> deleted(saved.deleted_ids.begin(), saved.deleted_ids.end());
    for (std::size_t i = 0; i < record.articles.size(); ++i) {
      const model::Article& article = record.articles[i];
      if (article.simhash == 0 || article.junk) continue;
      const std::int64_t id = i < saved.ids.size() ? saved.ids[i] : article.id;
      if (id == 0) continue;
      const TimePoint date = article.display_date();
      // The stored originals, in the order learnt, as a scan of every entry would see them: the first of
      // equal dates wins.
      const storage::SimhashEntry* earliest = nullptr;
      for (const std::uint32_t slot : index_.near(article.simhash)) {
        const storage::SimhashEntry& entry = entries_[slot];
        if (removed_[slot] || entry.id == id || out.copies.contains(entry.id)) continue;
        // An article the save just deleted (the blog's cap); those earlier saves deleted are marked removed.
        if (deleted.contains(entry.id)) continue;
        if (earliest == nullptr || entry.date < earliest->date) earliest = &entry;
      }
      if (earliest != nullptr) {
        if (earliest->date <= date) {
          mark(id, earliest->id);
          continue;
        }
        mark(earliest->id, id);  // stored earlier, written later: a copy of this one
      }
      // The group's own new originals; within one record (one blog) copies are left alone, as they always
      // were.
      std::vector<std::size_t> matches;
      for (std::size_t k = 0; k < pending.size(); ++k) {
        if (pending[k].record != r && curate::near_duplicate(pending[k].simhash, article.simhash))
          matches.push_back(k);
      }
      const auto first = std::min_element(matches.begin(), matches.end(), [&](std::size_t x, std::size_t y) {
        return pending[x].date < pending[y].date;
      });
      if (first != matches.end() && pending[*first].date <= date) {
        mark(id, pending[*first].id);
        continue;
      }
      // Earlier than every match: they are all copies of this article and no longer originals.
      for (auto k = matches.rbegin(); k != matches.rend(); ++k) {
        mark(pending[*k].id, id);
        pending.erase(pending.begin() + static_cast<std::ptrdiff_t>(*k));
      }
      if (article.id == 0) pending.push_back({r, id, article.simhash, date});
    }
  }
  std::vector<std::int64_t> logged;
  logged.reserve(pending.size());
  for (const auto& p : pending) {
    out.originals.push_back(
        {.id = p.id, .blog_id = records[p.record].blog_id, .simhash = p.simhash, .date = p.date});
    logged.push_back(p.id);
  }
  auto first_place = decision.log_originals(logged);
  if (!first_place) return std::unexpected(first_place.error());
  out.first_place = *first_place;
  if (!out.marks.empty()) {
    if (auto marked = decision.mark_duplicates(out.marks); !marked) return marked;
  }
  return {};
}

void DuplicateIndex::apply(const Decision& decision) {
  // Copies are no longer originals, and rows the saves deleted are no longer anything.
  if (!decision.copies.empty() || !decision.deleted.empty()) {
    const std::unordered_set<std::int64_t> deleted(decision.deleted.begin(), decision.deleted.end());
    for (std::size_t i = 0; i < entries_.size(); ++i) {
      if (decision.copies.contains(entries_[i].id) || deleted.contains(entries_[i].id)) removed_[i] = true;
    }
  }
  for (const auto& original : decision.originals) remember(original);
  if (!decision.originals.empty()) {
    own_places_ = {decision.first_place,
                   decision.first_place + static_cast<std::int64_t>(decision.originals.size()) - 1};
  }
}

namespace {

// The new, non-junk articles of saved records that are not in `copies`, with the rows the saves gave them.
void collect_originals(std::span<const storage::CrawlRecord> records,
                       const std::vector<Result<storage::SaveStats>>& results,
                       const std::unordered_set<std::int64_t>& copies, std::vector<SavedOriginal>& out) {
  for (std::size_t r = 0; r < records.size(); ++r) {
    if (!results[r] || results[r]->inserted == 0) continue;
    const std::vector<std::int64_t>& ids = results[r]->ids;
    for (std::size_t a = 0; a < records[r].articles.size() && a < ids.size(); ++a) {
      const auto& article = records[r].articles[a];
      if (article.id != 0 || article.junk || copies.contains(ids[a])) continue;
      out.push_back({.record = r, .article = a, .id = ids[a]});
    }
  }
}

}  // namespace

std::vector<Result<storage::SaveStats>> DuplicateIndex::save_all(
    std::span<const storage::CrawlRecord> records, std::vector<SavedOriginal>* originals) {
  auto failed = [&](const Error& error) {
    return std::vector<Result<storage::SaveStats>>(records.size(), std::unexpected(error));
  };
  if (!enabled_) {
    auto saved = articles_.save_crawls(records);
    if (!saved) return failed(saved.error());
    if (originals != nullptr) collect_originals(records, *saved, {}, *originals);
    return std::move(*saved);
  }
  std::lock_guard lock(mutex_);
  // Made again if the store runs the transaction again (a deadlock with another process's save): only the
  // attempt that commits is applied.
  Decision decision;
  auto saved = articles_.save_crawls(
      records, [&](storage::DuplicateDecision& tx, std::span<const Result<storage::SaveStats>> results) {
        if (auto caught_up = catch_up(tx); !caught_up) return caught_up;
        return decide(tx, records, results, decision);
      });
  if (!saved) return failed(saved.error());
  apply(decision);
  if (originals != nullptr) collect_originals(records, *saved, decision.copies, *originals);
  return std::move(*saved);
}

}  // namespace longread::pipeline
