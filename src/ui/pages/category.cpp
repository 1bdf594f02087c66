// "/category/<slug>" — the articles filed under one category, in the front page's hot order with its
// per-blog cap (docs/ranking.md).
#include "pages/pages.h"

namespace longread::ui::pages {

Result<web::Response> category(View& view, const web::Request& request, const Params& params) {
  const std::string slug(params.get("slug"));
  auto start = listing_start(request);
  if (!start) return std::unexpected(start.error());
  const int size = view.options().page_size;
  auto listed = view.store().hot_page({.category = slug,
                                       .page = start->page,
                                       .after = start->after,
                                       .page_size = size,
                                       .per_blog_cap = view.options().per_blog_cap,
                                       .reader = view.reader_filter()});
  if (!listed) return std::unexpected(listed.error());
  auto* articles = &listed->articles;
  if (articles->empty()) {
    // A category with no visible articles is only a page if the store knows it.
    bool known = false;
    if (auto all = view.store().categories()) {
      for (const auto& c : *all) known = known || c.slug == slug;
    }
    if (!known || !start->first())
      return fail(ErrorKind::kNotFound, "ui: no category " + slug, "No such category.");
  }

  const std::string name = view.category_name(slug);
  ItemOptions options;
  options.show_category = false;
  Page out;
  out.title = name;
  out.description = "Long-form articles about " + name + " from personal blogs.";
  out.path = listing_path(category_path(slug), *start);
  out.nav = "categories";
  out.feed_path = category_path(slug) + "/feed.atom";
  out.feed_title = name + " — " + view.options().site_name;
  out.body =
      html("<h1 class=\"page-title\">{}</h1>\n{}{}", text(name),
           articles->empty() ? Html::literal("<p class=\"empty\">No articles in this category yet.</p>\n")
                             : article_list(view, *articles, options),
           cursor_pager(category_path(slug), *start, listed->next));
  return view.render(out);
}

}  // namespace longread::ui::pages
