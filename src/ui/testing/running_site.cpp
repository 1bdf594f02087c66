#include "ui/testing/running_site.h"

#include <unistd.h>

namespace longread::ui::testing {

SiteOptions test_site_options() {
  SiteOptions options;
  options.listen = "127.0.0.1:0";
  options.base_url = "https://longread.test";
  options.threads = 2;
  options.access_log = false;
  options.accounts.password_cost = accounts::PasswordCost::minimum();
  return options;
}

Result<std::unique_ptr<RunningSite>> RunningSite::start(const std::string& name, SiteOptions options) {
  std::unique_ptr<RunningSite> running(new RunningSite());
  running->dir_ =
      std::filesystem::temp_directory_path() / ("longread-" + name + "-" + std::to_string(::getpid()));
  std::filesystem::remove_all(running->dir_);
  std::filesystem::create_directories(running->dir_);
  auto store = storage::open_sqlite_store((running->dir_ / "site.db").string());
  if (!store) return std::unexpected(store.error());
  running->store_ = std::move(*store);
  auto ids = seed_fixtures(*running->store_, now_seconds());
  if (!ids) return std::unexpected(ids.error());
  running->ids_ = *ids;
  running->store_ptr_ = running->store_.get();
  if (auto served = running->serve(std::move(options)); !served) return std::unexpected(served.error());
  return running;
}

Result<std::unique_ptr<RunningSite>> RunningSite::over(storage::Store& store, SiteOptions options) {
  std::unique_ptr<RunningSite> running(new RunningSite());
  running->store_ptr_ = &store;
  if (auto served = running->serve(std::move(options)); !served) return std::unexpected(served.error());
  return running;
}

Result<void> RunningSite::serve(SiteOptions options) {
  options.listen = "127.0.0.1:0";
  site_ = std::make_unique<Site>(*store_ptr_, std::move(options));
  auto server = make_server(*site_, false);
  if (!server) return std::unexpected(server.error());
  server_ = std::move(*server);
  port_ = server_->port();
  runner_ = std::thread([server = server_.get()] { server->run(); });
  return {};
}

RunningSite::~RunningSite() {
  if (server_) server_->stop();
  if (runner_.joinable()) runner_.join();
  server_.reset();
  site_.reset();
  store_.reset();
  if (!dir_.empty()) {
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
  }
}

}  // namespace longread::ui::testing
