// "/top" — the most voted articles of the past week.
#include <chrono>

#include "pages/pages.h"

namespace longread::ui::pages {

Result<web::Response> top(View& view, const web::Request& request, const Params&) {
  auto page = page_number(request);
  if (!page) return std::unexpected(page.error());
  const int size = view.options().page_size;
  storage::ArticleQuery query;
  query.order = storage::ArticleOrder::kTop;
  query.since = view.now() - std::chrono::days(7);
  query.limit = size + 1;
  query.offset = (*page - 1) * size;
  auto articles = view.store().articles(query);
  if (!articles) return std::unexpected(articles.error());
  if (articles->empty() && *page > 1) {
    return fail(ErrorKind::kNotFound, "ui: top page beyond the end", "There is no such page.");
  }
  const bool has_older = static_cast<int>(articles->size()) > size;
  if (has_older) articles->pop_back();

  Page out;
  out.title = "Top this week";
  out.description = "The most voted long-form articles of the past week.";
  out.path = *page == 1 ? "/top" : "/top?page=" + std::to_string(*page);
  out.nav = "top";
  out.body = html("<h1 class=\"page-title\">Top this week</h1>\n{}{}",
                  articles->empty() ? Html::literal("<p class=\"empty\">No votes this week yet.</p>\n")
                                    : article_list(view, *articles, {}),
                  pager("/top", *page, has_older));
  return view.render(out);
}

}  // namespace longread::ui::pages
