// The small request/response model that page handlers see. It carries no Beast or Asio types, so src/ui and
// the tests include it without paying for those headers; only src/web/*.cpp converts to and from Beast.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/error.h"

namespace longread::web {

// Name/value pairs kept in arrival order; lookups compare names case-insensitively (RFC 9110 section 5.1).
using Fields = std::vector<std::pair<std::string, std::string>>;

// An HTTP request as a handler sees it: the target split into a decoded path and query parameters.
struct Request {
  std::string method;   // "GET", "POST", ... (HEAD is answered as GET without a body by the server)
  std::string target;   // as received: "/search?q=lock+free"
  std::string path;     // percent-decoded path: "/search"
  std::string query;    // raw query string after '?', "" when absent
  Fields query_params;  // decoded ('+' is a space, as in HTML form submissions)
  Fields headers;
  Fields cookies;
  std::string body;
  std::string remote_address;  // peer IP, for logs and rate limits

  // First value of a header / query parameter / cookie, if present.
  [[nodiscard]] std::optional<std::string_view> header(std::string_view name) const;
  [[nodiscard]] std::optional<std::string_view> param(std::string_view name) const;
  [[nodiscard]] std::optional<std::string_view> cookie(std::string_view name) const;

  // Builds a request from a method and a raw target, parsing path, query and (given headers) cookies.
  // Returns kInvalidInput for a target that is not an origin-form path (RFC 9112 section 3.2.1).
  static Result<Request> from_target(std::string method, std::string target, Fields headers = {},
                                     std::string body = {});
};

// An HTTP response. The body is either owned (`body`) or shared with a cache (`shared_body`), so a cached
// page is served without copying it; `gzip_body`, when set, is the same payload already gzip-compressed.
struct Response {
  int status = 200;
  std::string content_type = "text/html; charset=utf-8";
  Fields headers;  // extra headers: Location, Cache-Control, ETag, Vary, ...
  std::string body;
  std::shared_ptr<const std::string> shared_body;
  std::shared_ptr<const std::string> gzip_body;

  [[nodiscard]] std::string_view payload() const {
    return shared_body ? std::string_view(*shared_body) : std::string_view(body);
  }
  [[nodiscard]] std::optional<std::string_view> header(std::string_view name) const;
  // Replaces (or adds) a header.
  void set_header(std::string_view name, std::string value);
  void remove_header(std::string_view name);

  static Response text(int status, std::string body, std::string content_type = "text/plain; charset=utf-8");
  static Response redirect(int status, std::string location);
};

// An application: maps a request to a response or to an error that web/ turns into a status.
using App = std::function<Result<Response>(const Request&)>;
// Renders the page shown for an error status (the site's 404 page, ...). `message` is safe to show.
using ErrorPageRenderer = std::function<Response(int status, std::string_view message)>;

// Percent-decodes `s` (with '+' as a space when `plus_is_space`), via libcurl's unescape.
std::string url_decode(std::string_view s, bool plus_is_space);
// Percent-encodes a query component (RFC 3986 unreserved characters are kept).
std::string url_encode(std::string_view s);

}  // namespace longread::web
