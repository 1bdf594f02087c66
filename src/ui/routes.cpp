#include "ui/routes.h"

#include "pages/pages.h"

namespace longread::ui {
namespace {

using PageFn = Result<web::Response> (*)(View&, const web::Request&, const web::RouteParams&);

web::RouteHandler page(SiteContext& context, PageFn fn) {
  return [&context, fn](const web::Request& request, const web::RouteParams& params) {
    View view(context, &request);
    return fn(view, request, params);
  };
}

}  // namespace

web::Router make_routes(SiteContext& context) {
  web::Router router;
  router.add("GET", "/", page(context, pages::front));
  router.add("GET", "/newest", page(context, pages::newest));
  router.add("GET", "/top", page(context, pages::top));
  router.add("GET", "/blog/{blog}/read/{article}", page(context, pages::article));
  router.add("GET", "/blog/{blog}", page(context, pages::blog));
  router.add("GET", "/category/{slug}", page(context, pages::category));
  router.add("GET", "/categories", page(context, pages::categories));
  router.add("GET", "/blogs", page(context, pages::blogs));
  router.add("GET", "/blogs.opml", page(context, pages::blogs_opml));
  router.add("GET", "/feed.atom", page(context, pages::site_feed));
  router.add("GET", "/category/{slug}/feed.atom", page(context, pages::category_feed));
  router.add("GET", "/about", page(context, pages::about));
  router.add("GET", "/search", page(context, pages::search));
  router.add("GET", "/healthz", page(context, pages::healthz));
  router.add("GET", "/metrics", page(context, pages::metrics));
  router.add("GET", "/signup", page(context, pages::signup_form));
  router.add("POST", "/signup", page(context, pages::signup));
  router.add("GET", "/login", page(context, pages::login_form));
  router.add("POST", "/login", page(context, pages::login));
  router.add("POST", "/logout", page(context, pages::logout));
  router.add("GET", "/account", page(context, pages::settings));
  router.add("POST", "/account/password", page(context, pages::change_password));
  router.add("POST", "/account/sessions", page(context, pages::end_other_sessions));
  router.add("POST", "/account/delete", page(context, pages::delete_account));
  router.add("GET", "/account/confirm", page(context, pages::confirm_account_form));
  router.add("POST", "/account/confirm", page(context, pages::confirm_account));
  router.add("GET", "/password/forgot", page(context, pages::forgot_password_form));
  router.add("POST", "/password/forgot", page(context, pages::forgot_password));
  router.add("GET", "/password/reset", page(context, pages::reset_password_form));
  router.add("POST", "/password/reset", page(context, pages::reset_password));
  router.add("POST", "/articles/{id}/vote", page(context, pages::vote));
  router.add("POST", "/articles/{id}/unvote", page(context, pages::unvote));
  router.add("GET", "/reading-list", page(context, pages::reading_list));
  router.add("POST", "/reading-list/{id}", page(context, pages::reading_list_change));
  router.add("GET", "/newsletter", page(context, pages::newsletter_form));
  router.add("POST", "/newsletter", page(context, pages::subscribe));
  router.add("GET", "/newsletter/confirm", page(context, pages::confirm_subscription));
  router.add("GET", "/newsletter/unsubscribe", page(context, pages::unsubscribe));
  router.add("POST", "/newsletter/unsubscribe", page(context, pages::unsubscribe));
  router.add("GET", "/static/{file}",
             [&context](const web::Request&, const web::RouteParams& params) -> Result<web::Response> {
               if (auto asset = context.assets.response(params.get("file"))) return std::move(*asset);
               return fail(ErrorKind::kNotFound, "ui: no static asset", "No such file.");
             });
  return router;
}

}  // namespace longread::ui
