#include "accounts/validate.h"

#include <algorithm>
#include <cstring>

#include "core/strings.h"

namespace longread::accounts {
namespace {

// atext of RFC 5322 section 3.2.3.
bool is_atext(char c) {
  const auto u = static_cast<unsigned char>(c);
  if (std::isalnum(u) != 0) return true;
  return c != '\0' && std::strchr("!#$%&'*+-/=?^_`{|}~", c) != nullptr;
}

bool valid_label(std::string_view label) {
  if (label.empty() || label.size() > 63 || label.front() == '-' || label.back() == '-') return false;
  return std::all_of(label.begin(), label.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '-'; });
}

std::size_t utf8_length(std::string_view s) {
  return static_cast<std::size_t>(std::count_if(
      s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

std::unexpected<Error> bad_email(std::string what) {
  return fail(ErrorKind::kInvalidInput, "accounts: invalid email: " + what, std::move(what));
}

}  // namespace

Result<std::string> normalize_email(std::string_view input) {
  const std::string_view email = trim(input);
  if (email.empty()) return bad_email("Please enter your email address.");
  if (email.size() > kMaxEmailLength) return bad_email("That email address is too long.");
  const auto at = email.rfind('@');
  if (at == std::string_view::npos) return bad_email("An email address needs an @, as in you@example.com.");
  const std::string_view local = email.substr(0, at);
  const std::string_view domain = email.substr(at + 1);
  if (local.empty() || local.size() > 64) return bad_email("The part before the @ is missing or too long.");
  if (local.front() == '.' || local.back() == '.' || local.find("..") != std::string_view::npos ||
      !std::all_of(local.begin(), local.end(), [](char c) { return c == '.' || is_atext(c); })) {
    return bad_email("The part before the @ has characters an email address cannot have.");
  }
  const auto labels = split(domain, '.');
  if (labels.size() < 2 || !std::all_of(labels.begin(), labels.end(), valid_label)) {
    return bad_email("The part after the @ is not a domain name, as in example.com.");
  }
  return std::string(email);
}

Result<void> check_password(std::string_view password) {
  const std::size_t length = utf8_length(password);
  if (length < kMinPasswordLength) {
    return fail(ErrorKind::kInvalidInput, "accounts: password too short",
                "Please choose a password of at least 10 characters.");
  }
  if (password.size() > kMaxPasswordLength) {
    return fail(ErrorKind::kInvalidInput, "accounts: password too long",
                "That password is too long (at most 1024 bytes).");
  }
  return {};
}

}  // namespace longread::accounts
