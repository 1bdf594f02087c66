#include "ui/routes.h"

#include "pages/pages.h"

namespace longread::ui {
namespace {

using PageFn = Result<web::Response> (*)(View&, const web::Request&, const web::RouteParams&);

web::RouteHandler page(SiteContext& context, PageFn fn) {
  return [&context, fn](const web::Request& request, const web::RouteParams& params) {
    View view(context);
    return fn(view, request, params);
  };
}

}  // namespace

web::Router make_routes(SiteContext& context) {
  web::Router router;
  router.add("GET", "/", page(context, pages::front));
  router.add("GET", "/top", page(context, pages::top));
  router.add("GET", "/blog/{blog}/read/{article}", page(context, pages::article));
  router.add("GET", "/blog/{blog}", page(context, pages::blog));
  router.add("GET", "/category/{slug}", page(context, pages::category));
  router.add("GET", "/categories", page(context, pages::categories));
  router.add("GET", "/about", page(context, pages::about));
  router.add("GET", "/search", page(context, pages::search));
  router.add("GET", "/healthz", page(context, pages::healthz));
  router.add("GET", "/static/{file}",
             [&context](const web::Request&, const web::RouteParams& params) -> Result<web::Response> {
               if (auto asset = context.assets.response(params.get("file"))) return std::move(*asset);
               return fail(ErrorKind::kNotFound, "ui: no static asset", "No such file.");
             });
  return router;
}

}  // namespace longread::ui
