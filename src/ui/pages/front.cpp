// "/" — the front page in "hot" order (docs/ranking.md: votes, age and a prior for depth and quiet blogs,
// stored in articles.score; at most SiteOptions::per_blog_cap articles of one blog per page) and
// "/newest" — strictly by date; both paged by cursors (?after=..., storage::ArticlePage::next), one index
// seek at any depth; old ?page=N links still work.
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
  auto start = listing_start(request);
  if (!start) return std::unexpected(start.error());
  const int size = view.options().page_size;
  Result<storage::ArticlePage> listed;
  if (what.order == storage::ArticleOrder::kHot) {
    listed = view.store().hot_page({.page = start->page,
                                    .after = start->after,
                                    .page_size = size,
                                    .per_blog_cap = view.options().per_blog_cap,
                                    .reader = view.reader_filter()});
  } else {
    storage::ArticleQuery query;
    query.order = what.order;
    query.limit = size;
    query.offset = (start->page - 1) * size;
    query.after = start->after;
    query.reader = view.reader_filter();
    listed = view.store().article_page(query);
  }
  if (!listed) return std::unexpected(listed.error());
  auto* articles = &listed->articles;
  if (articles->empty() && !start->first()) {
    return fail(ErrorKind::kNotFound, "ui: listing beyond the end", "There is no such page.");
  }

  const std::string path = what.path;
  Page out;
  out.title = start->first()         ? (path == "/" ? "" : what.heading)
              : start->after.empty() ? std::string(what.heading) + ", page " + std::to_string(start->page)
                                     : std::string(what.heading) + ", continued";
  out.description =
      view.options().site_name + ": long-form articles from personal blogs, the newest and most voted first.";
  out.path = listing_path(path, *start);
  out.nav = what.nav;
  out.body =
      html("<h1 class=\"page-title\">{}</h1>\n{}{}", text(what.heading),
           articles->empty() ? Html::literal("<p class=\"empty\">Nothing here yet: the first crawl has not "
                                             "finished. Check back in a few minutes.</p>\n")
                             : article_list(view, *articles, {}),
           cursor_pager(path, *start, listed->next, what.words));
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
