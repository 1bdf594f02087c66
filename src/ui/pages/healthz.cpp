// "/healthz" — liveness for load balancers and the operator: 200 "ok" when the store answers.
#include "pages/pages.h"

namespace longread::ui::pages {

Result<web::Response> healthz(View& view, const web::Request&, const Params&) {
  web::Response res;
  res.content_type = "text/plain; charset=utf-8";
  res.set_header("Cache-Control", "no-store");
  if (auto blogs = view.store().blog_count(); !blogs) {
    res.status = 503;
    res.body = "store unavailable\n";
  } else {
    res.body = "ok\n";
  }
  return res;
}

}  // namespace longread::ui::pages
