#include "mail/account_mail.h"

#include <fmt/format.h>

namespace longread::mail {

MailMessage account_message(const NewsletterOptions& options, accounts::MailKind kind,
                            std::string_view recipient, std::string_view url, long link_hours) {
  MailMessage m;
  m.from = options.from;
  m.to = std::string(recipient);
  switch (kind) {
    case accounts::MailKind::kConfirmAccount:
      m.subject = "Confirm your account at " + options.site_name;
      m.body = fmt::format(
          "Someone, probably you, signed up at {} with this address.\n\n"
          "To confirm it and log in, open this link:\n{}\n\n"
          "The link works for {} hours. If you did not sign up, ignore this mail: the account stays "
          "unused.\n",
          options.site_name, url, link_hours);
      break;
    case accounts::MailKind::kAlreadyRegistered:
      m.subject = "You already have an account at " + options.site_name;
      m.body = fmt::format(
          "Someone, probably you, tried to sign up at {} with this address, which already has an account. "
          "Nothing was changed.\n\n"
          "Log in here:\n{}/login\n\n"
          "Forgot the password? Set a new one with this link (it works for {} hours):\n{}\n\n"
          "If it was not you, ignore this mail.\n",
          options.site_name, options.base_url, link_hours, url);
      break;
    case accounts::MailKind::kPasswordReset:
      m.subject = "Set a new password at " + options.site_name;
      m.body = fmt::format(
          "Someone, probably you, asked to set a new password for this address at {}.\n\n"
          "To choose one, open this link:\n{}\n\n"
          "The link works once, for {} hours. If you did not ask, ignore this mail: your password stays as "
          "it is.\n",
          options.site_name, url, link_hours);
      break;
  }
  return m;
}

}  // namespace longread::mail
