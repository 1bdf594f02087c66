// Beast's C++20-coroutine server shape (Beast example/http/server/awaitable, advanced_server.cpp): one
// coroutine accepts, one coroutine per connection reads a request, calls the pure handle_request, writes.
#include <utility>  // before Asio: asio/awaitable.hpp uses std::exchange without including <utility>

#include "web/server.h"

#include <spdlog/spdlog.h>
#include <sys/resource.h>
#include <sys/socket.h>

#include <array>
#include <atomic>
#include <boost/asio.hpp>
#include <boost/beast.hpp>
#include <cerrno>
#include <csignal>
#include <ctime>
#include <mutex>
#include <optional>
#include <thread>
#include <unordered_map>
#include <vector>

#include "core/strings.h"
#include "core/time.h"
#include "web/client_address.h"
#include "web/handle.h"

namespace longread::web {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = net::ip::tcp;

namespace {

constexpr std::size_t kReadBufferLimit = 64 * 1024;
// After an error answer the connection closes in stages (RFC 9112 section 9.6): the sending side first,
// then what the client still sends (the body of a request refused from its header) is read and dropped
// until it closes, for at most this long and this many bytes. Closing at once with unread data would reset
// the connection, and the client could lose the answer before reading it.
constexpr auto kLingerTime = std::chrono::seconds(2);
constexpr std::size_t kLingerBytes = 16 * 1024 * 1024;

// One accepted connection. `busy` is only read and written on the connection's strand.
struct Connection {
  Connection(tcp::socket socket, std::string peer_address, std::string counted_as)
      : stream(std::move(socket)), peer(std::move(peer_address)), client_key(std::move(counted_as)) {}
  beast::tcp_stream stream;
  bool busy = false;
  bool answered_error = false;  // closed after an error answer: the client may still be sending
  std::string peer;             // the TCP peer's address
  std::string client_key;       // what the per-client cap counts it as; "" for a trusted proxy (not counted)
};

// Lets one log line through per `interval` and counts the events in between, so a flood of the same
// failure costs one line per interval instead of one per event. Used on one strand only.
class ThrottledLog {
 public:
  explicit ThrottledLog(std::chrono::steady_clock::duration interval) : interval_(interval) {}
  // Counts one event; true when a line is due now. `count` is then the events since the last line
  // (this one included), and the count starts again.
  bool due(std::uint64_t& count) {
    ++pending_;
    const auto now = std::chrono::steady_clock::now();
    if (logged_once_ && now - last_ < interval_) return false;
    logged_once_ = true;
    last_ = now;
    count = pending_;
    pending_ = 0;
    return true;
  }

