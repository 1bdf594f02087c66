#include "ui/routes.h"

#include "pages/forms.h"
#include "pages/pages.h"

namespace longread::ui {
namespace {

using PageFn = Result<web::Response> (*)(View&, const web::Request&, const web::RouteParams&);

// The admin area: every path under /admin. The role is checked here for each of them, so a page added
// under /admin cannot forget it.
bool admin_path(std::string_view pattern) {
  return pattern == "/admin" || pattern.starts_with("/admin/");
}

// Builds the router. Every route goes through get() or post(): post() checks the form's CSRF token
// before the handler runs (the handlers do not check it again), and both check the operator role on
// admin paths first.
class RouteTable {
 public:
  explicit RouteTable(SiteContext& context) : context_(context) {}

  void get(std::string_view pattern, PageFn fn) {
    router_.add("GET", pattern,
                [&context = context_, fn, admin = admin_path(pattern)](const web::Request& request,
                                                                       const web::RouteParams& params) {
                  View view(context, &request);
                  if (admin && !view.is_operator())
                    return Result<web::Response>(pages::admin_refused(view, request));
                  return fn(view, request, params);
                });
  }

  // A form. `bad_token` answers instead of `fn` when the token is missing or does not match the
  // visitor's binding (View::csrf_valid).
  void post(std::string_view pattern, PageFn fn, PageFn bad_token = pages::bad_token) {
    router_.add("POST", pattern,
                [&context = context_, fn, bad_token, admin = admin_path(pattern)](
                    const web::Request& request, const web::RouteParams& params) -> Result<web::Response> {
                  View view(context, &request);
                  if (admin && !view.is_operator()) return pages::admin_refused(view, request);
                  auto form = pages::parse_form(request);
                  if (!form) return std::unexpected(form.error());
                  if (!view.csrf_valid(pages::form_value(*form, "csrf")))
                    return bad_token(view, request, params);
                  return fn(view, request, params);
                });
  }

  // A POST that carries no token because it does not come from our forms: RFC 8058's one-click
  // unsubscribe, sent by mail clients. Its authority is the signed link itself (checked by the handler).
  void post_signed_link(std::string_view pattern, PageFn fn) {
    router_.add("POST", pattern,
                [&context = context_, fn](const web::Request& request, const web::RouteParams& params) {
                  View view(context, &request);
                  return fn(view, request, params);
                });
  }

  // The Google Reader API: apps authenticate each request with "Authorization: GoogleLogin auth=…" and
  // changes with its edit token (pages/reader_api.cpp); no cookie is read, so no CSRF token applies.
  void api(std::string method, std::string_view pattern, PageFn fn) {
    router_.add(std::move(method), pattern,
                [&context = context_, fn](const web::Request& request, const web::RouteParams& params) {
                  View view(context, &request);
                  return fn(view, request, params);
                });
  }

  void add_raw(std::string method, std::string_view pattern, web::RouteHandler handler) {
    router_.add(std::move(method), pattern, std::move(handler));
  }

  web::Router take() { return std::move(router_); }

