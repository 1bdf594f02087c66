// handle_request: the pure function from request to response that the session I/O calls. It runs
// the application, maps error kinds to statuses in the one place that does so, answers
// conditional GETs with 304 and chooses gzip when the client accepts it.
#pragma once

#include <string_view>

#include "core/error.h"
#include "web/http.h"

namespace longread::web {

// kNotFound 404, kInvalidInput 400, kUnauthorized 401, kForbidden 403, kRateLimited 429, kConflict 409,
// kTooLarge 413; everything else is 500.
int status_for(ErrorKind kind) noexcept;
// The standard reason phrase ("Not Found"), or "" for unknown codes.
std::string_view reason_phrase(int status) noexcept;

// RFC 9110 section 12.5.3: true when gzip (or "*") is listed with a non-zero qvalue.
bool accepts_gzip(std::string_view accept_encoding);
// RFC 9110 section 13.1.2: If-None-Match uses the weak comparison; "*" matches any current representation.
bool etag_matches(std::string_view if_none_match, std::string_view etag);
// Media types worth compressing: text/*, JSON, JavaScript, XML, SVG.
bool is_compressible(std::string_view content_type);

// Runs `app` on `request`. Errors become `error_page(status, user message)` with the mapped status (the
// technical message is logged, never shown). A 200 with an ETag is answered with 304 when If-None-Match
// matches; compressible bodies of at least 256 bytes are gzipped when Accept-Encoding allows, with the
// ETag suffixed "-gz" so the two representations never share a strong validator (RFC 9110 section 8.8.3).
Response handle_request(const App& app, const ErrorPageRenderer& error_page, const Request& request);

}  // namespace longread::web
