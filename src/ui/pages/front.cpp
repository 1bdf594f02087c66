// "/" — the front page in "hot" order (votes decayed by age, stored in articles.score by migration 0005:
// with no votes it is simply the newest first), paginated with ?page=N.
#include "pages/pages.h"

namespace longread::ui::pages {

Result<web::Response> front(View& view, const web::Request& request, const Params&) {
  auto page = page_number(request);
  if (!page) return std::unexpected(page.error());
  const int size = view.options().page_size;
  storage::ArticleQuery query;
  query.order = storage::ArticleOrder::kHot;
  query.limit = size + 1;  // one more than shown tells whether an older page exists
  query.offset = (*page - 1) * size;
  auto articles = view.store().articles(query);
  if (!articles) return std::unexpected(articles.error());
  if (articles->empty() && *page > 1) {
    return fail(ErrorKind::kNotFound, "ui: front page beyond the end", "There is no such page.");
  }
  const bool has_older = static_cast<int>(articles->size()) > size;
  if (has_older) articles->pop_back();

  Page out;
  out.title = *page == 1 ? "" : "Hot right now, page " + std::to_string(*page);
  out.description =
      view.options().site_name + ": long-form articles from personal blogs, the newest and most voted first.";
  out.path = *page == 1 ? "/" : "/?page=" + std::to_string(*page);
  out.nav = "new";
  out.body =
      html("<h1 class=\"page-title\">Hot right now</h1>\n{}{}",
           articles->empty() ? Html::literal("<p class=\"empty\">Nothing here yet: the first crawl has not "
                                             "finished. Check back in a few minutes.</p>\n")
                             : article_list(view, *articles, {}),
           pager("/", *page, has_older));
  return view.render(out);
}

}  // namespace longread::ui::pages
