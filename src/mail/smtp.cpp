#include "mail/smtp.h"

#include <curl/curl.h>
#include <fmt/format.h>

#include <cstring>
#include <memory>

#include "mail/message.h"

namespace longread::mail {
namespace {

struct CurlDeleter {
  void operator()(CURL* curl) const noexcept { curl_easy_cleanup(curl); }
};
struct SlistDeleter {
  void operator()(curl_slist* list) const noexcept { curl_slist_free_all(list); }
};
using CurlPtr = std::unique_ptr<CURL, CurlDeleter>;
using SlistPtr = std::unique_ptr<curl_slist, SlistDeleter>;

struct Upload {
  std::string_view data;
  std::size_t offset = 0;
};

std::size_t read_upload(char* buffer, std::size_t size, std::size_t count, void* user) {
  auto* upload = static_cast<Upload*>(user);
  const std::size_t n = std::min(size * count, upload->data.size() - upload->offset);
  std::memcpy(buffer, upload->data.data() + upload->offset, n);
  upload->offset += n;
  return n;
}

}  // namespace

SendOutcome SmtpSender::send(std::string_view recipient, std::string_view message) const {
  CurlPtr curl(curl_easy_init());
  if (!curl) return {SendOutcome::Kind::kTemporary, 0, "mail: curl_easy_init failed"};
  const std::string to = "<" + std::string(recipient) + ">";
  SlistPtr recipients(curl_slist_append(nullptr, to.c_str()));
  const std::string from = "<" + bare_address(options_.from) + ">";
  Upload upload{message, 0};
  char error[CURL_ERROR_SIZE] = {0};

  CURL* h = curl.get();
  curl_easy_setopt(h, CURLOPT_URL, options_.url.c_str());
  curl_easy_setopt(h, CURLOPT_MAIL_FROM, from.c_str());
  curl_easy_setopt(h, CURLOPT_MAIL_RCPT, recipients.get());
  curl_easy_setopt(h, CURLOPT_READFUNCTION, read_upload);
  curl_easy_setopt(h, CURLOPT_READDATA, &upload);
  curl_easy_setopt(h, CURLOPT_UPLOAD, 1L);
  curl_easy_setopt(h, CURLOPT_INFILESIZE_LARGE, static_cast<curl_off_t>(message.size()));
  curl_easy_setopt(h, CURLOPT_ERRORBUFFER, error);
  curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(h, CURLOPT_TIMEOUT, static_cast<long>(options_.timeout.count()));
  curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT, 10L);
  if (options_.starttls) curl_easy_setopt(h, CURLOPT_USE_SSL, static_cast<long>(CURLUSESSL_ALL));
  if (!options_.verify_tls) {
    curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, 0L);
    curl_easy_setopt(h, CURLOPT_SSL_VERIFYHOST, 0L);
  }
  if (!options_.username.empty()) {
    curl_easy_setopt(h, CURLOPT_USERNAME, options_.username.c_str());
    curl_easy_setopt(h, CURLOPT_PASSWORD, options_.password.c_str());
  }
  const CURLcode code = curl_easy_perform(h);
  long reply = 0;
  curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &reply);
  if (code == CURLE_OK) return {SendOutcome::Kind::kSent, reply, ""};
  const std::string detail =
      fmt::format("mail: {} (SMTP reply {})", error[0] != '\0' ? error : curl_easy_strerror(code), reply);
  if (reply >= 500 && reply < 600) return {SendOutcome::Kind::kPermanent, reply, detail};
  return {SendOutcome::Kind::kTemporary, reply, detail};
}

}  // namespace longread::mail
