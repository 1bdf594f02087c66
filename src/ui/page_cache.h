// Rendered pages kept in memory, keyed by request target and valid for one Store::data_version() and a
// short time (relative ages age). A hit costs a map lookup and shares the body instead of copying it.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "web/http.h"

namespace longread::ui {

class PageCache {
 public:
  explicit PageCache(std::size_t max_entries) : max_entries_(max_entries) {}

  // A fresh entry of this version is a hit. An expired one, or one of an older data version, is handed out
  // stale to everyone except the one caller chosen to re-render it (stale-while-revalidate, as RFC 5861
  // describes for HTTP caches): a page expiring under load, or a database that crawlers write to many times
  // a second, costs one render at a time instead of a render by every connection asking for it (a search on
  // a large site is tens of milliseconds of database time). The chosen caller itself always renders, so a
  // client asking again after a change sees it; a re-render that never comes back is retried after a few
  // seconds.
  [[nodiscard]] std::optional<web::Response> get(const std::string& key, std::int64_t version);
  // Stores a 200 response for `ttl`: moves its body into a shared buffer and gzips it once (for
  // Accept-Encoding). Anything else (another status, a zero ttl) stores nothing and drops the key's entry,
  // so a page that is now an error or gone is not served stale.
  void put(const std::string& key, std::int64_t version, std::chrono::milliseconds ttl,
           web::Response& response);
  // Drops the key's entry: its re-render answered something that must not be cached (a cookie, a private
  // page, an error), so the stale copy must not be served in its place.
  void forget(const std::string& key);

 private:
  struct Entry {
    std::int64_t version = 0;
    std::chrono::steady_clock::time_point expires;
    std::chrono::steady_clock::time_point refresh_started{};  // zero: nobody is re-rendering it
    web::Response response;
  };
  std::size_t max_entries_;
  std::mutex mutex_;
  std::unordered_map<std::string, Entry> entries_;
};

}  // namespace longread::ui
