#include "core/url.h"

#include "core/strings.h"

#include <arpa/inet.h>
#include <curl/curl.h>
#include <libpsl.h>

#include <cctype>
#include <memory>

namespace longread {
namespace {
struct UrlDeleter {
  void operator()(CURLU* u) const noexcept { curl_url_cleanup(u); }
};
using UrlHandle = std::unique_ptr<CURLU, UrlDeleter>;

struct CurlString {
  char* p = nullptr;
  ~CurlString() { curl_free(p); }
};

std::optional<std::string> get_part(CURLU* u, CURLUPart part, unsigned flags = 0) {
  CurlString s;
  if (curl_url_get(u, part, &s.p, flags) != CURLUE_OK || s.p == nullptr) return std::nullopt;
  return std::string(s.p);
}

UrlHandle parse_absolute(std::string_view url);

// The whole URL, when libcurl can read back what it wrote. It accepts a few inputs it then writes as URLs it
// rejects ("file:///" -> "file://(nil)", "file:A\xfa" -> "file://A\xfa"); those are not valid URLs to hand
// out, and a key that does not parse back would not be stable.
// libcurl also keeps a host's raw bytes as given, so a base URL with a stray byte in its host would hand out
// URLs that are not UTF-8 (found by fuzz/discover_fuzz.cpp): those are refused too.
std::optional<std::string> whole_url(CURLU* u, unsigned flags = 0) {
  auto url = get_part(u, CURLUPART_URL, flags);
  if (!url || !is_valid_utf8(*url) || !parse_absolute(*url)) return std::nullopt;
  return url;
}

UrlHandle parse_absolute(std::string_view url) {
  UrlHandle u(curl_url());
  if (!u) return nullptr;
  const std::string copy(url);
  if (curl_url_set(u.get(), CURLUPART_URL, copy.c_str(), CURLU_NON_SUPPORT_SCHEME) != CURLUE_OK)
    return nullptr;
  return u;
}
}  // namespace

std::optional<std::string> resolve_url(std::string_view base, std::string_view ref) {
  const std::string r(ref);
  if (base.empty()) {
    auto u = parse_absolute(ref);
    if (!u) return std::nullopt;
    return whole_url(u.get());
  }
  auto u = parse_absolute(base);
  if (!u) {
    auto abs = parse_absolute(ref);
    if (!abs) return std::nullopt;
    return whole_url(abs.get());
  }
  // Setting a relative URL on a handle holding an absolute one resolves it (RFC 3986 section 5).
  if (curl_url_set(u.get(), CURLUPART_URL, r.c_str(), CURLU_NON_SUPPORT_SCHEME | CURLU_URLENCODE) !=
      CURLUE_OK)
    return std::nullopt;
  return whole_url(u.get());
}

std::optional<std::string> normalize_url(std::string_view url) {
  auto u = parse_absolute(url);
  if (!u) return std::nullopt;
  // Host names are case-insensitive (RFC 3986 section 6.2.2.1); libcurl keeps the case given.
  if (auto host = get_part(u.get(), CURLUPART_HOST)) {
    for (auto& c : *host)
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    curl_url_set(u.get(), CURLUPART_HOST, host->c_str(), 0);
  }
  return whole_url(u.get(), CURLU_NO_DEFAULT_PORT);
}

bool is_http_url(std::string_view url) {
  if (!is_valid_utf8(url)) return false;  // libcurl would accept raw non-UTF-8 bytes in a host
  const auto scheme = url_scheme(url);
  return (scheme == "http" || scheme == "https") && !url_host(url).empty();
}

std::string url_host(std::string_view url) {
  auto u = parse_absolute(url);
  if (!u) return {};
  auto host = get_part(u.get(), CURLUPART_HOST);
  if (!host) return {};
  for (auto& c : *host)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return *host;
}

std::string canonical_host(std::string_view host) {
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  // A fully qualified name ends in the root's empty label (RFC 1034 3.1): "example.com." is example.com.
  if (host.size() > 1 && host.back() == '.') host.remove_suffix(1);
  std::string out(host);
  for (auto& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

std::string site_of_host(std::string_view host) {
  std::string name = canonical_host(host);
  if (name.empty()) return name;
  // An address names one machine: the Public Suffix List has nothing to say about it (and would call
  // 127.0.0.1's "site" 0.1).
  unsigned char address[16];
  if (inet_pton(AF_INET, name.c_str(), address) == 1 || inet_pton(AF_INET6, name.c_str(), address) == 1)
    return name;
  // psl_builtin: the list compiled into Debian's libpsl, read-only and shared, so nothing is loaded per call
  // and every thread may use it.
  const char* domain = psl_registrable_domain(psl_builtin(), name.c_str());
  if (domain == nullptr) return name;
  return std::string(domain);
}

std::string url_scheme(std::string_view url) {
  auto u = parse_absolute(url);
  if (!u) return {};
  return get_part(u.get(), CURLUPART_SCHEME).value_or("");
}

std::optional<TypedUrl> http_url_from_input(std::string_view input) {
  std::string text(trim(input));
  bool guessed = false;
  if (text.size() >= 5 && iequals(std::string_view(text).substr(0, 5), "feed:")) {
    text.erase(0, 5);
    // "feed://host/x" is the http URL; "feed:https://host/x" (or "feed:http:...") wraps a whole URL.
    if (text.starts_with("//")) text.insert(0, "http:");
  } else if (text.starts_with("//")) {
    text.insert(0, "https:");
    guessed = true;
  }
  // "name:" followed by anything but a port number names a scheme (RFC 3986 section 3.1): "mailto:a@b" is
  // not the https URL libcurl would make of it (user "mailto" at host b).
  const auto colon = text.find(':');
  if (colon != std::string::npos && colon > 0 && std::isalpha(static_cast<unsigned char>(text[0])) &&
      text.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+.-") == colon &&
      (colon + 1 == text.size() || !std::isdigit(static_cast<unsigned char>(text[colon + 1]))) &&
      !text.substr(colon + 1).starts_with("//")) {
    return std::nullopt;
  }
  UrlHandle u(curl_url());
  if (!u) return std::nullopt;
  // With CURLU_DEFAULT_SCHEME a URL with no "scheme:/" gets https (curl_url_set(3)); "localhost:8080/x" is a
  // host and a port, not the scheme "localhost".
  if (curl_url_set(u.get(), CURLUPART_URL, text.c_str(), CURLU_DEFAULT_SCHEME | CURLU_NON_SUPPORT_SCHEME) !=
      CURLUE_OK)
    return std::nullopt;
  auto url = whole_url(u.get());
  if (!url || !is_http_url(*url)) return std::nullopt;
  const std::string scheme = url_scheme(*url) + ":";
  if (!guessed)
    guessed =
        text.size() < scheme.size() || !iequals(std::string_view(text).substr(0, scheme.size()), scheme);
  return TypedUrl{std::move(*url), guessed};
}

}  // namespace longread
