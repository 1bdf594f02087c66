// A reader's personal filters (docs/readers.md, "Personal filters"):
//   POST /mutes/blog/<id> and /mutes/category/<slug> (action mute or unmute), from the article page, the
//     blog page and the account page;
//   POST /articles/<id>/read (action read or unread): the site's read marks, the same state feed apps read
//     and write (the reader API's article_reads). "Read now" posts it with fetch on click (site.js); the
//     form itself is the fallback without script. Marking read on a GET would let any page that links
//     here change a reader's state, so every change is a POST with the CSRF token;
//   POST /account/filters: hide read articles, mark read on scroll, the newsletter's categories;
//   and the account page's section listing what the reader muted.
// Every change acts on the session's reader only: no form names a reader.
#include "pages/filters.h"

#include <algorithm>

#include "pages/forms.h"
#include "pages/pages.h"
#include "ui/format.h"

namespace longread::ui::pages {
namespace {

// A category slug worth asking the store about (which answers kNotFound for one it does not know): never
// empty, never longer than any slug the site makes, no control characters.
bool plausible_slug(std::string_view slug) {
  return !slug.empty() && slug.size() <= 200 &&
         std::ranges::none_of(slug, [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; });
}

// "mute" (the default) or "unmute"; kInvalidInput for anything else.
Result<bool> mute_action(const web::Fields& form) {
  const std::string_view action = form_value(form, "action");
  if (action.empty() || action == "mute") return true;
  if (action == "unmute") return false;
  return fail(ErrorKind::kInvalidInput, "ui: unknown mute action", "Unknown action.");
}

web::Response mute_answer(const View& view, const web::Request& request, const web::Fields& form,
                          bool muted) {
  if (wants_json(request)) return json_response(200, muted ? "{\"muted\":true}" : "{\"muted\":false}");
  return see_other(view, safe_next(form_value(form, "next")));
}

Html mute_form(const View& view, std::string_view action_path, bool muted, std::string_view next,
               Html label) {
  return html(
      "<form method=\"post\" action=\"{}\" class=\"inline\" data-mute><input type=\"hidden\" name=\"csrf\" "
      "value=\"{}\"><input type=\"hidden\" name=\"next\" value=\"{}\"><input type=\"hidden\" name=\"action\" "
      "value=\"{}\"><button type=\"submit\" class=\"link\">{}</button></form>",
      attr(action_path), attr(view.csrf_token()), attr(next),
      muted ? Html::literal("unmute") : Html::literal("mute"), label);
}

Html done_notice(std::string_view done) {
  if (done == "filters") {
    return Html::literal("<p class=\"notice\" role=\"status\">Your reading preferences are saved.</p>\n");
  }
  return {};
}

}  // namespace

Result<web::Response> mute_blog(View& view, const web::Request& request, const Params& params) {
  auto form = parse_form(request);
  if (!form) return std::unexpected(form.error());
  if (!view.logged_in()) return login_first(view, request, safe_next(form_value(*form, "next")));
  const auto id = parse_int64(params.get("blog"));
  if (!id || *id <= 0) return fail(ErrorKind::kNotFound, "ui: malformed blog id", "No such blog.");
  auto muted = mute_action(*form);
  if (!muted) return std::unexpected(muted.error());
  auto done = view.store().set_blog_muted(view.reader()->reader_id, *id, *muted, view.now());
  if (!done) return std::unexpected(done.error());
  return mute_answer(view, request, *form, *muted);
}

Result<web::Response> mute_category(View& view, const web::Request& request, const Params& params) {
  auto form = parse_form(request);
  if (!form) return std::unexpected(form.error());
  if (!view.logged_in()) return login_first(view, request, safe_next(form_value(*form, "next")));
  const std::string_view slug = params.get("slug");
  if (!plausible_slug(slug)) return fail(ErrorKind::kNotFound, "ui: malformed category", "No such category.");
  auto muted = mute_action(*form);
  if (!muted) return std::unexpected(muted.error());
  auto done = view.store().set_category_muted(view.reader()->reader_id, slug, *muted, view.now());
  if (!done) return std::unexpected(done.error());
  return mute_answer(view, request, *form, *muted);
}

Result<int> set_read_everywhere(const View& view, std::int64_t reader_id,
                                const std::vector<std::int64_t>& article_ids, bool read) {
  auto marked = view.store().set_articles_read(reader_id, article_ids, read, view.now());
  if (!marked) return std::unexpected(marked.error());
  for (const std::int64_t id : article_ids) {
    // kNotFound: not on the reading list, which is the usual case.
    auto listed = view.store().set_read(reader_id, id, read, view.now());
    if (!listed && listed.error().kind != ErrorKind::kNotFound) return std::unexpected(listed.error());
  }
  return *marked;
}

Result<web::Response> mark_read(View& view, const web::Request& request, const Params& params) {
  auto form = parse_form(request);
  if (!form) return std::unexpected(form.error());
  if (!view.logged_in()) return login_first(view, request, safe_next(form_value(*form, "next")));
  auto id = route_id(params.get("id"), "article");
  if (!id) return std::unexpected(id.error());
  const std::string_view action = form_value(*form, "action");
  if (action != "read" && action != "unread" && !action.empty())
    return fail(ErrorKind::kInvalidInput, "ui: unknown read action", "Unknown action.");
  const bool read = action != "unread";
  auto marked = set_read_everywhere(view, view.reader()->reader_id, {*id}, read);
  if (!marked) return std::unexpected(marked.error());
  // Nothing marked: no such article, or a hidden one (the store marks visible articles only).
  if (*marked == 0) {
    if (wants_json(request)) return json_response(404, "{\"error\":\"No such article.\"}");
    return fail(ErrorKind::kNotFound, "ui: no article " + std::to_string(*id), "No such article.");
  }
  if (wants_json(request)) return json_response(200, read ? "{\"read\":true}" : "{\"read\":false}");
  return see_other(view, safe_next(form_value(*form, "next")));
}

Result<web::Response> save_filters(View& view, const web::Request& request, const Params&) {
  auto form = parse_form(request);
  if (!form) return std::unexpected(form.error());
  if (!view.logged_in()) return login_first(view, request, "/account");
  storage::ReaderPreferences preferences;
  for (const auto& [name, value] : *form) {
    if (name == "hide_read") {
      preferences.hide_read = value == "on";
    } else if (name == "mark_read_on_scroll") {
      preferences.mark_read_on_scroll = value == "on";
    } else if (name == "newsletter_category") {
      if (!plausible_slug(value))
        return fail(ErrorKind::kInvalidInput, "ui: malformed category", "That is not a category.");
      if (preferences.newsletter_categories.size() >= 1000)
        return fail(ErrorKind::kInvalidInput, "ui: too many categories", "Too many categories.");
      preferences.newsletter_categories.push_back(value);
    }
  }
  std::ranges::sort(preferences.newsletter_categories);
  const auto [first, last] = std::ranges::unique(preferences.newsletter_categories);
  preferences.newsletter_categories.erase(first, last);
  // Every category ticked is the same as none: the newsletter follows categories added later too.
  if (auto all = view.store().categories(); all && !preferences.newsletter_categories.empty() &&
                                            preferences.newsletter_categories.size() == all->size()) {
    preferences.newsletter_categories.clear();
  }
  if (auto ok = view.store().set_reader_preferences(view.reader()->reader_id, preferences); !ok)
    return std::unexpected(ok.error());
  return see_other(view, "/account?done=filters#filters");
}

Result<web::Response> filters_bad_token(View& view, const web::Request& request, const Params&) {
  // A visitor (a cached page carries no token) logs in first; a reader's forged form is refused.
  if (!view.logged_in()) {
    auto form = parse_form(request);
    return login_first(view, request, form ? safe_next(form_value(*form, "next")) : "/account");
  }
  return csrf_rejected(view, request);
}

Html mute_blog_form(const View& view, std::int64_t blog_id, bool muted, std::string_view next,
                    std::string_view name) {
  return mute_form(view, "/mutes/blog/" + std::to_string(blog_id), muted, next,
                   html("{} {}", muted ? Html::literal("Unmute") : Html::literal("Mute"), text(name)));
}

Html mute_category_form(const View& view, std::string_view slug, bool muted, std::string_view next,
                        std::string_view name) {
  return mute_form(view, "/mutes/category/" + std::string(slug), muted, next,
                   html("{} {}", muted ? Html::literal("Unmute") : Html::literal("Mute"), text(name)));
}

Html filters_section(View& view, std::string_view done) {
  const std::int64_t reader = view.reader()->reader_id;
  auto mutes = view.store().reader_mutes(reader);
  auto categories = view.store().categories();
  const storage::ReaderPreferences& prefs = view.preferences();
  Html muted;
  if (mutes) {
    for (const auto& b : mutes->blogs) {
      const std::string name = blog_display_name(b.title, b.site_url);
      muted += html("<li><a href=\"{}\">{}</a> (blog) {}</li>\n", attr(blog_path(b.blog_id)), text(name),
                    mute_blog_form(view, b.blog_id, true, "/account#filters", name));
    }
    for (const auto& c : mutes->categories) {
      const std::string name = c.name.empty() ? c.slug : c.name;
      muted += html("<li><a href=\"{}\">{}</a> (category) {}</li>\n", attr(category_path(c.slug)), text(name),
                    mute_category_form(view, c.slug, true, "/account#filters", name));
    }
  }
  Html boxes;
  if (categories) {
    for (const auto& c : *categories) {
      const bool chosen = prefs.newsletter_categories.empty() ||
                          std::ranges::binary_search(prefs.newsletter_categories, c.slug);
      const std::string id = "newsletter-" + c.slug;
      boxes += html(
          "<div><input type=\"checkbox\" id=\"{}\" name=\"newsletter_category\" value=\"{}\"{}> <label "
          "for=\"{}\">{}</label></div>\n",
          attr(id), attr(c.slug), chosen ? Html::literal(" checked") : Html(), attr(id),
          text(c.name.empty() ? c.slug : c.name));
    }
  }
  return html(
      "<section class=\"settings\" id=\"filters\">\n<h2>Personal filters</h2>\n{}"
      "<h3>Muted</h3>\n{}"
      "<form method=\"post\" action=\"/account/filters\" class=\"account-form\">\n"
      "<input type=\"hidden\" name=\"csrf\" value=\"{}\">\n"
      "<h3>Read articles</h3>\n"
      "<div><input type=\"checkbox\" id=\"hide-read\" name=\"hide_read\"{}> <label for=\"hide-read\">Hide "
      "articles I have read (otherwise they are dimmed)</label></div>\n"
      "<div><input type=\"checkbox\" id=\"mark-read-on-scroll\" name=\"mark_read_on_scroll\"{}> <label "
      "for=\"mark-read-on-scroll\">Mark articles read when I scroll past them in a list</label></div>\n"
      "<fieldset>\n<legend>Categories of my weekly newsletter</legend>\n{}</fieldset>\n"
      "<p class=\"muted\">With none ticked, or all, the newsletter covers every category. Muted blogs and "
      "categories are left out of it either way.</p>\n"
      "<button type=\"submit\" class=\"button primary\">Save preferences</button>\n</form>\n</section>\n",
      done_notice(done),
      muted.empty()
          ? Html::literal(
                "<p>Nothing muted. Mute a blog or a category from an article's page to leave it out of your "
                "Hot, Newest, categories, search and newsletter.</p>\n")
          : html("<ul class=\"mutes\">\n{}</ul>\n", muted),
      attr(view.csrf_token()), prefs.hide_read ? Html::literal(" checked") : Html(),
      prefs.mark_read_on_scroll ? Html::literal(" checked") : Html(), boxes);
}

}  // namespace longread::ui::pages
