// A reading list a reader can take anywhere and bring from anywhere:
//   GET  /reading-list/export/{json|csv|html}  the whole list (articles and plain saved links) as a file:
//        JSON, Pocket's CSV columns, or a Netscape bookmark file (what browsers and Pocket read);
//   GET  /reading-list/feed.atom?token=…        a private Atom feed of the newest saved, for feed readers;
//        the token sits in the query, which the access log never writes;
//   POST /reading-list/feed                     make, replace (the old URL stops working) or turn off the
//        feed's token;
//   POST /reading-list/import                   a Pocket (HTML or CSV), Instapaper (CSV) or browser
//        bookmark file, as multipart/form-data: links to articles of the site join the list, the rest are
//        kept as plain saved links;
//   POST /reading-list/links/{id}               read, unread or remove a plain saved link.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "accounts/crypto.h"
#include "core/strings.h"
#include "core/url.h"
#include "feed/bookmarks.h"
#include "pages/forms.h"
#include "pages/pages.h"
#include "ui/atom.h"
#include "ui/format.h"

namespace longread::ui::pages {
namespace {

// Whole lists for an export: far above what a reader saves, still a bound on one response.
constexpr int kExportArticles = 100000;

// One entry of the list as an export writes it.
struct ListEntry {
  std::string id{};   // the Atom entry id: the one the site's feeds give the article, else the URL
  std::string url{};  // the original (http/https), else the article's page here
  std::string title{};
  std::string page{};  // the article's page on the site ("" for a plain link)
  std::string blog{};  // the blog's name ("" for a plain link)
  TimePoint saved_at{};
  std::optional<TimePoint> read_at{};
};

Result<std::vector<ListEntry>> whole_list(View& view, std::int64_t reader, int limit) {
  const std::string& base = view.options().base_url;
  auto articles = view.store().reading_list(reader, limit, 0);
  if (!articles) return std::unexpected(articles.error());
  auto links = view.store().saved_links(reader, limit, 0);
  if (!links) return std::unexpected(links.error());
  std::vector<ListEntry> out;
  for (const auto& s : *articles) {
    const model::Article& a = s.view.article;
    const std::string page = base + article_path(a);
    out.push_back({.id = base + blog_path(a.blog_id) + "/read/" + std::to_string(a.id),
                   .url = is_http_url(a.link) ? a.link : page,
                   .title = a.title.empty() ? "Untitled" : a.title,
                   .page = page,
                   .blog = blog_display_name(s.view.blog_title, s.view.blog_site_url),
                   .saved_at = s.saved_at,
                   .read_at = s.read_at});
  }
  for (const auto& l : *links)
    out.push_back(
        {.id = l.url, .url = l.url, .title = l.title, .saved_at = l.saved_at, .read_at = l.read_at});
  std::stable_sort(out.begin(), out.end(),
                   [](const auto& a, const auto& b) { return a.saved_at > b.saved_at; });
  if (out.size() > static_cast<std::size_t>(limit)) out.resize(static_cast<std::size_t>(limit));
  return out;
}

web::Response download(std::string body, std::string_view type, std::string_view filename) {
  web::Response res;
  res.status = 200;
  res.content_type = std::string(type);
  res.body = std::move(body);
  res.set_header("Content-Disposition", fmt::format("attachment; filename=\"{}\"", filename));
  res.set_header("Cache-Control", "no-store");
  return res;
}

std::string export_json(const View& view, const std::vector<ListEntry>& list) {
  nlohmann::json items = nlohmann::json::array();
  for (const auto& e : list) {
    nlohmann::json item{{"url", e.url},
                        {"title", e.title},
                        {"saved_at", format_rfc3339(e.saved_at)},
                        {"read", e.read_at.has_value()}};
    if (e.read_at) item["read_at"] = format_rfc3339(*e.read_at);
    if (!e.page.empty()) item["page"] = e.page;
    if (!e.blog.empty()) item["blog"] = e.blog;
    items.push_back(std::move(item));
  }
  const nlohmann::json doc{{"site", view.options().base_url},
                           {"exported_at", format_rfc3339(view.now())},
                           {"items", std::move(items)}};
  // Invalid UTF-8 cannot reach here (the pipeline and the importer clean every text); replace it anyway
  // rather than throw.
  return doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

// Pocket's CSV columns, so that the file goes wherever a Pocket export goes (and back here).
std::string export_csv(const std::vector<ListEntry>& list) {
  std::string out = "title,url,time_added,tags,status\r\n";
  for (const auto& e : list) {
    out += fmt::format("{},{},{},,{}\r\n", feed::csv_field(e.title), feed::csv_field(e.url),
                       to_unix(e.saved_at), e.read_at ? "archive" : "unread");
  }
  return out;
}

std::string export_html(const View& view, const std::vector<ListEntry>& list) {
  std::vector<feed::Bookmark> bookmarks;
  for (const auto& e : list)
    bookmarks.push_back(
        {.url = e.url, .title = e.title, .saved_at = e.saved_at, .read = e.read_at.has_value()});
  return feed::write_netscape_bookmarks(bookmarks, "Reading list — " + view.options().site_name);
}

std::string feed_url(const View& view, std::string_view token) {
  return view.options().base_url + "/reading-list/feed.atom?token=" + web::url_encode(token);
}

// The page an import or a failed import answers with.
web::Response import_page(View& view, Html message, int status) {
  Html body = html("{}<p><a href=\"/reading-list\">Back to your reading list</a></p>\n", message);
  return private_page(view, "Import a reading list", "/reading-list/import", std::move(body), status);
}

}  // namespace

Html saved_links_section(View& view) {
  auto links = view.store().saved_links(view.reader()->reader_id, storage::kMaxSavedLinks, 0);
  if (!links || links->empty()) return {};
  Html items;
  const std::string token = view.csrf_token();
  auto button = [&](std::int64_t id, std::string_view action, std::string_view label) {
    return html(
        "<form method=\"post\" action=\"/reading-list/links/{}\" class=\"inline\"><input type=\"hidden\" "
        "name=\"csrf\" value=\"{}\"><input type=\"hidden\" name=\"action\" value=\"{}\"><button "
        "type=\"submit\" "
        "class=\"link\">{}</button></form>",
        number(id), attr(token), attr(action), text(label));
  };
  for (const auto& l : *links) {
    const auto target = href(l.url);
    const std::string title = trim(l.title).empty() ? l.url : std::string(trim(l.title));
    items += html(
        "<li class=\"item{}\" data-link=\"{}\">\n<h3>{}</h3>\n<div class=\"meta\">{}<span class=\"sep\" "
        "aria-hidden=\"true\">•</span>saved {}{}<span class=\"sep\" aria-hidden=\"true\">•</span>{}<span "
        "class=\"sep\" aria-hidden=\"true\">•</span>{}</div>\n</li>\n",
        l.read_at ? Html::literal(" is-read") : Html(), number(l.id),
        target ? html("<a href=\"{}\" rel=\"noopener nofollow\">{}</a>", *target, text(title)) : text(title),
        text(url_host(l.url)), text(relative_age(l.saved_at, view.now())),
        l.read_at ? Html::literal("<span class=\"sep\" aria-hidden=\"true\">•</span>read") : Html(),
        l.read_at ? button(l.id, "unread", "Mark as unread") : button(l.id, "read", "Mark as read"),
        button(l.id, "remove", "Remove"));
  }
  return html(
      "<section class=\"saved-links\" aria-labelledby=\"saved-links\">\n<h2 id=\"saved-links\">Other saved "
      "links</h2>\n<p class=\"lede\">Imported links that are not articles on this site.</p>\n<ol "
      "class=\"items\">\n{}</ol>\n</section>\n",
      items);
}

Html portability_section(View& view) {
  const std::string token = view.csrf_token();
  auto feed_token = view.store().reading_list_feed_token(view.reader()->reader_id);
  Html feed;
  if (feed_token && *feed_token) {
    const std::string url = feed_url(view, **feed_token);
    feed = html(
        "<p>Your private feed: <input type=\"text\" readonly class=\"feed-url\" aria-label=\"Private feed "
        "address\" value=\"{}\"> Anyone with this address can read your list.</p>\n"
        "<form method=\"post\" action=\"/reading-list/feed\" class=\"inline\"><input type=\"hidden\" "
        "name=\"csrf\" "
        "value=\"{}\"><input type=\"hidden\" name=\"action\" value=\"rotate\"><button type=\"submit\" "
        "class=\"button\">Replace the address</button></form>\n"
        "<form method=\"post\" action=\"/reading-list/feed\" class=\"inline\"><input type=\"hidden\" "
        "name=\"csrf\" "
        "value=\"{}\"><input type=\"hidden\" name=\"action\" value=\"off\"><button type=\"submit\" "
        "class=\"button\">Turn the feed off</button></form>\n",
        attr(url), attr(token), attr(token));
  } else {
    feed = html(
        "<form method=\"post\" action=\"/reading-list/feed\"><input type=\"hidden\" name=\"csrf\" "
        "value=\"{}\"><input type=\"hidden\" name=\"action\" value=\"create\"><button type=\"submit\" "
        "class=\"button\">Make a private feed</button></form>\n",
        attr(token));
  }
  return html(
      "<section class=\"settings portability\" aria-labelledby=\"take-it\">\n<h2 id=\"take-it\">Take your "
      "list "
      "with you</h2>\n<p>Download it as <a href=\"/reading-list/export/html\" download>bookmarks (HTML)</a>, "
      "<a "
      "href=\"/reading-list/export/csv\" download>CSV</a> or <a href=\"/reading-list/export/json\" "
      "download>JSON</a>. Browsers and most read-later services import the bookmarks file.</p>\n"
      "<h3>Follow it in a feed reader</h3>\n{}"
      "<h3>Bring a list here</h3>\n"
      "<form method=\"post\" action=\"/reading-list/import\" enctype=\"multipart/form-data\" "
      "class=\"account-form\">\n<input type=\"hidden\" name=\"csrf\" value=\"{}\">\n"
      "<label for=\"import-file\">A Pocket export (HTML or CSV), an Instapaper CSV or a browser's bookmarks "
      "file</label>\n<input id=\"import-file\" type=\"file\" name=\"file\" required "
      "accept=\".html,.htm,.csv,text/html,text/csv\">\n"
      "<button type=\"submit\" class=\"button primary\">Import</button>\n</form>\n</section>\n",
      feed, attr(token));
}

Result<web::Response> reading_list_export(View& view, const web::Request& request, const Params& params) {
  if (!view.logged_in()) return login_first(view, request, "/reading-list");
  const std::string_view format = params.get("format");
  if (format != "json" && format != "csv" && format != "html")
    return fail(ErrorKind::kNotFound, "ui: unknown export format", "There is no such export.");
  auto list = whole_list(view, view.reader()->reader_id, kExportArticles);
  if (!list) return std::unexpected(list.error());
  if (format == "json")
    return download(export_json(view, *list), "application/json; charset=utf-8", "reading-list.json");
  if (format == "csv") return download(export_csv(*list), "text/csv; charset=utf-8", "reading-list.csv");
  return download(export_html(view, *list), "text/html; charset=utf-8", "reading-list.html");
}

Result<web::Response> reading_list_feed(View& view, const web::Request& request, const Params&) {
  const std::string_view token = request.param("token").value_or("");
  auto reader = token.empty() || token.size() > 200 ? Result<std::optional<std::int64_t>>(std::nullopt)
                                                    : view.store().reader_by_reading_list_feed_token(token);
  if (!reader) return std::unexpected(reader.error());
  if (!*reader) return fail(ErrorKind::kNotFound, "ui: unknown reading-list feed token", "No such feed.");
  auto list = whole_list(view, **reader, std::max(view.options().feed_page_size, 1));
  if (!list) return std::unexpected(list.error());
  AtomFeed feed;
  const std::string& base = view.options().base_url;
  feed.id = base + "/reading-list";
  feed.title = "Reading list — " + view.options().site_name;
  feed.subtitle = "The newest articles saved to a reading list on " + view.options().site_name + ".";
  feed.author = view.options().site_name;
  feed.self = feed_url(view, token);
  feed.alternate = base + "/reading-list";
  feed.updated = list->empty() ? view.now() : list->front().saved_at;
  for (const auto& e : *list) {
    feed.entries.push_back(AtomEntry{
        .id = e.id,
        .title = e.title.empty() ? e.url : e.title,
        .link = e.url,
        .related = e.page,
        .author = e.blog,
        .published = e.saved_at,
    });
  }
  web::Response res;
  res.status = 200;
  res.content_type = "application/atom+xml; charset=utf-8";
  res.body = atom_document(feed);
  if (res.body.empty()) return fail(ErrorKind::kInternal, "ui: libxml2 could not write the feed");
  // One reader's: never kept by a shared cache, never sent on as a referrer, never indexed.
  res.set_header("Cache-Control", "private, max-age=300");
  res.set_header("Referrer-Policy", "no-referrer");
  res.set_header("X-Robots-Tag", "noindex");
  res.set_header("ETag", "\"" + stable_hash_hex(res.body) + "\"");
  return res;
}

Result<web::Response> reading_list_feed_change(View& view, const web::Request& request, const Params&) {
  if (!view.logged_in()) return login_first(view, request, "/reading-list");
  auto form = parse_form(request);
  if (!form) return std::unexpected(form.error());
  const std::string_view action = form_value(*form, "action");
  std::optional<std::string> token;
  if (action == "create" || action == "rotate") {
    token = accounts::random_token(24);
  } else if (action != "off") {
    return fail(ErrorKind::kInvalidInput, "ui: unknown feed action", "Unknown feed action.");
  }
  if (auto ok = view.store().set_reading_list_feed_token(view.reader()->reader_id, token); !ok)
    return std::unexpected(ok.error());
  return see_other(view, "/reading-list#take-it");
}

Result<web::Response> reading_list_import(View& view, const web::Request& request, const Params&) {
  if (!view.logged_in()) return login_first(view, request, "/reading-list");
  const std::int64_t reader = view.reader()->reader_id;
  const std::string key = "reader:" + std::to_string(reader);
  if (auto wait = view.context().import_limiter.retry_after(key, view.now()))
    return import_page(
        view,
        html("<p class=\"form-error\" role=\"alert\">{}</p>\n", text(accounts::try_again_message(*wait))),
        429);
  view.context().import_limiter.record(key, view.now());
  auto form = parse_form(request);
  if (!form) return std::unexpected(form.error());
  auto parsed = feed::parse_bookmarks(form_value(*form, "file"));
  if (!parsed) {
    // "bookmarks: empty file" → "Empty file."
    std::string message(parsed.error().message);
    if (message.starts_with("bookmarks: ")) message.erase(0, 11);
    if (!message.empty())
      message[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(message[0])));
    return import_page(
        view, html("<p class=\"form-error\" role=\"alert\">Nothing was imported: {}.</p>\n", text(message)),
        400);
  }
  std::vector<storage::ImportedLink> links;
  links.reserve(parsed->bookmarks.size());
  for (auto& b : parsed->bookmarks)
    links.push_back(
        {.url = std::move(b.url), .title = std::move(b.title), .saved_at = b.saved_at, .read = b.read});
  auto summary = view.store().import_reading_list(reader, links, view.now());
  if (!summary) return std::unexpected(summary.error());
  Html lines = html("<li>{} joined your reading list as articles of this site</li>\n",
                    text(plural(summary->articles, "link", "links")));
  lines += html("<li>{} kept as other saved links</li>\n", text(plural(summary->links, "link", "links")));
  if (summary->already > 0)
    lines +=
        html("<li>{} already on your list</li>\n", text(plural(summary->already, "link was", "links were")));
  if (parsed->skipped > 0)
    lines +=
        html("<li>{} skipped (not a web address)</li>\n", text(plural(parsed->skipped, "entry", "entries")));
  if (summary->over_limit > 0)
    lines += html("<li>{} not kept: you have {} other saved links, the most there can be</li>\n",
                  text(plural(summary->over_limit, "link", "links")), number(storage::kMaxSavedLinks));
  return import_page(
      view, html("<p role=\"status\">Imported:</p>\n<ul class=\"import-summary\">\n{}</ul>\n", lines), 200);
}

Result<web::Response> saved_link_change(View& view, const web::Request& request, const Params& params) {
  if (!view.logged_in()) return login_first(view, request, "/reading-list");
  auto id = route_id(params.get("id"), "saved link");
  if (!id) return std::unexpected(id.error());
  auto form = parse_form(request);
  if (!form) return std::unexpected(form.error());
  const std::string_view action = form_value(*form, "action");
  const std::int64_t reader = view.reader()->reader_id;
  Result<void> done;
  if (action == "remove") {
    done = view.store().remove_saved_link(reader, *id);
  } else if (action == "read" || action == "unread") {
    done = view.store().set_saved_link_read(reader, *id, action == "read", view.now());
  } else {
    return fail(ErrorKind::kInvalidInput, "ui: unknown saved-link action", "Unknown action.");
  }
  if (!done) return std::unexpected(done.error());
  return see_other(view, "/reading-list#saved-links");
}

}  // namespace longread::ui::pages
