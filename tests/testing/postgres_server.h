// A throwaway PostgreSQL for tests: Debian's `postgresql` package, initdb'd into a folder under /tmp and
// started with pg_ctl on a Unix socket only (no TCP port to collide on), as a non-root user (initdb refuses
// root; as root, the package's `postgres` user runs it). One server per build folder serves every test
// process: the first to need it starts it under a file lock, the ctest fixture `postgres` stops it when the
// run ends (tests/testing/postgres_ctl.cpp), and each test gets a database of its own.
#pragma once

#include <fcntl.h>
#include <pwd.h>
#include <sys/file.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "testing/command.h"

namespace longread::testing {

struct PostgresServer {
  std::filesystem::path data;    // the cluster
  std::filesystem::path socket;  // the folder holding its socket
  std::string error;             // why it could not start ("" when it runs)

  // A URL of database `name` on this server.
  [[nodiscard]] std::string url(const std::string& name) const {
    return fmt::format("postgresql:///{}?host={}&user=postgres", name, socket.string());
  }
};

namespace postgres_detail {

inline std::optional<std::filesystem::path> bin_dir() {
  for (const char* dir :
       {"/usr/lib/postgresql/17/bin", "/usr/lib/postgresql/16/bin", "/usr/lib/postgresql/15/bin"}) {
    if (std::filesystem::exists(std::filesystem::path(dir) / "initdb")) return std::filesystem::path(dir);
  }
  return std::nullopt;
}

// `command` as the user that owns the cluster: ourselves, or `postgres` when we are root.
inline std::string as_owner(const std::string& command) {
  if (geteuid() != 0) return command;
  return "runuser -u postgres -- " + command;
}

inline PostgresServer layout() {
  // Under /tmp rather than the build folder: the server's user must reach it, and a Unix socket's path is
  // limited to about 100 bytes. Named after the build folder, so two checkouts never share a server.
  const auto hash = std::hash<std::string>{}(std::string(LONGREAD_BINARY_DIR));
  const std::filesystem::path base = fmt::format("/tmp/longread-pg-{:x}", hash);
  return {.data = base / "data", .socket = base, .error = {}};
}

inline bool running(const PostgresServer& s, const std::filesystem::path& bin) {
  const auto r = run_command(
      as_owner(fmt::format("{} status -D {}", (bin / "pg_ctl").string(), s.data.string())), "/dev/null");
  return r.status == 0;
}

}  // namespace postgres_detail

// The build folder's server, started if it is not running. `error` says why not when it cannot be.
inline PostgresServer shared_postgres() {
  using namespace postgres_detail;
  PostgresServer s = layout();
  const auto bin = bin_dir();
  if (!bin) {
    s.error = "PostgreSQL is not installed (Debian package postgresql; scripts/install-deps.sh test)";
    return s;
  }
  std::filesystem::create_directories(s.data.parent_path());
  const int lock = ::open((s.data.parent_path() / "lock").c_str(), O_CREAT | O_RDWR, 0600);
  if (lock < 0 || flock(lock, LOCK_EX) != 0) {
    s.error = "cannot lock " + (s.data.parent_path() / "lock").string();
    if (lock >= 0) ::close(lock);
    return s;
  }
  const std::filesystem::path log = s.data.parent_path() / "server.log";
  if (!running(s, *bin)) {
    if (!std::filesystem::exists(s.data / "PG_VERSION")) {
      std::filesystem::remove_all(s.data);
      std::filesystem::create_directories(s.data);
      std::filesystem::create_directories(s.socket);
      if (geteuid() == 0) {
        const passwd* pw = getpwnam("postgres");
        if (pw == nullptr) {
          s.error = "running as root and there is no postgres user to run the server as";
        } else {
          (void)chown(s.data.parent_path().c_str(), pw->pw_uid, pw->pw_gid);
          (void)chown(s.data.c_str(), pw->pw_uid, pw->pw_gid);
          (void)chown(s.socket.c_str(), pw->pw_uid, pw->pw_gid);
          (void)chown((s.data.parent_path() / "lock").c_str(), pw->pw_uid, pw->pw_gid);
        }
      }
      if (s.error.empty()) {
        const auto init = run_command(
            as_owner(fmt::format("{} -D {} -U postgres --auth=trust --encoding=UTF8 --locale=C.UTF-8 -N",
                                 (*bin / "initdb").string(), s.data.string())),
            s.data.parent_path() / "initdb.err");
        if (init.status != 0) s.error = "initdb failed: " + init.err;
      }
    }
    if (s.error.empty()) {
      std::filesystem::create_directories(s.socket);
      if (geteuid() == 0) {
        if (const passwd* pw = getpwnam("postgres")) (void)chown(s.socket.c_str(), pw->pw_uid, pw->pw_gid);
      }
      // fsync off: a test cluster that loses power is thrown away; it makes each test's CREATE DATABASE
      // cheap.
      const auto start = run_command(
          as_owner(fmt::format("{} start -w -t 60 -D {} -l {} -o \"-k {} -c listen_addresses='' -c fsync=off "
                               "-c synchronous_commit=off -c full_page_writes=off -c max_connections=200\"",
                               (*bin / "pg_ctl").string(), s.data.string(), log.string(), s.socket.string())),
          s.data.parent_path() / "pg_ctl.err");
      if (start.status != 0) s.error = "pg_ctl start failed: " + start.err + " (see " + log.string() + ")";
    }
  }
  flock(lock, LOCK_UN);
  ::close(lock);
  return s;
}

// Stops the build folder's server if it runs (the ctest fixture's cleanup).
inline int stop_shared_postgres() {
  using namespace postgres_detail;
  const PostgresServer s = layout();
  const auto bin = bin_dir();
  if (!bin || !std::filesystem::exists(s.data / "PG_VERSION")) return 0;
  if (!running(s, *bin)) return 0;
  const auto r = run_command(
      as_owner(fmt::format("{} stop -w -m fast -D {}", (*bin / "pg_ctl").string(), s.data.string())),
      "/dev/null");
  return r.status;
}

}  // namespace longread::testing
