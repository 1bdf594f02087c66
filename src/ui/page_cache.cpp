#include "ui/page_cache.h"

#include "web/gzip.h"

namespace longread::ui {

std::optional<web::Response> PageCache::get(const std::string& key, std::int64_t version) {
  std::lock_guard lock(mutex_);
  const auto it = entries_.find(key);
  if (it == entries_.end()) return std::nullopt;
  Entry& entry = it->second;
  const auto now = std::chrono::steady_clock::now();
  if (entry.version == version && now < entry.expires) return entry.response;
  // Older data or expired: one caller re-renders (and put() replaces the entry, or forget() drops it); the
  // others get the stale page. A re-render that never came back is retried after a few seconds.
  if (entry.refresh_started == std::chrono::steady_clock::time_point{} ||
      now - entry.refresh_started > std::chrono::seconds(5)) {
    entry.refresh_started = now;
    return std::nullopt;
  }
  return entry.response;
}

void PageCache::put(const std::string& key, std::int64_t version, std::chrono::milliseconds ttl,
                    web::Response& response) {
  if (response.status != 200 || max_entries_ == 0 || ttl.count() <= 0) {
    forget(key);
    return;
  }
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
  entries_[key] = Entry{version, std::chrono::steady_clock::now() + ttl, {}, response};
}

std::optional<web::Response> PageCache::fresh_locked(const std::string& key, std::int64_t version) const {
  const auto it = entries_.find(key);
  if (it == entries_.end() || it->second.version != version ||
      std::chrono::steady_clock::now() >= it->second.expires) {
    return std::nullopt;
  }
  return it->second.response;
}

std::optional<web::Response> PageCache::fresh(const std::string& key, std::int64_t version) {
  std::lock_guard lock(mutex_);
  return fresh_locked(key, version);
}

Result<web::Response> PageCache::render_once(const std::string& key, std::int64_t version,
                                             const std::function<Result<web::Response>()>& render) {
  std::shared_ptr<Render> mine;
  {
    std::unique_lock lock(mutex_);
    const auto [it, first] = renders_.try_emplace(key);
    if (!first) {
      const std::shared_ptr<Render> other = it->second;
      ++other->waiting;
      rendered_.wait_for(lock, std::chrono::seconds(5), [&other] { return other->done; });
      --other->waiting;
      if (auto page = fresh_locked(key, version)) return std::move(*page);
      lock.unlock();
      return render();  // the other render stored nothing of this version (an error, a newer change)
    }
    mine = it->second = std::make_shared<Render>();
  }
  // Ends this render for the waiters even when `render` throws.
  const auto finish = [this, &key, &mine] {
    {
      std::lock_guard lock(mutex_);
      mine->done = true;
      const auto it = renders_.find(key);
      if (it != renders_.end() && it->second == mine) renders_.erase(it);
    }
    rendered_.notify_all();
  };
  try {
    auto result = render();
    finish();
    return result;
  } catch (...) {
    finish();
    throw;
  }
}

int PageCache::waiting_for(const std::string& key) {
  std::lock_guard lock(mutex_);
  const auto it = renders_.find(key);
  return it == renders_.end() ? 0 : it->second->waiting;
}

void PageCache::forget(const std::string& key) {
  std::lock_guard lock(mutex_);
  entries_.erase(key);
}

}  // namespace longread::ui
