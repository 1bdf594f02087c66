// The HTTP/1.1 server (Boost.Beast, C++20 coroutines). Beast and Asio stay inside server.cpp: callers see
// only this header, web/http.h and the App they pass in.
//
//   auto server = web::Server::create(options, app, error_page);   // binds; port 0 picks a free port
//   server.value()->run();   // serves on `threads` threads until stop() or SIGTERM/SIGINT, then returns
//
// Every connection has a read timeout (which also bounds keep-alive idle time), a write timeout, a header
// and a body limit; pipelined requests are answered strictly one at a time in order, so at most one request
// per connection is being handled and at most one read buffer (64 KiB) is held ahead. A malformed request
// gets a 400 (431/413 for the limits) and the connection is closed.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include "core/error.h"
#include "web/http.h"

namespace longread::web {

struct ServerOptions {
  std::string listen = "127.0.0.1:8080";  // "host:port", "[::1]:8080" or ":8080" (all IPv4 interfaces)
  int threads = 0;                        // threads running the io_context; 0 = hardware concurrency
  std::chrono::seconds read_timeout{30};  // per request, including keep-alive idle time
  std::chrono::seconds write_timeout{30};
  std::size_t header_limit = 16 * 1024;
  std::size_t body_limit = 1024 * 1024;
  int max_requests_per_connection = 100000;
  bool handle_signals = true;  // SIGINT/SIGTERM call stop()
  bool access_log = true;      // one info line per request: method, path, status, bytes, duration_ms
  // Added to every response, the server's own error answers included (the site's security headers):
  // cheaper than the application setting them on each response it returns.
  Fields extra_headers{};
};

// A listening server. Stop is graceful: the listener closes, idle keep-alive connections close, requests
// being handled finish and their responses are written (with Connection: close), then run() returns.
class Server {
 public:
  // Binds and listens. Fails (kInvalidInput / kNetwork) when `listen` is malformed or the port is taken.
  [[nodiscard]] static Result<std::unique_ptr<Server>> create(ServerOptions options, App app,
                                                              ErrorPageRenderer error_page);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // The bound port (useful with port 0).
  [[nodiscard]] std::uint16_t port() const;
  // Serves until stopped; the calling thread is one of the pool's threads. Call once.
  void run();
  // Requests a graceful stop. Thread-safe and idempotent; may be called before or during run().
  void stop();

 private:
  struct Impl;
  explicit Server(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace longread::web
