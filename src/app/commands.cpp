#include "app/commands.h"

#include <fmt/chrono.h>
#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <pthread.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>
#include <unordered_map>

#include "app/blog_table.h"
#include "app/crawl_loop.h"
#include "app/metrics.h"
#include "app/progress.h"
#include "app/store_setup.h"
#include "core/strings.h"
#include "core/url.h"
#include "curate/curate.h"
#include "feed/feed.h"
#include "feed/opml.h"
#include "fetch/http_client.h"
#include "html/html.h"
#include "pipeline/article_builder.h"
#include "pipeline/crawler.h"
#include "storage/store.h"

namespace longread::app {
namespace {

std::optional<std::string> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  return std::string(std::istreambuf_iterator<char>(in), {});
}

nlohmann::json nullable_time(const std::optional<TimePoint>& t) {
  return t ? nlohmann::json(format_rfc3339(*t)) : nlohmann::json(nullptr);
}

}  // namespace

int cmd_import(const config::Config& config, const std::string& opml_path) {
  auto store = open_store(config);
  if (!store) return 1;
  auto text = read_file(opml_path);
  if (!text) {
    fmt::print(stderr, "longread: cannot read {}\n", opml_path);
    return 1;
  }
  auto imported = import_opml_text(*store, *text);
  if (!imported) {
    fmt::print(stderr, "longread: {}: {}\n", opml_path, imported.error().message);
    return 1;
  }
  auto total = store->blog_count();
  fmt::print("imported {} blogs from {} ({} blogs in all)\n", *imported, opml_path, total ? *total : -1);
  return 0;
}

int cmd_export(const config::Config& config) {
  auto store = open_store(config);
  if (!store) return 1;
  auto blogs = store->blogs();
  if (!blogs) {
    return report_failure(blogs.error());
  }
  // Retirement (with its reason) is kept apart from the blog rows: the lifecycle says which are retired.
  auto lifecycle = store->blog_lifecycle();
  if (!lifecycle) return report_failure(lifecycle.error());
  std::unordered_map<std::int64_t, std::string> retired;
  for (const auto& l : *lifecycle) {
    if (l.retired_at) retired.emplace(l.blog_id, l.retired_reason.empty() ? "retired" : l.retired_reason);
  }
  std::vector<feed::OpmlBlog> out;
  out.reserve(blogs->size());
  for (const auto& b : *blogs) {
    out.push_back({b.feed_url, b.site_url, b.title, b.category, b.short_form, b.paused, b.allowed_hosts});
    if (const auto it = retired.find(b.id); it != retired.end()) out.back().retired = it->second;
  }
  fmt::print("{}", feed::write_opml(out, "longread blogs"));
  return 0;
}

int cmd_blog_remove(const config::Config& config, std::int64_t blog_id) {
  auto store = open_store(config);
  if (!store) return 1;
  auto blog = store->blog(blog_id);
  if (!blog) return report_failure(blog.error());
  if (!*blog) {
    fmt::print(stderr, "longread: no blog {} (see `longread blogs`)\n", blog_id);
    return 1;
  }
  if (auto removed = store->delete_blog(blog_id); !removed) return report_failure(removed.error());
  fmt::print("removed blog {} ({}) and its {} {}; `import` adds it again\n", blog_id, (*blog)->feed_url,
             (*blog)->article_count, (*blog)->article_count == 1 ? "visible article" : "visible articles");
  return 0;
}

int cmd_blogs(const config::Config& config) {
  auto store = open_store(config);
  if (!store) return 1;
  auto blogs = store->blogs();
  if (!blogs) {
    return report_failure(blogs.error());
  }
  print_blog_table(*blogs);
  return 0;
}

int cmd_crawl(const config::Config& config, bool all, bool loop) {
  // SIGTERM and Ctrl-C stop the pass as serve's SIGTERM does (Crawler::stop): the blogs it did not finish
  // stay due, and none counts as having crashed the crawler (crash quarantine; a signal's default action
  // would end the process with their parsing marks still set). Blocked before any thread starts (the
  // store's checkpointer is one), so only the waiter below receives them; SIGUSR1 ends the waiter.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGUSR1);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  auto store = open_store(config);
  if (!store) return 1;
  if (!ensure_blogs(config, *store)) return 1;
  if (loop) {
    Metrics metrics;
    std::jthread crawler([&](std::stop_token stop) { crawl_loop(stop, config, *store, metrics); });
    int signal = 0;
    while (sigwait(&signals, &signal) == 0 && signal == SIGUSR1) {
    }
    spdlog::info("crawl: stopping (signal {})", signal);
    crawler.request_stop();
    crawler.join();
    return 0;
  }
  fetch::HttpClient client(client_options(config));
  const auto classifier = load_classifier(config);
  curate::JunkOptions junk;
  junk.languages = config.curate.languages;
  junk.min_words = config.curate.min_words;
  pipeline::Crawler crawler(*store, client, crawl_options(config, all),
                            {.classifier = classifier ? &*classifier : nullptr,
                             .junk_options = &junk,
                             .category_threshold = config.curate.category_threshold});
  auto observer = make_crawl_observer(isatty(STDERR_FILENO) != 0);
  std::thread waiter([&] {
    int signal = 0;
    if (sigwait(&signals, &signal) == 0 && signal != SIGUSR1) crawler.stop();
  });
  auto summary = crawler.run(observer.get());
  pthread_kill(waiter.native_handle(), SIGUSR1);
  waiter.join();
  if (!summary) {
    return report_failure(summary.error());
  }
  fmt::print("{}\n", format_summary(*summary));
  // The pass ends with the automatic retirement of dead / inactive blogs (off unless configured).
  retire_after_crawl(config, *store);
  pipeline::train_first_body_dictionary(*store);
  return 0;
}

