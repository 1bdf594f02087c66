// The admin area's entry page and what its pages share (pages/admin.h). The operator role itself is
// checked in routes.cpp, before any admin handler runs.
#include "pages/admin.h"

#include "pages/forms.h"
#include "pages/pages.h"

namespace longread::ui::pages {

web::Response admin_refused(const View& view, const web::Request& request) {
  // A visitor opening an admin page may simply not have logged in yet; a form posted without a session,
  // or anything from a reader without the role, is refused outright.
  if (!view.logged_in() && (request.method == "GET" || request.method == "HEAD")) {
    return login_first(view, request, request.target);
  }
  return error(view, 403, "This page is for the site's operators.");
}

web::Response admin_page(View& view, std::string_view title, std::string_view section, Html body,
                         int status) {
  struct Tab {
    std::string_view id, path, label;
  };
  static constexpr Tab kTabs[] = {
      {"home", "/admin", "Overview"},         {"blogs", "/admin/blogs", "Blogs"},
      {"junk", "/admin/junk", "Junk review"}, {"suggestions", "/admin/suggestions", "Suggestions"},
      {"flags", "/admin/flags", "Flags"},     {"lifecycle", "/admin/lifecycle", "Lifecycle"},
      {"audit", "/admin/audit", "Audit log"}};
  std::vector<Html> tabs;
  for (const auto& tab : kTabs) {
    tabs.push_back(html("<a href=\"{}\"{}>{}</a>", attr(tab.path),
                        tab.id == section ? Html::literal(" aria-current=\"page\"") : Html(),
                        text(tab.label)));
  }
  Page out;
  out.title = std::string(title) + " — admin";
  out.description = "The operators' area of " + view.options().site_name + ".";
  out.path = "/admin";
  out.status = status;
  out.body = html(
      "<nav class=\"admin-tabs\" aria-label=\"Admin sections\">{}</nav>\n"
      "<h1 class=\"page-title\">{}</h1>\n{}",
      join(tabs, Html::literal(" ")), text(title), std::move(body));
  web::Response res = view.render(out);
  res.set_header("Cache-Control", "no-store");
  return res;
}

Html admin_button(const View& view, std::string_view action,
                  const std::vector<std::pair<std::string, std::string>>& fields, std::string_view label,
                  std::string_view css_class) {
  std::vector<Html> hidden;
  for (const auto& [name, value] : fields) {
    hidden.push_back(html("<input type=\"hidden\" name=\"{}\" value=\"{}\">", attr(name), attr(value)));
  }
  return html(
      "<form method=\"post\" action=\"{}\" class=\"inline\"><input type=\"hidden\" name=\"csrf\" "
      "value=\"{}\">{}<button type=\"submit\" class=\"{}\">{}</button></form>",
      attr(action), attr(view.csrf_token()), join(hidden), attr(css_class), text(label));
}

Result<void> audit(const View& view, std::string_view action, std::string_view target,
                   std::string_view detail) {
  const auto& reader = view.reader();
  auto added =
      view.store().add_audit_entry({.at = view.now(),
                                    .actor_id = reader ? std::optional(reader->reader_id) : std::nullopt,
                                    .actor = reader ? reader->email : std::string("(unknown)"),
                                    .action = std::string(action),
                                    .target = std::string(target),
                                    .detail = std::string(detail)});
  if (!added) return std::unexpected(added.error());
  return {};
}

Html admin_notice(std::string_view message) {
  if (message.empty()) return {};
  return html("<p class=\"notice\" role=\"status\">{}</p>\n", text(message));
}

Result<web::Response> admin_home(View& view, const web::Request&, const Params&) {
  return admin_page(
      view, "Admin", "home",
      html("<p>Signed in as {}, an operator. Every action here is written to the "
           "<a href=\"/admin/audit\">audit log</a>.</p>\n"
           "<ul>\n<li><a href=\"/admin/blogs\">Blogs</a>: each blog's health; add, pause, resume, edit or "
           "remove one.</li>\n"
           "<li><a href=\"/admin/junk\">Junk review</a>: recent junk and the near misses; keep or junk "
           "with one click.</li>\n"
           "<li><a href=\"/admin/suggestions\">Suggestions</a>: blogs readers suggested, with what was "
           "found at each; approve or reject.</li>\n"
           "<li><a href=\"/admin/flags\">Flags</a>: articles readers flagged, and those held until you "
           "decide; keep or junk.</li>\n"
           "<li><a href=\"/admin/lifecycle\">Lifecycle</a>: dead, moved and inactive blogs; retire or "
           "un-retire one.</li>\n"
           "<li><a href=\"/admin/audit\">Audit log</a>: who did what, newest first.</li>\n"
           "</ul>\n",
           text(view.reader()->email)));
}

}  // namespace longread::ui::pages
