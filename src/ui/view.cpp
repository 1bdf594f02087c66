#include "ui/view.h"

#include <algorithm>
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

// The shortcuts overlay, a modal <dialog> that site.js opens (HTML section 4.11.4). A row whose
// data-requires selector matches nothing on the page (no list, no article) is hidden by site.js; the
// account rows are there for visitors only.
Html shortcuts_overlay(bool logged_in) {
  return html(
      "<dialog id=\"shortcuts\" class=\"overlay\" aria-labelledby=\"shortcuts-title\">\n<div "
      "class=\"panel\">\n"
      "<h2 id=\"shortcuts-title\">Keyboard shortcuts</h2>\n<dl>\n"
      "<div data-requires=\"[data-shortcut='read'], [data-item]\"><dt><kbd>&rarr;</kbd> or <kbd>o</kbd></dt>"
      "<dd>Read now (the original, or the highlighted article)</dd></div>\n"
      "<div data-requires=\"[data-item]\"><dt><kbd>j</kbd> / <kbd>k</kbd></dt>"
      "<dd>Next / previous article in the list</dd></div>\n"
      "<div data-requires=\"form[data-read-toggle]\"><dt><kbd>m</kbd></dt>"
      "<dd>Mark the article (or the highlighted one) read or unread</dd></div>\n"
      "<div data-requires=\"#site-search\"><dt><kbd>/</kbd></dt><dd>Search</dd></div>\n"
      "<div data-requires=\"form[data-shortcut='reading-list']\"><dt><kbd>alt</kbd>+<kbd>a</kbd></dt>"
      "<dd>Add to or remove from reading list</dd></div>\n"
      "<div data-requires=\"[data-shortcut='blog']\"><dt><kbd>alt</kbd>+<kbd>shift</kbd>+<kbd>b</kbd></dt>"
      "<dd>The article&rsquo;s blog</dd></div>\n"
      "<div><dt><kbd>alt</kbd>+<kbd>shift</kbd>+<kbd>f</kbd></dt><dd>Full width on/off</dd></div>\n"
      "<div><dt><kbd>alt</kbd>+<kbd>shift</kbd>+<kbd>d</kbd></dt><dd>Dark mode on/off</dd></div>\n"
      "{}"
      "<div><dt><kbd>alt</kbd>+<kbd>shift</kbd>+<kbd>k</kbd> or <kbd>?</kbd></dt><dd>This list</dd></div>\n"
      "</dl>\n<button type=\"button\" data-action=\"close-shortcuts\">Close</button>\n</div>\n</dialog>\n",
      logged_in ? Html()
                : Html::literal(
                      "<div><dt><kbd>alt</kbd>+<kbd>shift</kbd>+<kbd>s</kbd></dt><dd>Sign up</dd></div>\n"
                      "<div><dt><kbd>alt</kbd>+<kbd>shift</kbd>+<kbd>l</kbd></dt><dd>Log in</dd></div>\n"));
}

// The display controls, labelled with their shortcuts as the original shows them ("Full Width
// [alt+shift+f]"). They need JavaScript, so the stylesheet shows them only once theme.js has marked the
// page (data-js on <html>); site.js keeps aria-pressed in step with the page.
const Html kControls = Html::literal(
    "<div class=\"controls js-only\" role=\"group\" aria-label=\"Display\">"
    "<button type=\"button\" class=\"control\" data-action=\"width\" aria-pressed=\"false\" "
    "aria-keyshortcuts=\"Alt+Shift+F\">Full Width <span class=\"key\" "
    "aria-hidden=\"true\">[alt+shift+f]</span>"
    "</button>"
    "<button type=\"button\" class=\"control\" data-action=\"theme\" aria-pressed=\"false\" "
    "aria-keyshortcuts=\"Alt+Shift+D\">Dark Mode <span class=\"key\" "
    "aria-hidden=\"true\">[alt+shift+d]</span>"
    "</button>"
    "<button type=\"button\" class=\"control\" data-action=\"shortcuts\" aria-haspopup=\"dialog\" "
    "aria-controls=\"shortcuts\" aria-keyshortcuts=\"Alt+Shift+K\">Shortcuts <span class=\"key\" "
    "aria-hidden=\"true\">[alt+shift+k]</span></button></div>\n");

