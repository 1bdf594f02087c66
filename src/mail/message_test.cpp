// Mail rendering: RFC 2047 subjects, headers, CRLF bodies, no header injection.
#include "mail/message.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "mail/newsletter.h"

namespace longread::mail {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

TEST(Message, AsciiSubjectIsLeftAlone) {
  EXPECT_EQ(encode_header_value("Weekly issue"), "Weekly issue");
}

TEST(Message, NonAsciiSubjectIsEncodedWordsOnCharacterBoundaries) {
  EXPECT_EQ(encode_header_value("Café"), "=?UTF-8?B?Q2Fmw6k=?=");
  const std::string long_subject =
      "longread — the week’s 5 best long reads: ünïcödé everywhere, again and again";
  const std::string encoded = encode_header_value(long_subject);
  for (const auto& line : {encoded.substr(0, encoded.find("\r\n"))}) EXPECT_LE(line.size(), 75u);
  EXPECT_THAT(encoded, HasSubstr("?=\r\n =?UTF-8?B?"));
}

TEST(Message, RendersHeadersAndCrlfBody) {
  MailMessage m{.from = "longread <news@longread.test>",
                .to = "a@example.org",
                .subject = "Hello\r\nBcc: victim@example.org",
                .body = "line one\nline two",
                .extra_headers = {{"List-Unsubscribe-Post", "List-Unsubscribe=One-Click"}}};
  const std::string text = render_message(m, from_unix(1'716'285'600), "id.1@longread.test");
  EXPECT_THAT(text, HasSubstr("From: longread <news@longread.test>\r\n"));
  EXPECT_THAT(text, HasSubstr("To: a@example.org\r\n"));
  EXPECT_THAT(text, HasSubstr("Subject: Hello  Bcc: victim@example.org\r\n"));  // no injected header
  EXPECT_THAT(text, Not(HasSubstr("\r\nBcc:")));
  EXPECT_THAT(text, HasSubstr("Date: Tue, 21 May 2024 10:00:00 +0000\r\n"));
  EXPECT_THAT(text, HasSubstr("Message-ID: <id.1@longread.test>\r\n"));
  EXPECT_THAT(text, HasSubstr("MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n"));
  EXPECT_THAT(text, HasSubstr("\r\n\r\nline one\r\nline two\r\n"));
  EXPECT_EQ(bare_address("longread <news@longread.test>"), "news@longread.test");
}

TEST(Newsletter, IsoWeekKeys) {
  EXPECT_EQ(issue_key(from_unix(1'716'285'600)), "2024-W21");  // Tue 21 May 2024
  EXPECT_EQ(issue_key(from_unix(1'704'067'200)), "2024-W01");  // Mon 1 Jan 2024
  EXPECT_EQ(issue_key(from_unix(1'672'531'200)), "2022-W52");  // Sun 1 Jan 2023
}

}  // namespace
}  // namespace longread::mail
