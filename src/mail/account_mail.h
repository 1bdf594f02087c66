// The account mails the site sends when it can send mail: the sign-up confirmation, "you already have an
// account" (a sign-up for a registered address) and the password-reset link. Plain text, no tracking.
#pragma once

#include <string_view>

#include "accounts/accounts.h"
#include "mail/message.h"
#include "mail/newsletter.h"

namespace longread::mail {

// `url` is the signed link the site built (to /account/confirm or /password/reset); `link_hours` how long
// it works.
MailMessage account_message(const NewsletterOptions& options, accounts::MailKind kind,
                            std::string_view recipient, std::string_view url, long link_hours);

}  // namespace longread::mail
