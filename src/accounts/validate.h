// Checks of what readers type, with the messages they are shown.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "core/error.h"

namespace longread::accounts {

constexpr std::size_t kMinPasswordLength = 10;
constexpr std::size_t kMaxPasswordLength = 1024;  // Argon2 takes any length; this bounds request work
constexpr std::size_t kMaxEmailLength = 254;      // RFC 5321 section 4.5.3.1.3 (path) minus the brackets

// The address trimmed of surrounding whitespace when it is a plain addr-spec (RFC 5322 section 3.4.1,
// dot-atom local part, a domain of at least two DNS labels); else kInvalidInput with a message that
// says what is wrong. Quoted local parts, comments and IP-literal domains are refused on purpose.
Result<std::string> normalize_email(std::string_view input);
// kInvalidInput unless kMinPasswordLength <= length (in characters) <= kMaxPasswordLength.
Result<void> check_password(std::string_view password);

}  // namespace longread::accounts
