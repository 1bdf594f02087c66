// Move-only owners of libcurl's C handles (as newsboat include/curlhandle.h does): a handle is freed
// exactly once, on every path. Internal to the fetch stage.
#pragma once

#include <curl/curl.h>

#include <memory>
#include <string_view>

namespace longread::fetch {

// curl_global_init is not to be raced with other libcurl setup; a function-local static runs it once,
// thread-safely, before the first handle is made, and cleans up at exit.
void ensure_curl_global_init();

struct EasyDeleter {
  void operator()(CURL* easy) const noexcept { curl_easy_cleanup(easy); }
};
struct MultiDeleter {
  void operator()(CURLM* multi) const noexcept { curl_multi_cleanup(multi); }
};
struct SlistDeleter {
  void operator()(curl_slist* list) const noexcept { curl_slist_free_all(list); }
};
struct UrlDeleter {
  void operator()(CURLU* url) const noexcept { curl_url_cleanup(url); }
};

// One transfer's easy handle.
using EasyHandle = std::unique_ptr<CURL, EasyDeleter>;
// A multi handle; easy handles must be removed from it before they are freed.
using MultiHandle = std::unique_ptr<CURLM, MultiDeleter>;
using UrlHandle = std::unique_ptr<CURLU, UrlDeleter>;

// A header list (curl_slist) that grows by append and is freed once.
class HeaderList {
 public:
  HeaderList() = default;
  // Returns false when libcurl could not allocate.
  bool append(std::string_view line);
  [[nodiscard]] curl_slist* get() const noexcept { return list_.get(); }

 private:
  std::unique_ptr<curl_slist, SlistDeleter> list_;
};

}  // namespace longread::fetch
