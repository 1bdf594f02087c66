#include "ui/view.h"

#include <charconv>

#include "core/strings.h"
#include "core/url.h"
#include "ui/format.h"

namespace longread::ui {
namespace {

Html nav_link(std::string_view current, std::string_view name, std::string_view path,
              std::string_view label) {
  if (current == name) return html("<a href=\"{}\" aria-current=\"page\">{}</a>", *href(path), text(label));
  return html("<a href=\"{}\">{}</a>", *href(path), text(label));
}

std::string prettify_slug(std::string_view slug) {
  std::string name;
  bool start = true;
  for (const char ch : slug) {
    if (ch == '-' || ch == '_') {
      name += ' ';
      start = true;
      continue;
    }
    name += start && ch >= 'a' && ch <= 'z' ? static_cast<char>(ch - 'a' + 'A') : ch;
    start = false;
  }
  return name;
}

const Html kShortcutsOverlay = Html::literal(
    R"(<div id="shortcuts" class="overlay" hidden role="dialog" aria-modal="true" aria-labelledby="shortcuts-title">
<div class="panel">
<h2 id="shortcuts-title">Keyboard shortcuts</h2>
<dl>
<dt><kbd>&rarr;</kbd> or <kbd>o</kbd></dt><dd>Read now (open the original)</dd>
<dt><kbd>j</kbd> / <kbd>k</kbd></dt><dd>Next / previous article in a list</dd>
<dt><kbd>/</kbd></dt><dd>Search</dd>
<dt><kbd>alt</kbd>+<kbd>a</kbd></dt><dd>Add to or remove from reading list</dd>
<dt><kbd>alt</kbd>+<kbd>shift</kbd>+<kbd>b</kbd></dt><dd>The article&rsquo;s blog</dd>
<dt><kbd>alt</kbd>+<kbd>shift</kbd>+<kbd>f</kbd></dt><dd>Full width on/off</dd>
<dt><kbd>alt</kbd>+<kbd>shift</kbd>+<kbd>d</kbd></dt><dd>Dark mode on/off</dd>
<dt><kbd>alt</kbd>+<kbd>shift</kbd>+<kbd>k</kbd></dt><dd>This list</dd>
</dl>
<button type="button" data-action="close-shortcuts">Close</button>
</div>
</div>
)");

}  // namespace

web::Response View::render(const Page& page) const {
  const SiteOptions& opts = options();
  const std::string canonical = opts.base_url + page.path;
  const std::string full_title = page.title.empty() ? opts.site_name : page.title + " — " + opts.site_name;

  Html nav = nav_link(page.nav, "new", "/", "New");
  if (has_votes() || page.nav == "top") nav += nav_link(page.nav, "top", "/top", "Top");
  nav += nav_link(page.nav, "categories", "/categories", "Categories");
  nav += nav_link(page.nav, "about", "/about", "About");

  Html doc = html(
      "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      "<title>{}</title>\n<meta name=\"description\" content=\"{}\">\n"
      "<link rel=\"canonical\" href=\"{}\">\n"
      "<link rel=\"stylesheet\" href=\"{}\">\n"
      "<link rel=\"icon\" href=\"{}\" type=\"image/svg+xml\">\n"
      "<script src=\"{}\"></script>\n"
      "<script src=\"{}\" defer></script>\n"
      "</head>\n<body>\n"
      "<header class=\"site-header\"><div class=\"wrap\">\n"
      "<a class=\"brand\" href=\"/\">{}</a>\n<nav class=\"nav\" aria-label=\"Sections\">{}</nav>\n"
      "<div class=\"tools\">\n"
      "<form class=\"search-form\" action=\"/search\" method=\"get\" role=\"search\">"
      "<label class=\"visually-hidden\" for=\"site-search\">Search articles</label>"
      "<input id=\"site-search\" type=\"search\" name=\"q\" value=\"{}\" placeholder=\"Search\"></form>\n"
      "<button type=\"button\" class=\"icon\" data-action=\"width\" title=\"Full width (alt+shift+f)\" "
      "aria-label=\"Toggle full width\" hidden>&harr;</button>\n"
      "<button type=\"button\" class=\"icon\" data-action=\"theme\" title=\"Dark mode (alt+shift+d)\" "
      "aria-label=\"Toggle dark mode\" hidden>&#9680;</button>\n"
      "</div>\n</div></header>\n"
      "<main id=\"main\"><div class=\"wrap\">\n{}</div></main>\n"
      "<footer class=\"site-footer\"><div class=\"wrap\">{} collects long-form writing from personal blogs. "
      "Press <kbd>alt</kbd>+<kbd>shift</kbd>+<kbd>k</kbd> for keyboard shortcuts.</div></footer>\n"
      "{}</body>\n</html>\n",
      text(full_title), attr(page.description.empty() ? opts.site_name : page.description), attr(canonical),
      attr(context_.assets.url("site.css")), attr(context_.assets.url("favicon.svg")),
      attr(context_.assets.url("theme.js")), attr(context_.assets.url("site.js")), text(opts.site_name), nav,
      attr(page.search_query), page.body, text(opts.site_name), kShortcutsOverlay);

  web::Response res;
  res.status = page.status;
  res.content_type = "text/html; charset=utf-8";
  res.body = std::move(doc).str();
  // Pages change whenever the data does: caches must revalidate every time (RFC 9111 section 5.2.2.4);
  // the ETag makes that revalidation a cheap 304 (RFC 9110 section 13.1.2).
  res.set_header("Cache-Control", "no-cache");
  res.set_header("ETag", "\"" + stable_hash_hex(res.body) + "\"");
  return res;
}

std::string View::category_name(std::string_view slug) const {
  if (!categories_) {
    auto list = store().categories();
    categories_ = list ? std::move(*list) : std::vector<model::Category>{};
  }
  for (const auto& category : *categories_) {
    if (category.slug == slug && !category.name.empty()) return category.name;
  }
  return prettify_slug(slug);
}

bool View::has_votes() const {
  storage::ArticleQuery query;
  query.order = storage::ArticleOrder::kTop;
  query.limit = 1;
  auto top = store().articles(query);
  return top && !top->empty() && top->front().article.votes > 0;
}

std::string article_slug(const model::Article& article) {
  const std::string slug = slugify(article.title);
  return slug.empty() ? std::to_string(article.id) : std::to_string(article.id) + "-" + slug;
}

std::string article_path(const model::Article& article) {
  return "/blog/" + std::to_string(article.blog_id) + "/read/" + article_slug(article);
}

std::string blog_path(std::int64_t blog_id) {
  return "/blog/" + std::to_string(blog_id);
}

std::string category_path(std::string_view slug) {
  return "/category/" + std::string(slug);
}

std::string article_category(const storage::ArticleView& view) {
  if (!view.article.category.empty()) return view.article.category;
  if (!view.blog_category.empty()) return view.blog_category;
  return "uncategorized";
}

std::string blog_display_name(std::string_view title, std::string_view site_url) {
  if (!trim(title).empty()) return std::string(trim(title));
  const std::string host = url_host(site_url);
  return host.empty() ? "Untitled blog" : host;
}

Html article_item(const View& view, const storage::ArticleView& item, const ItemOptions& options) {
  const model::Article& a = item.article;
  const std::string title = trim(a.title).empty() ? "Untitled" : std::string(trim(a.title));
  const Html heading = options.heading_h3
                           ? html("<h3><a href=\"{}\">{}</a></h3>", attr(article_path(a)), text(title))
                           : html("<h2><a href=\"{}\">{}</a></h2>", attr(article_path(a)), text(title));
  std::vector<Html> meta;
  if (options.show_blog) {
    const std::string category = article_category(item);
    Html from = html("<a href=\"{}\">{}</a>", attr(blog_path(a.blog_id)),
                     text(blog_display_name(item.blog_title, item.blog_site_url)));
    if (options.show_category) {
      from += html(" in <a href=\"{}\">{}</a>", attr(category_path(category)),
                   text(view.category_name(category)));
    }
    meta.push_back(from);
  }
  const TimePoint date = a.display_date();
  if (options.absolute_date) {
    meta.push_back(a.undated || !a.published ? Html::literal("date unknown")
                                             : html("<time datetime=\"{}\">{}</time>", attr(iso_date(date)),
                                                    text(ordinal_date(date))));
  } else {
    meta.push_back(html("<time datetime=\"{}\" title=\"{}\">{}</time>", attr(format_rfc3339(date)),
                        attr(ordinal_date(date)), text(relative_age(date, view.now()))));
  }
  meta.push_back(html("<span class=\"votes\">{}</span>", text(plural(a.votes, "vote", "votes"))));
  if (a.reading_minutes > 1) meta.push_back(text(reading_time(a.reading_minutes)));

  const std::string& source = a.excerpt.empty() ? a.text : a.excerpt;
  const std::string excerpt = truncate_words(collapse_whitespace(source), options.excerpt_bytes);
  return html("<li class=\"item\" data-item>\n{}\n<p class=\"meta\">{}</p>\n{}</li>\n", heading,
              join(meta, Html::literal("<span class=\"sep\" aria-hidden=\"true\">•</span>")),
              excerpt.empty() ? Html() : html("<p class=\"excerpt\">{}</p>\n", text(excerpt)));
}

Html article_list(const View& view, const std::vector<storage::ArticleView>& articles,
                  const ItemOptions& options) {
  Html items;
  for (const auto& article : articles) items += article_item(view, article, options);
  return html("<ol class=\"items\">\n{}</ol>\n", items);
}

Result<int> page_number(const web::Request& request) {
  const auto raw = request.param("page");
  if (!raw || raw->empty()) return 1;
  int page = 0;
  const auto [end, ec] = std::from_chars(raw->data(), raw->data() + raw->size(), page);
  if (ec != std::errc{} || end != raw->data() + raw->size() || page < 1 || page > 100000) {
    return fail(ErrorKind::kInvalidInput, "ui: bad page number", "That page number is not valid.");
  }
  return page;
}

Html pager(std::string_view base_path, int page, bool has_older) {
  if (page <= 1 && !has_older) return {};
  const char joiner = base_path.find('?') == std::string_view::npos ? '?' : '&';
  auto page_url = [&](int n) {
    if (n <= 1) return std::string(base_path);
    return std::string(base_path) + joiner + "page=" + std::to_string(n);
  };
  Html links;
  if (page > 1)
    links += html("<a class=\"newer\" rel=\"prev\" href=\"{}\">&larr; Newer</a>", attr(page_url(page - 1)));
  if (has_older)
    links += html("<a class=\"older\" rel=\"next\" href=\"{}\">Older &rarr;</a>", attr(page_url(page + 1)));
  return html("<nav class=\"pager\" aria-label=\"Pages\">{}</nav>\n", links);
}

}  // namespace longread::ui
