// The site's own Atom feeds (RFC 4287), for readers who follow longread in their feed reader:
// "/feed.atom" (the newest articles of every category) and "/category/<slug>/feed.atom". Each entry links
// to the original article, like the site's "Read now", with the article's page as rel="related".
#include <algorithm>

#include "core/strings.h"
#include "core/url.h"
#include "pages/pages.h"
#include "ui/atom.h"

namespace longread::ui::pages {
namespace {

constexpr int kFeedEntries = 50;

Result<web::Response> feed_response(View& view, std::optional<std::string> category) {
  const SiteOptions& opts = view.options();
  storage::ArticleQuery query;
  query.category = category;
  query.limit = kFeedEntries;
  auto articles = view.store().articles(query);
  if (!articles) return std::unexpected(articles.error());

  AtomFeed feed;
  const std::string page = category ? category_path(*category) : "/newest";
  feed.id = opts.base_url + page;
  feed.title = category ? view.category_name(*category) + " — " + opts.site_name : opts.site_name;
  feed.subtitle = category
                      ? "Long-form articles about " + view.category_name(*category) + " from personal blogs."
                      : "Long-form writing from personal blogs, newest first.";
  feed.author = opts.site_name;
  feed.self = opts.base_url + (category ? category_path(*category) : std::string()) + "/feed.atom";
  feed.alternate = opts.base_url + page;
  feed.updated = view.now();
  if (!articles->empty()) {
    feed.updated = std::max_element(articles->begin(), articles->end(), [](const auto& a, const auto& b) {
                     return a.article.display_date() < b.article.display_date();
                   })->article.display_date();
  }
  for (const auto& v : *articles) {
    const model::Article& a = v.article;
    const std::string on_site = opts.base_url + article_path(a);
    feed.entries.push_back(AtomEntry{
        // Without the title's slug, so that the id stays when a title is edited (RFC 4287 4.2.6).
        .id = opts.base_url + blog_path(a.blog_id) + "/read/" + std::to_string(a.id),
        .title = a.title.empty() ? "Untitled" : a.title,
        .link = is_http_url(a.link) ? a.link : on_site,
        .related = on_site,
        .author = blog_display_name(v.blog_title, v.blog_site_url),
        .category = article_category(v),
        .summary = a.excerpt,
        .published = a.display_date(),
    });
  }
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

}  // namespace

Result<web::Response> site_feed(View& view, const web::Request&, const Params&) {
  return feed_response(view, std::nullopt);
}

Result<web::Response> category_feed(View& view, const web::Request&, const Params& params) {
  const std::string slug(params.get("slug"));
  auto all = view.store().categories();
  if (!all) return std::unexpected(all.error());
  if (std::none_of(all->begin(), all->end(), [&](const auto& c) { return c.slug == slug; }))
    return fail(ErrorKind::kNotFound, "ui: no category " + slug, "No such category.");
  return feed_response(view, slug);
}

}  // namespace longread::ui::pages
