// What the reader pages share: form bodies, JSON answers for script requests, the login redirect.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "accounts/accounts.h"
#include "core/error.h"
#include "ui/view.h"
#include "web/http.h"

namespace longread::ui::pages {

// An application/x-www-form-urlencoded body (HTML 5 section 4.10.21.7) as name/value pairs.
// kInvalidInput for another content type.
Result<web::Fields> parse_form(const web::Request& request);
// The first value of `name`, or "".
std::string_view form_value(const web::Fields& form, std::string_view name);
// A whole decimal number (a signed link's "expires"), or nullopt.
std::optional<std::int64_t> parse_int64(std::string_view s);
// A positive integer id from a route segment; kNotFound otherwise.
Result<std::int64_t> route_id(std::string_view segment, std::string_view what);

// Script requests (fetch with Accept: application/json) get JSON instead of redirects.
bool wants_json(const web::Request& request);
web::Response json_response(int status, std::string body);

// 303 See Other to `location` (RFC 9110 section 15.4.4: the answer to a POST is fetched with GET).
web::Response see_other(const View& view, std::string_view location);
// What a visitor started that needs an account (a vote, a reading-list add), carried through log-in or
// sign-up as "then" ("vote:12", "save:12": a query parameter of /login and /signup, then a hidden field of
// their forms, which name it) and done as soon as the visitor has a session.
struct PendingAction {
  enum class Kind { kVote, kSave };
  Kind kind = Kind::kVote;
  std::int64_t article_id = 0;
};
std::optional<PendingAction> parse_pending(std::string_view then);
std::string pending_value(const PendingAction& action);
// Does `then` (when it is a PendingAction) for `reader_id`. An article that is gone or hidden since is
// skipped: logging in still succeeds.
void do_pending(const View& view, std::int64_t reader_id, std::string_view then);

// A visitor who must log in first: to /login, coming back to `next` afterwards (JSON: 401 with the URL),
// with `then` done once logged in.
web::Response login_first(const View& view, const web::Request& request, std::string_view next,
                          std::optional<PendingAction> then = std::nullopt);
// A page of one visitor's own (account forms, settings): the title as heading, then `body`; never stored
// by caches (`Cache-Control: no-store`).
web::Response private_page(View& view, std::string_view title, std::string_view path, Html body, int status);
// Logged in with `session` (login, confirmation, reset, password change): its cookie, the pre-login CSRF
// cookie cleared, and 303 to `location`.
web::Response with_session(const View& view, const accounts::NewSession& session, std::string_view location);
// The status of an error a form shows again with its message: 429 rate limited, 400 invalid input, 403
// forbidden; 0 for any other kind (a failure the caller passes on).
int form_error_status(ErrorKind kind);
// A form whose CSRF token is missing or wrong: 403 with a message (JSON or the error page).
web::Response csrf_rejected(const View& view, const web::Request& request);

}  // namespace longread::ui::pages
