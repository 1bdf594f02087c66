#include "mail/message.h"

#include <sodium.h>

#include <ctime>

namespace longread::mail {
namespace {

bool is_ascii(std::string_view s) {
  for (const char c : s) {
    if (static_cast<unsigned char>(c) >= 0x80) return false;
  }
  return true;
}

std::string base64(std::string_view data) {
  std::string out(sodium_base64_encoded_len(data.size(), sodium_base64_VARIANT_ORIGINAL), '\0');
  sodium_bin2base64(out.data(), out.size(), reinterpret_cast<const unsigned char*>(data.data()), data.size(),
                    sodium_base64_VARIANT_ORIGINAL);
  out.resize(std::char_traits<char>::length(out.c_str()));
  return out;
}

// RFC 5322 section 3.3 date-time: "Tue, 21 May 2024 10:00:00 +0000".
std::string mail_date(TimePoint t) {
  const std::time_t seconds = to_unix(t);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char buffer[64];
  std::strftime(buffer, sizeof buffer, "%a, %d %b %Y %H:%M:%S +0000", &tm);
  return buffer;
}

// Header values must not smuggle in line breaks (header injection).
std::string one_line(std::string_view s) {
  std::string out;
  for (const char c : s) out += (c == '\r' || c == '\n') ? ' ' : c;
  return out;
}

}  // namespace

std::string bare_address(std::string_view from) {
  const auto open = from.rfind('<');
  const auto close = from.rfind('>');
  if (open != std::string_view::npos && close != std::string_view::npos && close > open) {
    return std::string(from.substr(open + 1, close - open - 1));
  }
  return std::string(from);
}

std::string encode_header_value(std::string_view value) {
  if (is_ascii(value)) return std::string(value);
  // "=?UTF-8?B?" + base64 + "?=" is at most 75 characters: 12 of framing leave 63 base64 characters,
  // i.e. 45 bytes of text per word (RFC 2047 section 2); words never split a UTF-8 sequence (section 5).
  constexpr std::size_t kBytesPerWord = 45;
  std::string out;
  std::size_t start = 0;
  while (start < value.size()) {
    std::size_t end = std::min(value.size(), start + kBytesPerWord);
    while (end < value.size() && end > start && (static_cast<unsigned char>(value[end]) & 0xC0) == 0x80)
      --end;
    if (!out.empty()) out += "\r\n ";  // folding whitespace between encoded-words is ignored by readers
    out += "=?UTF-8?B?" + base64(value.substr(start, end - start)) + "?=";
    start = end;
  }
  return out;
}

std::string render_message(const MailMessage& message, TimePoint date, std::string_view message_id) {
  std::string out;
  auto header = [&out](std::string_view name, std::string_view value) {
    out += name;
    out += ": ";
    out += value;
    out += "\r\n";
  };
  header("From", one_line(message.from));
  header("To", one_line(message.to));
  header("Subject", encode_header_value(one_line(message.subject)));
  header("Date", mail_date(date));
  header("Message-ID", "<" + one_line(message_id) + ">");
  header("MIME-Version", "1.0");
  header("Content-Type", "text/plain; charset=utf-8");
  header("Content-Transfer-Encoding", "8bit");
  for (const auto& [name, value] : message.extra_headers) header(name, one_line(value));
  out += "\r\n";
  for (const char c : message.body) {
    if (c == '\n') {
      out += "\r\n";
    } else if (c != '\r') {
      out += c;
    }
  }
  if (!out.ends_with("\r\n")) out += "\r\n";
  return out;
}

}  // namespace longread::mail
