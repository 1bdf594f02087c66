// longread: one binary, subcommands. Configuration: defaults < --config FILE (TOML) < LONGREAD_* < flags.
#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <cstdio>
#include <cstdlib>

#include "app/commands.h"
#include "config/config.h"
#include "core/log.h"

int main(int argc, char** argv) {
  using namespace longread;
  CLI::App cli{"longread: a curated reading site for long-form writing by real people"};
  cli.require_subcommand(1);
  std::string config_path;
  std::string db_path;
  std::string log_level;
  cli.add_option("--config", config_path, "TOML configuration file")->check(CLI::ExistingFile);
  cli.add_option("--db", db_path, "SQLite database path, or postgresql://… URL (default ./data/longread.db)");
  cli.add_option("--log-level", log_level, "trace, debug, info, warn, error or off");

  std::string opml_path;
  auto* import = cli.add_subcommand("import", "Import blogs from an OPML file (idempotent)");
  import->add_option("FILE", opml_path, "OPML file")->required()->check(CLI::ExistingFile);

  auto* export_cmd = cli.add_subcommand("export", "Write every blog as OPML to stdout");

  auto* blogs =
      cli.add_subcommand("blogs", "List blogs: id, title, category, feed URL, crawl state, articles");
  std::int64_t blog_id = 0;
  auto* blog_remove =
      blogs->add_subcommand("remove", "Stop following a blog and remove its articles from the site");
  blog_remove->add_option("ID", blog_id, "The blog's id (see `longread blogs`)")->required();
  app::BlogAddOptions blog_add_options;
  auto* blog_add = blogs->add_subcommand(
      "add", "Follow a blog from its home page or feed URL (finds the feed; due at the next crawl)");
  blog_add->add_option("URL", blog_add_options.url, "Home page or feed URL (http or https)")->required();
  blog_add->add_option("--category", blog_add_options.category, "Category slug (default: uncategorized)");
  blog_add->add_option("--title", blog_add_options.title, "Title to show instead of the feed's");
  blog_add->add_flag("--short-form", blog_add_options.short_form,
                     "Short posts are this blog's normal form: the length rule does not apply");
  blog_add->add_flag("--dry-run", blog_add_options.dry_run, "List every feed found; store nothing");
  app::BlogEditOptions blog_edit_options;
  std::string edit_title, edit_category, edit_feed_url;
  bool edit_short_form = false;
  auto* blog_edit = blogs->add_subcommand("edit",
                                          "Change a blog's title, category, short-form flag, feed URL or "
                                          "allowed hosts (articles and votes kept)");
  blog_edit->add_option("ID", blog_edit_options.blog_id, "The blog's id (see `longread blogs`)")->required();
  auto* edit_title_option = blog_edit->add_option("--title", edit_title, "Title to show");
  auto* edit_category_option = blog_edit->add_option(
      "--category", edit_category, "Category slug; articles filed under the blog's category follow it");
  auto* edit_short_form_option = blog_edit->add_option("--short-form", edit_short_form,
                                                       "true or false: short posts are its normal form");
  auto* edit_feed_url_option =
      blog_edit->add_option("--feed-url", edit_feed_url, "New feed URL (refused when another blog has it)");
  blog_edit->add_option("--allow-host", blog_edit_options.allow_hosts,
                        "Also fetch this blog's full-text pages from HOST (repeatable)");
  blog_edit->add_option("--disallow-host", blog_edit_options.disallow_hosts,
                        "Take HOST off the blog's allowed hosts (repeatable)");
  std::int64_t pause_id = 0;
  auto* blog_pause = blogs->add_subcommand(
      "pause", "Stop polling a blog until `blogs resume` (its articles stay on the site)");
  blog_pause->add_option("ID", pause_id, "The blog's id (see `longread blogs`)")->required();
  auto* blog_resume =
      blogs->add_subcommand("resume", "Poll a paused or quarantined blog again, starting at the next crawl");
  blog_resume->add_option("ID", pause_id, "The blog's id (see `longread blogs`)")->required();

  bool all = false;
  bool loop = false;
  auto* crawl =
      cli.add_subcommand("crawl", "Crawl every due blog once (--loop: every minute, until stopped)");
  auto* all_flag = crawl->add_flag("--all", all, "Ignore schedules: crawl every blog");
  crawl
      ->add_flag("--loop", loop,
                 "Crawl due blogs every minute until SIGTERM, serving nothing (beside serve --no-crawl)")
      ->excludes(all_flag);

  std::string feed;
  auto* inspect =
      cli.add_subcommand("inspect", "Parse a feed (file or URL) without storing; one JSON object per line");
  inspect->add_option("FEED", feed, "Feed file path or http(s)/file URL")->required();

  int junk_limit = 50;
  std::int64_t article_id = 0;
  auto* junk =
      cli.add_subcommand("junk", "List recent junk with reasons, or `junk ID` to mark an article junk");
  junk->add_option("ID", article_id, "Article to mark as junk (sticks across re-crawls)");
  junk->add_option("--limit", junk_limit, "How many to list");
  auto* keep =
      cli.add_subcommand("keep", "Keep an article the junk filter dropped (sticks across re-crawls)");
  keep->add_option("ID", article_id, "Article id")->required();
  bool clear = false;
  keep->add_flag("--clear", clear, "Remove the override instead: the filter decides again");

  std::int64_t rejudge_blog = 0;
  bool rejudge_dry_run = false;
  bool rejudge_text = false;
  auto* rejudge = cli.add_subcommand(
      "rejudge", "Run the junk rules again over stored articles (after changing curate.min_words/languages)");
  auto* rejudge_blog_option =
      rejudge->add_option("--blog", rejudge_blog, "Only this blog's articles (its id in `longread blogs`)");
  rejudge->add_flag("--dry-run", rejudge_dry_run, "List what would change; store nothing");
  rejudge->add_flag("--text", rejudge_text,
                    "First derive each article's text, excerpt and counts again from its stored HTML "
                    "(after an upgrade improved extraction)");

  app::CompactCommandOptions compact_options;
  auto* db_cmd = cli.add_subcommand("db", "Database maintenance");
  auto* db_compact = db_cmd->add_subcommand(
      "compact", "Compress stored article bodies (in batches; resumable; safe while serve runs)");
  db_compact->add_option("--batch", compact_options.batch, "Articles per transaction")
      ->check(CLI::Range(1, 100000));
  db_compact->add_flag("--retrain", compact_options.retrain,
                       "Train a new dictionary on the newest articles and recompress every body with it");
  db_compact->add_flag("--vacuum", compact_options.vacuum,
                       "Then give the freed space back to the file system (needs free disk of the new size)");
  db_compact->add_option("--hold-ms", compact_options.hold_ms)->group("");  // tests: kill inside a batch
  app::SearchIndexCommandOptions search_index_options;
  auto* db_search_index = db_cmd->add_subcommand(
      "search-index",
      "Keep the search index quick as articles grow, now (the crawl loop does it after each pass)");
  db_search_index
      ->add_option("--recent-ids", search_index_options.recent_ids,
                   "PostgreSQL: how many of the newest ids the index of the newest articles covers (default "
                   "100000)")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 40));
  app::DbCopyCommandOptions copy_options;
  auto* db_copy = db_cmd->add_subcommand(
      "copy", "Copy a stopped site's SQLite database into PostgreSQL, then compare them (resumable)");
  db_copy->add_option("--from", copy_options.from, "The SQLite database file (e.g. data/longread.db)")
      ->required();
  db_copy->add_option("--to", copy_options.to, "The PostgreSQL database: postgresql://user@host/database")
      ->required();
  db_copy->add_option("--batch", copy_options.batch, "Rows per transaction")->check(CLI::Range(1, 100000));
  db_copy->add_option("--stop-after-batches", copy_options.stop_after_batches)->group("");  // tests
  db_cmd->require_subcommand(1);

  auto* similar_cmd = cli.add_subcommand("similar", "Similar articles");
  auto* similar_rebuild = similar_cmd->add_subcommand(
      "rebuild", "Make every article's similar articles again from the stored texts (docs/similar.md)");
  auto* similar_catch_up = similar_cmd->add_subcommand(
      "catch-up", "Index the queued back catalogue now, to the end of the queue (docs/similar.md)");
  similar_cmd->require_subcommand(1);

  double holdout = 0.2;
  auto* train = cli.add_subcommand("train", "Train the article-category classifier on stored articles");
  train->add_option("--holdout", holdout, "Share of articles held out to report accuracy")
      ->check(CLI::Range(0.0, 0.9));

  std::string listen;
  auto* serve = cli.add_subcommand("serve", "Serve the site and crawl hourly in the background");
  serve->add_option("--listen", listen, "Address to listen on (default 127.0.0.1:8080)");
  bool no_crawl = false;
  serve->add_flag("--no-crawl", no_crawl, "Do not crawl in the background");

  auto* newsletter = cli.add_subcommand("newsletter", "The weekly newsletter");
  newsletter->require_subcommand(1);
  bool dry_run = false;
  auto* newsletter_send = newsletter->add_subcommand(
      "send", "Send this week's issue to confirmed subscribers (at most once each)");
  newsletter_send->add_flag("--dry-run", dry_run, "Print the issue instead of sending it");

  auto* mail_cmd = cli.add_subcommand("mail", "The outbox of mails `serve` has still to send");
  mail_cmd->require_subcommand(1);
  std::int64_t mail_id = 0;
  auto* mail_queue = mail_cmd->add_subcommand(
      "queue", "List queued mails: kind, recipient's domain, attempts, next attempt, expiry, last error");
  auto* mail_retry = mail_cmd->add_subcommand(
      "retry", "Make a queued mail (or every one) due now; a running serve sends it within 60 s");
  auto* mail_retry_id = mail_retry->add_option("ID", mail_id, "The mail's id (see `longread mail queue`)");
  auto* mail_drop = mail_cmd->add_subcommand("drop", "Delete a queued mail: it will not be sent");
  mail_drop->add_option("ID", mail_id, "The mail's id (see `longread mail queue`)")->required();

  auto* readers = cli.add_subcommand(
      "readers", "List readers' accounts, set a password, delete one, or promote / demote an operator");
  std::string reader_email;
  auto* reader_password = readers->add_subcommand(
      "password", "Set a reader's password (read from standard input); ends every session of the account");
  reader_password->add_option("EMAIL", reader_email, "The account's address")->required();
  auto* reader_delete = readers->add_subcommand(
      "delete", "Delete a reader's account with its sessions, votes and reading list");
  reader_delete->add_option("EMAIL", reader_email, "The account's address")->required();
  auto* reader_promote = readers->add_subcommand(
      "promote", "Make a reader an operator: the admin area (/admin) opens to them at their next request");
  reader_promote->add_option("EMAIL", reader_email, "The account's address")->required();
  auto* reader_demote = readers->add_subcommand("demote", "Take the operator role back from a reader");
  reader_demote->add_option("EMAIL", reader_email, "The account's address")->required();

  CLI11_PARSE(cli, argc, argv);

  auto loaded = config::load(config_path, config::longread_environment());
  if (!loaded) {
    fmt::print(stderr, "longread: {}\n", loaded.error().message);
    return 2;
  }
  config::Config config = std::move(*loaded);
  if (!db_path.empty()) config.db_path = db_path;
  if (!log_level.empty()) config.log_level = log_level;
  if (!listen.empty()) config.site.listen = listen;
  if (no_crawl) config.site.crawl_in_background = false;
  setup_logging(config.log_level);

  if (*import) return app::cmd_import(config, opml_path);
  if (*export_cmd) return app::cmd_export(config);
  if (*blog_remove) return app::cmd_blog_remove(config, blog_id);
  if (*blog_add) return app::cmd_blog_add(config, blog_add_options);
  if (*blog_edit) {
    if (edit_title_option->count() > 0) blog_edit_options.title = edit_title;
    if (edit_category_option->count() > 0) blog_edit_options.category = edit_category;
    if (edit_short_form_option->count() > 0) blog_edit_options.short_form = edit_short_form;
    if (edit_feed_url_option->count() > 0) blog_edit_options.feed_url = edit_feed_url;
    return app::cmd_blog_edit(config, blog_edit_options);
  }
  if (*blog_pause) return app::cmd_blog_pause(config, pause_id, true);
  if (*blog_resume) return app::cmd_blog_pause(config, pause_id, false);
  if (*blogs) return app::cmd_blogs(config);
  if (*crawl) return app::cmd_crawl(config, all, loop);
  if (*inspect) return app::cmd_inspect(config, feed);
  if (*junk) {
    if (article_id > 0) return app::cmd_override(config, article_id, false);
    return app::cmd_junk_list(config, junk_limit);
  }
  if (*rejudge) {
    return app::cmd_rejudge(
        config, rejudge_blog_option->count() > 0 ? std::optional<std::int64_t>(rejudge_blog) : std::nullopt,
        rejudge_dry_run, rejudge_text);
  }
  if (*keep) return app::cmd_override(config, article_id, clear ? std::nullopt : std::optional<bool>(true));
  if (*similar_rebuild) return app::cmd_similar_rebuild(config);
  if (*similar_catch_up) return app::cmd_similar_catch_up(config);
  if (*serve) return app::cmd_serve(config);
  if (*db_compact) return app::cmd_db_compact(config, compact_options);
  if (*db_search_index) return app::cmd_db_search_index(config, search_index_options);
  if (*db_copy) return app::cmd_db_copy(copy_options);
  if (*newsletter_send) return app::cmd_newsletter_send(config, dry_run);
  if (*train) return app::cmd_train(config, holdout);
  if (*mail_queue) return app::cmd_mail_queue(config);
  if (*mail_retry) {
    return app::cmd_mail_retry(
        config, mail_retry_id->count() > 0 ? std::optional<std::int64_t>(mail_id) : std::nullopt);
  }
  if (*mail_drop) return app::cmd_mail_drop(config, mail_id);
  if (*reader_password) return app::cmd_reader_password(config, reader_email);
  if (*reader_delete) return app::cmd_reader_delete(config, reader_email);
  if (*reader_promote) return app::cmd_reader_role(config, reader_email, true);
  if (*reader_demote) return app::cmd_reader_role(config, reader_email, false);
  if (*readers) return app::cmd_readers_list(config);
  return 1;
}
