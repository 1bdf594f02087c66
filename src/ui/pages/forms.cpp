#include "pages/forms.h"

#include <charconv>
#include <chrono>

#include <spdlog/spdlog.h>

#include "core/strings.h"
#include "pages/pages.h"
#include "web/multipart.h"

namespace longread::ui::pages {

Result<web::Fields> parse_form(const web::Request& request) {
  const auto type = request.header("Content-Type").value_or("");
  if (const auto boundary = web::multipart_boundary(type)) {
    // A form with a file input (the reading-list import): each part a field, a file's bytes its value.
    auto parts = web::parse_multipart(request.body, *boundary);
    if (!parts) return std::unexpected(parts.error());
    web::Fields fields;
    for (auto& part : *parts) fields.emplace_back(std::move(part.name), std::move(part.value));
    return fields;
  }
  if (!type.empty() && !to_lower_ascii(type).starts_with("application/x-www-form-urlencoded")) {
    return fail(ErrorKind::kInvalidInput, "ui: form is not urlencoded",
                "The form was sent in an unknown encoding.");
  }
  web::Fields fields;
  for (const std::string_view pair : split(request.body, '&')) {
    if (pair.empty()) continue;
    const auto eq = pair.find('=');
    const std::string_view name = pair.substr(0, eq);
    const std::string_view value = eq == std::string_view::npos ? std::string_view() : pair.substr(eq + 1);
    fields.emplace_back(web::url_decode(name, true), web::url_decode(value, true));
  }
  return fields;
}

std::string_view form_value(const web::Fields& form, std::string_view name) {
  for (const auto& [key, value] : form) {
    if (key == name) return value;
  }
  return {};
}

std::optional<std::int64_t> parse_int64(std::string_view s) {
  std::int64_t value = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec != std::errc{} || end != s.data() + s.size() || s.empty()) return std::nullopt;
  return value;
}

Result<std::int64_t> route_id(std::string_view segment, std::string_view what) {
  const auto id = parse_int64(segment);
  if (!id || *id <= 0) {
    return fail(ErrorKind::kNotFound, "ui: malformed " + std::string(what) + " id", "No such article.");
  }
  return *id;
}

bool wants_json(const web::Request& request) {
  return request.header("Accept").value_or("").find("application/json") != std::string_view::npos;
}

web::Response json_response(int status, std::string body) {
  web::Response res = web::Response::text(status, std::move(body), "application/json");
  res.set_header("Cache-Control", "no-store");
  return res;
}

web::Response see_other(const View& view, std::string_view location) {
  web::Response res = web::Response::redirect(303, std::string(location));
  res.set_header("Cache-Control", "no-store");
  view.add_cookies(res);
  return res;
}

std::optional<PendingAction> parse_pending(std::string_view then) {
  PendingAction action;
  if (then.starts_with("vote:")) {
    action.kind = PendingAction::Kind::kVote;
  } else if (then.starts_with("save:")) {
    action.kind = PendingAction::Kind::kSave;
  } else {
    return std::nullopt;
  }
  const auto id = parse_int64(then.substr(5));
  if (!id || *id <= 0) return std::nullopt;
  action.article_id = *id;
  return action;
}

std::string pending_value(const PendingAction& action) {
  return (action.kind == PendingAction::Kind::kVote ? "vote:" : "save:") + std::to_string(action.article_id);
}

void do_pending(const View& view, std::int64_t reader_id, std::string_view then) {
  const auto action = parse_pending(then);
  if (!action) return;
  std::optional<Error> failed;
  if (action->kind == PendingAction::Kind::kVote) {
    if (auto voted = view.store().set_vote(reader_id, action->article_id, true, view.now()); !voted)
      failed = voted.error();
  } else if (auto saved = view.store().set_saved(reader_id, action->article_id, true, view.now()); !saved) {
    failed = saved.error();
  }
  if (failed && failed->kind != ErrorKind::kNotFound) {
    spdlog::warn("ui: reader_id={} article_id={} the action started before log-in failed: {}", reader_id,
                 action->article_id, failed->message);
  }
}

web::Response login_first(const View& view, const web::Request& request, std::string_view next,
                          std::optional<PendingAction> then) {
  std::string login = "/login?next=" + web::url_encode(safe_next(next));
  if (then) login += "&then=" + web::url_encode(pending_value(*then));
  if (wants_json(request)) {
    // The URL is a site path built from an encoded value: no quote or backslash can appear in it.
    return json_response(401, "{\"error\":\"Please log in first.\",\"login\":\"" + login + "\"}");
  }
  return see_other(view, login);
}

web::Response private_page(View& view, std::string_view title, std::string_view path, Html body, int status) {
  Page out;
  out.title = std::string(title);
  out.description = "Your " + view.options().site_name + " account.";
  out.path = std::string(path);
  out.status = status;
  out.body = html("<h1 class=\"page-title\">{}</h1>\n{}", text(title), std::move(body));
  web::Response res = view.render(out);
  res.set_header("Cache-Control", "no-store");
  return res;
}

web::Response with_session(const View& view, const accounts::NewSession& session, std::string_view location) {
  web::Response res = see_other(view, location);
  const auto lifetime = std::chrono::duration_cast<std::chrono::seconds>(session.expires_at - view.now());
  res.headers.emplace_back("Set-Cookie", view.cookie(kSessionCookie, session.token, lifetime.count()));
  res.headers.emplace_back("Set-Cookie", view.cookie(kCsrfCookie, "", -1));
  return res;
}

int form_error_status(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::kRateLimited:
      return 429;
    case ErrorKind::kInvalidInput:
      return 400;
    case ErrorKind::kForbidden:
      return 403;
    default:
      return 0;
  }
}

web::Response csrf_rejected(const View& view, const web::Request& request) {
  constexpr std::string_view kMessage =
      "This form has expired or was not sent from this site. Please reload the page and try again.";
  if (wants_json(request)) return json_response(403, "{\"error\":\"" + std::string(kMessage) + "\"}");
  return error(view, 403, kMessage);
}

Result<web::Response> bad_token(View& view, const web::Request& request, const Params&) {
  return csrf_rejected(view, request);
}

}  // namespace longread::ui::pages
