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
  options.listen = "127.0.0.1:0";
  running->site_ = std::make_unique<Site>(*running->store_, std::move(options));
  auto server = make_server(*running->site_, false);
  if (!server) return std::unexpected(server.error());
  running->server_ = std::move(*server);
  running->port_ = running->server_->port();
  running->runner_ = std::thread([server = running->server_.get()] { server->run(); });
  return running;
}

RunningSite::~RunningSite() {
  if (server_) server_->stop();
  if (runner_.joinable()) runner_.join();
  server_.reset();
  site_.reset();
  store_.reset();
  std::error_code ignored;
  std::filesystem::remove_all(dir_, ignored);
}

}  // namespace longread::ui::testing
