// The page for an error status: the site's layout around a short explanation and ways back.
#include <fmt/format.h>

#include "pages/pages.h"
#include "web/handle.h"

namespace longread::ui::pages {

web::Response error(const View& view, int status, std::string_view message) {
  const std::string_view reason = web::reason_phrase(status);
  std::string shown(message);
  if (shown.empty()) {
    shown = status == 404 ? std::string("There is nothing at this address.")
                          : fmt::format("{}.", reason.empty() ? std::string_view("Error") : reason);
  }
  Page out;
  out.status = status;
  out.title.assign(status == 404    ? std::string_view("Not found")
                   : reason.empty() ? std::string_view("Error")
                                    : reason);
  out.path = "/";
  out.body = html(
      "<h1 class=\"page-title\">{}</h1>\n<p>{}</p>\n<p><a href=\"/\">Newest articles</a> · "
      "<a href=\"/categories\">Categories</a> · <a href=\"/search\">Search</a></p>\n",
      text(out.title), text(shown));
  web::Response res = view.render(out);
  res.remove_header("ETag");
  res.set_header("Cache-Control", "no-store");
  return res;
}

}  // namespace longread::ui::pages