// Header links: "Sign Up [alt+shift+s]" and "Log In [alt+shift+l]" for visitors (coming back to this
// page after logging in); the reading list with its unread count and "Log out" for readers.
Html account_links(const View& view, const Page& page) {
  if (!view.logged_in()) {
    const std::string next = web::url_encode(page.path.empty() ? "/" : page.path);
    return html(
        "<nav class=\"account\" aria-label=\"Account\">"
        "<a href=\"{}\" data-shortcut=\"signup\" aria-keyshortcuts=\"Alt+Shift+S\">Sign Up "
        "<span class=\"key\" aria-hidden=\"true\">[alt+shift+s]</span></a>"
        "<a href=\"{}\" data-shortcut=\"login\" aria-keyshortcuts=\"Alt+Shift+L\">Log In "
        "<span class=\"key\" aria-hidden=\"true\">[alt+shift+l]</span></a></nav>\n",
        attr("/signup?next=" + next), attr("/login?next=" + next));
  }
  const auto unread = view.store().reading_list_unread(view.reader()->reader_id);
  return html(
      "<nav class=\"account\" aria-label=\"Account\">"
      "<a href=\"/reading-list\" data-shortcut=\"reading-list-page\">Reading list "
      "<span class=\"count\" data-reading-count>{}</span></a>"
      "<a href=\"/account\">Account</a>"
      "<form method=\"post\" action=\"/logout\" class=\"inline\"><input type=\"hidden\" name=\"csrf\" "
      "value=\"{}\"><button type=\"submit\" class=\"link\" title=\"{}\">Log out</button></form></nav>\n",
      number(unread.value_or(0)), attr(view.csrf_token()), attr(view.reader()->email));
}

// Open Graph (https://ogp.me) and the Twitter card, so that a shared link shows a title card: on pages
// that answer 200 only (an error page has no address worth sharing).
Html open_graph(const Page& page, const SiteOptions& opts, const std::string& canonical) {
  if (page.status != 200) return {};
  Html tags = html(
      "<meta property=\"og:type\" content=\"{}\">\n<meta property=\"og:title\" content=\"{}\">\n"
      "<meta property=\"og:description\" content=\"{}\">\n<meta property=\"og:url\" content=\"{}\">\n"
      "<meta property=\"og:site_name\" content=\"{}\">\n<meta name=\"twitter:card\" content=\"summary\">\n",
      attr(page.og_type), attr(page.title.empty() ? opts.site_name : page.title),
      attr(page.description.empty() ? opts.site_name : page.description), attr(canonical),
      attr(opts.site_name));
  if (!page.published_time.empty()) {
    tags += html("<meta property=\"article:published_time\" content=\"{}\">\n", attr(page.published_time));
  }
  return tags;
}

}  // namespace

const std::optional<storage::SessionReader>& View::reader() const {
  if (!reader_loaded_) {
    reader_loaded_ = true;
    if (request_ != nullptr && context_.accounts) {
      if (const auto token = request_->cookie(kSessionCookie)) {
        auto found = context_.accounts->reader(*token, now_);
        if (found) reader_ = std::move(*found);
      }
    }
  }
  return reader_;
}

std::string View::csrf_token(bool create) const {
  if (!context_.accounts) return {};
  if (logged_in())
    return context_.accounts->csrf_token("s:" + std::string(*request_->cookie(kSessionCookie)));
  if (anon_binding_.empty() && request_ != nullptr) {
    if (const auto value = request_->cookie(kCsrfCookie);
        value && value->size() >= 20 && value->size() <= 64) {
      anon_binding_ = *value;
    }
  }
  if (anon_binding_.empty() && create) {
    anon_binding_ = accounts::random_token();
    set_cookies_.push_back(cookie(kCsrfCookie, anon_binding_, 0));
  }
  return anon_binding_.empty() ? std::string() : context_.accounts->csrf_token("a:" + anon_binding_);
}

bool View::csrf_valid(std::string_view token) const {
  if (!context_.accounts || request_ == nullptr) return false;
  if (logged_in()) {
    return context_.accounts->csrf_valid("s:" + std::string(*request_->cookie(kSessionCookie)), token);
  }
  const auto value = request_->cookie(kCsrfCookie);
  return value && !value->empty() && context_.accounts->csrf_valid("a:" + std::string(*value), token);
}

std::string View::cookie(std::string_view name, std::string_view value, std::int64_t max_age) const {
  std::string c = std::string(name) + "=" + std::string(value) + "; Path=/; HttpOnly; SameSite=Lax";
  if (options().base_url.starts_with("https://")) c += "; Secure";
  if (max_age != 0) c += "; Max-Age=" + std::to_string(max_age < 0 ? 0 : max_age);
  return c;
}

