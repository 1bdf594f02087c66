// "/categories" — every category with its number of articles.
#include "pages/pages.h"
#include "ui/format.h"

namespace longread::ui::pages {

Result<web::Response> categories(View& view, const web::Request&, const Params&) {
  auto all = view.store().categories();
  if (!all) return std::unexpected(all.error());
  Html items;
  for (const auto& c : *all) {
    items += html("<li><a href=\"{}\">{}</a> <span class=\"count\">{}</span></li>\n",
                  attr(category_path(c.slug)), text(c.name.empty() ? view.category_name(c.slug) : c.name),
                  text(plural(c.article_count, "article", "articles")));
  }
  Page out;
  out.title = "Categories";
  out.description = "Every category of " + view.options().site_name + ", with its number of articles.";
  out.path = "/categories";
  out.nav = "categories";
  out.body = html("<h1 class=\"page-title\">Categories</h1>\n{}",
                  items.empty() ? Html::literal("<p class=\"empty\">No categories yet.</p>\n")
                                : html("<ul class=\"categories\">\n{}</ul>\n", items));
  return view.render(out);
}

}  // namespace longread::ui::pages
