// `longread serve` as a child process for whole-binary tests: started with a database and blog list in a
// test folder and the given environment, waited for until /healthz answers, stopped with SIGTERM.
//
//   longread::testing::ServeProcess serve(dir, port);
//   ASSERT_TRUE(serve.start({{"LONGREAD_METRICS_TOKEN", "t"}})) << serve.log();
//   ... requests to 127.0.0.1:port ...
//   EXPECT_EQ(serve.stop(), 0);
//
// Link longread_test_smtp (Child) and longread_web_testclient; the target depends on `longread`.
#pragma once

#include <signal.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <thread>

#include "smtp/smtp_server.h"
#include "web/testing/client.h"

namespace longread::testing {

class ServeProcess {
 public:
  // `dir` holds the database (longread.db) and the output (serve.log); the site listens on 127.0.0.1:port.
  ServeProcess(std::filesystem::path dir, int port) : dir_(std::move(dir)), port_(port) {}

  // Starts serve with the crawler and newsletter off unless `extra` turns them on, and an empty default
  // blog list unless `extra` names one. True once /healthz answers 200 within `deadline`.
  bool start(const std::map<std::string, std::string>& extra,
             std::chrono::seconds deadline = std::chrono::seconds(60)) {
    if (!std::filesystem::exists(dir_ / "empty.opml")) {
      std::ofstream(dir_ / "empty.opml")
          << "<?xml version=\"1.0\"?><opml version=\"2.0\"><head><title>none</title></head><body/></opml>";
    }
    std::map<std::string, std::string> environment = {
        {"LONGREAD_DB", (dir_ / "longread.db").string()},
        {"LONGREAD_DEFAULT_BLOG_LIST", (dir_ / "empty.opml").string()},
        {"LONGREAD_SITE_LISTEN", "127.0.0.1:" + std::to_string(port_)},
        {"LONGREAD_SITE_BASE_URL", "http://127.0.0.1:" + std::to_string(port_)},
        {"LONGREAD_SITE_CRAWL_IN_BACKGROUND", "false"},
        {"LONGREAD_NEWSLETTER_ENABLED", "false"}};
    for (const auto& [name, value] : extra) environment[name] = value;
    child_ = std::make_unique<Child>(
        std::vector<std::string>{std::string(LONGREAD_BINARY_DIR) + "/src/app/longread", "serve"},
        Child::Options{.environment = environment, .output = dir_ / "serve.log"});
    const auto end = std::chrono::steady_clock::now() + deadline;
    while (std::chrono::steady_clock::now() < end) {
      if (child_->wait_exit_for(std::chrono::milliseconds(0))) return false;
      if (healthy()) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return false;
  }

  [[nodiscard]] bool healthy() const {
    auto res = web::testing::http_get(static_cast<std::uint16_t>(port_), "/healthz");
    return res && res->status == 200;
  }

  // SIGTERM, then the exit status (nullopt: still running after 60 s).
  std::optional<int> stop() {
    if (!child_) return std::nullopt;
    child_->send_signal(SIGTERM);
    return child_->wait_exit_for(std::chrono::seconds(60));
  }

  [[nodiscard]] std::string log() const {
    std::ifstream in(dir_ / "serve.log", std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
  }

 private:
  std::filesystem::path dir_;
  int port_;
  std::unique_ptr<Child> child_;
};

}  // namespace longread::testing
