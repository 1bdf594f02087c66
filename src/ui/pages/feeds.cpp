// The site's own Atom feeds (RFC 4287), for readers who follow longread in their feed reader:
// "/feed.atom" (the newest articles of every category), "/category/<slug>/feed.atom", "/blog/<id>/feed.atom"
// and "/top/feed.atom" (the week's five most voted articles). Each entry links to the original article,
// like the site's "Read now", with the article's page as rel="related".
//
// No feed grows without bound: a document holds at most SiteOptions::feed_page_size entries (five for
// the weekly top), and older entries are on further pages linked with RFC 5005's rel="next" — a cursor
// for the listings ("?after=", one index seek at any depth), the previous ISO week for the top five
// ("?week=2026-W48").
#include <algorithm>
#include <charconv>

#include "core/strings.h"
#include "core/url.h"
#include "pages/pages.h"
#include "ui/atom.h"
#include "web/http.h"

namespace longread::ui::pages {
namespace {

// The week's best, as many as the weekly newsletter carries.
constexpr int kTopEntries = 5;

// One feed: which articles, and what the feed says about itself.
struct FeedSpec {
  storage::ArticleQuery query{};  // filters and order; limit and cursor are set per page
  std::string path{};             // the feed's own path, "/feed.atom"
  std::string page{};             // the HTML page it follows
  std::string title{};
  std::string subtitle{};
};

AtomEntry entry_for(const View& view, const storage::ArticleView& v) {
  const SiteOptions& opts = view.options();
  const model::Article& a = v.article;
  const std::string on_site = opts.base_url + article_path(a);
  return AtomEntry{
      // Without the title's slug, so that the id stays when a title is edited (RFC 4287 4.2.6).
      .id = opts.base_url + blog_path(a.blog_id) + "/read/" + std::to_string(a.id),
      .title = a.title.empty() ? "Untitled" : a.title,
      .link = is_http_url(a.link) ? a.link : on_site,
      .related = on_site,
      .author = blog_display_name(v.blog_title, v.blog_site_url),
      .category = article_category(v),
      .summary = a.excerpt,
      .published = a.display_date(),
  };
}

AtomFeed feed_head(const View& view, const FeedSpec& spec,
                   const std::vector<storage::ArticleView>& articles) {
  const SiteOptions& opts = view.options();
  AtomFeed feed;
  feed.id = opts.base_url + spec.page;
  feed.title = spec.title;
  feed.subtitle = spec.subtitle;
  feed.author = opts.site_name;
  feed.self = opts.base_url + spec.path;
  feed.alternate = opts.base_url + spec.page;
  feed.updated = view.now();
  if (!articles.empty()) {
    feed.updated = std::max_element(articles.begin(), articles.end(), [](const auto& a, const auto& b) {
                     return a.article.display_date() < b.article.display_date();
                   })->article.display_date();
  }
  for (const auto& v : articles) feed.entries.push_back(entry_for(view, v));
  return feed;
}

Result<web::Response> atom_response(const AtomFeed& feed) {
  web::Response res;
  res.status = 200;
  res.content_type = "application/atom+xml; charset=utf-8";
  res.body = atom_document(feed);
  if (res.body.empty()) return fail(ErrorKind::kInternal, "ui: libxml2 could not write the feed");
  // Feed readers poll: a few minutes of freshness, then a conditional GET answered 304 when unchanged.
  res.set_header("Cache-Control", "max-age=300");
  res.set_header("ETag", "\"" + stable_hash_hex(res.body) + "\"");
  return res;
}

// A listing feed: one page of `spec.query`, from the cursor in "?after=" (the first page without one).
Result<web::Response> listing_feed(View& view, const web::Request& request, FeedSpec spec) {
  std::string after;
  if (const auto param = request.param("after")) {
    // The store checks what the cursor says (a forged one is kInvalidInput); this keeps an empty or
    // absurdly long one off it.
    if (param->empty() || param->size() > 8192)
      return fail(ErrorKind::kInvalidInput, "ui: bad feed cursor", "That feed page link is not valid.");
    after = std::string(*param);
  }
  spec.query.limit = std::max(view.options().feed_page_size, 1);
  spec.query.after = after;
  auto listed = view.store().article_page(spec.query);
  if (!listed) return std::unexpected(listed.error());
  AtomFeed feed = feed_head(view, spec, listed->articles);
  const std::string base = view.options().base_url + spec.path;
  if (!after.empty()) feed.self = base + "?after=" + web::url_encode(after);
  feed.first = base;
  if (listed->has_more) feed.next = base + "?after=" + web::url_encode(listed->next);
  return atom_response(feed);
}

}  // namespace

Result<web::Response> site_feed(View& view, const web::Request& request, const Params&) {
  const SiteOptions& opts = view.options();
  return listing_feed(view, request,
                      {.path = "/feed.atom",
                       .page = "/newest",
                       .title = opts.site_name,
                       .subtitle = "Long-form writing from personal blogs, newest first."});
}

Result<web::Response> category_feed(View& view, const web::Request& request, const Params& params) {
  const std::string slug(params.get("slug"));
  auto all = view.store().categories();
  if (!all) return std::unexpected(all.error());
  if (std::none_of(all->begin(), all->end(), [&](const auto& c) { return c.slug == slug; }))
    return fail(ErrorKind::kNotFound, "ui: no category " + slug, "No such category.");
  const std::string name = view.category_name(slug);
  return listing_feed(view, request,
                      {.query = {.category = slug},
                       .path = category_path(slug) + "/feed.atom",
                       .page = category_path(slug),
                       .title = name + " — " + view.options().site_name,
                       .subtitle = "Long-form articles about " + name + " from personal blogs."});
}

Result<web::Response> blog_feed(View& view, const web::Request& request, const Params& params) {
  const std::string_view raw = params.get("blog");
  std::int64_t id = 0;
  const auto [end, ec] = std::from_chars(raw.data(), raw.data() + raw.size(), id);
  if (ec != std::errc{} || end != raw.data() + raw.size() || id <= 0)
    return fail(ErrorKind::kNotFound, "ui: malformed blog id", "No such blog.");
  auto found = view.store().blog(id);
  if (!found) return std::unexpected(found.error());
  if (!*found) return fail(ErrorKind::kNotFound, "ui: no blog " + std::to_string(id), "No such blog.");
  const std::string name = blog_display_name((*found)->title, (*found)->site_url);
  return listing_feed(
      view, request,
      {.query = {.blog_id = id},
       .path = blog_path(id) + "/feed.atom",
       .page = blog_path(id),
       .title = name + " — " + view.options().site_name,
       .subtitle = "Long-form articles from " + name + ", as curated by " + view.options().site_name + "."});
}

// One ISO week per document: the five articles dated in that week with the most votes (ties: newest
// first), the choice the weekly newsletter makes. The first page is the last complete week (its five
// no longer change with every vote); "next" is the week before, while older articles exist.
Result<web::Response> top_feed(View& view, const web::Request& request, const Params&) {
  const SiteOptions& opts = view.options();
  const TimePoint this_week = iso_week_start(view.now());
  TimePoint monday = this_week - std::chrono::days(7);
  const auto week = request.param("week");
  if (week) {
    auto parsed = parse_iso_week(*week);
    if (!parsed || *parsed >= this_week)
      return fail(ErrorKind::kNotFound, "ui: no such week in the top feed", "No such week.");
    monday = *parsed;
  }
  FeedSpec spec{.query = {.since = monday,
                          .until = monday + std::chrono::days(7),
                          .order = storage::ArticleOrder::kTop,
                          .limit = kTopEntries},
                .path = "/top/feed.atom",
                .page = "/top",
                .title = "The week’s five best — " + opts.site_name,
                .subtitle = "Every week, the five most voted long-form articles of the week " +
                            iso_week_key(monday) + "."};
  auto listed = view.store().articles(spec.query);
  if (!listed) return std::unexpected(listed.error());
  AtomFeed feed = feed_head(view, spec, *listed);
  const std::string base = opts.base_url + spec.path;
  if (week) feed.self = base + "?week=" + iso_week_key(monday);
  feed.first = base;
  // One seek on the date index: is any article older than this week?
  auto older = view.store().articles({.until = monday, .limit = 1});
  if (!older) return std::unexpected(older.error());
  if (!older->empty()) feed.next = base + "?week=" + iso_week_key(monday - std::chrono::days(7));
  return atom_response(feed);
}

}  // namespace longread::ui::pages
