// "/account": a logged-in reader's settings. Change the password (every other session ends), log out
// everywhere else, delete the account. Each form is a POST with the CSRF token and, where it matters, the
// current password; the outcome comes back as a fixed notice ("?done=..."), never as echoed input.
#include "pages/filters.h"
#include "pages/forms.h"
#include "pages/pages.h"
#include "pages/suggest.h"

namespace longread::ui::pages {
namespace {

Html notice_for(std::string_view done) {
  if (done == "password") {
    return Html::literal(
        "<p class=\"notice\" role=\"status\">Your password is changed. Every other session has ended.</p>\n");
  }
  if (done == "suggested") {
    return Html::literal(
        "<p class=\"notice\" role=\"status\">Thank you: your suggestion is stored. Its feed is looked for "
        "in the background, then an operator decides; its status is below.</p>\n");
  }
  if (done == "sessions") {
    return Html::literal(
        "<p class=\"notice\" role=\"status\">Every other browser and device is logged out.</p>\n");
  }
  return {};
}

web::Response settings_page(View& view, Html notice, std::string_view error, int status,
                            std::string_view done = "") {
  const std::string token = view.csrf_token();
  Html body = html(
      "{}{}<p>Logged in as {}.</p>\n"
      "<section class=\"settings\">\n<h2>Change password</h2>\n"
      "<form method=\"post\" action=\"/account/password\" class=\"account-form\">\n"
      "<input type=\"hidden\" name=\"csrf\" value=\"{}\">\n"
      "<label for=\"current-password\">Current password</label>\n"
      "<input id=\"current-password\" type=\"password\" name=\"current\" required "
      "autocomplete=\"current-password\">\n"
      "<label for=\"new-password\">New password (at least 10 characters)</label>\n"
      "<input id=\"new-password\" type=\"password\" name=\"password\" required minlength=\"10\" "
      "autocomplete=\"new-password\">\n"
      "<button type=\"submit\" class=\"button primary\">Change password</button>\n</form>\n</section>\n"
      "<section class=\"settings\">\n<h2>Sessions</h2>\n<p>Log out of every other browser and device; this "
      "one stays logged in.</p>\n"
      "<form method=\"post\" action=\"/account/sessions\"><input type=\"hidden\" name=\"csrf\" value=\"{}\">"
      "<button type=\"submit\" class=\"button\">Log out everywhere else</button></form>\n</section>\n"
      "{}{}{}<section class=\"settings\">\n<h2>Delete account</h2>\n<p>Deletes your account, your votes and "
      "your "
      "reading list. This cannot be undone.{}</p>\n"
      "<form method=\"post\" action=\"/account/delete\" class=\"account-form\">\n"
      "<input type=\"hidden\" name=\"csrf\" value=\"{}\">\n"
      "<label for=\"delete-password\">Password</label>\n"
      "<input id=\"delete-password\" type=\"password\" name=\"password\" required "
      "autocomplete=\"current-password\">\n"
      "<button type=\"submit\" class=\"button danger\">Delete my account</button>\n</form>\n</section>\n",
      notice, error.empty() ? Html() : html("<p class=\"form-error\" role=\"alert\">{}</p>\n", text(error)),
      text(view.reader()->email), attr(token), attr(token), filters_section(view, done),
      reader_suggestions_section(view), app_passwords_section(view, "", ""),
      view.options().send_confirmation
          ? Html::literal(" The newsletter is separate: every issue has a one-click unsubscribe link.")
          : Html(),
      attr(token));
  return private_page(view, "Your account", "/account", std::move(body), status);
}

// Logged in (the token was checked before the handler, routes.cpp): the form; else the answer to give.
struct Submitted {
  web::Fields form;
  std::optional<web::Response> answer;
};

Result<Submitted> submitted(View& view, const web::Request& request) {
  auto form = parse_form(request);
  if (!form) return std::unexpected(form.error());
  if (!view.logged_in()) return Submitted{{}, login_first(view, request, "/account")};
  return Submitted{std::move(*form), std::nullopt};
}

Result<web::Response> failed(View& view, const Error& error) {
  const int status = form_error_status(error.kind);
  if (status == 0) return std::unexpected(error);
  auto res = settings_page(view, {}, error.display(), status);
  if (error.kind == ErrorKind::kRateLimited) res.set_header("Retry-After", "60");
  return res;
}

}  // namespace

Result<web::Response> settings(View& view, const web::Request& request, const Params&) {
  if (!view.logged_in()) return login_first(view, request, "/account");
  const std::string_view done = request.param("done").value_or("");
  return settings_page(view, notice_for(done), "", 200, done);
}

Result<web::Response> change_password(View& view, const web::Request& request, const Params&) {
  auto in = submitted(view, request);
  if (!in) return std::unexpected(in.error());
  if (in->answer) return std::move(*in->answer);
  auto session = view.accounts().change_password(view.reader()->email, form_value(in->form, "current"),
                                                 form_value(in->form, "password"), view.now());
  if (!session) return failed(view, session.error());
  return with_session(view, *session, "/account?done=password");
}

Result<web::Response> end_other_sessions(View& view, const web::Request& request, const Params&) {
  auto in = submitted(view, request);
  if (!in) return std::unexpected(in.error());
  if (in->answer) return std::move(*in->answer);
  auto session = view.accounts().end_other_sessions(view.reader()->reader_id, view.now());
  if (!session) return std::unexpected(session.error());
  return with_session(view, *session, "/account?done=sessions");
}

Result<web::Response> delete_account(View& view, const web::Request& request, const Params&) {
  auto in = submitted(view, request);
  if (!in) return std::unexpected(in.error());
  if (in->answer) return std::move(*in->answer);
  if (auto deleted =
          view.accounts().delete_account(view.reader()->email, form_value(in->form, "password"), view.now());
      !deleted) {
    return failed(view, deleted.error());
  }
  web::Response res = see_other(view, "/");
  res.headers.emplace_back("Set-Cookie", view.cookie(kSessionCookie, "", -1));
  return res;
}

Result<web::Response> account_change_bad_token(View& view, const web::Request& request, const Params&) {
  // A visitor without a session logs in first, as before any check; a reader's forged form is refused.
  if (!view.logged_in()) return login_first(view, request, "/account");
  return csrf_rejected(view, request);
}

}  // namespace longread::ui::pages
