// "/blog/<id>" — one blog: its links and its articles, newest first, paginated.
#include <algorithm>
#include <charconv>

#include "core/url.h"
#include "pages/filters.h"
#include "pages/pages.h"
#include "ui/format.h"

namespace longread::ui::pages {

Result<web::Response> blog(View& view, const web::Request& request, const Params& params) {
  const std::string_view raw = params.get("blog");
  std::int64_t id = 0;
  const auto [end, ec] = std::from_chars(raw.data(), raw.data() + raw.size(), id);
  if (ec != std::errc{} || end != raw.data() + raw.size() || id <= 0) {
    return fail(ErrorKind::kNotFound, "ui: malformed blog id", "No such blog.");
  }
  auto start = listing_start(request);
  if (!start) return std::unexpected(start.error());
  auto found = view.store().blog(id);
  if (!found) return std::unexpected(found.error());
  if (!*found) return fail(ErrorKind::kNotFound, "ui: no blog " + std::to_string(id), "No such blog.");
  const model::Blog& b = **found;

  const int size = view.options().page_size;
  storage::ArticleQuery query;
  query.blog_id = id;
  query.limit = size;
  query.offset = (start->page - 1) * size;
  query.after = start->after;
  auto listed = view.store().article_page(query);
  if (!listed) return std::unexpected(listed.error());
  auto* articles = &listed->articles;
  if (articles->empty() && !start->first())
    return fail(ErrorKind::kNotFound, "ui: blog page beyond the end", "There is no such page.");
  storage::ArticleQuery count_query;
  count_query.blog_id = id;
  auto count = view.store().count_articles(count_query);
  if (!count) return std::unexpected(count.error());

  const std::string name = blog_display_name(b.title, b.site_url);
  std::vector<Html> links;
  // Only addresses a browser can follow are shown (http/https, as everywhere on the site): an unlinked
  // "Website" would be a dead end.
  if (is_http_url(b.site_url)) links.push_back(external_link(b.site_url, Html::literal("Website")));
  if (is_http_url(b.feed_url)) links.push_back(external_link(b.feed_url, Html::literal("Feed")));
  const std::string category = b.category.empty() ? "uncategorized" : b.category;
  links.push_back(
      html("<a href=\"{}\">{}</a>", attr(category_path(category)), text(view.category_name(category))));
  links.push_back(text(plural(*count, "article", "articles")));
  if (!b.author.empty()) links.push_back(html("by {}", text(b.author)));
  // A reader mutes (or un-mutes) the blog here too; its own page still lists it, the other listings do not.
  // A form may not sit in the lede's <p> (a <form> start tag closes an open p), so it follows it.
  Html mute;
  if (view.logged_in()) {
    auto mutes = view.store().reader_mutes(view.reader()->reader_id);
    if (!mutes) return std::unexpected(mutes.error());
    const bool muted = std::ranges::any_of(mutes->blogs, [&](const auto& m) { return m.blog_id == id; });
    mute =
        html("<div class=\"mute\">{}</div>\n", mute_blog_form(view, id, muted, blog_path(id), "this blog"));
  }

  ItemOptions options;
  options.show_blog = false;
  Page out;
  out.title = name;
  out.description = "Long-form articles from " + name + ".";
  out.path = listing_path(blog_path(id), *start);
  out.feed_path = blog_path(id) + "/feed.atom";
  out.feed_title = name + " — " + view.options().site_name;
  out.body =
      html("<h1 class=\"page-title\">{}</h1>\n<p class=\"lede\">{}</p>\n{}{}{}", text(name),
           join(links, Html::literal("<span class=\"sep\" aria-hidden=\"true\">•</span>")), mute,
           articles->empty() ? Html::literal("<p class=\"empty\">No articles from this blog yet.</p>\n")
                             : article_list(view, *articles, options),
           cursor_pager(blog_path(id), *start, listed->next, PagerWords::kByDate));
  return view.render(out);
}

}  // namespace longread::ui::pages
