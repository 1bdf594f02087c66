#include "pipeline/duplicates.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <unordered_map>

#include "curate/curate.h"

namespace longread::pipeline {

DuplicateIndex::DuplicateIndex(storage::Store& store) : store_(store) {
  if (auto loaded = store_.simhash_index()) {
    entries_ = std::move(*loaded);
  } else {
    enabled_ = false;
    spdlog::warn("crawl: near-duplicate detection off: {}", loaded.error().message);
  }
}

DuplicateIndex::LaterCopies DuplicateIndex::mark_copies(storage::CrawlRecord& record) const {
  LaterCopies later_copies;
  for (auto& article : record.articles) {
    if (article.simhash == 0 || article.junk) continue;
    const storage::SimhashEntry* earliest = nullptr;
    for (const auto& entry : entries_) {
      // article.id is set for an update: an article is never a copy of itself.
      if (entry.id == article.id || !curate::near_duplicate(entry.simhash, article.simhash)) continue;
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

void DuplicateIndex::index_saved(const storage::CrawlRecord& record, const LaterCopies& later_copies) {
  std::unordered_map<std::string, std::int64_t> ids;  // new articles' ids, known only after the save
  if (auto keys = store_.article_keys(record.blog_id)) {
    for (const auto& key : *keys) ids.emplace(key.guid, key.id);
  }
  for (const auto& article : record.articles) {
    if (article.simhash == 0 || article.junk || article.id != 0) continue;
    const auto id = ids.find(article.guid);
    if (id == ids.end()) continue;
    entries_.push_back({.id = id->second,
                        .blog_id = record.blog_id,
                        .simhash = article.simhash,
                        .date = article.display_date()});
  }
  for (const auto& [guid, copy_id] : later_copies) {
    const auto id = ids.find(guid);
    if (id == ids.end()) continue;
    if (auto marked = store_.mark_duplicate(copy_id, id->second); !marked) {
      spdlog::warn("crawl: cannot mark article_id={} duplicate: {}", copy_id, marked.error().message);
      continue;
    }
    std::erase_if(entries_, [copy_id](const storage::SimhashEntry& e) { return e.id == copy_id; });
  }
}

Result<storage::SaveStats> DuplicateIndex::save(storage::CrawlRecord& record) {
  if (!enabled_) return store_.save_crawl(record);
  std::lock_guard lock(mutex_);
  const auto later_copies = mark_copies(record);
  auto saved = store_.save_crawl(record);  // one transaction; the store serialises writers
  if (saved) index_saved(record, later_copies);
  return saved;
}

}  // namespace longread::pipeline
