#include "ui/page_cache.h"

#include "web/gzip.h"

namespace longread::ui {

std::optional<web::Response> PageCache::get(const std::string& key, std::int64_t version) {
  std::lock_guard lock(mutex_);
  const auto it = entries_.find(key);
  if (it == entries_.end()) return std::nullopt;
  if (it->second.version != version || std::chrono::steady_clock::now() >= it->second.expires) {
    entries_.erase(it);
    return std::nullopt;
  }
  return it->second.response;
}

void PageCache::put(const std::string& key, std::int64_t version, web::Response& response) {
  if (response.status != 200 || max_entries_ == 0) return;
  if (!response.shared_body) {
    response.shared_body = std::make_shared<const std::string>(std::move(response.body));
    response.body.clear();
  }
  if (!response.gzip_body) {
    if (auto gz = web::gzip_compress(*response.shared_body)) {
      response.gzip_body = std::make_shared<const std::string>(std::move(*gz));
    }
  }
  std::lock_guard lock(mutex_);
  // Crude but bounded: when full, start over (the hot pages refill within a request each).
  if (entries_.size() >= max_entries_) entries_.clear();
  entries_[key] = Entry{version, std::chrono::steady_clock::now() + ttl_, response};
}

}  // namespace longread::ui
