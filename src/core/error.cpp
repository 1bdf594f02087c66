#include "core/error.h"

namespace longread {

const char* to_string(ErrorKind kind) noexcept {
  switch (kind) {
    case ErrorKind::kInvalidInput:
      return "invalid_input";
    case ErrorKind::kNotFound:
      return "not_found";
    case ErrorKind::kConflict:
      return "conflict";
    case ErrorKind::kUnauthorized:
      return "unauthorized";
    case ErrorKind::kForbidden:
      return "forbidden";
    case ErrorKind::kRateLimited:
      return "rate_limited";
    case ErrorKind::kNetwork:
      return "network";
    case ErrorKind::kTimeout:
      return "timeout";
    case ErrorKind::kTooLarge:
      return "too_large";
    case ErrorKind::kHttpStatus:
      return "http_status";
    case ErrorKind::kNotAFeed:
      return "not_a_feed";
    case ErrorKind::kParse:
      return "parse";
    case ErrorKind::kStorage:
      return "storage";
    case ErrorKind::kInternal:
      return "internal";
  }
  return "unknown";
}

}  // namespace longread
