// App passwords on the account page: a reader makes one per feed app (newsboat, NetNewsWire, Reeder…) to
// sign it in over the Google Reader API, sees it once, and revokes it when the app goes.
//   POST /account/app-passwords                 name → the new password, shown once
//   POST /account/app-passwords/{id}/revoke     the app is signed out at once
#include "core/strings.h"
#include "pages/forms.h"
#include "pages/pages.h"
#include "ui/format.h"

namespace longread::ui::pages {

Html app_passwords_section(View& view, std::string_view created_name, std::string_view created_password) {
  const std::string token = view.csrf_token();
  auto passwords = view.store().app_passwords(view.reader()->reader_id);
  Html rows;
  if (passwords) {
    for (const auto& p : *passwords) {
      rows += html(
          "<li>{} <span class=\"meta\">made {}{}</span> <form method=\"post\" "
          "action=\"/account/app-passwords/{}/revoke\" class=\"inline\"><input type=\"hidden\" name=\"csrf\" "
          "value=\"{}\"><button type=\"submit\" class=\"link\">Revoke</button></form></li>\n",
          text(p.name), text(relative_age(p.created_at, view.now())),
          p.last_used_at ? html(", last used {}", text(relative_age(*p.last_used_at, view.now()))) : Html(),
          number(p.id), attr(token));
    }
  }
  const Html created =
      created_password.empty()
          ? Html()
          : html(
                "<p role=\"status\" class=\"notice\">The app password for <strong>{}</strong> is <code "
                "class=\"app-password\">{}</code>. Copy it into the app now: it is not shown again.</p>\n",
                text(created_name), text(created_password));
  return html(
      "<section class=\"settings\" aria-labelledby=\"app-passwords\">\n<h2 id=\"app-passwords\">Feed "
      "apps</h2>\n"
      "<p>Read longread in newsboat, NetNewsWire, Reeder or any app that speaks the Google Reader API (as "
      "for FreshRSS): server <code>{}</code>, your email address, and an app password made here. Your "
      "account password never works in an app. Starring an article there adds it to your reading list.</p>\n"
      "{}{}<form method=\"post\" action=\"/account/app-passwords\" class=\"account-form\">\n"
      "<input type=\"hidden\" name=\"csrf\" value=\"{}\">\n"
      "<label for=\"app-name\">Name of the app</label>\n"
      "<input id=\"app-name\" type=\"text\" name=\"name\" required maxlength=\"60\" placeholder=\"newsboat "
      "on my "
      "laptop\">\n<button type=\"submit\" class=\"button\">Make an app "
      "password</button>\n</form>\n</section>\n",
      text(view.options().base_url), created,
      rows.empty() ? Html() : html("<ul class=\"app-passwords\">\n{}</ul>\n", rows), attr(token));
}

Result<web::Response> app_password_create(View& view, const web::Request& request, const Params&) {
  if (!view.logged_in()) return login_first(view, request, "/account");
  auto form = parse_form(request);
  if (!form) return std::unexpected(form.error());
  const std::string_view name = form_value(*form, "name");
  auto created = view.accounts().create_app_password(view.reader()->reader_id, name, view.now());
  Html body;
  int status = 200;
  if (!created) {
    status = form_error_status(created.error().kind);
    if (status == 0 && created.error().kind == ErrorKind::kConflict) status = 409;
    if (status == 0) return std::unexpected(created.error());
    body = html("<p class=\"form-error\" role=\"alert\">{}</p>\n{}", text(created.error().display()),
                app_passwords_section(view, "", ""));
  } else {
    body = app_passwords_section(view, collapse_whitespace(name), created->password);
  }
  body += Html::literal("<p><a href=\"/account\">Back to your account</a></p>\n");
  return private_page(view, "Feed apps", "/account/app-passwords", std::move(body), status);
}

Result<web::Response> app_password_revoke(View& view, const web::Request& request, const Params& params) {
  if (!view.logged_in()) return login_first(view, request, "/account");
  auto id = route_id(params.get("id"), "app password");
  if (!id) return std::unexpected(id.error());
  if (auto ok = view.store().revoke_app_password(view.reader()->reader_id, *id); !ok)
    return std::unexpected(ok.error());
  return see_other(view, "/account#app-passwords");
}

}  // namespace longread::ui::pages