 private:
  std::chrono::steady_clock::duration interval_;
  std::chrono::steady_clock::time_point last_{};
  bool logged_once_ = false;
  std::uint64_t pending_ = 0;
};

// Out of descriptors or kernel memory: trying again at once fails the same way (accept(2)), and the
// pending connection stays in the listen backlog until a descriptor is free.
bool resource_exhausted(const beast::error_code& ec) {
  if (ec.category() != boost::system::system_category()) return false;
  const int value = ec.value();
  return value == EMFILE || value == ENFILE || value == ENOBUFS || value == ENOMEM;
}

// RFC 9112 section 6.1 and 6.3: a request's body length must be read one way only. Transfer-Encoding is
// accepted only as a single field whose value is exactly "chunked" (the only coding a server must know,
// and the one that must come last), never together with Content-Length and never in HTTP/1.0. Anything
// else ("chunked, identity", "gzip, chunked", "identity", two fields) could be framed differently by a
// proxy in front of us, which is how one request hides another (request smuggling): 400 and close.
bool framing_is_unambiguous(const http::request_parser<http::string_body>& parser) {
  const auto& header = parser.get();
  int transfer_encodings = 0;
  bool content_length = false;
  std::string_view coding;
  for (const auto& field : header) {
    if (field.name() == http::field::transfer_encoding) {
      ++transfer_encodings;
      coding = std::string_view(field.value().data(), field.value().size());
    } else if (field.name() == http::field::content_length) {
      content_length = true;
    }
  }
  if (transfer_encodings == 0) return true;
  if (transfer_encodings > 1 || content_length || header.version() < 11) return false;
  return iequals(trim(coding), "chunked");
}

// The answer to a connection over a cap, written with one non-blocking send on the fresh socket (its send
// buffer is empty, so it fits) and never waited for: refusing costs no timer, coroutine or read.
constexpr std::string_view kOverCapacity =
    "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 20\r\n"
    "Retry-After: 5\r\nConnection: close\r\n\r\nToo many connections";

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

Result<Request> to_request(const http::request<http::string_body>& breq, const std::string& peer,
                           const TrustedProxies& proxies) {
  Fields headers;
  headers.reserve(8);
  for (const auto& field : breq)
    headers.emplace_back(std::string(field.name_string()), std::string(field.value()));
  auto out = Request::from_target(std::string(breq.method_string()), std::string(breq.target()),
                                  std::move(headers), breq.body());
  if (out) out->remote_address = proxies.client_address(peer, out->headers);
  return out;
}

}  // namespace

struct Server::Impl {
  Impl(ServerOptions opts, App application, ErrorPageRenderer renderer, TrustedProxies trusted)
      : options(std::move(opts)),
        app(std::move(application)),
        error_page(std::move(renderer)),
        proxies(std::move(trusted)),
        control(net::make_strand(ioc)),
        acceptor(control),
        signals(control),
        backoff(control),
        accept_log(options.accept_log_interval),
        refusal_log(options.accept_log_interval) {}

  ServerOptions options;
  App app;
  ErrorPageRenderer error_page;
  TrustedProxies proxies;
  net::io_context ioc;  // the acceptor, signals and stop; connections live on `workers`
  net::strand<net::io_context::executor_type> control;  // acceptor, signals and stop run here
  // One io_context per serving thread, each run by exactly one thread: a connection's reads, handler and
  // writes stay on one thread with its own epoll set, instead of every thread contending for one
  // scheduler (which cost most of the CPU in context switches under wrk). Created by run().
  std::vector<std::unique_ptr<net::io_context>> workers;
  std::vector<net::executor_work_guard<net::io_context::executor_type>> worker_guards;
  // Runs the App when options.app_threads > 0 (null otherwise); joined by run() after the serving threads,
  // which wait for every answer it owes them.
  std::unique_ptr<net::thread_pool> app_pool;
  std::size_t next_worker = 0;  // only used on `control`
  tcp::acceptor acceptor;
  net::signal_set signals;
  net::steady_timer backoff;  // the accept loop's wait after running out of descriptors
  ThrottledLog accept_log;    // these two only on `control`
  ThrottledLog refusal_log;
  std::atomic<bool> stopping{false};
  std::atomic<std::size_t> uploads_in_flight{0};
  std::atomic<bool> started{false};

  std::mutex connections_mutex;
  std::unordered_map<std::uint64_t, std::shared_ptr<Connection>> connections;
  std::unordered_map<std::string, std::size_t> per_client;  // open connections by client_key
  std::uint64_t next_connection_id = 0;

