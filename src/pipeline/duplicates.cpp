#include "pipeline/duplicates.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <thread>
#include <unordered_map>
#include <unordered_set>

#include "core/time.h"
#include "curate/curate.h"
#include "pipeline/crawler.h"

namespace longread::pipeline {

namespace {

constexpr std::string_view kLockName = "near-duplicates";
// A group's decision and save take well under this; a holder killed with the lock blocks others this long.
constexpr auto kLockLease = std::chrono::minutes(2);
// Waits between tries, doubling from the first to the last: another crawler's save usually ends within
// tens of milliseconds, and every millisecond the lock lies free while this one sleeps is lost to both.
constexpr auto kFirstLockPoll = std::chrono::milliseconds(1);
constexpr auto kLastLockPoll = std::chrono::milliseconds(20);

}  // namespace

DuplicateIndex::DuplicateIndex(storage::ArticleStore& articles, storage::LockStore& locks, std::string owner)
    : articles_(articles), locks_(locks), owner_(owner.empty() ? parsing_owner() : std::move(owner)) {
  if (auto loaded = articles_.simhash_index(0)) {
    for (const auto& entry : *loaded) remember(entry);
  } else {
    enabled_ = false;
    spdlog::warn("crawl: near-duplicate detection off: {}", loaded.error().message);
  }
}

void DuplicateIndex::remember(const storage::SimhashEntry& entry) {
  index_.add(entry.simhash, static_cast<std::uint32_t>(entries_.size()));
  entries_.push_back(entry);
  removed_.push_back(false);
  newest_id_ = std::max(newest_id_, entry.id);
}

bool DuplicateIndex::lock_database() {
  // Waits at most one lease: by then a holder that died has lost the lock.
  const auto give_up = std::chrono::steady_clock::now() + kLockLease + std::chrono::seconds(5);
  auto poll = std::chrono::milliseconds(kFirstLockPoll);
  for (;;) {
    const TimePoint now = now_seconds();
    auto taken = locks_.try_lock(kLockName, owner_, now, now + kLockLease);
    if (!taken) {
      spdlog::warn("crawl: near-duplicate lock not taken, deciding alone: {}", taken.error().message);
      return false;
    }
    if (*taken) return true;
    if (std::chrono::steady_clock::now() >= give_up) {
      spdlog::warn("crawl: near-duplicate lock still held by another process, deciding alone");
      return false;
    }
    std::this_thread::sleep_for(poll);
    poll = std::min(poll * 2, std::chrono::milliseconds(kLastLockPoll));
  }
}

void DuplicateIndex::unlock_database() {
  if (auto released = locks_.unlock(kLockName, owner_); !released) {
    spdlog::warn("crawl: near-duplicate lock not given back (it lapses by itself): {}",
                 released.error().message);
  }
}

void DuplicateIndex::catch_up() {
  auto added = articles_.simhash_index(newest_id_);
  if (!added) {
    spdlog::warn("crawl: cannot read the articles other crawlers stored: {}", added.error().message);
    return;
  }
  for (const auto& entry : *added) remember(entry);
}

DuplicateIndex::LaterCopies DuplicateIndex::mark_copies(storage::CrawlRecord& record) const {
  LaterCopies later_copies;
  for (auto& article : record.articles) {
    if (article.simhash == 0 || article.junk) continue;
    const storage::SimhashEntry* earliest = nullptr;
    // In the order learnt, as a scan of every entry would see them: the first of equal dates wins.
    for (const std::uint32_t slot : index_.near(article.simhash)) {
      const storage::SimhashEntry& entry = entries_[slot];
      // article.id is set for an update: an article is never a copy of itself.
      if (removed_[slot] || entry.id == article.id) continue;
      if (earliest == nullptr || entry.date < earliest->date) earliest = &entry;
    }
    if (earliest == nullptr) continue;
    if (earliest->date <= article.display_date()) {
      article.junk = true;
      article.duplicate_of = earliest->id;
      article.junk_reason = fmt::format("duplicate of article {}", earliest->id);
    } else {
      later_copies.emplace_back(article.guid, earliest->id);
    }
  }
  return later_copies;
}

// (article id, original id) pairs for Store::mark_duplicates.
using Marks = std::vector<std::pair<std::int64_t, std::int64_t>>;

std::unordered_map<std::string, std::int64_t> DuplicateIndex::index_saved(const storage::CrawlRecord& record,
                                                                          const LaterCopies& later_copies,
                                                                          Marks& marks) {
  std::unordered_map<std::string, std::int64_t> ids;  // new articles' ids, known only after the save
  // Most records of an hourly crawl carry no new or changed article (304, unchanged feed, failure):
  // nothing to index, and no need to read back every key of the blog.
  if (record.articles.empty() && later_copies.empty()) return ids;
  if (auto keys = articles_.article_keys(record.blog_id)) {
    for (const auto& key : *keys) ids.emplace(key.guid, key.id);
  }
  for (const auto& article : record.articles) {
    if (article.simhash == 0 || article.junk || article.id != 0) continue;
    const auto id = ids.find(article.guid);
    if (id == ids.end()) continue;
    remember({.id = id->second,
              .blog_id = record.blog_id,
              .simhash = article.simhash,
              .date = article.display_date()});
  }
  for (const auto& [guid, copy_id] : later_copies) {
    if (const auto id = ids.find(guid); id != ids.end()) marks.emplace_back(copy_id, id->second);
  }
  return ids;
}

namespace {

// The new, non-junk articles of saved records whose ids are in `ids` and that are not in `copies`.
void collect_originals(std::span<const storage::CrawlRecord> records,
                       const std::vector<Result<storage::SaveStats>>& results,
                       const std::vector<std::unordered_map<std::string, std::int64_t>>& ids,
                       const std::unordered_set<std::int64_t>& copies, std::vector<SavedOriginal>& out) {
  for (std::size_t r = 0; r < records.size(); ++r) {
    if (!results[r] || results[r]->inserted == 0) continue;
    for (std::size_t a = 0; a < records[r].articles.size(); ++a) {
      const auto& article = records[r].articles[a];
      if (article.id != 0 || article.junk) continue;
      const auto id = ids[r].find(article.guid);
      if (id == ids[r].end() || copies.contains(id->second)) continue;
      out.push_back({.record = r, .article = a, .id = id->second});
    }
  }
}

}  // namespace

std::vector<Result<storage::SaveStats>> DuplicateIndex::save_all(std::span<storage::CrawlRecord> records,
                                                                 std::vector<SavedOriginal>* originals) {
  auto save_group = [&]() {
    auto saved = articles_.save_crawls(records);
    if (saved) return std::move(*saved);
    return std::vector<Result<storage::SaveStats>>(records.size(), std::unexpected(saved.error()));
  };
  if (!enabled_) {
    auto results = save_group();
    if (originals == nullptr) return results;
    std::vector<std::unordered_map<std::string, std::int64_t>> ids(records.size());
    for (std::size_t r = 0; r < records.size(); ++r) {
      if (!results[r] || results[r]->inserted == 0) continue;
      if (auto keys = articles_.article_keys(records[r].blog_id)) {
        for (const auto& key : *keys) ids[r].emplace(key.guid, key.id);
      }
    }
    collect_originals(records, results, ids, {}, *originals);
    return results;
  }
  std::lock_guard lock(mutex_);
  // Another crawler process may be deciding and saving at the same time: one at a time, each starting
  // from everything the others stored.
  const bool locked = lock_database();
  catch_up();

  // A new original of an earlier record of this group, not yet stored.
  struct Pending {
    std::size_t record;
    std::string guid;
    std::uint64_t simhash;
    TimePoint date;
  };
  // A copy found within the group, marked once both sides have ids.
  struct GroupCopy {
    std::size_t copy_record;
    std::string copy_guid;
    std::size_t original_record;
    std::string original_guid;
  };
  std::vector<Pending> pending;
  std::vector<GroupCopy> group_copies;
  std::vector<LaterCopies> later_copies;
  later_copies.reserve(records.size());
  for (std::size_t r = 0; r < records.size(); ++r) {
    later_copies.push_back(mark_copies(records[r]));
    for (const auto& article : records[r].articles) {
      if (article.simhash == 0 || article.junk) continue;
      // Within one record (one blog) copies are left alone, as they always were.
      std::vector<std::size_t> matches;
      for (std::size_t k = 0; k < pending.size(); ++k) {
        if (pending[k].record != r && curate::near_duplicate(pending[k].simhash, article.simhash))
          matches.push_back(k);
      }
      const auto earliest =
          std::min_element(matches.begin(), matches.end(),
                           [&](std::size_t x, std::size_t y) { return pending[x].date < pending[y].date; });
      if (earliest != matches.end() && pending[*earliest].date <= article.display_date()) {
        group_copies.push_back({r, article.guid, pending[*earliest].record, pending[*earliest].guid});
        continue;
      }
      // Earlier than every match: they are all copies of this article and no longer originals.
      for (auto k = matches.rbegin(); k != matches.rend(); ++k) {
        group_copies.push_back({pending[*k].record, pending[*k].guid, r, article.guid});
        pending.erase(pending.begin() + static_cast<std::ptrdiff_t>(*k));
      }
      if (article.id == 0) pending.push_back({r, article.guid, article.simhash, article.display_date()});
    }
  }

  auto results = save_group();
  // Every mark of the group (stored copies found later than a new article, copies within the group) in
  // one transaction: in a first crawl of many blogs there can be dozens.
  Marks marks;
  std::vector<std::unordered_map<std::string, std::int64_t>> ids(records.size());
  for (std::size_t r = 0; r < records.size(); ++r) {
    if (results[r]) ids[r] = index_saved(records[r], later_copies[r], marks);
  }
  for (const auto& copy : group_copies) {
    const auto copy_id = ids[copy.copy_record].find(copy.copy_guid);
    const auto original_id = ids[copy.original_record].find(copy.original_guid);
    if (copy_id == ids[copy.copy_record].end() || original_id == ids[copy.original_record].end()) continue;
    marks.emplace_back(copy_id->second, original_id->second);
  }
  std::unordered_set<std::int64_t> copies;  // a duplicate is never the original of another
  for (const auto& mark : marks) copies.insert(mark.first);
  if (!marks.empty()) {
    if (auto marked = articles_.mark_duplicates(marks); !marked) {
      spdlog::warn("crawl: cannot mark {} duplicates: {}", marks.size(), marked.error().message);
    } else {
      for (std::size_t i = 0; i < entries_.size(); ++i) {
        if (copies.contains(entries_[i].id)) removed_[i] = true;
      }
    }
  }
  if (locked) unlock_database();
  if (originals != nullptr) collect_originals(records, results, ids, copies, *originals);
  return results;
}

}  // namespace longread::pipeline
