#include "ui/site.h"

#include <stdexcept>

#include "pages/pages.h"
#include "ui/page_cache.h"
#include "ui/routes.h"
#include "ui/view.h"

namespace longread::ui {

namespace {

// Start-up: a store that cannot give the site its key is a configuration error, reported by exception.
std::unique_ptr<accounts::Accounts> open_accounts(storage::Store& store, const SiteOptions& site) {
  accounts::AccountsOptions options = site.accounts;
  options.confirm_by_mail = static_cast<bool>(site.send_account_mail);
  auto opened = accounts::Accounts::open(store, store, store, options);
  if (!opened) throw std::runtime_error(opened.error().message);
  return std::move(*opened);
}

// On every response of the site (web::ServerOptions::extra_headers): nothing but the site's own files
// may run or be framed (the pages have no inline script or style; frame-ancestors does what
// X-Frame-Options did), and MIME types are as sent. Browsers already default to a
// strict-origin-when-cross-origin Referrer-Policy, so blogs see only our origin from "Read now". Each
// header costs every response (these two about 3 % of the article page's requests/s, docs/web.md).
web::Fields security_headers() {
  return {{"Content-Security-Policy",
           "default-src 'self'; img-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
           "frame-ancestors 'none'"},
          {"X-Content-Type-Options", "nosniff"}};
}

}  // namespace

struct Site::Impl {
  Impl(storage::Store& store, SiteOptions options)
      : context{store, options, AssetTable{}, open_accounts(store, options)},
        router(make_routes(context)),
        cache(context.options.page_cache_entries) {
    if (context.options.send_account_mail) context.mail_work = std::make_unique<BackgroundWork>();
  }

  SiteContext context;
  web::Router router;
  PageCache cache;
};

Site::Site(storage::Store& store, SiteOptions options)
    : impl_(std::make_unique<Impl>(store, std::move(options))) {}
Site::~Site() {
  finish_background_work();
}

void Site::finish_background_work() {
  if (impl_->context.mail_work) impl_->context.mail_work->finish();
}

const SiteOptions& Site::options() const {
  return impl_->context.options;
}

namespace {

// Health checks, metrics and static files never go through the cache: the first two must be live (and
// metrics are for the token holder alone), the last is in memory.
// Pages for a visitor with a session or CSRF cookie carry their votes, reading list and tokens: those
// are rendered per request; everyone else shares the cached copies.
bool shared_by_every_visitor(const web::Request& request) {
  return (request.method == "GET" || request.method == "HEAD") && request.path != "/healthz" &&
         request.path != "/metrics" && !request.path.starts_with("/static/") &&
         !request.cookie(kSessionCookie) && !request.cookie(kCsrfCookie) && !request.header("Authorization");
}

}  // namespace

Result<web::Response> Site::handle(const web::Request& request) {
  if (auto hit = cached(request)) return std::move(*hit);
  return render(request);
}

std::optional<web::Response> Site::cached(const web::Request& request) {
  if (!shared_by_every_visitor(request)) return std::nullopt;
  // Keyed by the store's data version; when it cannot be read, version 0 (and render's short TTL).
  const auto versioned = impl_->context.store.data_version();
  return impl_->cache.get(request.target, versioned ? *versioned : 0);
}

Result<web::Response> Site::render(const web::Request& request) {
  if (!shared_by_every_visitor(request)) return impl_->router.dispatch(request);
  // Read before the page, so the page is at least as new as the version it is stored under.
  const auto versioned = impl_->context.store.data_version();
  const std::int64_t version = versioned ? *versioned : 0;
  const auto ttl = versioned ? std::chrono::duration_cast<std::chrono::milliseconds>(options().page_cache_ttl)
                             : options().unversioned_cache_ttl;
  const std::string& key = request.target;
  // A request that waited for a render thread while another rendered this page takes that one's copy.
  if (auto page = impl_->cache.fresh(key, version)) return std::move(*page);
  return impl_->cache.render_once(key, version, [&]() -> Result<web::Response> {
    auto result = impl_->router.dispatch(request);
    if (result && !result->header("Set-Cookie") &&
        !result->header("Cache-Control").value_or("").starts_with("private") &&
        result->header("Cache-Control").value_or("").find("no-store") == std::string_view::npos) {
      impl_->cache.put(key, version, ttl, *result);
    } else {
      impl_->cache.forget(key);  // so the previous render is not served stale in this answer's place
    }
    return result;
  });
}

std::string_view Site::route_of(const web::Request& request) const {
  const std::string_view pattern = impl_->router.pattern_of(request.path);
  return pattern.empty() ? std::string_view("(none)") : pattern;
}

int Site::admit_upload(const web::Request& header) const {
  const View view(impl_->context, &header);
  return view.logged_in() ? 0 : 403;
}

std::vector<std::pair<std::string, std::string>> Site::routes() const {
  return impl_->router.routes();
}

web::Response Site::error_page(int status, std::string_view message) const {
  View view(impl_->context);
  return pages::error(view, status, message);
}

web::ErrorPageRenderer Site::error_renderer() const {
  return [this](int status, std::string_view message) { return error_page(status, message); };
}

Result<std::unique_ptr<web::Server>> make_server(Site& site, bool handle_signals) {
  web::ServerOptions options;
  options.listen = site.options().listen;
  options.threads = site.options().threads;
  options.access_log = site.options().access_log;
  options.extra_headers = security_headers();
  options.handle_signals = handle_signals;
  options.max_connections = site.options().max_connections;
  options.max_connections_per_client = site.options().max_connections_per_client;
  options.trusted_proxies = site.options().trusted_proxies;
  // A reading-list export from another service can be a few megabytes.
  options.upload_paths = {"/reading-list/import"};
  // Only a logged-in reader may import, so anyone else is refused before the megabytes are read; past
  // four imports at once the next waits for a 503 (at most 32 MiB of upload bodies in memory).
  options.admit_upload = [&site](const web::Request& header) { return site.admit_upload(header); };
  options.max_uploads_in_flight = 4;
  if (site.options().on_response) {
    // Labelled by route pattern, never by path: a client inventing paths cannot grow the label set.
    options.on_response = [&site](const web::Request* request, int status, double seconds) {
      site.options().on_response(request != nullptr ? site.route_of(*request) : std::string_view("(unread)"),
                                 status, seconds);
    };
  }
  options.app_threads = site.options().render_threads;
  options.quick = [&site](const web::Request& request) { return site.cached(request); };
  return web::Server::create(
      options, [&site](const web::Request& request) { return site.render(request); }, site.error_renderer());
}

}  // namespace longread::ui
