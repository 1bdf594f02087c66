// "/signup", "/login", "/logout": accounts with email and password. The forms carry a CSRF
// token; failures re-render the form with a message and a 4xx status; success sets the session cookie
// and goes back to where the reader came from ("next").
//
// When the site sends mail (SiteOptions::send_account_mail), a sign-up answers "check your inbox" whatever
// the address, and the mailed link leads to "/account/confirm"; "/password/forgot" mails a link to
// "/password/reset". The links open a page with a button (a POST with a CSRF token), so a mail scanner
// that fetches them changes nothing.
#include <spdlog/spdlog.h>

#include <chrono>

#include "core/strings.h"
#include "pages/forms.h"
#include "pages/pages.h"
#include "web/client_address.h"

namespace longread::ui::pages {
namespace {

enum class Mode { kSignUp, kLogIn };

constexpr std::string_view kExpiredFormMessage =
    "This form has expired or was not sent from this site. Please try again.";

// What the form will do besides logging in (PendingAction), said above it so that a crafted link cannot
// cast a vote unseen: "Your vote for “Title” counts as soon as you log in."
Html pending_notice(const View& view, Mode mode, std::string_view then) {
  const auto action = parse_pending(then);
  if (!action) return {};
  auto article = view.store().article(action->article_id);
  if (!article || !*article) return {};
  const std::string title =
      trim((*article)->article.title).empty() ? "Untitled" : std::string(trim((*article)->article.title));
  return html(
      "<p class=\"pending\" role=\"status\">{} &ldquo;{}&rdquo; {} as soon as you {}.</p>\n",
      action->kind == PendingAction::Kind::kVote ? Html::literal("Your vote for") : Html::literal("Saving"),
      text(title),
      action->kind == PendingAction::Kind::kVote ? Html::literal("counts")
                                                 : Html::literal("to your reading list happens"),
      mode == Mode::kSignUp ? Html::literal("sign up") : Html::literal("log in"));
}

web::Response account_form(View& view, Mode mode, std::string_view next, std::string_view then,
                           std::string_view email, std::string_view message, int status) {
  const bool signup = mode == Mode::kSignUp;
  const auto pending = parse_pending(then);
  const std::string pending_param = pending ? "&then=" + web::url_encode(pending_value(*pending)) : "";
  const std::string encoded_next = web::url_encode(safe_next(next)) + pending_param;
  Page out;
  out.title = signup ? "Sign up" : "Log in";
  out.description = signup ? "Create an account to vote and keep a reading list." : "Log in to your account.";
  out.path = signup ? "/signup" : "/login";
  out.status = status;
  out.body = html(
      "<h1 class=\"page-title\">{}</h1>\n{}{}"
      "<form method=\"post\" action=\"{}\" class=\"account-form\">\n"
      "<input type=\"hidden\" name=\"csrf\" value=\"{}\"><input type=\"hidden\" name=\"next\" "
      "value=\"{}\">{}\n"
      "<label for=\"email\">Email</label>\n"
      "<input id=\"email\" type=\"email\" name=\"email\" required maxlength=\"254\" autocomplete=\"email\" "
      "value=\"{}\">\n"
      "<label for=\"password\">Password{}</label>\n"
      "<input id=\"password\" type=\"password\" name=\"password\" required minlength=\"{}\" "
      "autocomplete=\"{}\">\n"
      "<button type=\"submit\" class=\"button primary\">{}</button>\n</form>\n<p>{}</p>\n",
      text(out.title),
      message.empty() ? Html() : html("<p class=\"form-error\" role=\"alert\">{}</p>\n", text(message)),
      pending_notice(view, mode, then), signup ? Html::literal("/signup") : Html::literal("/login"),
      attr(view.csrf_token(true)), attr(safe_next(next)),
      pending ? html("<input type=\"hidden\" name=\"then\" value=\"{}\">", attr(pending_value(*pending)))
              : Html(),
      attr(email), signup ? Html::literal(" (at least 10 characters)") : Html(),
      signup ? Html::literal("10") : Html::literal("1"),
      signup ? Html::literal("new-password") : Html::literal("current-password"), text(out.title),
      signup ? html("Already have an account? <a href=\"{}\">Log in</a>", attr("/login?next=" + encoded_next))
             : html("No account yet? <a href=\"{}\">Sign up</a> · <a href=\"/password/forgot\">Forgot your "
                    "password?</a>",
                    attr("/signup?next=" + encoded_next)));
  web::Response res = view.render(out);
  res.set_header("Cache-Control", "no-store");
  return res;
}

const char* link_path(accounts::MailKind kind) {
  return kind == accounts::MailKind::kConfirmAccount ? "/account/confirm" : "/password/reset";
}

// Mails `mail` through the site's sender. A failure is logged; the page the reader sees stays the same
// (it must not differ between addresses with and without an account).
void send_mail(const SiteOptions& options, const accounts::AccountMail& mail) {
  const std::string url = options.base_url + link_path(mail.kind) + "?email=" + web::url_encode(mail.email) +
                          "&expires=" + std::to_string(mail.expires) +
                          "&sig=" + web::url_encode(mail.signature);
  if (auto sent = options.send_account_mail(mail.kind, mail.email, url); !sent) {
    spdlog::warn("accounts: mail not sent kind={} error=\"{}\"", static_cast<int>(mail.kind),
                 sent.error().message);
  }
}

// The link's fields, as hidden inputs of the form it opens.
struct LinkFields {
  std::string email;
  std::int64_t expires = 0;
  std::string sig;
};

std::optional<LinkFields> link_fields(std::string_view email, std::string_view expires,
                                      std::string_view sig) {
  const auto when = parse_int64(expires);
  if (!when || email.empty() || email.size() > 254 || sig.empty() || sig.size() > 128) return std::nullopt;
  return LinkFields{std::string(email), *when, std::string(sig)};
}

Html hidden_link_fields(const LinkFields& link) {
  return html(
      "<input type=\"hidden\" name=\"email\" value=\"{}\"><input type=\"hidden\" name=\"expires\" "
      "value=\"{}\"><input type=\"hidden\" name=\"sig\" value=\"{}\">\n",
      attr(link.email), number(link.expires), attr(link.sig));
}

web::Response bad_link(View& view, std::string_view path, bool reset) {
  return private_page(
      view, "Link expired", path,
      reset
          ? Html::literal("<p>This link is not valid or has expired. <a href=\"/password/forgot\">Ask for a "
                          "new one</a>.</p>\n")
          : Html::literal("<p>This link is not valid or has expired. <a href=\"/signup\">Sign up again</a> "
                          "to get a new one.</p>\n"),
      400);
}

web::Response forgot_form(View& view, std::string_view email, std::string_view message, int status) {
  return private_page(
      view, "Forgot your password?", "/password/forgot",
      html("{}<p>Give the address of your account and we will mail you a link to set a new password.</p>\n"
           "<form method=\"post\" action=\"/password/forgot\" class=\"account-form\">\n"
           "<input type=\"hidden\" name=\"csrf\" value=\"{}\">\n<label for=\"email\">Email</label>\n"
           "<input id=\"email\" type=\"email\" name=\"email\" required maxlength=\"254\" "
           "autocomplete=\"email\" value=\"{}\">\n"
           "<button type=\"submit\" class=\"button primary\">Mail me a link</button>\n</form>\n",
           message.empty() ? Html() : html("<p class=\"form-error\" role=\"alert\">{}</p>\n", text(message)),
           attr(view.csrf_token(true)), attr(email)),
      status);
}

web::Response new_password_form(View& view, const LinkFields& link, std::string_view message, int status) {
  return private_page(
      view, "Set a new password", "/password/reset",
      html("{}<form method=\"post\" action=\"/password/reset\" class=\"account-form\">\n"
           "<input type=\"hidden\" name=\"csrf\" value=\"{}\">{}"
           "<p>For {}. Every other session of this account ends.</p>\n"
           "<label for=\"password\">New password (at least 10 characters)</label>\n"
           "<input id=\"password\" type=\"password\" name=\"password\" required minlength=\"10\" "
           "autocomplete=\"new-password\">\n"
           "<button type=\"submit\" class=\"button primary\">Set password and log in</button>\n</form>\n",
           message.empty() ? Html() : html("<p class=\"form-error\" role=\"alert\">{}</p>\n", text(message)),
           attr(view.csrf_token(true)), hidden_link_fields(link), text(link.email)),
      status);
}

Result<web::Response> submit(View& view, const web::Request& request, Mode mode) {
  auto form = parse_form(request);
  if (!form) return std::unexpected(form.error());
  const std::string_view next = form_value(*form, "next");
  const std::string_view then = form_value(*form, "then");
  const std::string_view email = form_value(*form, "email");
  // Only echo back an address of sane length (a 10,000-character one is not shown again).
  const std::string_view shown_email = email.size() <= 254 ? email : std::string_view();
  const std::string_view password = form_value(*form, "password");
  auto failed = [&](const Error& error) -> Result<web::Response> {
    const int status = form_error_status(error.kind);
    if (status == 0) return std::unexpected(error);
    auto res = account_form(view, mode, next, then, shown_email, error.display(), status);
    if (error.kind == ErrorKind::kRateLimited) {
      res.set_header("Retry-After", "60");  // RFC 9110 section 10.2.3; the page says how long exactly
    }
    return res;
  };
  if (mode == Mode::kLogIn) {
    auto session =
        view.accounts().log_in(email, password, web::client_key(request.remote_address), view.now());
    if (!session) return failed(session.error());
    do_pending(view, session->reader_id, then);
    return with_session(view, *session, safe_next(next));
  }
  auto signed_up =
      view.accounts().sign_up(email, password, web::client_key(request.remote_address), view.now());
  if (!signed_up) return failed(signed_up.error());
  if (signed_up->session) {
    do_pending(view, signed_up->session->reader_id, then);
    return with_session(view, *signed_up->session, safe_next(next));
  }
  if (signed_up->mail) send_mail(view.options(), *signed_up->mail);
  // The same page for a new address, a pending one and one that has an account: the mail differs.
  return private_page(
      view, "Check your inbox", "/signup",
      html(
          "<p>We sent a mail to {}. Open the link in it to finish signing up; it works for {} hours.</p>\n"
          "<p>If this address already has an account, the mail says so and how to log in.</p>\n"
          "<p>No mail after a few minutes? Look in the spam folder, or <a href=\"/signup\">sign up again</a> "
          "for a new link; one mail is sent to an address per hour at most.</p>\n",
          text(shown_email),  // as typed: the stored spelling would tell that the address has an account
          number(
              std::chrono::duration_cast<std::chrono::hours>(view.accounts().options().confirm_link_lifetime)
                  .count())),
      200);
}

// A sign-up or log-in form whose token failed the check (routes.cpp): the form again, filled in, with a
// fresh token and the reason.
Result<web::Response> submit_without_token(View& view, const web::Request& request, Mode mode) {
  auto form = parse_form(request);
  if (!form) return std::unexpected(form.error());
  const std::string_view email = form_value(*form, "email");
  return account_form(view, mode, form_value(*form, "next"), form_value(*form, "then"),
                      email.size() <= 254 ? email : std::string_view(), kExpiredFormMessage, 403);
}

}  // namespace

Result<web::Response> signup_form(View& view, const web::Request& request, const Params&) {
  if (view.logged_in()) return see_other(view, safe_next(request.param("next").value_or("/")));
  return account_form(view, Mode::kSignUp, request.param("next").value_or("/"),
                      request.param("then").value_or(""), "", "", 200);
}

Result<web::Response> signup(View& view, const web::Request& request, const Params&) {
  return submit(view, request, Mode::kSignUp);
}

Result<web::Response> login_form(View& view, const web::Request& request, const Params&) {
  if (view.logged_in()) return see_other(view, safe_next(request.param("next").value_or("/")));
  return account_form(view, Mode::kLogIn, request.param("next").value_or("/"),
                      request.param("then").value_or(""), "", "", 200);
}

Result<web::Response> login(View& view, const web::Request& request, const Params&) {
  return submit(view, request, Mode::kLogIn);
}

Result<web::Response> signup_bad_token(View& view, const web::Request& request, const Params&) {
  return submit_without_token(view, request, Mode::kSignUp);
}

Result<web::Response> login_bad_token(View& view, const web::Request& request, const Params&) {
  return submit_without_token(view, request, Mode::kLogIn);
}

Result<web::Response> logout(View& view, const web::Request& request, const Params&) {
  auto form = parse_form(request);
  if (!form) return std::unexpected(form.error());
  if (!view.logged_in()) return see_other(view, "/");
  if (auto ok = view.accounts().log_out(*request.cookie(kSessionCookie)); !ok)
    return std::unexpected(ok.error());
  web::Response res = see_other(view, "/");
  res.headers.emplace_back("Set-Cookie", view.cookie(kSessionCookie, "", -1));
  return res;
}

Result<web::Response> logout_bad_token(View& view, const web::Request& request, const Params&) {
  // Nobody to log out: home, as before any check.
  if (!view.logged_in()) return see_other(view, "/");
  return csrf_rejected(view, request);
}

Result<web::Response> confirm_account_form(View& view, const web::Request& request, const Params&) {
  const auto link = link_fields(request.param("email").value_or(""), request.param("expires").value_or(""),
                                request.param("sig").value_or(""));
  if (!link) return bad_link(view, "/account/confirm", false);
  return private_page(view, "Confirm your address", "/account/confirm",
                      html("<form method=\"post\" action=\"/account/confirm\" class=\"account-form\">\n"
                           "<input type=\"hidden\" name=\"csrf\" value=\"{}\">{}"
                           "<p>Confirm {} to finish signing up.</p>\n"
                           "<button type=\"submit\" class=\"button primary\">Confirm and log in</button>\n"
                           "</form>\n",
                           attr(view.csrf_token(true)), hidden_link_fields(*link), text(link->email)),
                      200);
}

Result<web::Response> confirm_account(View& view, const web::Request& request, const Params&) {
  auto form = parse_form(request);
  if (!form) return std::unexpected(form.error());
  const auto link =
      link_fields(form_value(*form, "email"), form_value(*form, "expires"), form_value(*form, "sig"));
  if (!link) return bad_link(view, "/account/confirm", false);
  auto session = view.accounts().confirm(link->email, link->expires, link->sig, view.now());
  if (!session) {
    if (session.error().kind != ErrorKind::kForbidden) return std::unexpected(session.error());
    return bad_link(view, "/account/confirm", false);
  }
  return with_session(view, *session, "/");
}

Result<web::Response> forgot_password_form(View& view, const web::Request&, const Params&) {
  if (!view.options().send_account_mail) {
    return private_page(
        view, "Forgot your password?", "/password/forgot",
        Html::literal("<p>This site is not set up to send mail, so it cannot reset passwords. "
                      "Please ask the people who run it.</p>\n"),
        200);
  }
  return forgot_form(view, "", "", 200);
}

Result<web::Response> forgot_password(View& view, const web::Request& request, const Params& params) {
  if (!view.options().send_account_mail) return forgot_password_form(view, request, params);
  auto form = parse_form(request);
  if (!form) return std::unexpected(form.error());
  const std::string_view email = form_value(*form, "email");
  const std::string_view shown_email = email.size() <= 254 ? email : std::string_view();
  auto accepted =
      view.accounts().accept_password_reset(email, web::client_key(request.remote_address), view.now());
  if (!accepted) {
    const int status = form_error_status(accepted.error().kind);
    if (status == 0) return std::unexpected(accepted.error());
    auto res = forgot_form(view, shown_email, accepted.error().display(), status);
    if (accepted.error().kind == ErrorKind::kRateLimited) res.set_header("Retry-After", "60");
    return res;
  }
  // Whether the address has an account is found out off this thread, and the mail (if any) queued
  // there: this answer costs the same either way, so its timing tells nothing (docs/readers.md).
  SiteContext& context = view.context();
  const bool posted = context.mail_work && context.mail_work->post([&context, address = std::move(*accepted),
                                                                    now = view.now()] {
    auto mail = context.accounts->password_reset_mail(address, now);
    if (!mail) {
      spdlog::warn("accounts: password reset not mailed error=\"{}\"", mail.error().message);
    } else if (*mail) {
      send_mail(context.options, **mail);
    }
  });
  if (!posted) spdlog::warn("accounts: password reset dropped (background queue full or stopping)");
  // The same answer whether or not the address has an account.
  return private_page(
      view, "Check your inbox", "/password/forgot",
      html(
          "<p>If {} has an account here, a link to set a new password is on its way (one an hour at most). "
          "It works for {} hours.</p>\n",
          text(shown_email),
          number(std::chrono::duration_cast<std::chrono::hours>(view.accounts().options().reset_link_lifetime)
                     .count())),
      200);
}

Result<web::Response> forgot_password_bad_token(View& view, const web::Request& request, const Params&) {
  if (!view.options().send_account_mail) return csrf_rejected(view, request);
  auto form = parse_form(request);
  if (!form) return std::unexpected(form.error());
  const std::string_view email = form_value(*form, "email");
  return forgot_form(view, email.size() <= 254 ? email : std::string_view(), kExpiredFormMessage, 403);
}

Result<web::Response> reset_password_form(View& view, const web::Request& request, const Params&) {
  const auto link = link_fields(request.param("email").value_or(""), request.param("expires").value_or(""),
                                request.param("sig").value_or(""));
  if (!link) return bad_link(view, "/password/reset", true);
  auto valid = view.accounts().reset_link_valid(link->email, link->expires, link->sig, view.now());
  if (!valid) return std::unexpected(valid.error());
  if (!*valid) return bad_link(view, "/password/reset", true);
  return new_password_form(view, *link, "", 200);
}

Result<web::Response> reset_password(View& view, const web::Request& request, const Params&) {
  auto form = parse_form(request);
  if (!form) return std::unexpected(form.error());
  const auto link =
      link_fields(form_value(*form, "email"), form_value(*form, "expires"), form_value(*form, "sig"));
  if (!link) return bad_link(view, "/password/reset", true);
  auto session = view.accounts().reset_password(link->email, link->expires, link->sig,
                                                form_value(*form, "password"), view.now());
  if (!session) {
    // A bad or used link: say so. A weak password: the form again.
    if (session.error().kind == ErrorKind::kForbidden) return bad_link(view, "/password/reset", true);
    if (session.error().kind != ErrorKind::kInvalidInput) return std::unexpected(session.error());
    return new_password_form(view, *link, session.error().display(), 400);
  }
  return with_session(view, *session, "/");
}

Result<web::Response> reset_password_bad_token(View& view, const web::Request& request, const Params&) {
  auto form = parse_form(request);
  if (!form) return std::unexpected(form.error());
  const auto link =
      link_fields(form_value(*form, "email"), form_value(*form, "expires"), form_value(*form, "sig"));
  // Only a well-formed link gets its form back; anything else is simply refused.
  if (!link) return csrf_rejected(view, request);
  return new_password_form(view, *link, kExpiredFormMessage, 403);
}

}  // namespace longread::ui::pages
