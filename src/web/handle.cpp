#include "web/handle.h"

#include <spdlog/spdlog.h>

#include <exception>

#include "core/strings.h"
#include "web/gzip.h"

namespace longread::web {
namespace {

constexpr std::size_t kMinGzipBytes = 256;

// Strips an optional weak prefix: W/"x" and "x" compare equal under the weak comparison.
std::string_view opaque_tag(std::string_view tag) {
  tag = trim(tag);
  if (tag.starts_with("W/")) tag.remove_prefix(2);
  return tag;
}

std::string gzip_etag(std::string_view etag) {
  if (etag.size() >= 2 && etag.back() == '"') {
    return std::string(etag.substr(0, etag.size() - 1)) + "-gz\"";
  }
  return std::string(etag);
}

double parse_qvalue(std::string_view params) {
  // params: ";q=0.5" (possibly with spaces and other parameters).
  for (const auto param : split(params, ';')) {
    const auto p = trim(param);
    if (p.size() >= 2 && (p[0] == 'q' || p[0] == 'Q') && p[1] == '=') {
      try {
        return std::stod(std::string(p.substr(2)));
      } catch (const std::exception&) {
        return 0.0;
      }
    }
  }
  return 1.0;
}

}  // namespace

int status_for(ErrorKind kind) noexcept {
  switch (kind) {
    case ErrorKind::kNotFound:
      return 404;
    case ErrorKind::kInvalidInput:
      return 400;
    case ErrorKind::kUnauthorized:
      return 401;
    case ErrorKind::kForbidden:
      return 403;
    case ErrorKind::kRateLimited:
      return 429;
    case ErrorKind::kConflict:
      return 409;
    case ErrorKind::kTooLarge:
      return 413;
    default:
      return 500;
  }
}

std::string_view reason_phrase(int status) noexcept {
  switch (status) {
    case 200:
      return "OK";
    case 201:
      return "Created";
    case 204:
      return "No Content";
    case 301:
      return "Moved Permanently";
    case 302:
      return "Found";
    case 303:
      return "See Other";
    case 304:
      return "Not Modified";
    case 307:
      return "Temporary Redirect";
    case 308:
      return "Permanent Redirect";
    case 400:
      return "Bad Request";
    case 401:
      return "Unauthorized";
    case 403:
      return "Forbidden";
    case 404:
      return "Not Found";
    case 405:
      return "Method Not Allowed";
    case 408:
      return "Request Timeout";
    case 409:
      return "Conflict";
    case 413:
      return "Content Too Large";
    case 429:
      return "Too Many Requests";
    case 431:
      return "Request Header Fields Too Large";
    case 500:
      return "Internal Server Error";
    case 503:
      return "Service Unavailable";
    default:
      return "";
  }
}

bool accepts_gzip(std::string_view accept_encoding) {
  bool star = false;
  for (const auto item : split(accept_encoding, ',')) {
    const auto semi = item.find(';');
    const auto coding = trim(item.substr(0, semi));
    const double q = semi == std::string_view::npos ? 1.0 : parse_qvalue(item.substr(semi + 1));
    if (iequals(coding, "gzip") || iequals(coding, "x-gzip")) return q > 0.0;
    if (coding == "*") star = q > 0.0;
  }
  return star;
}

bool etag_matches(std::string_view if_none_match, std::string_view etag) {
  if (etag.empty()) return false;
  if (trim(if_none_match) == "*") return true;
  const auto want = opaque_tag(etag);
  for (const auto candidate : split(if_none_match, ',')) {
    if (opaque_tag(candidate) == want) return true;
  }
  return false;
}

bool is_compressible(std::string_view content_type) {
  return content_type.starts_with("text/") || content_type.find("json") != std::string_view::npos ||
         content_type.find("javascript") != std::string_view::npos ||
         content_type.find("xml") != std::string_view::npos;
}

Response handle_request(const App& app, const ErrorPageRenderer& error_page, const Request& request) {
  Response res;
  try {
    auto result = app(request);
    if (result) {
      res = std::move(*result);
    } else {
      const Error& error = result.error();
      const int status = status_for(error.kind);
      if (status >= 500) {
        spdlog::error("http path={} error_kind={} error={}", request.path, to_string(error.kind),
                      error.message);
      } else {
        spdlog::debug("http path={} error_kind={} error={}", request.path, to_string(error.kind),
                      error.message);
      }
      // Only a user message is shown; a 5xx never shows anything but a generic sentence.
      const std::string_view shown = status >= 500 ? std::string_view("Something went wrong on our side.")
                                                   : std::string_view(error.user_message);
      res = error_page(status, shown);
      res.status = status;
    }
  } catch (const std::exception& e) {
    spdlog::error("http path={} uncaught_exception={}", request.path, e.what());
    res = error_page(500, "Something went wrong on our side.");
    res.status = 500;
  }

  const bool compressible =
      is_compressible(res.content_type) && (res.gzip_body || res.payload().size() >= kMinGzipBytes);
  const bool use_gzip = compressible && accepts_gzip(request.header("accept-encoding").value_or(""));
  if (compressible) res.set_header("Vary", "Accept-Encoding");

  auto etag = res.header("etag");
  if (etag && use_gzip) res.set_header("ETag", gzip_etag(*etag));
  etag = res.header("etag");

  const bool safe = request.method == "GET" || request.method == "HEAD";
  if (safe && res.status == 200 && etag) {
    if (const auto inm = request.header("if-none-match"); inm && etag_matches(*inm, *etag)) {
      // RFC 9110 section 15.4.5: a 304 carries the validators and caching headers a 200 would have.
      Response not_modified;
      not_modified.status = 304;
      not_modified.content_type.clear();
      for (const auto& [name, value] : res.headers) {
        if (iequals(name, "etag") || iequals(name, "cache-control") || iequals(name, "vary") ||
            iequals(name, "expires") || iequals(name, "content-location")) {
          not_modified.headers.emplace_back(name, value);
        }
      }
      return not_modified;
    }
  }

  if (use_gzip) {
    if (res.gzip_body) {
      res.shared_body = std::move(res.gzip_body);
      res.body.clear();
      res.set_header("Content-Encoding", "gzip");
    } else if (auto compressed = gzip_compress(res.payload())) {
      res.body = std::move(*compressed);
      res.shared_body.reset();
      res.set_header("Content-Encoding", "gzip");
    }
  }
  res.gzip_body.reset();
  return res;
}

}  // namespace longread::web
