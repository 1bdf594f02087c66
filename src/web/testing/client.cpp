#include <utility>  // before Asio (see STYLE.md)

#include "web/testing/client.h"

#include <boost/asio.hpp>
#include <boost/beast.hpp>

#include "core/strings.h"

namespace longread::web::testing {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = net::ip::tcp;

std::optional<std::string_view> ClientResponse::header(std::string_view name) const {
  for (const auto& [key, value] : headers) {
    if (iequals(key, name)) return std::string_view(value);
  }
  return std::nullopt;
}

struct Client::Impl {
  net::io_context ioc;
  beast::tcp_stream stream{ioc};
  beast::flat_buffer buffer;
  std::chrono::milliseconds timeout{10000};

  // Runs the queued asynchronous operation to completion; the stream's deadline bounds it.
  void run() {
    ioc.restart();
    ioc.run();
  }
};

Client::Client(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Client::Client(Client&&) noexcept = default;
Client& Client::operator=(Client&&) noexcept = default;
Client::~Client() = default;

namespace {

// Opens `stream`'s socket bound to `from` (port 0), so the connection comes from that address.
beast::error_code bind_from(beast::tcp_stream& stream, std::string_view from) {
  beast::error_code ec;
  const auto address = net::ip::make_address(std::string(from), ec);
  if (ec) return ec;
  stream.socket().open(address.is_v4() ? tcp::v4() : tcp::v6(), ec);
  if (!ec) stream.socket().bind(tcp::endpoint(address, 0), ec);
  return ec;
}

}  // namespace

Result<Client> Client::connect(std::uint16_t port, std::chrono::milliseconds timeout, std::string_view from) {
  auto impl = std::make_unique<Impl>();
  impl->timeout = timeout;
  beast::error_code result = bind_from(impl->stream, from);
  if (result)
    return fail(ErrorKind::kNetwork,
                "test client: cannot bind " + std::string(from) + ": " + result.message());
  impl->stream.expires_after(timeout);
  impl->stream.async_connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port),
                             [&](const beast::error_code& ec) { result = ec; });
  impl->run();
  if (result) return fail(ErrorKind::kNetwork, "test client: connect failed: " + result.message());
  return Client(std::move(impl));
}

Result<ClientResponse> Client::request(std::string_view method, std::string_view target,
                                       const Fields& headers, std::string body) {
  Impl& impl = *impl_;
  http::request<http::string_body> req{http::string_to_verb(beast::string_view(method.data(), method.size())),
                                       beast::string_view(target.data(), target.size()), 11};
  req.set(http::field::host, "127.0.0.1");
  for (const auto& [name, value] : headers) req.set(name, value);
  if (!body.empty() || method == "POST") {
    req.body() = std::move(body);
    req.prepare_payload();
  }
  beast::error_code result;
  impl.stream.expires_after(impl.timeout);
  http::async_write(impl.stream, req, [&](const beast::error_code& ec, std::size_t) { result = ec; });
  impl.run();
  if (result) return fail(ErrorKind::kNetwork, "test client: write failed: " + result.message());

  http::response_parser<http::string_body> parser;
  parser.body_limit(64u << 20);
  if (method == "HEAD") parser.skip(true);
  impl.stream.expires_after(impl.timeout);
  http::async_read(impl.stream, impl.buffer, parser,
                   [&](const beast::error_code& ec, std::size_t) { result = ec; });
  impl.run();
  if (result) return fail(ErrorKind::kNetwork, "test client: read failed: " + result.message());

  const auto& res = parser.get();
  ClientResponse out;
  out.status = static_cast<int>(res.result_int());
  for (const auto& field : res)
    out.headers.emplace_back(std::string(field.name_string()), std::string(field.value()));
  out.body = res.body();
  out.keep_alive = res.keep_alive();
  return out;
}

Result<ClientResponse> http_get(std::uint16_t port, std::string_view target, const Fields& headers) {
  auto client = Client::connect(port);
  if (!client) return std::unexpected(client.error());
  return client->request("GET", target, headers);
}

Result<std::string> raw_exchange(std::uint16_t port, std::string_view bytes,
                                 std::chrono::milliseconds timeout, std::string_view from) {
  net::io_context ioc;
  beast::tcp_stream stream(ioc);
  beast::error_code result = bind_from(stream, from);
  if (result)
    return fail(ErrorKind::kNetwork,
                "test client: cannot bind " + std::string(from) + ": " + result.message());
  stream.expires_after(timeout);
  stream.async_connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port),
                       [&](const beast::error_code& ec) { result = ec; });
  ioc.run();
  if (result) return fail(ErrorKind::kNetwork, "test client: connect failed: " + result.message());
  ioc.restart();
  net::async_write(stream, net::buffer(bytes.data(), bytes.size()),
                   [&](const beast::error_code& ec, std::size_t) { result = ec; });
  ioc.run();
  if (result) return fail(ErrorKind::kNetwork, "test client: write failed: " + result.message());
  std::string received;
  char chunk[4096];
  for (;;) {
    ioc.restart();
    std::size_t got = 0;
    stream.async_read_some(net::buffer(chunk), [&](const beast::error_code& ec, std::size_t n) {
      result = ec;
      got = n;
    });
    ioc.run();
    received.append(chunk, got);
    if (result == net::error::eof || result == net::error::connection_reset) return received;
    if (result) return fail(ErrorKind::kNetwork, "test client: read failed: " + result.message());
  }
}

}  // namespace longread::web::testing
