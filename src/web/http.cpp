#include "web/http.h"

#include <curl/curl.h>

#include "core/strings.h"

namespace longread::web {
namespace {

std::optional<std::string_view> find_field(const Fields& fields, std::string_view name) {
  for (const auto& [key, value] : fields) {
    if (iequals(key, name)) return std::string_view(value);
  }
  return std::nullopt;
}

std::optional<std::string_view> find_exact(const Fields& fields, std::string_view name) {
  for (const auto& [key, value] : fields) {
    if (key == name) return std::string_view(value);
  }
  return std::nullopt;
}

// RFC 6265 section 5.4: "name=value; name2=value2". Malformed pairs are skipped, never fatal.
Fields parse_cookies(const Fields& headers) {
  Fields cookies;
  for (const auto& [key, value] : headers) {
    if (!iequals(key, "cookie")) continue;
    for (const auto pair : split(value, ';')) {
      const auto eq = pair.find('=');
      if (eq == std::string_view::npos) continue;
      const auto name = trim(pair.substr(0, eq));
      auto val = trim(pair.substr(eq + 1));
      if (val.size() >= 2 && val.front() == '"' && val.back() == '"') val = val.substr(1, val.size() - 2);
      if (!name.empty()) cookies.emplace_back(std::string(name), std::string(val));
    }
  }
  return cookies;
}

Fields parse_query(std::string_view query) {
  Fields params;
  for (const auto part : split(query, '&')) {
    if (part.empty()) continue;
    const auto eq = part.find('=');
    const auto name = part.substr(0, eq);
    const auto value = eq == std::string_view::npos ? std::string_view{} : part.substr(eq + 1);
    params.emplace_back(url_decode(name, true), url_decode(value, true));
  }
  return params;
}

}  // namespace

std::string url_decode(std::string_view s, bool plus_is_space) {
  std::string input(s);
  if (plus_is_space) {
    for (auto& ch : input) {
      if (ch == '+') ch = ' ';
    }
  }
  if (input.find('%') == std::string::npos) return sanitize_utf8(input);
  int out_len = 0;
  // libcurl ignores the handle argument of curl_easy_unescape since 7.82; NULL is documented as allowed.
  char* decoded = curl_easy_unescape(nullptr, input.data(), static_cast<int>(input.size()), &out_len);
  if (decoded == nullptr) return {};
  std::string out(decoded, static_cast<std::size_t>(out_len));
  curl_free(decoded);
  return sanitize_utf8(out);
}

std::string url_encode(std::string_view s) {
  char* encoded = curl_easy_escape(nullptr, s.data(), static_cast<int>(s.size()));
  if (encoded == nullptr) return {};
  std::string out(encoded);
  curl_free(encoded);
  return out;
}

std::optional<std::string_view> Request::header(std::string_view name) const {
  return find_field(headers, name);
}
std::optional<std::string_view> Request::param(std::string_view name) const {
  return find_exact(query_params, name);
}
std::optional<std::string_view> Request::cookie(std::string_view name) const {
  return find_exact(cookies, name);
}

Result<Request> Request::from_target(std::string method, std::string target, Fields headers,
                                     std::string body) {
  // Only origin-form targets reach a page ("/path?query"); absolute-form and "*" are not for us.
  if (target.empty() || target.front() != '/') {
    return fail(ErrorKind::kInvalidInput, "web: request target is not an origin-form path",
                "The request was malformed.");
  }
  Request req;
  req.method = std::move(method);
  req.target = std::move(target);
  const auto q = req.target.find('?');
  const std::string_view raw_path = std::string_view(req.target).substr(0, q);
  if (q != std::string::npos) {
    req.query = req.target.substr(q + 1);
    const auto hash = req.query.find('#');
    if (hash != std::string::npos) req.query.resize(hash);
  }
  req.path = url_decode(raw_path, false);
  if (req.path.find('\0') != std::string::npos) {
    return fail(ErrorKind::kInvalidInput, "web: NUL in request path", "The request was malformed.");
  }
  req.query_params = parse_query(req.query);
  req.headers = std::move(headers);
  req.cookies = parse_cookies(req.headers);
  req.body = std::move(body);
  return req;
}

std::optional<std::string_view> Response::header(std::string_view name) const {
  return find_field(headers, name);
}

void Response::set_header(std::string_view name, std::string value) {
  for (auto& [key, val] : headers) {
    if (iequals(key, name)) {
      val = std::move(value);
      return;
    }
  }
  headers.emplace_back(std::string(name), std::move(value));
}

void Response::remove_header(std::string_view name) {
  std::erase_if(headers, [&](const auto& field) { return iequals(field.first, name); });
}

Response Response::text(int status, std::string body, std::string content_type) {
  Response res;
  res.status = status;
  res.content_type = std::move(content_type);
  res.body = std::move(body);
  return res;
}

Response Response::redirect(int status, std::string location) {
  Response res;
  res.status = status;
  res.content_type = "text/plain; charset=utf-8";
  res.body = "Moved to " + location + "\n";
  res.set_header("Location", std::move(location));
  return res;
}

}  // namespace longread::web