  void begin_stop() {
    if (stopping.exchange(true)) return;
    spdlog::info("http stopping: closing listener and idle connections");
    beast::error_code ec;
    acceptor.close(ec);
    signals.cancel(ec);
    backoff.cancel();
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
        const bool exhausted = resource_exhausted(ec);
        std::uint64_t count = 0;
        if (accept_log.due(count)) {
          if (exhausted) {
            spdlog::warn(
                "http accept failed {} time(s): {}; waiting {} ms before each next accept (the "
                "open-file limit or site.max_connections may be too high for this machine)",
                count, ec.message(), options.accept_backoff.count());
          } else {
            spdlog::warn("http accept failed {} time(s): {}", count, ec.message());
          }
        }
        if (exhausted) {
          backoff.expires_after(options.accept_backoff);
          beast::error_code waited;
          co_await backoff.async_wait(net::redirect_error(net::use_awaitable, waited));
          if (stopping) co_return;
        }
        continue;
      }
      admit(std::move(socket));
    }
  }

  // Starts a session for `socket`, or refuses it when a cap is reached. On `control`.
  void admit(tcp::socket socket) {
    std::string peer;
    {
      beast::error_code ec;
      const auto endpoint = socket.remote_endpoint(ec);
      if (!ec) peer = endpoint.address().to_string();
    }
    // A trusted proxy carries many clients on its connections; they are told apart per request, by the
    // forwarding headers, which a connection cap cannot wait for.
    std::string key = proxies.contains(peer) ? std::string() : client_key(peer);
    std::shared_ptr<Connection> conn;
    std::uint64_t id = 0;
    const char* refused = nullptr;
    {
      std::lock_guard lock(connections_mutex);
      const auto client = key.empty() ? per_client.end() : per_client.find(key);
      if (options.max_connections > 0 && connections.size() >= options.max_connections) {
        refused = "site.max_connections";
      } else if (options.max_connections_per_client > 0 && client != per_client.end() &&
                 client->second >= options.max_connections_per_client) {
        refused = "site.max_connections_per_client";
      } else {
        conn = std::make_shared<Connection>(std::move(socket), peer, key);
        id = next_connection_id++;
        connections.emplace(id, conn);
        if (!key.empty()) ++per_client[key];
      }
    }
    if (refused != nullptr) {
      // Logged before the answer goes out, so whoever sees the 503 can also find the line.
      std::uint64_t count = 0;
      if (refusal_log.due(count)) {
        spdlog::warn("http refused {} connection(s) over {} (last from {})", count, refused,
                     key.empty() ? peer : key);
      }
      beast::error_code ignored;
      [[maybe_unused]] const auto sent = ::send(socket.native_handle(), kOverCapacity.data(),
                                                kOverCapacity.size(), MSG_DONTWAIT | MSG_NOSIGNAL);
      socket.close(ignored);
      return;
    }
    net::co_spawn(conn->stream.get_executor(), session(conn, id), net::detached);
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
    conn.answered_error = true;
    beast::error_code ec;
    conn.stream.expires_after(options.write_timeout);
    co_await http::async_write(conn.stream, res, net::redirect_error(net::use_awaitable, ec));
    if (options.on_response) options.on_response(nullptr, status, 0.0);
    if (options.access_log) {
      spdlog::info("http client={} method=- path=- status={} bytes={} duration_ms=0", conn.peer, status,
                   res.body().size());
    }
  }

  // A POST to one of ServerOptions::upload_paths, told from its header alone.
  [[nodiscard]] bool is_upload(const http::request<http::string_body>& header) const {
    if (header.method() != http::verb::post || options.upload_paths.empty()) return false;
    const std::string_view target(header.target().data(), header.target().size());
    const std::string_view path = target.substr(0, target.find('?'));
    return std::find(options.upload_paths.begin(), options.upload_paths.end(), path) !=
           options.upload_paths.end();
  }

  // Holds one of ServerOptions::max_uploads_in_flight while an upload's body is read and handled.
  class UploadSlot {
   public:
    explicit UploadSlot(std::atomic<std::size_t>& in_flight) : in_flight_(&in_flight) {}
    UploadSlot(const UploadSlot&) = delete;
    UploadSlot& operator=(const UploadSlot&) = delete;
    ~UploadSlot() { in_flight_->fetch_sub(1); }

   private:
    std::atomic<std::size_t>* in_flight_;
  };

  // 0 when the upload may go on (a slot is then held in `slot`), else the status it gets: the
  // application's admit_upload answer, or 503 over max_uploads_in_flight.
  int admit_upload(const Connection& conn, const http::request<http::string_body>& header,
                   std::optional<UploadSlot>& slot) {
    if (options.admit_upload) {
      const Result<Request> request = to_request(header, conn.peer, proxies);
      if (!request) return 400;
      if (const int status = options.admit_upload(*request); status != 0) return status;
    }
    if (options.max_uploads_in_flight > 0 &&
        uploads_in_flight.fetch_add(1) >= options.max_uploads_in_flight) {
      uploads_in_flight.fetch_sub(1);
      return 503;
    }
    if (options.max_uploads_in_flight == 0) uploads_in_flight.fetch_add(1);
    slot.emplace(uploads_in_flight);
    return 0;
  }

  // Reads and drops what the client still sends until it closes, kLingerTime passes or kLingerBytes
  // arrive, whichever is first.
  static net::awaitable<void> linger(Connection& conn) {
    std::array<char, 16 * 1024> scrap{};
    conn.stream.expires_after(kLingerTime);
    for (std::size_t dropped = 0; dropped < kLingerBytes;) {
      beast::error_code ec;
      dropped += co_await conn.stream.async_read_some(net::buffer(scrap),
                                                      net::redirect_error(net::use_awaitable, ec));
      if (ec) break;
    }
  }

  net::awaitable<void> session(std::shared_ptr<Connection> conn, std::uint64_t id) {
    beast::flat_buffer buffer(kReadBufferLimit);
    try {
      for (int served = 0;; ++served) {
        http::request_parser<http::string_body> parser;
        parser.header_limit(static_cast<std::uint32_t>(options.header_limit));
        // Content-Length is checked against the limit when the header ends, so the header is read under
        // the larger of the two limits; once it names its path, any other request is held to body_limit.
        parser.body_limit(
            std::max(options.body_limit, options.upload_paths.empty() ? 0 : options.upload_body_limit));
        beast::error_code ec;
        conn->stream.expires_after(options.read_timeout);
        // The header first: its framing is checked before a byte of the body is read.
        co_await http::async_read_header(conn->stream, buffer, parser,
                                         net::redirect_error(net::use_awaitable, ec));
        if (!ec && !framing_is_unambiguous(parser)) {
          spdlog::debug("http client={} ambiguous request framing (Transfer-Encoding)", conn->peer);
          co_await send_error_and_close(*conn, 400, 11);
          break;
        }
        std::optional<UploadSlot> upload_slot;
        if (!ec && is_upload(parser.get())) {
          // Refused from the header alone: no byte of a body the site would not take is read or held.
          if (const int refused = admit_upload(*conn, parser.get(), upload_slot); refused != 0) {
            spdlog::debug("http client={} upload refused with {}", conn->peer, refused);
            co_await send_error_and_close(*conn, refused, 11);
            break;
          }
        } else if (!ec && !parser.is_done()) {
          if (parser.content_length() && *parser.content_length() > options.body_limit) {
            co_await send_error_and_close(*conn, 413, 11);
            break;
          }
          parser.body_limit(options.body_limit);  // a chunked body counts against it as it arrives
        }
        if (!ec && !parser.is_done()) {
          co_await http::async_read(conn->stream, buffer, parser,
                                    net::redirect_error(net::use_awaitable, ec));
        }
        if (ec) {
          if (const int status = status_for_parse_error(ec); status != 0) {
            co_await send_error_and_close(*conn, status, 11);
          }
          break;
        }
        conn->busy = true;
        const auto started_at = std::chrono::steady_clock::now();
        const auto& breq = parser.get();

        const Result<Request> request = to_request(breq, conn->peer, proxies);
        Response res;
        if (request) {
          std::optional<Response> quick_answer;
          if (app_pool && options.quick) quick_answer = options.quick(*request);
          if (quick_answer) {
            const App give = [&quick_answer](const Request&) -> Result<Response> {
              return std::move(*quick_answer);
            };
            res = handle_request(give, error_page, *request);
          } else if (app_pool) {
            // Resumes on this connection's serving thread once the pool's thread has the answer; the
            // serving thread meanwhile answers its other connections.
            res = co_await net::co_spawn(
                app_pool->get_executor(),
                [this, &request]() -> net::awaitable<Response> {
                  co_return handle_request(app, error_page, *request);
                },
                net::use_awaitable);
          } else {
            res = handle_request(app, error_page, *request);
          }
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
        const auto elapsed =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started_at);
        if (options.on_response) {
          options.on_response(request ? &*request : nullptr, res.status, elapsed.count() / 1000.0);
        }
        if (options.access_log) {
          const auto method = breq.method_string();
          spdlog::info("http client={} method={} path={} status={} bytes={} duration_ms={:.3f}",
                       request ? std::string_view(request->remote_address) : std::string_view(conn->peer),
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
    if (conn->answered_error) co_await linger(*conn);
    conn->stream.close();
    std::lock_guard lock(connections_mutex);
    connections.erase(id);
    if (!conn->client_key.empty()) {
      const auto client = per_client.find(conn->client_key);
      if (client != per_client.end() && --client->second == 0) per_client.erase(client);
    }
  }
};

Server::Server(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Server::~Server() = default;

Result<std::unique_ptr<Server>> Server::create(ServerOptions options, App app, ErrorPageRenderer error_page) {
  auto endpoint = parse_listen(options.listen);
  if (!endpoint) return std::unexpected(endpoint.error());
  auto proxies = TrustedProxies::parse(options.trusted_proxies);
  if (!proxies) {
    return fail(ErrorKind::kInvalidInput, "web: site.trusted_proxies: " + proxies.error().message,
                "site.trusted_proxies: " + proxies.error().message);
  }
  auto impl =
      std::make_unique<Impl>(std::move(options), std::move(app), std::move(error_page), std::move(*proxies));
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
  if (impl.options.app_threads > 0) {
    impl.app_pool = std::make_unique<net::thread_pool>(static_cast<std::size_t>(impl.options.app_threads));
  }
  net::co_spawn(impl.control, impl.accept_loop(), net::detached);
  spdlog::info("http listening on port {}", port());

  std::vector<std::thread> pool;
  pool.reserve(static_cast<std::size_t>(threads));
  for (auto& worker : impl.workers) pool.emplace_back([context = worker.get()] { context->run(); });
  impl.ioc.run();  // accept and signals, until stopped
  for (auto& thread : pool) thread.join();
  if (impl.app_pool) impl.app_pool->join();
  spdlog::info("http stopped");
}

FileLimit raise_file_limit() {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return {};
  FileLimit out{.before = limit.rlim_cur, .now = limit.rlim_cur};
  if (limit.rlim_cur < limit.rlim_max) {
    limit.rlim_cur = limit.rlim_max;
    if (setrlimit(RLIMIT_NOFILE, &limit) == 0) out.now = limit.rlim_max;
  }
  return out;
}

std::size_t connections_within(std::uint64_t file_limit, std::size_t wanted) {
  if (file_limit == 0 || file_limit == RLIM_INFINITY) return wanted;
  const std::uint64_t reserve = std::min<std::uint64_t>(256, std::max<std::uint64_t>(64, file_limit / 4));
  const std::uint64_t room = file_limit > reserve ? file_limit - reserve : 1;
  return static_cast<std::size_t>(std::min<std::uint64_t>(wanted, std::max<std::uint64_t>(room, 1)));
}

std::size_t Server::uploads_in_flight() const {
  return impl_->uploads_in_flight.load();
}

void Server::stop() {
  Impl* impl = impl_.get();
  net::post(impl->control, [impl] { impl->begin_stop(); });
}

}  // namespace longread::web
