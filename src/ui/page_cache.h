// Rendered pages kept in memory, keyed by request target and valid for one Store::data_version() and a
// short time (relative ages age). A hit costs a map lookup and shares the body instead of copying it.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "core/error.h"
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
  // A fresh entry of this version, or nullopt; unlike get, never hands out a stale page nor chooses the
  // caller to re-render one.
  [[nodiscard]] std::optional<web::Response> fresh(const std::string& key, std::int64_t version);
  // Runs `render` (which stores its page with put, or drops it with forget) unless another thread is already
  // rendering `key`: then waits for that render (at most 5 s) and answers with the page it stored, when it
  // stored one for this version, else renders too. A page nobody has asked for yet, asked for by every
  // connection at once (a new search, or any page when the site starts), is then rendered once instead of
  // once by each.
  Result<web::Response> render_once(const std::string& key, std::int64_t version,
                                    const std::function<Result<web::Response>()>& render);
  // How many render_once calls are waiting for another's render of `key` (for tests and metrics).
  [[nodiscard]] int waiting_for(const std::string& key);
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
  struct Render {
    bool done = false;
    int waiting = 0;
  };
  // Keys being rendered by render_once.
  std::unordered_map<std::string, std::shared_ptr<Render>> renders_;
  std::condition_variable rendered_;
  [[nodiscard]] std::optional<web::Response> fresh_locked(const std::string& key, std::int64_t version) const;
};

}  // namespace longread::ui
