// Plain-text mail messages (RFC 5322) with UTF-8 bodies (RFC 6532 / 8BITMIME) and RFC 2047 encoded
// subjects, rendered with CRLF line ends for SMTP.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/time.h"

namespace longread::mail {

struct MailMessage {
  std::string from;     // "longread <news@example.org>" or a bare address
  std::string to;       // bare address
  std::string subject;  // UTF-8; encoded on rendering when not ASCII
  std::string body;     // UTF-8 plain text, "\n" line ends
  std::vector<std::pair<std::string, std::string>> extra_headers;  // List-Unsubscribe, ...
};

// The bare address of a From value: "Name <a@b>" -> "a@b".
std::string bare_address(std::string_view from);
// RFC 2047 "B" encoded-words for a non-ASCII header value (each at most 75 characters, split on UTF-8
// character boundaries); ASCII values are returned as they are.
std::string encode_header_value(std::string_view value);
// The whole message: From, To, Subject, Date, Message-ID, MIME-Version, Content-Type (text/plain;
// charset=utf-8), Content-Transfer-Encoding (8bit), the extra headers, a blank line and the body, with
// CRLF line ends. `message_id` is the id without angle brackets ("20240521.3.7@example.org").
std::string render_message(const MailMessage& message, TimePoint date, std::string_view message_id);

}  // namespace longread::mail
