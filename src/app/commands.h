// The `longread` subcommands. Each returns the process exit code; main() only parses arguments and
// wires configuration.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "config/config.h"

namespace longread::app {

int cmd_import(const config::Config& config, const std::string& opml_path);
int cmd_export(const config::Config& config);
int cmd_blogs(const config::Config& config);
// `blogs remove ID`: the blog and its articles (with their votes and reading-list entries) are deleted.
int cmd_blog_remove(const config::Config& config, std::int64_t blog_id);
// `blogs add URL`: URL is a feed, or a page whose declared (or well-known) feeds are fetched and parsed;
// the first posts feed found is followed, due at once. Exit 0 also when it is followed already.
struct BlogAddOptions {
  std::string url{};
  std::string category{};  // slug; empty: the store's default, as for an OPML outline without one
  std::string title{};     // empty: the feed's title
  bool short_form = false;
  bool dry_run = false;  // list every feed found, store nothing
};
int cmd_blog_add(const config::Config& config, const BlogAddOptions& options);
// `blogs edit ID`: each given field replaces the stored one (docs/blogs.md, "Editing and pausing a blog");
// prints the blog's row afterwards. Exit 1 for an unknown id, a category that is not a slug, or a feed URL
// another blog has.
struct BlogEditOptions {
  std::int64_t blog_id = 0;
  std::optional<std::string> title{};
  std::optional<std::string> category{};  // slug, checked as `blogs add` checks it
  std::optional<bool> short_form{};
  std::optional<std::string> feed_url{};
  // Hosts the blog's full-text pages may also come from, besides its own site (docs/blogs.md); a
  // registrable domain ("example.net") allows all its hosts.
  std::vector<std::string> allow_hosts{};
  std::vector<std::string> disallow_hosts{};
};
int cmd_blog_edit(const config::Config& config, const BlogEditOptions& options);
// `blogs pause ID` (`paused` true) / `blogs resume ID`: a paused blog is polled by no crawl; its articles
// stay. Resuming makes it due at once.
int cmd_blog_pause(const config::Config& config, std::int64_t blog_id, bool paused);
// One pass over the due blogs (`all`: every blog); with `loop`, a pass every minute until SIGTERM/SIGINT
// (a crawl-only process beside `serve --no-crawl`).
int cmd_crawl(const config::Config& config, bool all, bool loop);
int cmd_inspect(const config::Config& config, const std::string& feed);
int cmd_junk_list(const config::Config& config, int limit);
int cmd_override(const config::Config& config, std::int64_t article_id, std::optional<bool> keep);
// `rejudge [--blog ID] [--dry-run]`: the junk rules again over stored articles with today's settings
// (docs/curate.md, "Judging stored articles again").
int cmd_rejudge(const config::Config& config, std::optional<std::int64_t> blog_id, bool dry_run,
                bool rebuild_texts = false);
int cmd_serve(const config::Config& config);
// `similar rebuild`: empties the similar-articles index and makes every visible article's picks again
// (docs/similar.md); safe while serve runs (each article is its own transaction).
int cmd_similar_rebuild(const config::Config& config);
int cmd_similar_catch_up(const config::Config& config);
// `db compact [--batch N] [--retrain] [--vacuum]`: article bodies into the compressed form, one transaction
// per batch; resumable after a kill (docs/storage.md, "Article bodies"). Exit 1 on an error or when some
// stored body could not be read (those articles are listed and left as they are).
struct CompactCommandOptions {
  int batch = 500;
  bool retrain = false;
  bool vacuum = false;
  int hold_ms = 0;  // tests only: wait inside each batch's transaction before committing
};
int cmd_db_compact(const config::Config& config, const CompactCommandOptions& options);
// `db search-index [--recent-ids N]`: Store::maintain_search_index once, its summary on stdout. Exit 1 on an
// error, or when another process was at it (nothing done).
struct SearchIndexCommandOptions {
  std::int64_t recent_ids = 0;  // 0: the store's default (storage::SearchIndexUpkeep)
};
int cmd_db_search_index(const config::Config& config, const SearchIndexCommandOptions& options);
// `db copy --from PATH --to URL`: a stopped site's SQLite database into PostgreSQL (resumable: a second run
// adds only what is missing), then each table's row count and a sample of its rows compared; one line per
// table. Exit 1 on an error (the message says which argument or table) or on any difference (named).
struct DbCopyCommandOptions {
  std::string from;
  std::string to;
  int batch = 500;
  int stop_after_batches = 0;  // tests only: stop as a kill would, after this many committed batches
};
int cmd_db_copy(const DbCopyCommandOptions& options);
// `newsletter send [--dry-run]`: this week's issue to every confirmed subscriber who has not had it.
int cmd_newsletter_send(const config::Config& config, bool dry_run);
// The mail outbox (docs/mail.md, "Operator commands"). `mail queue`: a table of queued mails (recipients
// as "*@domain"). `mail retry [ID]`: the mail (or every one) due now, for serve's sender to send within a
// minute. `mail drop ID`: deleted unsent. Exit 1 for an id that is not queued.
int cmd_mail_queue(const config::Config& config);
int cmd_mail_retry(const config::Config& config, std::optional<std::int64_t> mail_id);
int cmd_mail_drop(const config::Config& config, std::int64_t mail_id);
int cmd_train(const config::Config& config, double holdout);
// `readers`: every account; `readers password EMAIL` (the new password on stdin); `readers delete EMAIL`.
int cmd_readers_list(const config::Config& config);
int cmd_reader_password(const config::Config& config, const std::string& email);
int cmd_reader_delete(const config::Config& config, const std::string& email);
// `readers promote EMAIL` / `readers demote EMAIL`: grants or takes back the operator role (the admin
// area); written to the audit log with the CLI as the actor.
int cmd_reader_role(const config::Config& config, const std::string& email, bool is_operator);

}  // namespace longread::app
