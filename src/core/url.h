// URL helpers built on libcurl's URL API (curl_url), never a hand-written parser.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace longread {

// Resolves `ref` against `base` (RFC 3986). Returns nullopt when the result is not a valid URL.
std::optional<std::string> resolve_url(std::string_view base, std::string_view ref);
// Normalizes an absolute URL (lower-case scheme and host, default port dropped); nullopt if invalid.
std::optional<std::string> normalize_url(std::string_view url);
// True for absolute http:// and https:// URLs that parse.
bool is_http_url(std::string_view url);
// Lower-case host of an absolute URL, or empty.
std::string url_host(std::string_view url);
// Scheme of an absolute URL ("https"), or empty.
std::string url_scheme(std::string_view url);

// A host as it is compared: lower-case ASCII, one trailing dot dropped ("Example.COM." -> "example.com"),
// an IPv6 literal without its brackets ("[::1]" -> "::1").
std::string canonical_host(std::string_view host);
// The site a host belongs to: its registrable domain by the Public Suffix List, from libpsl's built-in
// copy ("www.example.co.uk" -> "example.co.uk", "alice.github.io" -> "alice.github.io"). An IP literal, or
// a name with no registrable part ("localhost", "com"), is its own site. Empty for an empty host.
std::string site_of_host(std::string_view host);

// An address as a person types it into "add a blog": surrounding blanks dropped; the feed: pseudo-scheme
// unwrapped ("feed://host/x" means http, "feed:https://host/x" the URL inside, as feed readers have read it
// since 2004); no scheme at all ("example.com/blog", "//example.com") gives https, which a caller may retry
// as http (`scheme_guessed`). nullopt unless the result is an http(s) URL.
struct TypedUrl {
  std::string url;
  bool scheme_guessed = false;
};
std::optional<TypedUrl> http_url_from_input(std::string_view input);

}  // namespace longread
