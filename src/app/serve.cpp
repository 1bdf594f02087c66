// `longread serve`: the site on the web thread pool, the hourly crawler, the newsletter, the account-mail
// outbox and blog-suggestion discovery each on a thread of their own.
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <stop_token>
#include <thread>

#include "app/commands.h"
#include "app/crawl_loop.h"
#include "app/metrics.h"
#include "app/progress.h"
#include "app/store_setup.h"
#include "core/time.h"
#include "curate/curate.h"
#include "fetch/http_client.h"
#include "mail/outbox.h"
#include "pipeline/crawler.h"
#include "pipeline/suggestions.h"
#include "storage/store.h"
#include "ui/site.h"
#include "web/server.h"

namespace longread::app {

// The mail outbox (null without smtp.url), and the site's senders that queue into it: the newsletter's
// double opt-in (not_after: `link_lifetime` after the request) and the account mails.
std::unique_ptr<mail::Outbox> account_outbox(const config::Config& config, storage::OutboxStore& store);
std::function<Result<void>(std::string_view, std::string_view)> confirmation_sender(
    const config::Config& config, mail::Outbox* outbox, std::chrono::seconds link_lifetime);
std::function<Result<void>(accounts::MailKind, std::string_view, std::string_view)> account_mail_sender(
    const config::Config& config, const accounts::AccountsOptions& accounts, mail::Outbox* outbox);
void newsletter_loop(std::stop_token stop, const config::Config& config, storage::Store& store);

namespace {

// Every minute, takes the votes that have aged out of "this week" and "this month" out of Top's counts
// (ReaderMarkStore::age_period_votes), so Top by period is exact to the minute whether or not this process
// crawls.
void vote_period_loop(std::stop_token stop, storage::ReaderMarkStore& store) {
  std::mutex mutex;
  std::condition_variable_any wake;
  while (!stop.stop_requested()) {
    if (auto aged = store.age_period_votes(now_seconds()); !aged) {
      spdlog::error("top: {}", aged.error().message);
    }
    std::unique_lock lock(mutex);
    wake.wait_for(lock, stop, std::chrono::seconds{60}, [] { return false; });
  }
}

// /metrics alone on metrics.listen, for a scraper on a private address: no token, no site pages.
Result<std::unique_ptr<web::Server>> metrics_server(const std::string& listen, Metrics& metrics,
                                                    storage::DatabaseStore& store) {
  web::ServerOptions options;
  options.listen = listen;
  options.threads = 1;
  options.handle_signals = false;  // stopped with the site
  options.access_log = false;
  options.max_connections = 64;
  const web::App app = [&metrics, &store](const web::Request& request) -> Result<web::Response> {
    if (request.path != "/metrics") return fail(ErrorKind::kNotFound, "metrics: no such path", "Not found.");
    if (request.method != "GET" && request.method != "HEAD") {
      auto res = web::Response::text(405, "Method not allowed\n");
      res.set_header("Allow", "GET, HEAD");
      return res;
    }
    web::Response res;
    res.content_type = "text/plain; version=0.0.4; charset=utf-8";
    res.set_header("Cache-Control", "no-store");
    res.body = metrics.render(store, now_seconds());
    return res;
  };
  const web::ErrorPageRenderer error_page = [](int status, std::string_view message) {
    return web::Response::text(status, std::string(message) + "\n");
  };
  return web::Server::create(options, app, error_page);
}

}  // namespace

int cmd_serve(const config::Config& config) {
  // One descriptor per connection: take all the kernel allows this process, and keep the default
  // connection cap under it, so the listener is not the thing that runs out (docs/web.md).
  const auto files = web::raise_file_limit();
  const std::size_t max_connections = config.site.max_connections > 0
                                          ? config.site.max_connections
                                          : web::connections_within(files.now, 4096);
  spdlog::info("serve: open-file limit {} (was {}); at most {} connections, {} per client", files.now,
               files.before, max_connections, config.site.max_connections_per_client);
  if (config.site.max_connections > 0 &&
      web::connections_within(files.now, max_connections) < max_connections) {
    spdlog::warn(
        "serve: site.max_connections = {} leaves little room under the open-file limit {}: past it, "
        "new connections wait while accept backs off",
        max_connections, files.now);
  }
  auto store = open_store(config);
  if (!store) return 1;
  if (!ensure_blogs(config, *store)) return 1;

  ui::SiteOptions options;
  options.listen = config.site.listen;
  options.base_url = config.site.base_url;
  options.site_name = config.site.name;
  options.max_connections = max_connections;
  options.max_connections_per_client = config.site.max_connections_per_client;
  options.render_threads = config.site.render_threads;
  options.trusted_proxies = config.site.trusted_proxies;
  options.per_blog_cap = config.ranking.per_blog_cap;
  options.lifecycle = lifecycle_rules(config);
  options.flag_rules = {.flags_to_hide = config.moderation.flags_to_hide,
                        .flags_per_day = config.moderation.flags_per_day};
  options.accounts.password_cost = {};  // Argon2id "interactive" cost
  // Account mails and the newsletter's confirmation: the site queues them in the store; the outbox's
  // thread sends them, and retries. Declared before the site, which keeps a pointer to it.
  const auto outbox = account_outbox(config, *store);
  options.send_confirmation = confirmation_sender(config, outbox.get(), options.confirmation_lifetime);
  options.send_account_mail = account_mail_sender(config, options.accounts, outbox.get());
  // Counted from the start of this process; read by /metrics on the site (with metrics.token) or on
  // metrics.listen.
  Metrics metrics;
  options.on_response = [&metrics](std::string_view route, int status, double seconds) {
    metrics.http_response(route, status, seconds);
  };
  options.metrics_token = config.metrics.token;
  options.metrics_text = [&metrics, &store] { return metrics.render(*store, now_seconds()); };
  // Blog suggestions: the site stores them, this worker discovers their feeds on a thread of its own with
  // the crawler's client options (so the same outbound address policy), judging posts with the crawl's
  // junk rules. Its first pass takes over whatever an earlier run left pending.
  const curate::JunkOptions suggestion_junk{.languages = config.curate.languages,
                                            .min_words = config.curate.min_words};
  pipeline::SuggestionWorker suggestions(*store, *store, client_options(config),
                                         {.junk_options = &suggestion_junk});
  suggestions.start();
  options.suggestions_per_day = config.site.suggestions_per_day;
  options.suggestion_added = [&suggestions] { suggestions.wake(); };
  ui::Site site(*store, options);
  auto server = ui::make_server(site);
  if (!server) {
    return report_failure(server.error());
  }
  std::unique_ptr<web::Server> metrics_listener;
  std::jthread metrics_thread;
  if (!config.metrics.listen.empty()) {
    auto listener = metrics_server(config.metrics.listen, metrics, *store);
    if (!listener) return report_failure(listener.error());
    metrics_listener = std::move(*listener);
    spdlog::info("serve: metrics on {} (port {}) at /metrics", config.metrics.listen,
                 metrics_listener->port());
    metrics_thread = std::jthread([&metrics_listener] { metrics_listener->run(); });
  }
  spdlog::info("serve: listening on http://{}/ (database {})", config.site.listen,
               storage::display_db(config.db_path));

  std::jthread crawler;
  if (config.site.crawl_in_background) {
    crawler = std::jthread(
        [&config, &store, &metrics](std::stop_token stop) { crawl_loop(stop, config, *store, metrics); });
  }
  std::jthread newsletter([&config, &store](std::stop_token stop) { newsletter_loop(stop, config, *store); });
  std::jthread vote_periods([&store](std::stop_token stop) { vote_period_loop(stop, *store); });
  // Resumes whatever an earlier run left queued (a restart, a kill), then sends as mails are queued.
  std::jthread mailer;
  if (outbox) mailer = std::jthread([&outbox](std::stop_token stop) { outbox->run(stop); });
  (*server)->run();  // returns after SIGTERM/SIGINT, once in-flight requests have finished
  spdlog::info("serve: stopping");
  site.finish_background_work();  // password-reset mails handed off by the last requests are queued
  suggestions.stop();             // a discovery in flight is cancelled and stays pending for the next run
  newsletter.request_stop();
  newsletter.join();
  vote_periods.request_stop();
  vote_periods.join();
  if (mailer.joinable()) {  // mid-send, the mail in flight is finished; what is still queued stays queued
    mailer.request_stop();
    mailer.join();
  }
  if (crawler.joinable()) {
    crawler.request_stop();
    crawler.join();
  }
  if (metrics_listener) {
    metrics_listener->stop();
    metrics_thread.join();
    metrics_listener.reset();
  }
  server->reset();
  store.reset();  // closes the database cleanly (WAL checkpoint)
  spdlog::info("serve: stopped");
  return 0;
}

}  // namespace longread::app
