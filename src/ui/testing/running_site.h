// The site for HTTP tests: a fresh SQLite file seeded with the fixtures, served on an ephemeral
// 127.0.0.1 port on a thread of its own until the RunningSite is destroyed.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>

#include "core/error.h"
#include "storage/store.h"
#include "ui/site.h"
#include "ui/testing/fixtures.h"
#include "web/server.h"

namespace longread::ui::testing {

// Options for a test site: https://longread.test as base URL, 127.0.0.1:0, 2 threads, no access log, and
// the cheapest Argon2id cost (tests sign up and log in many times).
SiteOptions test_site_options();

class RunningSite {
 public:
  // `name` names the temp directory (one per process and name). `options.listen` becomes 127.0.0.1:0.
  [[nodiscard]] static Result<std::unique_ptr<RunningSite>> start(const std::string& name,
                                                                  SiteOptions options);
  // The site over a store the caller owns (and keeps open longer than the RunningSite); no fixtures, no
  // directory.
  [[nodiscard]] static Result<std::unique_ptr<RunningSite>> over(storage::Store& store, SiteOptions options);
  ~RunningSite();  // stops the server, then removes the directory it made
  RunningSite(const RunningSite&) = delete;
  RunningSite& operator=(const RunningSite&) = delete;

  [[nodiscard]] storage::Store& store() { return *store_ptr_; }
  [[nodiscard]] const FixtureIds& ids() const { return ids_; }
  [[nodiscard]] std::uint16_t port() const { return port_; }
  [[nodiscard]] const Site& site() const { return *site_; }

 private:
  RunningSite() = default;
  [[nodiscard]] Result<void> serve(SiteOptions options);

  std::filesystem::path dir_;
  std::unique_ptr<storage::Store> store_;  // owned by start(); over() leaves it empty
  storage::Store* store_ptr_ = nullptr;
  FixtureIds ids_;
  std::unique_ptr<Site> site_;
  std::unique_ptr<web::Server> server_;
  std::uint16_t port_ = 0;
  std::thread runner_;
};

}  // namespace longread::ui::testing
