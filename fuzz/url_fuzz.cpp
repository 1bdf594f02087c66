// Harness: the URL helpers of core/url.h on hostile URLs (feed links, xml:base, hrefs of pages). Input: base
// and reference separated by '\n'. Checks: a URL is_http_url only when its scheme is http(s) and it has a
// host; normalize_url keeps http(s) URLs http(s) and is idempotent on them; whatever resolve_url returns is
// itself a valid absolute URL (an http(s) one normalises); url_host is lower case; http_url_from_input (what
// `blogs add` reads) gives only http(s) URLs that normalise, and the same URL when given its own output.
#include <string>

#include "core/url.h"
#include "fuzz/fuzz_support.h"

namespace longread::fuzz {
namespace {

void check_url(std::string_view url) {
  const std::string scheme = url_scheme(url);
  const std::string host = url_host(url);
  for (const char c : host) require(!(c >= 'A' && c <= 'Z'));
  if (is_http_url(url)) {
    require(scheme == "http" || scheme == "https");
    require(!host.empty());
  }
  const auto normal = normalize_url(url);
  if (!normal || !is_http_url(url)) return;
  // Idempotence is checked for http(s) only: libcurl 7.88 writes a file URL with an empty host and the root
  // path as "file:///" from one parse and "file://(nil)" (refused) from another.
  require(is_http_url(*normal));
  require(normalize_url(*normal) == normal);
}

}  // namespace

int url_harness(const std::uint8_t* data, std::size_t size) {
  FuzzInput in(data, size);
  const std::string_view base = in.field();
  const std::string_view ref = in.rest();
  check_url(base);
  check_url(ref);
  if (const auto resolved = resolve_url(base, ref)) {
    // libcurl 7.88 writes a parsed "file:///" back as "file://(nil)", so normalize_url refuses that one; a
    // resolved http(s) URL must always normalise.
    if (is_http_url(*resolved)) require(normalize_url(*resolved).has_value());
    check_url(*resolved);
  }
  for (const std::string_view typed : {base, ref}) {
    const auto url = http_url_from_input(typed);
    if (!url) continue;
    require(is_http_url(url->url));
    require(normalize_url(url->url).has_value());
    const auto again = http_url_from_input(url->url);
    require(again && again->url == url->url && !again->scheme_guessed);
  }
  return 0;
}

}  // namespace longread::fuzz

LONGREAD_FUZZ_ENTRY(longread::fuzz::url_harness)
