// "/" — the front page in "hot" order (docs/ranking.md: votes, age and a prior for depth and quiet blogs,
// stored in articles.score; at most SiteOptions::per_blog_cap articles of one blog per page) and
// "/newest" — strictly by date; both paginated with ?page=N.
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
  Result<storage::HotPage> listed;
  if (what.order == storage::ArticleOrder::kHot) {
    listed = view.store().hot_page(
        {.page = *page, .page_size = size, .per_blog_cap = view.options().per_blog_cap});
  } else {
    storage::ArticleQuery query;
    query.order = what.order;
    query.limit = size + 1;  // one more than shown tells whether an older page exists
    query.offset = (*page - 1) * size;
    auto rows = view.store().articles(query);
    if (!rows) return std::unexpected(rows.error());
    listed = storage::HotPage{.articles = std::move(*rows)};
    listed->has_more = static_cast<int>(listed->articles.size()) > size;
    if (listed->has_more) listed->articles.pop_back();
  }
  if (!listed) return std::unexpected(listed.error());
  auto* articles = &listed->articles;
  if (articles->empty() && *page > 1) {
    return fail(ErrorKind::kNotFound, "ui: listing beyond the end", "There is no such page.");
  }
  const bool has_older = listed->has_more;

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
