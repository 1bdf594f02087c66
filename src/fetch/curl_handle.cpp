#include "fetch/curl_handle.h"

#include <stdexcept>
#include <string>

namespace longread::fetch {

namespace {

// Owns libcurl's process-wide state; constructed once, on first use, by ensure_curl_global_init.
class CurlGlobal {
 public:
  CurlGlobal() {
    if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
      throw std::runtime_error("fetch: curl_global_init failed");  // start-up failure, not expected
    }
  }
  ~CurlGlobal() { curl_global_cleanup(); }
  CurlGlobal(const CurlGlobal&) = delete;
  CurlGlobal& operator=(const CurlGlobal&) = delete;
};

}  // namespace

void ensure_curl_global_init() {
  static const CurlGlobal global;  // C++11 guarantees one thread-safe initialisation
  (void)global;
}

bool HeaderList::append(std::string_view line) {
  const std::string text(line);
  curl_slist* grown = curl_slist_append(list_.get(), text.c_str());
  if (grown == nullptr) return false;  // the old list is intact and still owned
  (void)list_.release();               // curl_slist_append returns the same head once a list exists
  list_.reset(grown);
  return true;
}

}  // namespace longread::fetch
