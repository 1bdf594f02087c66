// The reading site: every page of longread over a storage::Store, plus the entry point that serves it.
//
// How main() runs it (the crawler runs on its own thread; the site only reads):
//
//   ui::SiteOptions site_options{.listen = "127.0.0.1:8080", .base_url = "https://longread.example"};
//   ui::Site site(*store, site_options);
//   auto server = ui::make_server(site);          // binds now: a busy port is an error value here
//   if (!server) { log(server.error().message); return 1; }
//   std::jthread crawler(...);                    // the lead's scheduler, sharing `store`
//   (*server)->run();     // serves on options.threads threads; returns after SIGTERM/SIGINT once
//                         // in-flight requests have finished
//   crawler.request_stop(); crawler.join();       // then the Store may be closed
//
// With `handle_signals = false` the caller owns the signals and calls (*server)->stop() itself.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "accounts/accounts.h"
#include "core/error.h"
#include "storage/lifecycle.h"
#include "storage/store.h"
#include "web/http.h"
#include "web/server.h"

namespace longread::ui {

struct SiteOptions {
  std::string listen = "127.0.0.1:8080";           // host:port; port 0 picks a free one (tests)
  std::string base_url = "http://127.0.0.1:8080";  // for canonical links; no trailing slash
  std::string site_name = "longread";
  int threads = 0;  // HTTP threads; 0 = hardware concurrency
  // Threads that render pages (web::ServerOptions::app_threads), so a page waiting on the database holds
  // up only its own visitor; cached pages are answered on the HTTP threads.
  int render_threads = 8;
  bool access_log = true;  // one log line per request
  // Connection caps and reverse proxies (web::ServerOptions; site.max_connections,
  // site.max_connections_per_client, site.trusted_proxies).
  std::size_t max_connections = 4096;
  std::size_t max_connections_per_client = 128;
  std::vector<std::string> trusted_proxies{};
  int page_size = 25;       // articles per listing page
  int feed_page_size = 50;  // entries per Atom feed document; older ones are on rel="next" pages
  int per_blog_cap = 2;     // at most this many of one blog per page of Hot and a category (0: no cap)
  // Readers' flags (moderation.*): the distinct flags that hide an article until an operator decides, and
  // how many articles one reader may flag in 24 hours.
  storage::FlagRules flag_rules{};
  // Blog lifecycle (lifecycle.*): what /admin/lifecycle lists as dead and inactive.
  storage::LifecycleRules lifecycle{};
  // Rendered pages are cached per (target, Store::data_version()); relative ages ("5 minutes ago") make
  // a page stale with time alone, so entries also expire after this long.
  std::chrono::seconds page_cache_ttl{30};
  // When the store's data version cannot be read (a database error), pages are still cached, but only this
  // long ("micro-caching": a page is at most this stale). 0 turns caching off then.
  std::chrono::milliseconds unversioned_cache_ttl{1000};
  std::size_t page_cache_entries = 4096;
  // Readers: password cost, session lifetime, rate limits.
  accounts::AccountsOptions accounts{};
  // Sends the newsletter's double opt-in mail to `email` with `confirm_url` (`serve` wires this to the mail
  // outbox: it only queues). Unset: the "Stay updated" form answers that the newsletter is not set up.
  std::function<Result<void>(std::string_view email, std::string_view confirm_url)> send_confirmation{};
  std::chrono::hours confirmation_lifetime{48};  // how long a confirmation link works
  // Sends an account mail (sign-up confirmation, "already registered", password reset) to `email` with
  // the link `url` (the app wires this to the mail stage's SMTP sender, off the request's thread). Set:
  // accounts are confirmed by mail (AccountsOptions::confirm_by_mail), sign-up never tells whether an
  // address has an account, and "Forgot your password?" works. Unset: sign-up logs in at once and
  // passwords cannot be reset on the site.
  std::function<Result<void>(accounts::MailKind kind, std::string_view email, std::string_view url)>
      send_account_mail{};
  // Called after each response is written, with the route's pattern ("/blog/{blog}"; "(none)" when no
  // route matched, "(unread)" for a request that could not be read), the status and the seconds it took.
  std::function<void(std::string_view route, int status, double seconds)> on_response{};
  // /metrics on the site: the text `metrics_text` gives, for a request with "Authorization: Bearer
  // <metrics_token>". An empty token (or no function) leaves /metrics not found.
  std::string metrics_token{};
  std::function<std::string()> metrics_text{};
  // Blog suggestions (/suggest, /admin/suggestions): how many one reader may make in any 24 hours
  // (site.suggestions_per_day; 0 closes the form to readers), and what to call once one is stored (serve
  // wakes its discovery worker, pipeline::SuggestionWorker; the site itself never fetches). Unset: stored
  // suggestions wait, pending, for a process that runs a worker.
  int suggestions_per_day = 3;
  std::function<void()> suggestion_added{};
};

// The site: routes table, page handlers, page cache and static assets. Thread-safe; one instance serves
// every request. Keeps a reference to the store, which must outlive it.
class Site {
 public:
  Site(storage::Store& store, SiteOptions options);
  ~Site();
  Site(const Site&) = delete;
  Site& operator=(const Site&) = delete;

  // The application web::Server runs: request -> page (or an error kind web/ maps to a status). It is
  // `cached` and, when that has no answer, `render`.
  [[nodiscard]] Result<web::Response> handle(const web::Request& request);
  // The page cache's copy for a request every visitor shares (no session, no cookie), fresh or handed out
  // while another request re-renders it; nullopt when this request must `render` (ui/page_cache.h). Never
  // waits on the store beyond reading its data version, so the server asks it on a serving thread.
  [[nodiscard]] std::optional<web::Response> cached(const web::Request& request);
  // Renders the page and keeps it in the page cache when every visitor may share it. Call it for a request
  // `cached` had no answer for: that call may have chosen this request to re-render a stale page.
  [[nodiscard]] Result<web::Response> render(const web::Request& request);
  // The site's page for an error status (404, 400, 500...); `message` is shown as text.
  [[nodiscard]] web::Response error_page(int status, std::string_view message) const;
  [[nodiscard]] const SiteOptions& options() const;
  // The pattern of the route a request's path matches ("/blog/{blog}"), or "(none)".
  [[nodiscard]] std::string_view route_of(const web::Request& request) const;
  // Whether an upload (a POST to one of the upload paths) may send its body, judged from its header: 0 for
  // a logged-in reader, 403 for anyone else. The server asks before reading a byte of the body.
  [[nodiscard]] int admit_upload(const web::Request& header) const;
  // Every route of the site as (method, pattern): the admin and CSRF tests walk this table.
  [[nodiscard]] std::vector<std::pair<std::string, std::string>> routes() const;

  // Runs the work requests handed off (password-reset mails) and stops its thread; later requests hand
  // off nothing. Call before the store or the mail sender go away; the destructor calls it too.
  void finish_background_work();

  [[nodiscard]] web::ErrorPageRenderer error_renderer() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Binds options().listen and returns a server for `site` (which must outlive it). run() blocks. Every
// response carries the site's security headers: Content-Security-Policy (the site's own files only, no
// framing) and nosniff.
[[nodiscard]] Result<std::unique_ptr<web::Server>> make_server(Site& site, bool handle_signals = true);

}  // namespace longread::ui
