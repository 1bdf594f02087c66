// "POST /articles/<id>/flag" and "/unflag": a logged-in reader flags an article (spam, AI-generated, not an
// article, broken link) once, or withdraws their flag. The store applies the daily limit and, at
// moderation.flags_to_hide distinct flags, holds the article until an operator decides (/admin/flags).
// Without a session the visitor is sent to log in; the answer is a 303 back to the article with what
// happened ("?flag=flagged|already|limit|withdrawn"), which the page shows.
#include "pages/forms.h"
#include "pages/pages.h"

namespace longread::ui::pages {
namespace {

// "next" plus the outcome, for the article page's notice.
std::string back_to(std::string_view next, std::string_view outcome) {
  const std::string path = safe_next(next);
  return path + (path.find('?') == std::string::npos ? "?" : "&") + "flag=" + std::string(outcome);
}

Result<web::Response> change_flag(View& view, const web::Request& request, const Params& params, bool flag) {
  auto id = route_id(params.get("id"), "article");
  if (!id) return std::unexpected(id.error());
  auto form = parse_form(request);
  if (!form) return std::unexpected(form.error());
  const std::string_view next = form_value(*form, "next");
  if (!view.logged_in()) return login_first(view, request, next);
  const std::int64_t reader_id = view.reader()->reader_id;
  if (!flag) {
    auto withdrawn = view.store().withdraw_flag(reader_id, *id);
    if (!withdrawn) return std::unexpected(withdrawn.error());
    return see_other(view, back_to(next, "withdrawn"));
  }
  const auto reason = storage::parse_flag_reason(form_value(*form, "reason"));
  if (!reason) {
    return fail(ErrorKind::kInvalidInput, "ui: unknown flag reason",
                "Choose what is wrong with the article: spam, AI-generated, not an article or broken link.");
  }
  auto result = view.store().flag_article(reader_id, *id, *reason, view.now(), view.options().flag_rules);
  if (!result) return std::unexpected(result.error());
  switch (result->outcome) {
    case storage::FlagOutcome::kFlagged:
      return see_other(view, back_to(next, "flagged"));
    case storage::FlagOutcome::kAlreadyFlagged:
      return see_other(view, back_to(next, "already"));
    case storage::FlagOutcome::kOverDailyLimit:
      return see_other(view, back_to(next, "limit"));
  }
  return see_other(view, back_to(next, "flagged"));
}

}  // namespace

Result<web::Response> flag(View& view, const web::Request& request, const Params& params) {
  return change_flag(view, request, params, true);
}

Result<web::Response> unflag(View& view, const web::Request& request, const Params& params) {
  return change_flag(view, request, params, false);
}

Result<web::Response> flag_bad_token(View& view, const web::Request& request, const Params&) {
  // A visitor without a session is sent to log in (nothing is written); a reader's form without a valid
  // token is refused.
  if (!view.logged_in()) {
    auto form = parse_form(request);
    return login_first(view, request, form ? form_value(*form, "next") : std::string_view("/"));
  }
  return csrf_rejected(view, request);
}

}  // namespace longread::ui::pages
