// The page handlers, one file each; routes.cpp maps paths to them. Handlers are thin: they
// query the store, build a Page and render it through View.
#pragma once

#include "ui/view.h"
#include "web/http.h"
#include "web/router.h"

namespace longread::ui::pages {

using Params = web::RouteParams;

Result<web::Response> front(View& view, const web::Request& request, const Params& params);
Result<web::Response> newest(View& view, const web::Request& request, const Params& params);
Result<web::Response> top(View& view, const web::Request& request, const Params& params);
Result<web::Response> article(View& view, const web::Request& request, const Params& params);
Result<web::Response> blog(View& view, const web::Request& request, const Params& params);
Result<web::Response> category(View& view, const web::Request& request, const Params& params);
Result<web::Response> categories(View& view, const web::Request& request, const Params& params);
Result<web::Response> about(View& view, const web::Request& request, const Params& params);
Result<web::Response> search(View& view, const web::Request& request, const Params& params);
Result<web::Response> healthz(View& view, const web::Request& request, const Params& params);
Result<web::Response> metrics(View& view, const web::Request& request, const Params& params);
// Readers: accounts, votes, reading list, newsletter.
Result<web::Response> signup_form(View& view, const web::Request& request, const Params& params);
Result<web::Response> signup(View& view, const web::Request& request, const Params& params);
Result<web::Response> login_form(View& view, const web::Request& request, const Params& params);
Result<web::Response> login(View& view, const web::Request& request, const Params& params);
Result<web::Response> logout(View& view, const web::Request& request, const Params& params);
Result<web::Response> settings(View& view, const web::Request& request, const Params& params);
Result<web::Response> change_password(View& view, const web::Request& request, const Params& params);
Result<web::Response> end_other_sessions(View& view, const web::Request& request, const Params& params);
Result<web::Response> delete_account(View& view, const web::Request& request, const Params& params);
Result<web::Response> confirm_account_form(View& view, const web::Request& request, const Params& params);
Result<web::Response> confirm_account(View& view, const web::Request& request, const Params& params);
Result<web::Response> forgot_password_form(View& view, const web::Request& request, const Params& params);
Result<web::Response> forgot_password(View& view, const web::Request& request, const Params& params);
Result<web::Response> reset_password_form(View& view, const web::Request& request, const Params& params);
Result<web::Response> reset_password(View& view, const web::Request& request, const Params& params);
Result<web::Response> vote(View& view, const web::Request& request, const Params& params);
Result<web::Response> unvote(View& view, const web::Request& request, const Params& params);
// Readers' flags on an article (a form on the article page).
Result<web::Response> flag(View& view, const web::Request& request, const Params& params);
Result<web::Response> unflag(View& view, const web::Request& request, const Params& params);
Result<web::Response> reading_list(View& view, const web::Request& request, const Params& params);
// "/for-you": a logged-in reader's fresh articles like what they voted for and saved (for_you.cpp).
Result<web::Response> for_you(View& view, const web::Request& request, const Params& params);
Result<web::Response> reading_list_change(View& view, const web::Request& request, const Params& params);
// The portable reading list (reading_list_portable.cpp).
Result<web::Response> reading_list_export(View& view, const web::Request& request, const Params& params);
Result<web::Response> reading_list_feed(View& view, const web::Request& request, const Params& params);
Result<web::Response> reading_list_feed_change(View& view, const web::Request& request, const Params& params);
Result<web::Response> reading_list_import(View& view, const web::Request& request, const Params& params);
Result<web::Response> saved_link_change(View& view, const web::Request& request, const Params& params);
// Sections of /reading-list: the reader's plain saved links (empty when none), and export, feed and import.
Html saved_links_section(View& view);
Html portability_section(View& view);
Result<web::Response> newsletter_form(View& view, const web::Request& request, const Params& params);
Result<web::Response> subscribe(View& view, const web::Request& request, const Params& params);
Result<web::Response> confirm_subscription(View& view, const web::Request& request, const Params& params);
Result<web::Response> unsubscribe(View& view, const web::Request& request, const Params& params);
// What a POST route answers when its CSRF token is missing or wrong; routes.cpp calls it instead of the
// handler (csrf_rejected is the default: 403). Each keeps what its form did before the check was moved
// out of the handlers: the form again with the reason, or, for a visitor without a session, the way to
// log in (nothing is written either way).
Result<web::Response> signup_bad_token(View& view, const web::Request& request, const Params& params);
Result<web::Response> login_bad_token(View& view, const web::Request& request, const Params& params);
Result<web::Response> logout_bad_token(View& view, const web::Request& request, const Params& params);
Result<web::Response> forgot_password_bad_token(View& view, const web::Request& request,
                                                const Params& params);
Result<web::Response> reset_password_bad_token(View& view, const web::Request& request, const Params& params);
Result<web::Response> account_change_bad_token(View& view, const web::Request& request, const Params& params);
Result<web::Response> vote_bad_token(View& view, const web::Request& request, const Params& params);
Result<web::Response> unvote_bad_token(View& view, const web::Request& request, const Params& params);
Result<web::Response> reading_list_bad_token(View& view, const web::Request& request, const Params& params);
Result<web::Response> flag_bad_token(View& view, const web::Request& request, const Params& params);
Result<web::Response> subscribe_bad_token(View& view, const web::Request& request, const Params& params);
Result<web::Response> bad_token(View& view, const web::Request& request, const Params& params);
// The admin area (operators only; routes.cpp checks the role before any of these runs).
Result<web::Response> admin_home(View& view, const web::Request& request, const Params& params);
Result<web::Response> admin_audit(View& view, const web::Request& request, const Params& params);
Result<web::Response> admin_junk(View& view, const web::Request& request, const Params& params);
Result<web::Response> admin_junk_decide(View& view, const web::Request& request, const Params& params);
Result<web::Response> admin_blogs(View& view, const web::Request& request, const Params& params);
Result<web::Response> admin_blog_pause(View& view, const web::Request& request, const Params& params);
Result<web::Response> admin_blog_resume(View& view, const web::Request& request, const Params& params);
Result<web::Response> admin_blog_edit_form(View& view, const web::Request& request, const Params& params);
Result<web::Response> admin_blog_edit(View& view, const web::Request& request, const Params& params);
Result<web::Response> admin_blog_remove_form(View& view, const web::Request& request, const Params& params);
Result<web::Response> admin_blog_remove(View& view, const web::Request& request, const Params& params);
// Blog suggestions (pages/suggest.cpp, pages/admin_suggestions.cpp): readers suggest, operators review
// and add blogs; discovery runs in the background.
Result<web::Response> suggest_form(View& view, const web::Request& request, const Params& params);
Result<web::Response> suggest(View& view, const web::Request& request, const Params& params);
Result<web::Response> suggest_bad_token(View& view, const web::Request& request, const Params& params);
Result<web::Response> admin_suggestions(View& view, const web::Request& request, const Params& params);
Result<web::Response> admin_suggestion_approve(View& view, const web::Request& request, const Params& params);
Result<web::Response> admin_suggestion_reject(View& view, const web::Request& request, const Params& params);
Result<web::Response> admin_blog_add(View& view, const web::Request& request, const Params& params);
Result<web::Response> admin_lifecycle(View& view, const web::Request& request, const Params& params);
Result<web::Response> admin_lifecycle_retire(View& view, const web::Request& request, const Params& params);
Result<web::Response> admin_lifecycle_unretire(View& view, const web::Request& request, const Params& params);
Result<web::Response> admin_lifecycle_accept_move(View& view, const web::Request& request,
                                                  const Params& params);
Result<web::Response> admin_flags(View& view, const web::Request& request, const Params& params);
Result<web::Response> admin_flags_decide(View& view, const web::Request& request, const Params& params);
// The answer to a request for /admin by someone without the operator role: a visitor's GET goes to log
// in, everything else is 403.
web::Response admin_refused(const View& view, const web::Request& request);
// The blogs followed: a page and an OPML list.
Result<web::Response> blogs(View& view, const web::Request& request, const Params& params);
Result<web::Response> blogs_opml(View& view, const web::Request& request, const Params& params);
// The blogs a reader can see: those with visible articles, by category then name.
Result<std::vector<model::Blog>> listed_blogs(View& view);

// The Google Reader API for feed apps (reader_api.cpp), and the account page's app passwords.
Result<web::Response> api_client_login(View& view, const web::Request& request, const Params& params);
Result<web::Response> api_token(View& view, const web::Request& request, const Params& params);
Result<web::Response> api_user_info(View& view, const web::Request& request, const Params& params);
Result<web::Response> api_tag_list(View& view, const web::Request& request, const Params& params);
Result<web::Response> api_subscriptions(View& view, const web::Request& request, const Params& params);
Result<web::Response> api_stream_contents(View& view, const web::Request& request, const Params& params);
Result<web::Response> api_stream_item_ids(View& view, const web::Request& request, const Params& params);
Result<web::Response> api_stream_items_contents(View& view, const web::Request& request,
                                                const Params& params);
Result<web::Response> api_edit_tag(View& view, const web::Request& request, const Params& params);
Result<web::Response> api_mark_all_read(View& view, const web::Request& request, const Params& params);
Result<web::Response> api_atom(View& view, const web::Request& request, const Params& params);
Result<web::Response> app_password_create(View& view, const web::Request& request, const Params& params);
Result<web::Response> app_password_revoke(View& view, const web::Request& request, const Params& params);
Html app_passwords_section(View& view, std::string_view created_name, std::string_view created_password);

// Personal filters (filters.cpp): mutes, read marks, reading preferences.
Result<web::Response> mute_blog(View& view, const web::Request& request, const Params& params);
Result<web::Response> mute_category(View& view, const web::Request& request, const Params& params);
Result<web::Response> mark_read(View& view, const web::Request& request, const Params& params);
Result<web::Response> save_filters(View& view, const web::Request& request, const Params& params);
Result<web::Response> filters_bad_token(View& view, const web::Request& request, const Params& params);

// The site's own Atom feeds.
Result<web::Response> site_feed(View& view, const web::Request& request, const Params& params);
Result<web::Response> category_feed(View& view, const web::Request& request, const Params& params);
Result<web::Response> blog_feed(View& view, const web::Request& request, const Params& params);
Result<web::Response> top_feed(View& view, const web::Request& request, const Params& params);
// The site's error page for a status and a message safe to show.
web::Response error(const View& view, int status, std::string_view message);

}  // namespace longread::ui::pages