 private:
  SiteContext& context_;
  web::Router router_;
};

}  // namespace

web::Router make_routes(SiteContext& context) {
  RouteTable routes(context);
  routes.get("/", pages::front);
  routes.get("/newest", pages::newest);
  routes.get("/top", pages::top);
  routes.get("/blog/{blog}/read/{article}", pages::article);
  routes.get("/blog/{blog}", pages::blog);
  routes.get("/blog/{blog}/feed.atom", pages::blog_feed);
  routes.get("/category/{slug}", pages::category);
  routes.get("/categories", pages::categories);
  routes.get("/blogs", pages::blogs);
  routes.get("/blogs.opml", pages::blogs_opml);
  routes.get("/feed.atom", pages::site_feed);
  routes.get("/category/{slug}/feed.atom", pages::category_feed);
  routes.get("/top/feed.atom", pages::top_feed);
  routes.get("/about", pages::about);
  routes.get("/search", pages::search);
  routes.get("/healthz", pages::healthz);
  routes.get("/metrics", pages::metrics);
  routes.get("/signup", pages::signup_form);
  routes.post("/signup", pages::signup, pages::signup_bad_token);
  routes.get("/login", pages::login_form);
  routes.post("/login", pages::login, pages::login_bad_token);
  routes.post("/logout", pages::logout, pages::logout_bad_token);
  routes.get("/account", pages::settings);
  routes.post("/account/password", pages::change_password, pages::account_change_bad_token);
  routes.post("/account/sessions", pages::end_other_sessions, pages::account_change_bad_token);
  routes.post("/account/delete", pages::delete_account, pages::account_change_bad_token);
  routes.get("/account/confirm", pages::confirm_account_form);
  routes.post("/account/confirm", pages::confirm_account);
  routes.get("/password/forgot", pages::forgot_password_form);
  routes.post("/password/forgot", pages::forgot_password, pages::forgot_password_bad_token);
  routes.get("/password/reset", pages::reset_password_form);
  routes.post("/password/reset", pages::reset_password, pages::reset_password_bad_token);
  routes.post("/articles/{id}/vote", pages::vote, pages::vote_bad_token);
  routes.post("/articles/{id}/unvote", pages::unvote, pages::unvote_bad_token);
  routes.post("/articles/{id}/flag", pages::flag, pages::flag_bad_token);
  routes.post("/articles/{id}/unflag", pages::unflag, pages::flag_bad_token);
  // Personal filters (pages/filters.cpp).
  routes.post("/mutes/blog/{blog}", pages::mute_blog, pages::filters_bad_token);
  routes.post("/mutes/category/{slug}", pages::mute_category, pages::filters_bad_token);
  routes.post("/articles/{id}/read", pages::mark_read, pages::filters_bad_token);
  routes.post("/account/filters", pages::save_filters, pages::filters_bad_token);
  routes.get("/reading-list", pages::reading_list);
  routes.get("/for-you", pages::for_you);
  // Before "/reading-list/{id}", which would take "feed" and "import" for ids.
  routes.get("/reading-list/export/{format}", pages::reading_list_export);
  routes.get("/reading-list/feed.atom", pages::reading_list_feed);
  routes.post("/reading-list/feed", pages::reading_list_feed_change, pages::account_change_bad_token);
  routes.post("/reading-list/import", pages::reading_list_import, pages::account_change_bad_token);
  routes.post("/reading-list/links/{id}", pages::saved_link_change, pages::account_change_bad_token);
  routes.post("/reading-list/{id}", pages::reading_list_change, pages::reading_list_bad_token);
  routes.get("/newsletter", pages::newsletter_form);
  routes.post("/newsletter", pages::subscribe, pages::subscribe_bad_token);
  routes.get("/newsletter/confirm", pages::confirm_subscription);
  routes.get("/newsletter/unsubscribe", pages::unsubscribe);
  routes.post_signed_link("/newsletter/unsubscribe", pages::unsubscribe);
  routes.post("/account/app-passwords", pages::app_password_create, pages::account_change_bad_token);
  routes.post("/account/app-passwords/{id}/revoke", pages::app_password_revoke,
              pages::account_change_bad_token);
  // Feed apps (docs/reader-api.md). A stream id is several path segments ("feed/12" arrives as feed%2F12).
  routes.api("POST", "/accounts/ClientLogin", pages::api_client_login);
  routes.api("GET", "/reader/api/0/token", pages::api_token);
  routes.api("GET", "/reader/api/0/user-info", pages::api_user_info);
  routes.api("GET", "/reader/api/0/tag/list", pages::api_tag_list);
  routes.api("GET", "/reader/api/0/subscription/list", pages::api_subscriptions);
  routes.api("GET", "/reader/api/0/stream/contents", pages::api_stream_contents);
  routes.api("GET", "/reader/api/0/stream/contents/feed/{blog}", pages::api_stream_contents);
  routes.api("GET", "/reader/api/0/stream/contents/user/{user}/state/com.google/{state}",
             pages::api_stream_contents);
  routes.api("GET", "/reader/api/0/stream/contents/user/{user}/label/{label}", pages::api_stream_contents);
  routes.api("GET", "/reader/api/0/stream/items/ids", pages::api_stream_item_ids);
  routes.api("POST", "/reader/api/0/stream/items/contents", pages::api_stream_items_contents);
  routes.api("POST", "/reader/api/0/edit-tag", pages::api_edit_tag);
  routes.api("POST", "/reader/api/0/mark-all-as-read", pages::api_mark_all_read);
  routes.api("GET", "/reader/atom/feed/{blog}", pages::api_atom);
  routes.api("GET", "/reader/atom/user/{user}/state/com.google/{state}", pages::api_atom);
  routes.api("GET", "/reader/atom/user/{user}/label/{label}", pages::api_atom);
  // The admin area (docs/operating.md): operators only.
  routes.get("/admin", pages::admin_home);
  routes.get("/admin/audit", pages::admin_audit);
  routes.get("/admin/blogs", pages::admin_blogs);
  routes.post("/admin/blogs/{blog}/pause", pages::admin_blog_pause);
  routes.post("/admin/blogs/{blog}/resume", pages::admin_blog_resume);
  routes.get("/admin/blogs/{blog}/edit", pages::admin_blog_edit_form);
  routes.post("/admin/blogs/{blog}/edit", pages::admin_blog_edit);
  routes.get("/admin/blogs/{blog}/remove", pages::admin_blog_remove_form);
  routes.post("/admin/blogs/{blog}/remove", pages::admin_blog_remove);
  routes.get("/admin/junk", pages::admin_junk);
  routes.post("/admin/junk/{article}/decide", pages::admin_junk_decide);
  // Blog suggestions: readers suggest; operators review, approve or reject, and add blogs.
  routes.get("/suggest", pages::suggest_form);
  routes.post("/suggest", pages::suggest, pages::suggest_bad_token);
  routes.get("/admin/suggestions", pages::admin_suggestions);
  routes.post("/admin/suggestions/{suggestion}/approve", pages::admin_suggestion_approve);
  routes.post("/admin/suggestions/{suggestion}/reject", pages::admin_suggestion_reject);
  routes.post("/admin/blogs/add", pages::admin_blog_add);
  // Readers' flags: flagged and held articles, keep or junk (pages/admin_flags.cpp).
  routes.get("/admin/flags", pages::admin_flags);
  routes.post("/admin/flags/{article}/decide", pages::admin_flags_decide);
  // Blog lifecycle: dead, moved, inactive and retired blogs (pages/admin_lifecycle.cpp).
  routes.get("/admin/lifecycle", pages::admin_lifecycle);
  routes.post("/admin/lifecycle/{blog}/retire", pages::admin_lifecycle_retire);
  routes.post("/admin/lifecycle/{blog}/unretire", pages::admin_lifecycle_unretire);
  routes.post("/admin/lifecycle/{blog}/accept-move", pages::admin_lifecycle_accept_move);
  routes.add_raw("GET", "/static/{file}",
                 [&context](const web::Request&, const web::RouteParams& params) -> Result<web::Response> {
                   if (auto asset = context.assets.response(params.get("file"))) return std::move(*asset);
                   return fail(ErrorKind::kNotFound, "ui: no static asset", "No such file.");
                 });
  return routes.take();
}

}  // namespace longread::ui
