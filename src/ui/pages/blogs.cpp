// "/blogs" — every blog longread follows that has articles on the site, by category, and "/blogs.opml",
// the same list as OPML 2.0 for a reader's own feed reader (the writer `longread export` uses).
#include <algorithm>
#include <map>
#include <tuple>

#include "core/strings.h"
#include "feed/opml.h"
#include "pages/pages.h"
#include "ui/format.h"

namespace longread::ui::pages {

Result<std::vector<model::Blog>> listed_blogs(View& view) {
  auto all = view.store().blogs();
  if (!all) return std::unexpected(all.error());
  std::erase_if(*all, [](const model::Blog& b) { return b.article_count <= 0; });
  std::sort(all->begin(), all->end(), [](const model::Blog& a, const model::Blog& b) {
    const auto name_a = blog_display_name(a.title, a.site_url);
    const auto name_b = blog_display_name(b.title, b.site_url);
    return std::tie(a.category, name_a, a.id) < std::tie(b.category, name_b, b.id);
  });
  return all;
}

Result<web::Response> blogs(View& view, const web::Request&, const Params&) {
  auto listed = listed_blogs(view);
  if (!listed) return std::unexpected(listed.error());
  std::map<std::string, Html> by_category;  // slug -> items, in slug order
  for (const auto& b : *listed) {
    by_category[b.category] += html("<li><a href=\"{}\">{}</a> <span class=\"count\">{}</span></li>\n",
                                    attr(blog_path(b.id)), text(blog_display_name(b.title, b.site_url)),
                                    text(plural(b.article_count, "article", "articles")));
  }
  Html sections;
  for (const auto& [slug, items] : by_category) {
    const Html heading = slug.empty() ? Html::literal("Other")
                                      : html("<a href=\"{}\">{}</a>", attr(category_path(slug)),
                                             text(view.category_name(slug)));
    sections +=
        html("<section class=\"blog-group\">\n<h2>{}</h2>\n<ul class=\"blogs\">\n{}</ul>\n</section>\n",
             heading, items);
  }
  Page out;
  out.title = "Blogs";
  out.description = "The personal blogs " + view.options().site_name + " follows, by category.";
  out.path = "/blogs";
  out.nav = "blogs";
  out.body = html(
      "<h1 class=\"page-title\">Blogs</h1>\n<p>{} personal {} with articles here. Follow them all in your "
      "own "
      "feed reader: <a href=\"/blogs.opml\">blogs.opml</a>. Know a personal blog that belongs here? "
      "<a href=\"/suggest\">Suggest a blog</a>.</p>\n{}",
      number(static_cast<std::int64_t>(listed->size())),
      listed->size() == 1 ? Html::literal("blog") : Html::literal("blogs"),
      sections.empty() ? Html::literal("<p class=\"empty\">No blogs with articles yet.</p>\n") : sections);
  return view.render(out);
}

Result<web::Response> blogs_opml(View& view, const web::Request&, const Params&) {
  auto listed = listed_blogs(view);
  if (!listed) return std::unexpected(listed.error());
  std::vector<feed::OpmlBlog> out;
  out.reserve(listed->size());
  for (const auto& b : *listed) {
    out.push_back({.feed_url = b.feed_url,
                   .site_url = b.site_url,
                   .title = blog_display_name(b.title, b.site_url),
                   .category = b.category,
                   .short_form = false});
  }
  web::Response res;
  res.status = 200;
  res.content_type = "text/x-opml; charset=utf-8";
  res.body = feed::write_opml(out, view.options().site_name + " blogs");
  res.set_header("Content-Disposition", "inline; filename=\"longread-blogs.opml\"");
  res.set_header("Cache-Control", "max-age=300");
  res.set_header("ETag", "\"" + stable_hash_hex(res.body) + "\"");
  return res;
}

}  // namespace longread::ui::pages
