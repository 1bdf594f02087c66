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
  PageCache(std::chrono::seconds ttl, std::size_t max_entries) : ttl_(ttl), max_entries_(max_entries) {}

  [[nodiscard]] std::optional<web::Response> get(const std::string& key, std::int64_t version);
  // Stores a 200 response: moves its body into a shared buffer and gzips it once (for Accept-Encoding).
  void put(const std::string& key, std::int64_t version, web::Response& response);

 private:
  struct Entry {
    std::int64_t version = 0;
    std::chrono::steady_clock::time_point expires;
    web::Response response;
  };
  std::chrono::seconds ttl_;
  std::size_t max_entries_;
  std::mutex mutex_;
  std::unordered_map<std::string, Entry> entries_;
};

}  // namespace longread::ui
