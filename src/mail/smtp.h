// SMTP delivery with libcurl (RFC 5321): smtp:// and smtps:// (implicit TLS, RFC 8314), STARTTLS
// (RFC 3207) when asked, optional AUTH. One message per call, one recipient per message.
#pragma once

#include <chrono>
#include <string>
#include <string_view>

namespace longread::mail {

struct SmtpOptions {
  std::string url = "smtp://127.0.0.1:25";  // smtp://host:port or smtps://host:port
  bool starttls = false;                    // require STARTTLS on smtp:// (CURLUSESSL_ALL)
  std::string username;                     // empty: no AUTH
  std::string password;
  std::string from = "longread <newsletter@localhost>";
  std::chrono::seconds timeout{30};
  bool verify_tls = true;
};

// What happened to one message. A 5xx reply is permanent (RFC 5321 section 4.2.1); 4xx replies and
// network trouble are temporary and worth retrying later.
struct SendOutcome {
  enum class Kind { kSent, kTemporary, kPermanent };
  Kind kind = Kind::kSent;
  long reply_code = 0;  // the last SMTP reply code, 0 when none was read
  std::string detail;   // libcurl's message, for logs and the subscriber's record
  [[nodiscard]] bool sent() const { return kind == Kind::kSent; }
};

class SmtpSender {
 public:
  explicit SmtpSender(SmtpOptions options) : options_(std::move(options)) {}
  // Sends `message` (a rendered RFC 5322 message, CRLF line ends) to `recipient`.
  [[nodiscard]] SendOutcome send(std::string_view recipient, std::string_view message) const;
  [[nodiscard]] const SmtpOptions& options() const { return options_; }

 private:
  SmtpOptions options_;
};

}  // namespace longread::mail
