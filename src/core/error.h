// Error model shared by every stage: expected failures are values, never exceptions.
#pragma once

#include <expected>
#include <string>
#include <utility>

namespace longread {

// What went wrong, independent of any transport; web/ maps kinds to HTTP status codes.
enum class ErrorKind {
  kInvalidInput,  // caller gave something malformed (bad URL, bad form field, bad file)
  kNotFound,      // the thing asked for does not exist
  kConflict,      // it exists already / state does not allow this
  kUnauthorized,  // needs a logged-in reader
  kForbidden,     // logged in but not allowed (bad CSRF token, ...)
  kRateLimited,   // too many attempts; retry later
  kNetwork,       // DNS, connect, TLS, reset
  kTimeout,       // a deadline passed
  kTooLarge,      // a size cap was hit
  kHttpStatus,    // the server answered with an error status
  kNotAFeed,      // the bytes are not a feed (HTML page, empty, ...)
  kParse,         // the bytes are a feed but broken beyond recovery
  kStorage,       // the database refused
  kInternal,      // a bug
};

const char* to_string(ErrorKind kind) noexcept;

// An error carries a kind, a technical message that starts with its module ("store: ...")
// and, where it differs, the sentence a user or operator should be shown.
struct Error {
  ErrorKind kind = ErrorKind::kInternal;
  std::string message;
  std::string user_message;

  Error() = default;
  Error(ErrorKind k, std::string msg, std::string user = {})
      : kind(k), message(std::move(msg)), user_message(std::move(user)) {}

  // The text to show a person: the user message when set, else the technical one.
  [[nodiscard]] const std::string& display() const noexcept {
    return user_message.empty() ? message : user_message;
  }
};

template <typename T>
using Result = std::expected<T, Error>;

// Shorthand for returning an error: `return fail(ErrorKind::kNotFound, "store: no blog 3");`
inline std::unexpected<Error> fail(ErrorKind kind, std::string message, std::string user_message = {}) {
  return std::unexpected<Error>(Error{kind, std::move(message), std::move(user_message)});
}

}  // namespace longread
