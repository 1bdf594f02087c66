// Beast's C++20-coroutine server shape (Beast example/http/server/awaitable, advanced_server.cpp): one
// coroutine accepts, one coroutine per connection reads a request, calls the pure handle_request, writes.
#include <utility>  // before Asio: asio/awaitable.hpp uses std::exchange without including <utility>

#include "web/server.h"

#include <spdlog/spdlog.h>

#include <atomic>
#include <boost/asio.hpp>
#include <boost/beast.hpp>
#include <csignal>
#include <ctime>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <vector>

#include "core/time.h"
#include "web/handle.h"

namespace longread::web {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = net::ip::tcp;

namespace {

constexpr std::size_t kReadBufferLimit = 64 * 1024;

// One accepted connection. `busy` is only read and written on the connection's strand.
struct Connection {
  explicit Connection(tcp::socket socket) : stream(std::move(socket)) {}
  beast::tcp_stream stream;
  bool busy = false;
};

// IMF-fixdate of the current second (RFC 9110 section 6.6.1), formatted once per second per thread.
const std::string& date_header() {
  thread_local std::int64_t cached_second = -1;
  thread_local std::string cached;
  const auto now = now_seconds();
  if (to_unix(now) != cached_second) {
    cached_second = to_unix(now);
    cached = format_http_date(now);
  }
  return cached;
}

Result<tcp::endpoint> parse_listen(const std::string& listen) {
  std::string host;
  std::string port;
  if (!listen.empty() && listen.front() == '[') {
    const auto close = listen.find(']');
    if (close == std::string::npos || close + 1 >= listen.size() || listen[close + 1] != ':') {
      return fail(ErrorKind::kInvalidInput, "web: bad listen address " + listen);
    }
    host = listen.substr(1, close - 1);
    port = listen.substr(close + 2);
  } else {
    const auto colon = listen.rfind(':');
    if (colon == std::string::npos)
      return fail(ErrorKind::kInvalidInput, "web: listen needs host:port: " + listen);
    host = listen.substr(0, colon);
    port = listen.substr(colon + 1);
  }
  if (host.empty()) host = "0.0.0.0";
  if (host == "localhost") host = "127.0.0.1";
  beast::error_code ec;
  const auto address = net::ip::make_address(host, ec);
  if (ec) return fail(ErrorKind::kInvalidInput, "web: bad listen host " + host);
  int port_number = -1;
  try {
    std::size_t used = 0;
    port_number = std::stoi(port, &used);
    if (used != port.size()) port_number = -1;
  } catch (const std::exception&) {
    port_number = -1;
  }
  if (port_number < 0 || port_number > 65535)
    return fail(ErrorKind::kInvalidInput, "web: bad listen port " + port);
  return tcp::endpoint(address, static_cast<unsigned short>(port_number));
}

// Beast parser errors answer with a status; anything else (reset, timeout, EOF) just closes.
int status_for_parse_error(const beast::error_code& ec) {
  if (ec == http::error::header_limit) return 431;
  if (ec == http::error::body_limit) return 413;
  static const auto& http_category = beast::error_code(http::error::bad_target).category();
  if (ec.category() == http_category && ec != http::error::end_of_stream &&
      ec != http::error::partial_message) {
    return 400;
  }
  return 0;
}

Result<Request> to_request(const http::request<http::string_body>& breq, const std::string& remote) {
  Fields headers;
  headers.reserve(8);
  for (const auto& field : breq)
    headers.emplace_back(std::string(field.name_string()), std::string(field.value()));
  auto out = Request::from_target(std::string(breq.method_string()), std::string(breq.target()),
                                  std::move(headers), breq.body());
  if (out) out->remote_address = remote;
  return out;
}

}  // namespace

struct Server::Impl {
  Impl(ServerOptions opts, App application, ErrorPageRenderer renderer)
      : options(std::move(opts)),
        app(std::move(application)),
        error_page(std::move(renderer)),
        control(net::make_strand(ioc)),
        acceptor(control),
        signals(control) {}

  ServerOptions options;
  App app;
  ErrorPageRenderer error_page;
  net::io_context ioc;  // the acceptor, signals and stop; connections live on `workers`
  net::strand<net::io_context::executor_type> control;  // acceptor, signals and stop run here
  // One io_context per serving thread, each run by exactly one thread: a connection's reads, handler and
  // writes stay on one thread with its own epoll set, instead of every thread contending for one
  // scheduler (which cost most of the CPU in context switches under wrk). Created by run().
  std::vector<std::unique_ptr<net::io_context>> workers;
  std::vector<net::executor_work_guard<net::io_context::executor_type>> worker_guards;
  std::size_t next_worker = 0;  // only used on `control`
  tcp::acceptor acceptor;
  net::signal_set signals;
  std::atomic<bool> stopping{false};
  std::atomic<bool> started{false};