int cmd_inspect(const config::Config& config, const std::string& feed_arg) {
  std::string body;
  std::string base_url;
  std::string content_type;
  std::string content_language;
  if (feed_arg.find("://") != std::string::npos) {
    fetch::HttpClient client(client_options(config));
    // Typed by the operator: a file:// URL may be read here, as for an imported feed.
    auto response = client.fetch({.url = feed_arg, .from_operator = true});
    if (response.error) {
      fmt::print(stderr, "longread: {}: {}\n", feed_arg, response.error->message);
      return 1;
    }
    body = std::move(response.body);
    base_url = response.final_url.empty() ? feed_arg : response.final_url;
    content_type = response.content_type;
    content_language = response.content_language;
  } else {
    auto text = read_file(feed_arg);
    if (!text) {
      fmt::print(stderr, "longread: cannot read {}\n", feed_arg);
      return 1;
    }
    body = std::move(*text);
    std::error_code ec;
    base_url = "file://" + std::filesystem::absolute(feed_arg, ec).string();
  }
  auto parsed = feed::parse_feed(
      body, {.base_url = base_url, .content_type = content_type, .content_language = content_language});
  if (!parsed) {
    fmt::print(stderr, "longread: {}: {}\n", feed_arg, parsed.error().message);
    return 1;
  }
  const TimePoint now = now_seconds();
  nlohmann::json f = {{"type", "feed"},
                      {"title", parsed->title},
                      {"link", parsed->link},
                      {"version", parsed->version},
                      {"entries", parsed->entries.size()},
                      {"bozo", parsed->bozo},
                      {"bozo_message", parsed->bozo_message}};
  fmt::print("{}\n", f.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  const auto classifier = load_classifier(config);
  model::Blog blog;
  blog.feed_url = base_url;
  blog.category = "uncategorized";
  curate::JunkOptions junk;
  junk.languages = config.curate.languages;
  junk.min_words = config.curate.min_words;
  // The feed's template, as a crawl learns it from the feed's entries.
  std::vector<std::string> sample;
  for (const auto& entry : parsed->entries) sample.push_back(pipeline::untemplated_text(entry));
  const html::FeedTemplate feed_template = html::learn_feed_template(sample);
  const pipeline::CurationContext context{.classifier = classifier ? &*classifier : nullptr,
                                          .junk_options = &junk,
                                          .category_threshold = config.curate.category_threshold,
                                          .feed_template = &feed_template};
  for (const auto& entry : parsed->entries) {
    const auto a = pipeline::build_article(entry, blog, now, context);
    nlohmann::json j = {{"type", "entry"},
                        {"title", a.title},
                        {"link", a.link},
                        {"author", a.author},
                        {"published", nullable_time(a.published)},
                        {"undated", a.undated},
                        {"words", a.word_count},
                        {"summary_text", html::strip_boilerplate(html::html_to_text(entry.summary))},
                        {"content_text", html::strip_boilerplate(html::html_to_text(entry.content))},
                        {"junk", a.junk},
                        {"junk_reason", a.junk_reason},
                        {"category", a.category},
                        {"reading_minutes", a.reading_minutes},
                        {"excerpt", a.excerpt}};
    fmt::print("{}\n", j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  }
  return 0;
}

int cmd_junk_list(const config::Config& config, int limit) {
  auto store = open_store(config);
  if (!store) return 1;
  auto junk = store->recent_junk(limit);
  if (!junk) {
    return report_failure(junk.error());
  }
  fmt::print("{:>7}  {:<24}  {:<40}  {}\n", "id", "blog", "title", "reason");
  for (const auto& v : *junk) {
    fmt::print("{:>7}  {:<24.24}  {:<40.40}  {}{}\n", v.article.id, v.blog_title, v.article.title,
               v.article.junk_reason, v.article.keep_override ? " (marked junk by operator)" : "");
  }
  return 0;
}

int cmd_override(const config::Config& config, std::int64_t article_id, std::optional<bool> keep) {
  auto store = open_store(config);
  if (!store) return 1;
  auto done = store->set_keep_override(article_id, keep);
  if (!done) {
    return report_failure(done.error());
  }
  fmt::print("article {}: {}\n", article_id,
             !keep ? "override cleared" : (*keep ? "kept (shown on the site)" : "marked junk (hidden)"));
  return 0;
}

}  // namespace longread::app