void View::add_cookies(web::Response& response) const {
  for (const auto& c : set_cookies_) response.headers.emplace_back("Set-Cookie", c);
  set_cookies_.clear();
}

void View::load_marks(const std::vector<std::int64_t>& article_ids) const {
  if (!logged_in() || article_ids.empty()) return;
  auto marks = store().reader_marks(reader()->reader_id, article_ids);
  if (!marks) return;
  marks_.voted.insert(marks_.voted.end(), marks->voted.begin(), marks->voted.end());
  marks_.saved.insert(marks_.saved.end(), marks->saved.begin(), marks->saved.end());
  marks_.read.insert(marks_.read.end(), marks->read.begin(), marks->read.end());
}

bool View::read(std::int64_t article_id) const {
  return std::find(marks_.read.begin(), marks_.read.end(), article_id) != marks_.read.end();
}

const storage::ReaderPreferences& View::preferences() const {
  if (!preferences_) {
    preferences_.emplace();
    if (logged_in()) {
      // A store error leaves the defaults: the page still renders, unfiltered by preference.
      if (auto stored = store().reader_preferences(reader()->reader_id)) preferences_ = std::move(*stored);
    }
  }
  return *preferences_;
}

std::optional<storage::ReaderFilter> View::reader_filter() const {
  if (!logged_in()) return std::nullopt;
  return storage::ReaderFilter{.reader_id = reader()->reader_id, .hide_read = preferences().hide_read};
}

bool View::voted(std::int64_t article_id) const {
  return std::find(marks_.voted.begin(), marks_.voted.end(), article_id) != marks_.voted.end();
}

bool View::saved(std::int64_t article_id) const {
  return std::find(marks_.saved.begin(), marks_.saved.end(), article_id) != marks_.saved.end();
}

std::string safe_next(std::string_view next) {
  // Read as a browser reads a Location: the URL parser removes every ASCII tab and newline first (WHATWG
  // URL Standard, "basic URL parser", step 3), so "/\t/evil.example" is "//evil.example", a URL of another
  // host; and it takes "\\" as "/" in http(s) URLs, so no backslash is let through anywhere.
  std::string path;
  path.reserve(next.size());
  for (const char c : next) {
    if (c != '\t' && c != '\r' && c != '\n') path.push_back(c);
  }
  // Exactly one leading "/" (a path on this site, RFC 3986 section 4.2: "//" starts an authority), no
  // backslash, and no other control character (the parser strips leading and trailing C0 controls and
  // spaces, and a Location header must not carry any).
  const bool controls = std::any_of(path.begin(), path.end(),
                                    [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; });
  if (path.empty() || path.size() > 2000 || path.front() != '/' || (path.size() > 1 && path[1] == '/') ||
      path.find('\\') != std::string::npos || controls) {
    return "/";
  }
  return path;
}

Html vote_control(const View& view, const model::Article& a) {
  const bool voted = view.voted(a.id);
  return html(
      "<form method=\"post\" action=\"/articles/{}/{}\" class=\"vote\" data-vote>"
      "<input type=\"hidden\" name=\"csrf\" value=\"{}\"><input type=\"hidden\" name=\"next\" value=\"{}\">"
      "<button type=\"submit\" aria-pressed=\"{}\" title=\"{}\"><span aria-hidden=\"true\">&#9650;</span> "
      "<span class=\"votes\">{}</span></button></form>",
      number(a.id), voted ? Html::literal("unvote") : Html::literal("vote"), attr(view.csrf_token()),
      attr(view.target()), voted ? Html::literal("true") : Html::literal("false"),
      voted ? Html::literal("Withdraw your vote") : Html::literal("Vote for this article"),
      text(plural(a.votes, "vote", "votes")));
}

Html read_control(const View& view, const model::Article& a) {
  if (!view.logged_in()) return {};
  const bool read = view.read(a.id);
  return html(
      "<form method=\"post\" action=\"/articles/{}/read\" class=\"inline read-toggle\" data-read-toggle>"
      "<input type=\"hidden\" name=\"csrf\" value=\"{}\"><input type=\"hidden\" name=\"next\" value=\"{}\">"
      "<input type=\"hidden\" name=\"action\" value=\"{}\"><button type=\"submit\" class=\"link\" "
      "aria-pressed=\"{}\" aria-keyshortcuts=\"M\">Read</button></form>",
      number(a.id), attr(view.csrf_token()), attr(view.target()),
      read ? Html::literal("unread") : Html::literal("read"),
      read ? Html::literal("true") : Html::literal("false"));
}

