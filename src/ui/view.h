// What every page needs: the site context, the layout around a page's body, and the small
// building blocks that several pages share (article list items, pager, paths).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "accounts/accounts.h"
#include "core/time.h"
#include "storage/store.h"
#include "ui/assets.h"
#include "ui/background_work.h"
#include "ui/html.h"
#include "ui/site.h"
#include "web/http.h"

namespace longread::ui {

// Shared by every request: options, store, assets, accounts. Built once by Site.
struct SiteContext {
  storage::Store& store;
  SiteOptions options;
  AssetTable assets;
  std::unique_ptr<accounts::Accounts> accounts;                                              // readers
  accounts::RateLimiter newsletter_limiter{store, "newsletter", 10, std::chrono::hours(1)};  // per client
  accounts::RateLimiter import_limiter{store, "import", 10,
                                       std::chrono::hours(1)};  // reading-list imports per reader
  // Password-reset lookups and mails, off the request's thread (set when the site sends account mail).
  // Last, so it finishes (and stops using the rest) before the members above go.
  std::unique_ptr<BackgroundWork> mail_work{};
};

// Cookie names: the session token, and before login a random value CSRF tokens are bound to.
inline constexpr std::string_view kSessionCookie = "lr_session";
inline constexpr std::string_view kCsrfCookie = "lr_csrf";

// One page's content, handed to View::render, which wraps it in the layout.
struct Page {
  std::string title;         // shown in <title> before " — site name"
  std::string description;   // meta description
  std::string path;          // canonical path (base_url + path)
  std::string nav;           // highlighted tab: "new", "top", "categories", "about", "search"
  std::string search_query;  // prefills the header search box
  std::string feed_path;     // this page's own Atom feed, linked from <head> besides the site's ("" none)
  std::string feed_title;
  // Open Graph (ogp.me): "article" for an article page, with its publication time (RFC 3339, "" unknown);
  // "website" for every other page.
  std::string og_type = "website";
  std::string published_time;
  Html body;
  int status = 200;
};

// Per-request helper that pages render through.
class View {
 public:
  explicit View(SiteContext& context, const web::Request* request = nullptr)
      : context_(context), request_(request), now_(now_seconds()) {}

  [[nodiscard]] storage::Store& store() const { return context_.store; }
  [[nodiscard]] accounts::Accounts& accounts() const { return *context_.accounts; }
  [[nodiscard]] SiteContext& context() const { return context_; }
  // The request being answered ("/" target for a View without one, e.g. error pages).
  [[nodiscard]] std::string_view target() const {
    return request_ ? std::string_view(request_->target) : "/";
  }

  // The logged-in reader, from the session cookie (looked up once per request).
  [[nodiscard]] const std::optional<storage::SessionReader>& reader() const;
  [[nodiscard]] bool logged_in() const { return reader().has_value(); }
  // A logged-in reader with the operator role (read with the session on every request, so a demotion
  // takes effect at once).
  [[nodiscard]] bool is_operator() const { return reader() && reader()->is_operator; }
  // The CSRF token for this visitor's forms: bound to the session when logged in, else to the lr_csrf
  // cookie, which is created (and set by render()) when `create` and the visitor has none. Empty when the
  // visitor has no binding and `create` is false (cached anonymous pages carry no token).
  [[nodiscard]] std::string csrf_token(bool create = false) const;
  // Checks the form's token against this visitor's binding.
  [[nodiscard]] bool csrf_valid(std::string_view token) const;
  // Cookies render() adds to the response (a new lr_csrf).
  [[nodiscard]] const std::vector<std::string>& set_cookies() const { return set_cookies_; }
  // "name=value; Path=/; HttpOnly; SameSite=Lax[; Secure]; Max-Age=N" (RFC 6265 section 4.1).
  [[nodiscard]] std::string cookie(std::string_view name, std::string_view value, std::int64_t max_age) const;
  // Adds this request's Set-Cookie headers to `response`.
  void add_cookies(web::Response& response) const;

  // Which of `article_ids` the reader voted for / saved / read (one query per list; nothing when logged
  // out).
  void load_marks(const std::vector<std::int64_t>& article_ids) const;
  [[nodiscard]] bool voted(std::int64_t article_id) const;
  [[nodiscard]] bool saved(std::int64_t article_id) const;
  [[nodiscard]] bool read(std::int64_t article_id) const;
  // The reader's reading preferences (read once per request; the defaults for a visitor).
  [[nodiscard]] const storage::ReaderPreferences& preferences() const;
  // The personal filters a listing applies for this visitor: the reader's mutes, and their read articles
  // when they hide them; nullopt for a visitor (whose pages are the shared, cached ones).
  [[nodiscard]] std::optional<storage::ReaderFilter> reader_filter() const;
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
  const web::Request* request_;
  TimePoint now_;
  mutable std::optional<std::vector<model::Category>> categories_;
  mutable bool reader_loaded_ = false;
  mutable std::optional<storage::SessionReader> reader_;
  mutable std::string anon_binding_;  // lr_csrf value, read from the request or created
  mutable std::vector<std::string> set_cookies_;
  mutable storage::ReaderMarks marks_;
  mutable std::optional<storage::ReaderPreferences> preferences_;
};

// A local path to come back to after a form ("next"), read as a browser would read it as a Location:
// tab, CR and LF removed, then only a path starting with exactly one "/" and holding no "\\" and no other
// control character; anything else is "/".
std::string safe_next(std::string_view next);
// The vote control of an article: a form posting to /articles/<id>/vote or /unvote, with the count.
Html vote_control(const View& view, const model::Article& article);
// A logged-in reader's read/unread toggle for an article: a form posting to /articles/<id>/read (works
// without script; site.js posts it with fetch and flips it in place). Empty for a visitor.
Html read_control(const View& view, const model::Article& article);

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
  Html after_meta{};           // a line of the page's own under the date and votes ("Because you saved …")
};
Html article_item(const View& view, const storage::ArticleView& article, const ItemOptions& options);
Html article_list(const View& view, const std::vector<storage::ArticleView>& articles,
                  const ItemOptions& options);

// "?page=N": 1 when absent; kInvalidInput when not a positive integer.
Result<int> page_number(const web::Request& request);
// Where a listing page starts: "?after=<cursor>" (a cursor the store made for the link to the next page,
// storage::ArticlePage::next; the store rejects a forged one with kInvalidInput), else the old "?page=N"
// links, still served. kInvalidInput for a bad page number or an empty or oversized cursor.
struct ListingStart {
  std::string after{};  // empty: by page number
  int page = 1;
  [[nodiscard]] bool first() const { return after.empty() && page == 1; }
};
Result<ListingStart> listing_start(const web::Request& request);
// The path of a listing page that starts at `start` ("" cursor and page 1: `base_path` itself).
std::string listing_path(std::string_view base_path, const ListingStart& start);
// What the pager's links say: a list by date goes to newer and older articles; a ranked list (Hot, Top,
// a category, search results) to the previous page and more.
enum class PagerWords { kRanked, kByDate };
// The links to the pages before and after page `page` of `base_path` (which may already carry a query,
// e.g. "/search?q=x"); `has_more` when a later page exists.
Html pager(std::string_view base_path, int page, bool has_more, PagerWords words = PagerWords::kRanked);
// The links of a listing paged by cursors: back to the first page when `start` is not it, and on to the
// page after this one when `next` (its cursor) is not empty.
Html cursor_pager(std::string_view base_path, const ListingStart& start, std::string_view next,
                  PagerWords words = PagerWords::kRanked);

}  // namespace longread::ui