  std::mutex connections_mutex;
  std::unordered_map<std::uint64_t, std::shared_ptr<Connection>> connections;
  std::uint64_t next_connection_id = 0;

  void begin_stop() {
    if (stopping.exchange(true)) return;
    spdlog::info("http stopping: closing listener and idle connections");
    beast::error_code ec;
    acceptor.close(ec);
    signals.cancel(ec);
    // Workers may now return once their connections have ended.
    for (auto& guard : worker_guards) guard.reset();
    std::lock_guard lock(connections_mutex);
    for (auto& [id, conn] : connections) {
      net::post(conn->stream.get_executor(), [conn] {
        // Idle connections (waiting for their next request) close now; a busy one closes after its response.
        if (!conn->busy) {
          beast::error_code ignored;
          conn->stream.socket().shutdown(tcp::socket::shutdown_both, ignored);
          conn->stream.close();
        }
      });
    }
  }

  net::awaitable<void> accept_loop() {
    for (;;) {
      beast::error_code ec;
      tcp::socket socket =
          co_await acceptor.async_accept(net::make_strand(*workers[next_worker++ % workers.size()]),
                                         net::redirect_error(net::use_awaitable, ec));
      if (stopping) co_return;
      if (ec) {
        if (ec == net::error::operation_aborted || ec == net::error::bad_descriptor) co_return;
        spdlog::warn("http accept failed: {}", ec.message());
        continue;
      }
      auto conn = std::make_shared<Connection>(std::move(socket));
      std::uint64_t id = 0;
      {
        std::lock_guard lock(connections_mutex);
        id = next_connection_id++;
        connections.emplace(id, conn);
      }
      net::co_spawn(conn->stream.get_executor(), session(conn, id), net::detached);
    }
  }

  net::awaitable<void> send_error_and_close(Connection& conn, int status, unsigned version) {
    http::response<http::string_body> res{static_cast<http::status>(status), version};
    res.set(http::field::server, "longread");
    res.set(http::field::date, date_header());
    res.set(http::field::content_type, "text/plain; charset=utf-8");
    for (const auto& [name, value] : options.extra_headers) res.insert(name, value);
    res.keep_alive(false);
    res.body() = std::string(reason_phrase(status)) + "\n";
    res.prepare_payload();
    beast::error_code ec;
    conn.stream.expires_after(options.write_timeout);
    co_await http::async_write(conn.stream, res, net::redirect_error(net::use_awaitable, ec));
    if (options.access_log)
      spdlog::info("http method=- path=- status={} bytes={} duration_ms=0", status, res.body().size());
  }