web::Response View::render(const Page& page) const {
  const SiteOptions& opts = options();
  const std::string canonical = opts.base_url + page.path;
  const std::string full_title = page.title.empty() ? opts.site_name : page.title + " — " + opts.site_name;

  Html nav = nav_link(page.nav, "new", "/", "Hot");
  nav += nav_link(page.nav, "newest", "/newest", "Newest");
  if (has_votes() || page.nav == "top") nav += nav_link(page.nav, "top", "/top", "Top");
  // A logged-in request never goes through the page cache, so a visitor's cached page never carries it.
  if (logged_in()) nav += nav_link(page.nav, "for-you", "/for-you", "For you");
  nav += nav_link(page.nav, "categories", "/categories", "Categories");
  nav += nav_link(page.nav, "blogs", "/blogs", "Blogs");
  nav += nav_link(page.nav, "about", "/about", "About");

  Html doc = html(
      "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      "<title>{}</title>\n<meta name=\"description\" content=\"{}\">\n"
      "<link rel=\"canonical\" href=\"{}\">\n{}"
      "<link rel=\"stylesheet\" href=\"{}\">\n"
      "<link rel=\"icon\" href=\"{}\" type=\"image/svg+xml\">\n"
      "<link rel=\"alternate\" type=\"application/atom+xml\" title=\"{}\" href=\"/feed.atom\">\n{}"
      "<script src=\"{}\"></script>\n"
      "<script src=\"{}\" defer></script>\n"
      "</head>\n<body{}>\n"
      "<header class=\"site-header\"><div class=\"wrap\">\n"
      "<a class=\"brand\" href=\"/\">{}</a>\n<nav class=\"nav\" aria-label=\"Sections\">{}</nav>\n"
      "<div class=\"tools\">\n"
      "<form class=\"search-form\" action=\"/search\" method=\"get\" role=\"search\">"
      "<label class=\"visually-hidden\" for=\"site-search\">Search articles</label>"
      "<input id=\"site-search\" type=\"search\" name=\"q\" value=\"{}\" placeholder=\"Search\"></form>\n"
      "{}</div>\n</div></header>\n"
      "<main id=\"main\"><div class=\"wrap\">\n{}<div class=\"content\">\n{}</div>\n</div></main>\n"
      "<footer class=\"site-footer\"><div class=\"wrap\">{} collects long-form writing from personal blogs. "
      "<span class=\"js-only\">Press <kbd>alt</kbd>+<kbd>shift</kbd>+<kbd>k</kbd> for keyboard shortcuts. "
      "</span><a href=\"/feed.atom\">Atom feed</a>.</div></footer>\n"
      "{}</body>\n</html>\n",
      text(full_title), attr(page.description.empty() ? opts.site_name : page.description), attr(canonical),
      open_graph(page, opts, canonical), attr(context_.assets.url("site.css")),
      attr(context_.assets.url("favicon.svg")), attr(opts.site_name),
      page.feed_path.empty()
          ? Html()
          : html("<link rel=\"alternate\" type=\"application/atom+xml\" title=\"{}\" href=\"{}\">\n",
                 attr(page.feed_title), attr(page.feed_path)),
      attr(context_.assets.url("theme.js")), attr(context_.assets.url("site.js")),
      // What site.js needs to post read marks with fetch: the reader's CSRF token, and whether they
      // asked for articles to be marked read once scrolled past.
      logged_in()
          ? html(" data-csrf=\"{}\"{}", attr(csrf_token()),
                 preferences().mark_read_on_scroll ? Html::literal(" data-mark-read-on-scroll") : Html())
          : Html(),
      text(opts.site_name), nav, attr(page.search_query), account_links(*this, page), kControls, page.body,
      text(opts.site_name), shortcuts_overlay(logged_in()));

  web::Response res;
  add_cookies(res);
  if (logged_in() || !set_cookies_.empty()) {
    // Pages for one visitor (votes, reading list, a CSRF token) are never stored by shared caches.
    res.set_header("Cache-Control", "private, no-cache");
  }
  res.status = page.status;
  res.content_type = "text/html; charset=utf-8";
  res.body = std::move(doc).str();
  // Pages change whenever the data does: caches must revalidate every time (RFC 9111 section 5.2.2.4);
  // the ETag makes that revalidation a cheap 304 (RFC 9110 section 13.1.2).
  if (!res.header("Cache-Control")) res.set_header("Cache-Control", "no-cache");
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
  // Logged-in readers go straight to the original; visitors see the article page first.
  const auto original = view.logged_in() ? href(a.link) : std::nullopt;
  const Html target = original ? *original : attr(article_path(a));
  // data-read-now: site.js marks the article read when the reader follows it to the original.
  const Html rel = original ? Html::literal(" rel=\"noopener\" data-read-now") : Html();
  const Html heading = options.heading_h3
                           ? html("<h3><a href=\"{}\"{}>{}</a></h3>", target, rel, text(title))
                           : html("<h2><a href=\"{}\"{}>{}</a></h2>", target, rel, text(title));
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
  meta.push_back(vote_control(view, a));
  if (a.reading_minutes > 1) meta.push_back(text(reading_time(a.reading_minutes)));
  if (view.logged_in()) meta.push_back(read_control(view, a));

  const std::string& source = a.excerpt.empty() ? a.text : a.excerpt;
  const std::string excerpt = truncate_words(collapse_whitespace(source), options.excerpt_bytes);
  return html(
      "<li class=\"item{}\" data-item data-article=\"{}\">\n{}\n<div class=\"meta\">{}</div>\n{}{}</li>\n",
      view.read(a.id) ? Html::literal(" is-read") : Html(), number(a.id), heading,
      join(meta, Html::literal("<span class=\"sep\" aria-hidden=\"true\">•</span>")), options.after_meta,
      excerpt.empty() ? Html() : html("<p class=\"excerpt\">{}</p>\n", text(excerpt)));
}

