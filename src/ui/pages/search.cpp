// "/search?q=" — full-text search over titles and text, with highlighted snippets.
#include "core/strings.h"
#include "pages/pages.h"
#include "ui/format.h"

namespace longread::ui::pages {

Result<web::Response> search(View& view, const web::Request& request, const Params&) {
  const std::string q(trim(request.param("q").value_or("")));
  auto page = page_number(request);
  if (!page) return std::unexpected(page.error());
  Page out;
  out.nav = "search";
  out.search_query = q;
  out.title = q.empty() ? "Search" : "Search: " + q;
  out.description = "Search the articles of " + view.options().site_name + ".";
  const Html form = html(
      "<form class=\"search-form search-page\" action=\"/search\" method=\"get\" role=\"search\">"
      "<label class=\"visually-hidden\" for=\"search-q\">Search articles</label>"
      "<input id=\"search-q\" type=\"search\" name=\"q\" value=\"{}\" placeholder=\"Words from a title or "
      "text\">"
      "<button type=\"submit\" class=\"primary\">Search</button></form>\n",
      attr(q));
  if (q.empty()) {
    out.path = "/search";
    out.body = html("<h1 class=\"page-title\">Search</h1>\n{}", form);
    return view.render(out);
  }
  const int size = view.options().page_size;
  auto hits = view.store().search(q, size + 1, (*page - 1) * size, view.reader_filter());
  if (!hits && hits.error().kind == ErrorKind::kTimeout) {
    // The store gave up on a query past its time budget: say so on the search page, with the form to try
    // other words; 503 tells caches and crawlers it may work later.
    out.path = "/search";
    out.status = 503;
    out.body = html("<h1 class=\"page-title\">Search</h1>\n{}<p class=\"empty\" data-search-timeout>{}</p>\n",
                    form, text(hits.error().user_message));
    return view.render(out);
  }
  if (!hits) return std::unexpected(hits.error());
  const bool has_older = static_cast<int>(hits->size()) > size;
  if (has_older) hits->pop_back();

  std::vector<std::int64_t> ids;
  for (const auto& hit : *hits) ids.push_back(hit.view.article.id);
  view.load_marks(ids);
  Html items;
  for (const auto& hit : *hits) {
    const model::Article& a = hit.view.article;
    items += html(
        "<li class=\"item{}\" data-item data-article=\"{}\">\n<h2><a href=\"{}\">{}</a></h2>\n"
        "<div class=\"meta\"><a href=\"{}\">{}</a><span class=\"sep\" aria-hidden=\"true\">•</span>{}"
        "<span class=\"sep\" aria-hidden=\"true\">•</span>{}{}</div>\n<p class=\"excerpt "
        "snippet\">{}</p>\n</li>\n",
        view.read(a.id) ? Html::literal(" is-read") : Html(), number(a.id), attr(article_path(a)),
        text(trim(a.title).empty() ? "Untitled" : a.title), attr(blog_path(a.blog_id)),
        text(blog_display_name(hit.view.blog_title, hit.view.blog_site_url)),
        text(relative_age(a.display_date(), view.now())), text(plural(a.votes, "vote", "votes")),
        view.logged_in() ? html("<span class=\"sep\" aria-hidden=\"true\">•</span>{}", read_control(view, a))
                         : Html(),
        marked_snippet(hit.snippet));
  }
  const std::string base = "/search?q=" + web::url_encode(q);
  out.path = base + (*page == 1 ? "" : "&page=" + std::to_string(*page));
  out.body = html("<h1 class=\"page-title\">Search</h1>\n{}{}{}", form,
                  items.empty() ? html("<p class=\"empty\">Nothing matches “{}”.</p>\n", text(q))
                                : html("<ol class=\"items\">\n{}</ol>\n", items),
                  pager(base, *page, has_older));
  return view.render(out);
}

}  // namespace longread::ui::pages
