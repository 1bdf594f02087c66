// longread-newsletter-send: sends (or prints, with --dry-run) this week's newsletter from a database
// over SMTP. The same code path as `longread newsletter send`; used by the kill -9 test.
//   longread-newsletter-send --db data/longread.db --smtp smtp://127.0.0.1:2525 --base-url https://x.org
#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <CLI/CLI.hpp>

#include "accounts/accounts.h"
#include "mail/newsletter.h"
#include "storage/store.h"

int main(int argc, char** argv) {
  using namespace longread;
  CLI::App cli{"longread-newsletter-send: this week's newsletter over SMTP"};
  std::string db;
  bool dry_run = false;
  mail::SmtpOptions smtp;
  mail::NewsletterOptions options;
  cli.add_option("--db", db, "SQLite database")->required();
  cli.add_option("--smtp", smtp.url, "smtp://host:port or smtps://host:port");
  cli.add_option("--from", options.from, "From address");
  cli.add_option("--base-url", options.base_url, "site base URL");
  cli.add_flag("--dry-run", dry_run, "print the issue instead of sending it");
  CLI11_PARSE(cli, argc, argv);
  smtp.from = options.from;
  spdlog::set_level(spdlog::level::warn);

  auto store = storage::open_store(db);
  if (!store) {
    fmt::print(stderr, "{}\n", store.error().message);
    return 1;
  }
  auto accounts = accounts::Accounts::open(**store, **store, **store,
                                           {.password_cost = accounts::PasswordCost::minimum()});
  if (!accounts) {
    fmt::print(stderr, "{}\n", accounts.error().message);
    return 1;
  }
  const mail::SmtpSender sender(smtp);
  auto summary = mail::send_newsletter(**store, **accounts, sender, options, now_seconds(), dry_run,
                                       [](std::string_view text) { fmt::print("{}", text); });
  if (!summary) {
    fmt::print(stderr, "{}\n", summary.error().message);
    return 1;
  }
  fmt::print("issue {}: {} articles, {} sent, {} skipped, {} to retry, {} refused\n", summary->issue_key,
             summary->articles, summary->sent, summary->skipped, summary->temporary, summary->permanent);
  return 0;
}
