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

  // A fresh entry of this version is a hit. An expired one is handed out stale to everyone except the one
  // caller chosen to re-render it (stale-while-revalidate, as RFC 5861 describes for HTTP caches), so a
  // page expiring under load costs one render instead of a stall of every connection asking for it.
  [[nodiscard]] std::optional<web::Response> get(const std::string& key, std::int64_t version);
  // Stores a 200 response for `ttl`: moves its body into a shared buffer and gzips it once (for
  // Accept-Encoding). A zero ttl stores nothing.
  void put(const std::string& key, std::int64_t version, std::chrono::milliseconds ttl,
           web::Response& response);

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
