// "/" — the front page in "hot" order (votes decayed by age, stored in articles.score by migration 0005:
// with no votes it is simply the newest first) and "/newest" — strictly by date; both paginated with
// ?page=N.
#include "pages/pages.h"

namespace longread::ui::pages {
namespace {

struct Listing {
  storage::ArticleOrder order;
  const char* path;
  const char* heading;
  const char* nav;
  PagerWords words;  // Hot is ranked, Newest by date
};

Result<web::Response> listing(View& view, const web::Request& request, const Listing& what) {
  auto page = page_number(request);
  if (!page) return std::unexpected(page.error());
  const int size = view.options().page_size;
  storage::ArticleQuery query;
  query.order = what.order;
  query.limit = size + 1;  // one more than shown tells whether an older page exists
  query.offset = (*page - 1) * size;
  auto articles = view.store().articles(query);
  if (!articles) return std::unexpected(articles.error());
  if (articles->empty() && *page > 1) {
    return fail(ErrorKind::kNotFound, "ui: listing beyond the end", "There is no such page.");
  }
  const bool has_older = static_cast<int>(articles->size()) > size;
  if (has_older) articles->pop_back();

  const std::string path = what.path;
  Page out;
  out.title = *page == 1 ? (path == "/" ? "" : what.heading)
                         : std::string(what.heading) + ", page " + std::to_string(*page);
  out.description =
      view.options().site_name + ": long-form articles from personal blogs, the newest and most voted first.";
  out.path = *page == 1 ? path : path + "?page=" + std::to_string(*page);
  out.nav = what.nav;
  out.body =
      html("<h1 class=\"page-title\">{}</h1>\n{}{}", text(what.heading),
           articles->empty() ? Html::literal("<p class=\"empty\">Nothing here yet: the first crawl has not "
                                             "finished. Check back in a few minutes.</p>\n")
                             : article_list(view, *articles, {}),
           pager(path, *page, has_older, what.words));
  return view.render(out);
}

}  // namespace

Result<web::Response> front(View& view, const web::Request& request, const Params&) {
  return listing(view, request,
                 {storage::ArticleOrder::kHot, "/", "Hot right now", "new", PagerWords::kRanked});
}

Result<web::Response> newest(View& view, const web::Request& request, const Params&) {
  return listing(
      view, request,
      {storage::ArticleOrder::kNewest, "/newest", "Newest articles", "newest", PagerWords::kByDate});
}

}  // namespace longread::ui::pages
