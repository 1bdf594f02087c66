// The page handlers, one file each (habit 10); routes.cpp maps paths to them. Handlers are thin: they
// query the store, build a Page and render it through View.
#pragma once

#include "ui/view.h"
#include "web/http.h"
#include "web/router.h"

namespace longread::ui::pages {

using Params = web::RouteParams;

Result<web::Response> front(View& view, const web::Request& request, const Params& params);
Result<web::Response> top(View& view, const web::Request& request, const Params& params);
Result<web::Response> article(View& view, const web::Request& request, const Params& params);
Result<web::Response> blog(View& view, const web::Request& request, const Params& params);
Result<web::Response> category(View& view, const web::Request& request, const Params& params);
Result<web::Response> categories(View& view, const web::Request& request, const Params& params);
Result<web::Response> about(View& view, const web::Request& request, const Params& params);
Result<web::Response> search(View& view, const web::Request& request, const Params& params);
Result<web::Response> healthz(View& view, const web::Request& request, const Params& params);
// The site's error page for a status and a message safe to show.
web::Response error(const View& view, int status, std::string_view message);

}  // namespace longread::ui::pages