Html article_list(const View& view, const std::vector<storage::ArticleView>& articles,
                  const ItemOptions& options) {
  std::vector<std::int64_t> ids;
  for (const auto& article : articles) ids.push_back(article.article.id);
  view.load_marks(ids);
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

Result<ListingStart> listing_start(const web::Request& request) {
  ListingStart start;
  if (const auto after = request.param("after")) {
    // The store checks what the cursor says; this only keeps an empty or absurdly long one off it.
    if (after->empty() || after->size() > 8192) {
      return fail(ErrorKind::kInvalidInput, "ui: bad listing cursor", "That page link is not valid.");
    }
    start.after = std::string(*after);
    return start;
  }
  auto page = page_number(request);
  if (!page) return std::unexpected(page.error());
  start.page = *page;
  return start;
}

std::string listing_path(std::string_view base_path, const ListingStart& start) {
  const char joiner = base_path.find('?') == std::string_view::npos ? '?' : '&';
  if (!start.after.empty()) return std::string(base_path) + joiner + "after=" + web::url_encode(start.after);
  if (start.page > 1) return std::string(base_path) + joiner + "page=" + std::to_string(start.page);
  return std::string(base_path);
}

Html cursor_pager(std::string_view base_path, const ListingStart& start, std::string_view next,
                  PagerWords words) {
  if (start.first() && next.empty()) return {};
  Html links;
  if (!start.first()) {
    links += html(
        "<a class=\"prev\" href=\"{}\">{}</a>", attr(base_path),
        words == PagerWords::kByDate ? Html::literal("&larr; Newest") : Html::literal("&larr; First page"));
  }
  if (!next.empty()) {
    links +=
        html("<a class=\"next\" rel=\"next\" href=\"{}\">{}</a>",
             attr(listing_path(base_path, {.after = std::string(next)})),
             words == PagerWords::kByDate ? Html::literal("Older &rarr;") : Html::literal("More &rarr;"));
  }
  return html("<nav class=\"pager\" aria-label=\"Pages\">{}</nav>\n", links);
}

Html pager(std::string_view base_path, int page, bool has_more, PagerWords words) {
  if (page <= 1 && !has_more) return {};
  const char joiner = base_path.find('?') == std::string_view::npos ? '?' : '&';
  auto page_url = [&](int n) {
    if (n <= 1) return std::string(base_path);
    return std::string(base_path) + joiner + "page=" + std::to_string(n);
  };
  const bool by_date = words == PagerWords::kByDate;
  Html links;
  if (page > 1) {
    links += html("<a class=\"prev\" rel=\"prev\" href=\"{}\">{}</a>", attr(page_url(page - 1)),
                  by_date ? Html::literal("&larr; Newer") : Html::literal("&larr; Previous"));
  }
  if (has_more) {
    links += html("<a class=\"next\" rel=\"next\" href=\"{}\">{}</a>", attr(page_url(page + 1)),
                  by_date ? Html::literal("Older &rarr;") : Html::literal("More &rarr;"));
  }
  return html("<nav class=\"pager\" aria-label=\"Pages\">{}</nav>\n", links);
}

}  // namespace longread::ui