  net::awaitable<void> session(std::shared_ptr<Connection> conn, std::uint64_t id) {
    std::string remote;
    {
      beast::error_code ec;
      const auto endpoint = conn->stream.socket().remote_endpoint(ec);
      if (!ec) remote = endpoint.address().to_string();
    }
    beast::flat_buffer buffer(kReadBufferLimit);
    try {
      for (int served = 0;; ++served) {
        http::request_parser<http::string_body> parser;
        parser.header_limit(static_cast<std::uint32_t>(options.header_limit));
        parser.body_limit(options.body_limit);
        beast::error_code ec;
        conn->stream.expires_after(options.read_timeout);
        co_await http::async_read(conn->stream, buffer, parser, net::redirect_error(net::use_awaitable, ec));
        if (ec) {
          if (const int status = status_for_parse_error(ec); status != 0) {
            co_await send_error_and_close(*conn, status, 11);
          }
          break;
        }
        conn->busy = true;
        const auto started_at = std::chrono::steady_clock::now();
        const auto& breq = parser.get();

        const Result<Request> request = to_request(breq, remote);
        Response res;
        if (request) {
          res = handle_request(app, error_page, *request);
        } else {
          res = error_page(400, request.error().display());
          res.status = 400;
        }
        const bool head = breq.method() == http::verb::head;
        const bool keep_alive = breq.keep_alive() && request.has_value() && !stopping &&
                                served + 1 < options.max_requests_per_connection;

        const std::string_view payload = res.payload();
        const bool bodyless = res.status == 304 || res.status == 204 || res.status < 200;
        http::response<http::span_body<const char>> bres{static_cast<http::status>(res.status),
                                                         breq.version()};
        bres.set(http::field::server, "longread");
        bres.set(http::field::date, date_header());
        if (!res.content_type.empty() && !bodyless) bres.set(http::field::content_type, res.content_type);
        for (const auto& [name, value] : res.headers) bres.insert(name, value);
        for (const auto& [name, value] : options.extra_headers) bres.insert(name, value);
        if (!head && !bodyless) bres.body() = beast::span<const char>(payload.data(), payload.size());
        if (!bodyless) bres.content_length(payload.size());
        bres.keep_alive(keep_alive);

        conn->stream.expires_after(options.write_timeout);
        co_await http::async_write(conn->stream, bres, net::redirect_error(net::use_awaitable, ec));
        conn->busy = false;
        if (options.access_log) {
          const auto elapsed =
              std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started_at);
          const auto method = breq.method_string();
          spdlog::info("http method={} path={} status={} bytes={} duration_ms={:.3f}",
                       std::string_view(method.data(), method.size()),
                       request ? std::string_view(request->path) : std::string_view("-"), res.status,
                       head || bodyless ? 0 : payload.size(), elapsed.count());
        }
        if (ec || !keep_alive) break;
      }
    } catch (const std::exception& e) {
      spdlog::error("http session failed: {}", e.what());
    }
    beast::error_code ignored;
    conn->stream.socket().shutdown(tcp::socket::shutdown_send, ignored);
    conn->stream.close();
    std::lock_guard lock(connections_mutex);
    connections.erase(id);
  }
};

Server::Server(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Server::~Server() = default;

Result<std::unique_ptr<Server>> Server::create(ServerOptions options, App app, ErrorPageRenderer error_page) {
  auto endpoint = parse_listen(options.listen);
  if (!endpoint) return std::unexpected(endpoint.error());
  auto impl = std::make_unique<Impl>(std::move(options), std::move(app), std::move(error_page));
  beast::error_code ec;
  impl->acceptor.open(endpoint->protocol(), ec);
  if (!ec) impl->acceptor.set_option(net::socket_base::reuse_address(true), ec);
  if (!ec) impl->acceptor.bind(*endpoint, ec);
  if (!ec) impl->acceptor.listen(net::socket_base::max_listen_connections, ec);
  if (ec) {
    return fail(ErrorKind::kNetwork, "web: cannot listen on " + impl->options.listen + ": " + ec.message(),
                "Cannot listen on " + impl->options.listen + ": " + ec.message());
  }
  return std::unique_ptr<Server>(new Server(std::move(impl)));
}

std::uint16_t Server::port() const {
  beast::error_code ec;
  const auto endpoint = impl_->acceptor.local_endpoint(ec);
  return ec ? 0 : endpoint.port();
}

void Server::run() {
  Impl& impl = *impl_;
  if (impl.started.exchange(true)) return;
  if (impl.options.handle_signals) {
    beast::error_code ec;
    impl.signals.add(SIGINT, ec);
    impl.signals.add(SIGTERM, ec);
    impl.signals.async_wait(
        net::bind_executor(impl.control, [&impl](const beast::error_code& error, int signal) {
          if (error) return;
          spdlog::info("http received signal {}", signal);
          impl.begin_stop();
        }));
  }
  int threads =
      impl.options.threads > 0 ? impl.options.threads : static_cast<int>(std::thread::hardware_concurrency());
  threads = std::max(threads, 1);
  for (int i = 0; i < threads; ++i) {
    impl.workers.push_back(std::make_unique<net::io_context>(1));
    impl.worker_guards.push_back(net::make_work_guard(*impl.workers.back()));
  }
  if (impl.stopping) {
    for (auto& guard : impl.worker_guards) guard.reset();  // stop() came before run()
  }
  net::co_spawn(impl.control, impl.accept_loop(), net::detached);
  spdlog::info("http listening on port {}", port());

  std::vector<std::thread> pool;
  pool.reserve(static_cast<std::size_t>(threads));
  for (auto& worker : impl.workers) pool.emplace_back([context = worker.get()] { context->run(); });
  impl.ioc.run();  // accept and signals, until stopped
  for (auto& thread : pool) thread.join();
  spdlog::info("http stopped");
}

void Server::stop() {
  Impl* impl = impl_.get();
  net::post(impl->control, [impl] { impl->begin_stop(); });
}

}  // namespace longread::web
