// "/top" — the articles most voted for in the past week, counting the votes cast in it (not the articles'
// dates); "?period=month" and "?period=all" for the past 30 days and all time. Only articles with votes
// are listed: a period without any says so.
#include <chrono>

#include "pages/pages.h"

namespace longread::ui::pages {

Result<web::Response> top(View& view, const web::Request& request, const Params&) {
  auto start = listing_start(request);
  if (!start) return std::unexpected(start.error());
  const int size = view.options().page_size;
  const std::string_view period = request.param("period").value_or("week");
  std::string heading;
  std::string base;
  storage::ArticleQuery query;
  query.order = storage::ArticleOrder::kTop;
  query.voted_only = true;
  std::string_view empty;
  if (period == "week") {
    query.vote_period = storage::VotePeriod::kWeek;
    empty = "No votes this week yet.";
    heading = "Top this week";
    base = "/top";
  } else if (period == "month") {
    query.vote_period = storage::VotePeriod::kMonth;
    empty = "No votes this month yet.";
    heading = "Top this month";
    base = "/top?period=month";
  } else if (period == "all") {
    empty = "No votes yet.";
    heading = "Top of all time";
    base = "/top?period=all";
  } else {
    return fail(ErrorKind::kNotFound, "ui: unknown top period", "There is no such page.");
  }
  query.limit = size;
  query.offset = (start->page - 1) * size;
  query.after = start->after;
  query.reader = view.reader_filter();
  auto listed = view.store().article_page(query);
  if (!listed) return std::unexpected(listed.error());
  auto* articles = &listed->articles;
  if (articles->empty() && !start->first()) {
    return fail(ErrorKind::kNotFound, "ui: top page beyond the end", "There is no such page.");
  }

  auto tab = [&](std::string_view name, std::string_view path, std::string_view label) {
    return period == name ? html("<a href=\"{}\" aria-current=\"page\">{}</a>", attr(path), text(label))
                          : html("<a href=\"{}\">{}</a>", attr(path), text(label));
  };
  Page out;
  out.title = heading;
  out.description = "The most voted long-form articles: this week, this month and of all time.";
  out.path = listing_path(base, *start);
  out.nav = "top";
  out.feed_path = "/top/feed.atom";
  out.feed_title = "The week’s five best — " + view.options().site_name;
  out.body = html(
      "<h1 class=\"page-title\">{}</h1>\n<nav class=\"periods\" aria-label=\"Period\">{}{}{}</nav>\n{}{}",
      text(heading), tab("week", "/top", "This week"), tab("month", "/top?period=month", "This month"),
      tab("all", "/top?period=all", "All time"),
      articles->empty() ? html("<p class=\"empty\">{}</p>\n", text(empty))
                        : article_list(view, *articles, {}),
      cursor_pager(base, *start, listed->next));
  return view.render(out);
}

}  // namespace longread::ui::pages
