// "POST /articles/<id>/vote" and "/unvote": one vote per reader and article. With JavaScript the
// page posts with Accept: application/json and gets {"voted":..,"votes":..}; without, a 303 back to "next".
#include "pages/forms.h"
#include "pages/pages.h"

namespace longread::ui::pages {
namespace {

Result<web::Response> set_vote(View& view, const web::Request& request, const Params& params, bool vote) {
  auto id = route_id(params.get("id"), "article");
  if (!id) return std::unexpected(id.error());
  auto form = parse_form(request);
  if (!form) return std::unexpected(form.error());
  const std::string next = safe_next(form_value(*form, "next"));
  // A visitor's vote is counted once they have logged in or signed up (PendingAction); an unvote has
  // nothing to keep.
  if (!view.logged_in()) {
    return login_first(view, request, next,
                       vote ? std::optional<PendingAction>({PendingAction::Kind::kVote, *id}) : std::nullopt);
  }
  auto state = view.store().set_vote(view.reader()->reader_id, *id, vote, view.now());
  if (!state) {
    if (state.error().kind == ErrorKind::kNotFound && wants_json(request)) {
      return json_response(404, "{\"error\":\"No such article.\"}");
    }
    return std::unexpected(state.error());
  }
  if (wants_json(request)) {
    return json_response(200, "{\"voted\":" + std::string(state->voted ? "true" : "false") +
                                  ",\"votes\":" + std::to_string(state->votes) + "}");
  }
  return see_other(view, next);
}

}  // namespace

Result<web::Response> vote_bad_token(View& view, const web::Request& request, const Params& params) {
  // A visitor's vote from a cached page (which carries no token) goes through log-in, where the form has
  // one, and is only counted once they have a session; a reader's form without a valid token is refused.
  if (!view.logged_in()) return vote(view, request, params);
  return csrf_rejected(view, request);
}

Result<web::Response> unvote_bad_token(View& view, const web::Request& request, const Params& params) {
  if (!view.logged_in()) return unvote(view, request, params);
  return csrf_rejected(view, request);
}

Result<web::Response> vote(View& view, const web::Request& request, const Params& params) {
  return set_vote(view, request, params, true);
}

Result<web::Response> unvote(View& view, const web::Request& request, const Params& params) {
  return set_vote(view, request, params, false);
}

}  // namespace longread::ui::pages
