// The HTTP/1.1 server (Boost.Beast, C++20 coroutines). Beast and Asio stay inside server.cpp: callers see
// only this header, web/http.h and the App they pass in.
//
//   auto server = web::Server::create(options, app, error_page);   // binds; port 0 picks a free port
//   server.value()->run();   // serves on `threads` threads until stop() or SIGTERM/SIGINT, then returns
//
// Every connection has a read timeout (which also bounds keep-alive idle time), a write timeout, a header
// and a body limit; pipelined requests are answered strictly one at a time in order, so at most one request
// per connection is being handled and at most one read buffer (64 KiB) is held ahead. A malformed request
// gets a 400 (431/413 for the limits) and the connection is closed; so does a request whose framing could
// be read two ways (RFC 9112 section 6.3: a Transfer-Encoding other than exactly "chunked", or one together
// with Content-Length), which is how a request is smuggled past a proxy.
//
// Connections are capped overall and per client (docs/web.md, "Connection caps"): one over a cap gets a
// fixed 503 written without waiting and is closed at once. When the process runs out of file descriptors
// (EMFILE/ENFILE), the accept loop waits 100 ms before trying again instead of spinning, and says so at
// most once per 10 s with a count.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/error.h"
#include "web/http.h"

namespace longread::web {

struct ServerOptions {
  std::string listen = "127.0.0.1:8080";  // "host:port", "[::1]:8080" or ":8080" (all IPv4 interfaces)
  int threads = 0;                        // threads running the io_context; 0 = hardware concurrency
  // Threads that run the App, apart from the serving threads; 0 runs it on the serving threads. A serving
  // thread answers every connection it holds, so an App waiting on a database (a search of a large site,
  // a page rendered after a change) there holds up all of them, and two such requests stop a two-thread
  // server. With a pool, it holds up only its own connection; the serving threads go on reading, writing
  // and answering `quick`.
  int app_threads = 0;
  // With app_threads: asked first, on the serving thread, for an answer that needs no waiting (the page
  // cache's copy); nullopt sends the request to the App on the pool. What it answers goes through the
  // same conditional GET and gzip as the App's answers.
  std::function<std::optional<Response>(const Request&)> quick{};
  std::chrono::seconds read_timeout{30};  // per request, including keep-alive idle time
  std::chrono::seconds write_timeout{30};
  std::size_t header_limit = 16 * 1024;
  std::size_t body_limit = 1024 * 1024;
  // POST requests to these paths (the target without its query) may carry up to `upload_body_limit`
  // bytes: a file upload. Every other request stays within `body_limit`.
  std::vector<std::string> upload_paths{};
  std::size_t upload_body_limit = 8 * 1024 * 1024;
  // Uploads being read or handled at once, overall; 0 = no cap. One over the cap gets a 503 from its header
  // alone and is closed, so at most this many upload-sized bodies are held in memory.
  std::size_t max_uploads_in_flight = 4;
  // Asked with an upload's request line and header (its body empty) before a byte of its body is read: 0
  // lets it in; any other value is the status it gets before its connection is closed (the site answers
  // 403 to a visitor who is not logged in). Unset: every upload is let in.
  std::function<int(const Request& header)> admit_upload{};
  int max_requests_per_connection = 100000;
  bool handle_signals = true;  // SIGINT/SIGTERM call stop()
  bool access_log = true;      // one info line per request: method, path, status, bytes, duration_ms
  // Added to every response, the server's own error answers included (the site's security headers):
  // cheaper than the application setting them on each response it returns.
  Fields extra_headers{};
  // Connections open at once, overall and per client (IPv6 by /64; a trusted proxy counts only
  // overall); 0 = no cap. Over either cap a new connection gets a 503 and is closed.
  std::size_t max_connections = 4096;
  std::size_t max_connections_per_client = 128;
  // Reverse proxies (addresses or CIDR blocks) whose Forwarded / X-Forwarded-For name the client
  // (web/client_address.h). Empty: the peer is always the client.
  std::vector<std::string> trusted_proxies{};
  // After EMFILE/ENFILE/ENOBUFS/ENOMEM on accept: the wait before the next accept, and how often at most
  // the failures are logged (one line with their count).
  std::chrono::milliseconds accept_backoff{100};
  std::chrono::seconds accept_log_interval{10};
  // Called after each answered request, once its response is written (or the write failed): the request
  // (null when it could not be read as one), the status, and the seconds from its last byte read to the
  // response written. Runs on the serving thread: keep it short (a counter, a histogram).
  std::function<void(const Request* request, int status, double seconds)> on_response{};
};

// The process's open-file limit (RLIMIT_NOFILE) after raising its soft value to the hard one; `before` is
// the soft value found. Serving needs one descriptor per connection.
struct FileLimit {
  std::uint64_t before = 0;
  std::uint64_t now = 0;
};
FileLimit raise_file_limit();
// A connection cap that fits under `file_limit` descriptors: what is left after a reserve for the
// database, the crawler's transfers, mail and logs (a quarter of the limit, at least 64, at most 256; at
// least 1 connection), never above
// `wanted`.
std::size_t connections_within(std::uint64_t file_limit, std::size_t wanted);

// A listening server. Stop is graceful: the listener closes, idle keep-alive connections close, requests
// being handled finish and their responses are written (with Connection: close), then run() returns.
class Server {
 public:
  // Binds and listens. Fails (kInvalidInput / kNetwork) when `listen` or a trusted proxy is malformed or
  // the port is taken.
  [[nodiscard]] static Result<std::unique_ptr<Server>> create(ServerOptions options, App app,
                                                              ErrorPageRenderer error_page);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // The bound port (useful with port 0).
  [[nodiscard]] std::uint16_t port() const;
  // Uploads whose body is being read or handled right now (see ServerOptions::max_uploads_in_flight).
  [[nodiscard]] std::size_t uploads_in_flight() const;
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
