// "/reading-list": the reader's saved articles, newest saved first, with "mark as read" and "remove";
// "POST /reading-list/<id>" (action add, remove, read, unread) from any article page. A visitor
// is sent to log in and comes back to the article.
#include "core/strings.h"
#include "pages/forms.h"
#include "pages/pages.h"
#include "ui/format.h"

namespace longread::ui::pages {
namespace {

constexpr int kReadingListLimit = 500;

Html entry_button(const View& view, std::int64_t id, std::string_view action, std::string_view label) {
  return html(
      "<form method=\"post\" action=\"/reading-list/{}\" class=\"inline\"><input type=\"hidden\" "
      "name=\"csrf\" "
      "value=\"{}\"><input type=\"hidden\" name=\"next\" value=\"/reading-list\"><input type=\"hidden\" "
      "name=\"action\" value=\"{}\"><button type=\"submit\" class=\"link\">{}</button></form>",
      number(id), attr(view.csrf_token()), attr(action), text(label));
}

}  // namespace

Result<web::Response> reading_list(View& view, const web::Request& request, const Params&) {
  if (!view.logged_in()) return login_first(view, request, "/reading-list");
  auto saved = view.store().reading_list(view.reader()->reader_id, kReadingListLimit, 0);
  if (!saved) return std::unexpected(saved.error());
  std::vector<std::int64_t> ids;
  for (const auto& entry : *saved) ids.push_back(entry.view.article.id);
  view.load_marks(ids);
  Html items;
  for (const auto& entry : *saved) {
    const model::Article& a = entry.view.article;
    // Read here or anywhere else (a listing, a feed app, "mark all as read").
    const bool read = entry.read_at.has_value() || view.read(a.id);
    const std::string title = trim(a.title).empty() ? "Untitled" : std::string(trim(a.title));
    const auto original = href(a.link);
    const Html link = original ? html("<a href=\"{}\" rel=\"noopener\">{}</a>", *original, text(title))
                               : html("<a href=\"{}\">{}</a>", attr(article_path(a)), text(title));
    items += html(
        "<li class=\"item{}\" data-item data-saved=\"{}\">\n<h2>{}</h2>\n<div class=\"meta\"><a "
        "href=\"{}\">{}</a>"
        "<span class=\"sep\" aria-hidden=\"true\">•</span>saved {}<span class=\"sep\" "
        "aria-hidden=\"true\">•</span>{}"
        "{}<span class=\"sep\" aria-hidden=\"true\">•</span>{}<span class=\"sep\" "
        "aria-hidden=\"true\">•</span>{}</div>\n</li>\n",
        read ? Html::literal(" is-read") : Html(), number(a.id), link, attr(article_path(a)),
        text(blog_display_name(entry.view.blog_title, entry.view.blog_site_url)),
        text(relative_age(entry.saved_at, view.now())), vote_control(view, a),
        read ? Html::literal("<span class=\"sep\" aria-hidden=\"true\">•</span>read") : Html(),
        read ? entry_button(view, a.id, "unread", "Mark as unread")
             : entry_button(view, a.id, "read", "Mark as read"),
        entry_button(view, a.id, "remove", "Remove"));
  }
  Page out;
  out.title = "Reading list";
  out.description = "Articles you saved to read later.";
  out.path = "/reading-list";
  out.nav = "reading-list";
  out.body =
      html("<h1 class=\"page-title\">Reading list</h1>\n{}{}{}",
           saved->empty()
               ? Html::literal("<p class=\"empty\">Nothing saved yet. Press <kbd>alt</kbd>+<kbd>a</kbd> "
                               "on an article, or use its &ldquo;Add to reading list&rdquo; "
                               "button.</p>\n")
               : html("<ol class=\"items reading-list\">\n{}</ol>\n", items),
           saved_links_section(view), portability_section(view));
  return view.render(out);
}

Result<web::Response> reading_list_change(View& view, const web::Request& request, const Params& params) {
  auto id = route_id(params.get("id"), "article");
  if (!id) return std::unexpected(id.error());
  auto form = parse_form(request);
  if (!form) return std::unexpected(form.error());
  std::string next = safe_next(form_value(*form, "next"));
  if (!view.logged_in()) {
    // Back to the article after logging in (the form may come from a cached page without "next").
    if (next == "/") {
      auto article = view.store().article(*id);
      if (article && *article) next = article_path((*article)->article);
    }
    // The add is done once they have logged in or signed up (PendingAction), like a visitor's vote.
    const std::string_view wanted = form_value(*form, "action");
    return login_first(view, request, next,
                       wanted.empty() || wanted == "add"
                           ? std::optional<PendingAction>({PendingAction::Kind::kSave, *id})
                           : std::nullopt);
  }
  const std::string_view action = form_value(*form, "action").empty() ? "add" : form_value(*form, "action");
  const std::int64_t reader = view.reader()->reader_id;
  Result<void> done;
  if (action == "add" || action == "remove") {
    done = view.store().set_saved(reader, *id, action == "add", view.now());
  } else if (action == "read" || action == "unread") {
    // The reading list's mark and the site-wide read state are one for the reader.
    done = view.store().set_read(reader, *id, action == "read", view.now());
    if (done) {
      auto marked = view.store().set_articles_read(reader, {*id}, action == "read", view.now());
      if (!marked) done = std::unexpected(marked.error());
    }
  } else {
    return fail(ErrorKind::kInvalidInput, "ui: unknown reading-list action", "Unknown reading-list action.");
  }
  if (!done) return std::unexpected(done.error());
  if (wants_json(request)) {
    return json_response(200, "{\"saved\":" + std::string(action == "remove" ? "false" : "true") + "}");
  }
  return see_other(view, next);
}

Result<web::Response> reading_list_bad_token(View& view, const web::Request& request, const Params& params) {
  // As a vote: a visitor is sent to log in (nothing is saved before then), a reader's forged form refused.
  if (!view.logged_in()) return reading_list_change(view, request, params);
  return csrf_rejected(view, request);
}

}  // namespace longread::ui::pages
