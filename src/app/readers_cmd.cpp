// `longread readers`: the operator's view of readers' accounts. Lists them; sets a reader's password
// (for a site that cannot mail reset links, or a reader locked out), deletes an account, and promotes a
// reader to operator (or demotes one).
#include <fmt/format.h>
#include <termios.h>
#include <unistd.h>

#include <iostream>
#include <string>

#include "accounts/accounts.h"
#include "app/commands.h"
#include "app/store_setup.h"
#include "core/time.h"

namespace longread::app {
namespace {

// One line from stdin; on a terminal, with a prompt and without echo (termios), as passwd(1) does.
std::optional<std::string> read_secret(const char* prompt) {
  const bool terminal = ::isatty(STDIN_FILENO) != 0;
  termios saved{};
  if (terminal) {
    fmt::print(stderr, "{}", prompt);
    if (::tcgetattr(STDIN_FILENO, &saved) == 0) {
      termios quiet = saved;
      quiet.c_lflag &= ~static_cast<tcflag_t>(ECHO);
      ::tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet);
    }
  }
  std::string line;
  const bool read = static_cast<bool>(std::getline(std::cin, line));
  if (terminal) {
    ::tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved);
    fmt::print(stderr, "\n");
  }
  if (!read) return std::nullopt;
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return line;
}

std::unique_ptr<accounts::Accounts> open_accounts(storage::Store& store) {
  auto accounts = accounts::Accounts::open(store, store, store, {});
  if (!accounts) {
    report_failure(accounts.error());
    return nullptr;
  }
  return std::move(*accounts);
}

}  // namespace

int cmd_readers_list(const config::Config& config) {
  auto store = open_store(config);
  if (!store) return 1;
  auto readers = store->readers();
  if (!readers) return report_failure(readers.error());
  fmt::print("{:>6}  {:<40}  {:<20}  {:<20}  {}\n", "id", "email", "created", "confirmed", "role");
  for (const auto& r : *readers) {
    fmt::print("{:>6}  {:<40.40}  {:<20}  {:<20}  {}\n", r.id, r.email, format_rfc3339(r.created_at),
               r.confirmed_at ? format_rfc3339(*r.confirmed_at) : "pending",
               r.is_operator ? "operator" : "reader");
  }
  fmt::print("{} {}\n", readers->size(), readers->size() == 1 ? "reader" : "readers");
  return 0;
}

int cmd_reader_password(const config::Config& config, const std::string& email) {
  auto store = open_store(config);
  if (!store) return 1;
  auto accounts = open_accounts(*store);
  if (!accounts) return 1;
  const auto password = read_secret("New password: ");
  if (!password) {
    fmt::print(stderr, "longread: no password given on standard input\n");
    return 2;
  }
  if (::isatty(STDIN_FILENO) != 0 && read_secret("Again: ") != password) {
    fmt::print(stderr, "longread: the two passwords differ; nothing changed\n");
    return 2;
  }
  if (auto set = accounts->set_password_for(email, *password, now_seconds()); !set)
    return report_failure(set.error());
  fmt::print("{}: password set, address confirmed, every session ended\n", email);
  return 0;
}

int cmd_reader_delete(const config::Config& config, const std::string& email) {
  auto store = open_store(config);
  if (!store) return 1;
  auto accounts = open_accounts(*store);
  if (!accounts) return 1;
  if (auto deleted = accounts->delete_account_of(email); !deleted) return report_failure(deleted.error());
  fmt::print("{}: account deleted with its sessions, votes and reading list\n", email);
  return 0;
}

int cmd_reader_role(const config::Config& config, const std::string& email, bool is_operator) {
  auto store = open_store(config);
  if (!store) return 1;
  if (auto set = store->set_reader_operator(email, is_operator); !set) {
    if (set.error().kind == ErrorKind::kNotFound) {
      fmt::print(stderr, "longread: no reader {}; nothing changed\n", email);
      return 1;
    }
    return report_failure(set.error());
  }
  // The account as stored (the address may have been typed in another case).
  auto reader = store->reader_by_email(email);
  if (!reader) return report_failure(reader.error());
  const std::string target =
      *reader ? fmt::format("reader {} {}", (*reader)->id, (*reader)->email) : "reader " + email;
  // The CLI runs with the server's own rights: the log names it, not a reader.
  auto logged = store->add_audit_entry({.at = now_seconds(),
                                        .actor = "cli",
                                        .action = is_operator ? "reader.promote" : "reader.demote",
                                        .target = target});
  if (!logged) return report_failure(logged.error());
  fmt::print("{}: {}\n", email,
             is_operator ? "is an operator: /admin opens at their next request"
                         : "is a reader again: /admin is closed to them from their next request");
  return 0;
}

}  // namespace longread::app
