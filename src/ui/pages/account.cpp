// "/signup", "/login", "/logout": accounts with email and password (issue 4). The forms carry a CSRF
// token; failures re-render the form with a message and a 4xx status; success sets the session cookie
// and goes back to where the reader came from ("next").
#include <chrono>

#include "pages/forms.h"
#include "pages/pages.h"

namespace longread::ui::pages {
namespace {

enum class Mode { kSignUp, kLogIn };

web::Response account_form(View& view, Mode mode, std::string_view next, std::string_view email,
                           std::string_view message, int status) {
  const bool signup = mode == Mode::kSignUp;
  const std::string encoded_next = web::url_encode(safe_next(next));
  Page out;
  out.title = signup ? "Sign up" : "Log in";
  out.description = signup ? "Create an account to vote and keep a reading list." : "Log in to your account.";
  out.path = signup ? "/signup" : "/login";
  out.status = status;
  out.body = html(
      "<h1 class=\"page-title\">{}</h1>\n{}"
      "<form method=\"post\" action=\"{}\" class=\"account-form\">\n"
      "<input type=\"hidden\" name=\"csrf\" value=\"{}\"><input type=\"hidden\" name=\"next\" value=\"{}\">\n"
      "<label for=\"email\">Email</label>\n"
      "<input id=\"email\" type=\"email\" name=\"email\" required maxlength=\"254\" autocomplete=\"email\" "
      "value=\"{}\">\n"
      "<label for=\"password\">Password{}</label>\n"
      "<input id=\"password\" type=\"password\" name=\"password\" required minlength=\"{}\" "
      "autocomplete=\"{}\">\n"
      "<button type=\"submit\" class=\"button primary\">{}</button>\n</form>\n<p>{}</p>\n",
      text(out.title),
      message.empty() ? Html() : html("<p class=\"form-error\" role=\"alert\">{}</p>\n", text(message)),
      signup ? Html::literal("/signup") : Html::literal("/login"), attr(view.csrf_token(true)),
      attr(safe_next(next)), attr(email), signup ? Html::literal(" (at least 10 characters)") : Html(),
      signup ? Html::literal("10") : Html::literal("1"),
      signup ? Html::literal("new-password") : Html::literal("current-password"), text(out.title),
      signup ? html("Already have an account? <a href=\"{}\">Log in</a>", attr("/login?next=" + encoded_next))
             : html("No account yet? <a href=\"{}\">Sign up</a>", attr("/signup?next=" + encoded_next)));
  web::Response res = view.render(out);
  res.set_header("Cache-Control", "no-store");
  return res;
}

int status_of(ErrorKind kind) {
  return kind == ErrorKind::kRateLimited ? 429 : kind == ErrorKind::kInvalidInput ? 400 : 500;
}

Result<web::Response> submit(View& view, const web::Request& request, Mode mode) {
  auto form = parse_form(request);
  if (!form) return std::unexpected(form.error());
  const std::string_view next = form_value(*form, "next");
  const std::string_view email = form_value(*form, "email");
  // Only echo back an address of sane length (a 10,000-character one is not shown again).
  const std::string_view shown_email = email.size() <= 254 ? email : std::string_view();
  if (!view.csrf_valid(form_value(*form, "csrf"))) {
    return account_form(view, mode, next, shown_email,
                        "This form has expired or was not sent from this site. Please try again.", 403);
  }
  const std::string_view password = form_value(*form, "password");
  auto session = mode == Mode::kSignUp
                     ? view.accounts().sign_up(email, password, request.remote_address, view.now())
                     : view.accounts().log_in(email, password, request.remote_address, view.now());
  if (!session) {
    if (status_of(session.error().kind) == 500) return std::unexpected(session.error());
    auto res = account_form(view, mode, next, shown_email, session.error().display(),
                            status_of(session.error().kind));
    if (session.error().kind == ErrorKind::kRateLimited) {
      res.set_header("Retry-After", "60");  // RFC 9110 section 10.2.3; the page says how long exactly
    }
    return res;
  }
  web::Response res = see_other(view, safe_next(next));
  const auto lifetime = std::chrono::duration_cast<std::chrono::seconds>(session->expires_at - view.now());
  res.headers.emplace_back("Set-Cookie", view.cookie(kSessionCookie, session->token, lifetime.count()));
  res.headers.emplace_back("Set-Cookie", view.cookie(kCsrfCookie, "", -1));  // the pre-login binding ends
  return res;
}

}  // namespace

Result<web::Response> signup_form(View& view, const web::Request& request, const Params&) {
  if (view.logged_in()) return see_other(view, safe_next(request.param("next").value_or("/")));
  return account_form(view, Mode::kSignUp, request.param("next").value_or("/"), "", "", 200);
}

Result<web::Response> signup(View& view, const web::Request& request, const Params&) {
  return submit(view, request, Mode::kSignUp);
}

Result<web::Response> login_form(View& view, const web::Request& request, const Params&) {
  if (view.logged_in()) return see_other(view, safe_next(request.param("next").value_or("/")));
  return account_form(view, Mode::kLogIn, request.param("next").value_or("/"), "", "", 200);
}

Result<web::Response> login(View& view, const web::Request& request, const Params&) {
  return submit(view, request, Mode::kLogIn);
}

Result<web::Response> logout(View& view, const web::Request& request, const Params&) {
  auto form = parse_form(request);
  if (!form) return std::unexpected(form.error());
  if (!view.logged_in()) return see_other(view, "/");
  if (!view.csrf_valid(form_value(*form, "csrf"))) return csrf_rejected(view, request);
  if (auto ok = view.accounts().log_out(*request.cookie(kSessionCookie)); !ok)
    return std::unexpected(ok.error());
  web::Response res = see_other(view, "/");
  res.headers.emplace_back("Set-Cookie", view.cookie(kSessionCookie, "", -1));
  return res;
}

}  // namespace longread::ui::pages
