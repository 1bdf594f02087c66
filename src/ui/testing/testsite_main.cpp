// longread-testsite: serves the site over a SQLite file for the browser test, benchmarks and manual looks.
//   longread-testsite --db /tmp/x.db --seed --listen 127.0.0.1:0
// prints "listening http://127.0.0.1:PORT" on stdout once bound, serves until SIGTERM/SIGINT.
// With --mail-links FILE the site behaves as one that sends mail (accounts confirmed by mail, password
// reset, the newsletter's sign-up box) and appends each mail to FILE as a line "KIND EMAIL URL" (KIND:
// confirm, registered, reset, newsletter) instead of mailing it.
#include <spdlog/spdlog.h>
#include <CLI/CLI.hpp>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <mutex>
#include <string>
#include <vector>

#include "core/ip_address.h"
#include "core/log.h"
#include "curate/curate.h"
#include "fetch/http_client.h"
#include "pipeline/suggestions.h"
#include "storage/store.h"
#include "ui/site.h"
#include "ui/testing/fixtures.h"

int main(int argc, char** argv) {
  CLI::App cli{"longread-testsite: the reading site over a SQLite database, for tests and benchmarks"};
  std::string db;
  bool seed = false;
  bool quiet = false;
  longread::ui::SiteOptions options;
  options.listen = "127.0.0.1:0";
  cli.add_option("--db", db, "SQLite database file (created if missing), or postgresql:// URL")->required();
  cli.add_flag("--seed", seed, "seed the fixture blogs and articles first");
  cli.add_option("--listen", options.listen, "host:port (port 0 picks a free port)");
  cli.add_option("--threads", options.threads, "HTTP threads (0 = hardware concurrency)");
  cli.add_option("--base-url", options.base_url, "base URL for canonical links");
  cli.add_flag("--quiet", quiet, "no access log");
  std::string mail_links;
  cli.add_option(
      "--mail-links", mail_links,
      "send mail (account confirmation, password reset, newsletter), writing each mail's link to this file");
  std::vector<std::string> allow_networks;
  cli.add_option("--fetch-allow-networks", allow_networks,
                 "CIDR blocks blog-suggestion discovery may fetch from despite the private-address rule "
                 "(a fixture server on 127.0.0.1/32)");
  cli.add_option("--suggestions-per-day", options.suggestions_per_day, "blog suggestions per reader and day");
  CLI11_PARSE(cli, argc, argv);
  options.access_log = !quiet;
  longread::setup_logging(quiet ? "warn" : "info");  // to stderr: stdout carries the "listening" line

  auto store = longread::storage::open_store(db);
  if (!store) {
    std::cerr << store.error().message << "\n";
    return 1;
  }
  if (seed) {
    auto ids = longread::ui::testing::seed_fixtures(**store, longread::now_seconds());
    if (!ids) {
      std::cerr << ids.error().message << "\n";
      return 1;
    }
    std::cout << "seeded lock_free_article=" << ids->lock_free_article << " ada_blog=" << ids->ada_blog
              << " evil_article=" << ids->evil_article << " evil_blog=" << ids->evil_blog << "\n";
    // One article the junk rules caught, on a blog of its own (the fixtures' blogs and listings stay as
    // they are): the admin area's junk review has something to show.
    auto junk_blog = (*store)->upsert_blog({.feed_url = "https://notes.example/feed.xml",
                                            .site_url = "https://notes.example/",
                                            .title = "Short Notes"});
    if (!junk_blog) {
      std::cerr << junk_blog.error().message << "\n";
      return 1;
    }
    longread::model::Article note;
    note.guid = "short-note";
    note.title = "A short note";
    note.link = "https://notes.example/short-note";
    note.published = longread::now_seconds() - std::chrono::hours(2);
    note.text = note.excerpt = "Back next week.";
    note.word_count = 3;
    note.junk = true;
    note.junk_reason = "too short: 3 words";
    longread::storage::CrawlRecord record{
        .blog_id = *junk_blog, .attempted_at = longread::now_seconds(), .success = true, .status = "ok"};
    record.articles.push_back(note);
    if (auto saved = (*store)->save_crawl(record); !saved) {
      std::cerr << saved.error().message << "\n";
      return 1;
    }
  }
  std::mutex mail_mutex;
  if (!mail_links.empty()) {
    options.send_account_mail = [&mail_links, &mail_mutex](longread::accounts::MailKind kind,
                                                           std::string_view email,
                                                           std::string_view url) -> longread::Result<void> {
      static constexpr const char* kKinds[] = {"confirm", "registered", "reset"};
      std::lock_guard lock(mail_mutex);
      std::ofstream out(mail_links, std::ios::app);
      out << kKinds[static_cast<int>(kind)] << ' ' << email << ' ' << url << '\n';
      if (!out) return longread::fail(longread::ErrorKind::kInternal, "testsite: cannot write " + mail_links);
      return {};
    };
    options.send_confirmation = [&mail_links, &mail_mutex](std::string_view email,
                                                           std::string_view url) -> longread::Result<void> {
      std::lock_guard lock(mail_mutex);
      std::ofstream out(mail_links, std::ios::app);
      out << "newsletter " << email << ' ' << url << '\n';
      if (!out) return longread::fail(longread::ErrorKind::kInternal, "testsite: cannot write " + mail_links);
      return {};
    };
  }
  // Blog suggestions are discovered as in serve: a worker thread of its own, woken by the site.
  longread::fetch::ClientOptions client;
  for (const auto& cidr : allow_networks) {
    auto network = longread::IpNetwork::parse(cidr);
    if (!network) {
      std::cerr << "testsite: not a CIDR block: " << cidr << "\n";
      return 1;
    }
    client.address_policy.allow_networks.push_back(*network);
  }
  const longread::curate::JunkOptions junk;
  longread::pipeline::SuggestionWorker suggestions(**store, **store, client, {.junk_options = &junk});
  suggestions.start();
  options.suggestion_added = [&suggestions] { suggestions.wake(); };
  longread::ui::Site site(**store, options);
  auto server = longread::ui::make_server(site);
  if (!server) {
    std::cerr << server.error().message << "\n";
    return 1;
  }
  std::cout << "listening http://127.0.0.1:" << (*server)->port() << std::endl;
  (*server)->run();
  suggestions.stop();
  return 0;
}
