// What every page needs (habit 10): the site context, the layout around a page's body, and the small
// building blocks that several pages share (article list items, pager, paths).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/time.h"
#include "storage/store.h"
#include "ui/assets.h"
#include "ui/html.h"
#include "ui/site.h"
#include "web/http.h"

namespace longread::ui {

// Shared by every request: options, store, assets. Built once by Site.
struct SiteContext {
  storage::Store& store;
  SiteOptions options;
  AssetTable assets;
};

// One page's content, handed to View::render, which wraps it in the layout.
struct Page {
  std::string title;         // shown in <title> before " — site name"
  std::string description;   // meta description
  std::string path;          // canonical path (base_url + path)
  std::string nav;           // highlighted tab: "new", "top", "categories", "about", "search"
  std::string search_query;  // prefills the header search box
  Html body;
  int status = 200;
};

// Per-request helper that pages render through.
class View {
 public:
  explicit View(SiteContext& context) : context_(context), now_(now_seconds()) {}

  [[nodiscard]] storage::Store& store() const { return context_.store; }
  [[nodiscard]] const SiteOptions& options() const { return context_.options; }
  [[nodiscard]] TimePoint now() const { return now_; }

  // The layout: doctype, head (title, description, canonical, viewport, assets), header with tabs and
  // search, the page body, footer and the shortcuts overlay. Sets no-cache + ETag (RFC 9111 5.2.2.4).
  [[nodiscard]] web::Response render(const Page& page) const;

  // Display name of a category slug ("programming" -> "Programming"), from the store's categories.
  [[nodiscard]] std::string category_name(std::string_view slug) const;
  // True once any article has a vote: the "Top" tab appears.
  [[nodiscard]] bool has_votes() const;

 private:
  SiteContext& context_;
  TimePoint now_;
  mutable std::optional<std::vector<model::Category>> categories_;
};

// Paths of the site.
std::string article_path(const model::Article& article);  // "/blog/3/read/42-lock-free-queues"
std::string article_slug(const model::Article& article);  // "42-lock-free-queues"
std::string blog_path(std::int64_t blog_id);
std::string category_path(std::string_view slug);

// The category an article is filed under: its own, else its blog's.
std::string article_category(const storage::ArticleView& view);
// "Blog title", falling back to the site's host when the feed had no title.
std::string blog_display_name(std::string_view title, std::string_view site_url);

// How a list item shows an article.
struct ItemOptions {
  bool show_blog = true;
  bool show_category = true;
  std::size_t excerpt_bytes = 300;
  bool heading_h3 = false;     // h3 under a section heading, h2 on list pages
  bool absolute_date = false;  // "23rd May 2022" instead of "3 days ago"
};
Html article_item(const View& view, const storage::ArticleView& article, const ItemOptions& options);
Html article_list(const View& view, const std::vector<storage::ArticleView>& articles,
                  const ItemOptions& options);

// "?page=N": 1 when absent; kInvalidInput when not a positive integer.
Result<int> page_number(const web::Request& request);
// Newer/older links for page `page` of `base_path` (which may already carry a query, e.g. "/search?q=x").
Html pager(std::string_view base_path, int page, bool has_older);

}  // namespace longread::ui
