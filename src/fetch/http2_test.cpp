// HttpClient against a real HTTP/2 server: Debian's nginx (built --with-http_v2_module), started by the test
// on 127.0.0.1 with the fixture certificate. nginx's access log records the protocol and connection serial
// number of every request, so the test sees from the server's side that the fetcher negotiated HTTP/2 by ALPN
// (RFC 9113 3.2, RFC 7301) and multiplexed its requests on at most max_per_host connections. A second nginx
// server block without http2 is the control: the same fetches there must log HTTP/1.1.
#include <arpa/inet.h>
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "fetch/http_client.h"
#include "fixture_server/fixture_server.h"
#include "smtp/smtp_server.h"
#include "testing/ports.h"

namespace longread::fetch {
namespace {

namespace fs = std::filesystem;
using ::testing::Each;
using ::testing::Field;

const std::string kNginx = "/usr/sbin/nginx";
const std::string kTestdata = LONGREAD_SOURCE_DIR "/src/fetch/testdata";

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A port nobody listens on right now (bound to 0, then released); nginx binds it a moment later.
int free_port() {
  return longread::testing::unused_loopback_port();
}

bool accepts_connections(int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return false;
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = htons(static_cast<std::uint16_t>(port));
  const bool ok = ::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0;
  ::close(fd);
  return ok;
}

// One line of the access log, in the "protocols" format of the generated configuration.
struct LogLine {
  int port = 0;
  std::string protocol;          // $server_protocol: "HTTP/2.0", "HTTP/1.1"
  std::string connection;        // $connection: serial number of the connection the request came on
  std::string request_uri;       // $request_uri, query string included
  int status = 0;                // $status
  std::string content_encoding;  // $sent_http_content_encoding, "-" when not compressed
  double end = 0;                // $msec: when the response was finished, seconds since the epoch
  double duration = 0;           // $request_time: seconds from the request's first byte to the log
};

// Readable gMock failure messages: the log line as nginx wrote it.
void PrintTo(const LogLine& line, std::ostream* out) {
  *out << std::fixed << std::setprecision(3) << line.port << ' ' << line.protocol << ' ' << line.connection
       << ' ' << line.request_uri << ' ' << line.status << ' ' << line.content_encoding << ' ' << line.end
       << ' ' << line.duration;
}

// nginx in the foreground, as the test's user (master_process off: no worker processes, no user switch),
// with every file it writes inside a temporary directory. Serves kTestdata over TLS on two ports: h2_port()
// offers HTTP/2 (ALPN "h2", http/1.1), h1_port() only HTTP/1.1.
class Nginx {
 public:
  Nginx() : dir_(fs::temp_directory_path() / fmt::format("longread-http2-test-{}", ::getpid())) {
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    // A port taken between free_port() and nginx's bind makes nginx exit: try again with new ports.
    for (int attempt = 0; attempt < 5 && !running_; ++attempt) start();
  }
  ~Nginx() {
    if (child_) child_->kill_now(SIGKILL);
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  Nginx(const Nginx&) = delete;
  Nginx& operator=(const Nginx&) = delete;

  [[nodiscard]] bool running() const { return running_; }
  [[nodiscard]] int h2_port() const { return h2_port_; }
  [[nodiscard]] int h1_port() const { return h1_port_; }
  [[nodiscard]] std::string error_log() const {
    return read_file(dir_ / "error.log") + read_file(dir_ / "out");
  }

  // Stops nginx gracefully (SIGQUIT finishes open requests and closes the logs), then parses the access log.
  [[nodiscard]] std::vector<LogLine> stop_and_read_log() {
    if (child_) {
      child_->send_signal(SIGQUIT);
      if (!child_->wait_exit_for(std::chrono::seconds(30))) child_->kill_now(SIGKILL);
      child_.reset();
    }
    std::vector<LogLine> lines;
    std::istringstream in(read_file(dir_ / "access.log"));
    for (std::string text; std::getline(in, text);) {
      std::istringstream fields(text);
      LogLine line;
      fields >> line.port >> line.protocol >> line.connection >> line.request_uri >> line.status >>
          line.content_encoding >> line.end >> line.duration;
      lines.push_back(line);
    }
    return lines;
  }

 private:
  void start() {
    h2_port_ = free_port();
    h1_port_ = free_port();
    const std::string d = dir_.string();
    const std::string cert = testing::FixtureServer::tls_certificate_path();
    const std::string key = fs::path(cert).replace_filename("key.pem").string();
    std::ofstream(dir_ / "nginx.conf") << fmt::format(
        R"(daemon off;
master_process off;
pid {d}/nginx.pid;
error_log {d}/error.log info;
events {{ worker_connections 64; }}
http {{
  types {{ application/rss+xml xml; application/atom+xml atom; }}
  default_type application/octet-stream;
  client_body_temp_path {d}/client_body;
  proxy_temp_path {d}/proxy;
  fastcgi_temp_path {d}/fastcgi;
  uwsgi_temp_path {d}/uwsgi;
  scgi_temp_path {d}/scgi;
  log_format protocols '$server_port $server_protocol $connection $request_uri $status $sent_http_content_encoding $msec $request_time';
  access_log {d}/access.log protocols;
  gzip on;
  gzip_min_length 0;
  gzip_types application/rss+xml application/atom+xml;
  ssl_certificate {cert};
  ssl_certificate_key {key};
  server {{
    listen 127.0.0.1:{h2} ssl http2;
    root {root};
    # The same files sent at 256 bytes/s (each takes about 2 s), so requests are sure to overlap in time.
    location /slow/ {{ alias {root}/; limit_rate 256; }}
  }}
  server {{ listen 127.0.0.1:{h1} ssl; root {root}; }}
}}
)",
        fmt::arg("d", d), fmt::arg("cert", cert), fmt::arg("key", key), fmt::arg("h2", h2_port_),
        fmt::arg("h1", h1_port_), fmt::arg("root", kTestdata));
    // -e: the error log before the configuration is read (else nginx tries /var/log/nginx/error.log);
    // -p: the prefix for any relative path.
    child_ = std::make_unique<testing::Child>(
        std::vector<std::string>{kNginx, "-p", d + "/", "-e", d + "/error.log", "-c", d + "/nginx.conf"},
        testing::Child::Options{.environment = {}, .output = dir_ / "out"});
    // Generous: nginx starts in milliseconds, but a loaded CI machine under sanitizers may be slow.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (std::chrono::steady_clock::now() < deadline) {
      if (child_->wait_exit_for(std::chrono::milliseconds(0))) break;  // exited: bad config or port taken
      if (accepts_connections(h2_port_) && accepts_connections(h1_port_)) {
        running_ = true;
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    child_->kill_now(SIGKILL);
    child_.reset();
  }

  fs::path dir_;
  std::unique_ptr<testing::Child> child_;
  int h2_port_ = 0;
  int h1_port_ = 0;
  bool running_ = false;
};

// The file request `tag` asks for: feed.xml and feed.atom in turn.
std::string file_for(std::uint64_t tag) {
  return tag % 2 == 0 ? "feed.xml" : "feed.atom";
}

// "/feed.xml?n=0" ... "/feed.atom?n=5": six distinct requests, three per file, told apart by the query.
std::string request_uri(std::uint64_t tag) {
  return fmt::format("/{}?n={}", file_for(tag), tag);
}

std::vector<Request> six_requests(int port) {
  std::vector<Request> requests;
  for (std::uint64_t i = 0; i < 6; ++i) {
    requests.push_back({.url = fmt::format("https://127.0.0.1:{}{}", port, request_uri(i)), .tag = i});
  }
  return requests;
}

// Fetches the requests through `client` at once and checks each body is the file's exact bytes.
void fetch_and_check(HttpClient& client, std::vector<Request> requests) {
  std::map<std::uint64_t, Response> responses;
  client.fetch_all(requests, [&](Response r) { responses.emplace(r.tag, std::move(r)); });
  ASSERT_EQ(responses.size(), requests.size());
  for (const auto& request : requests) {
    const Response& r = responses.at(request.tag);
    ASSERT_TRUE(r.ok()) << request.url << ": " << (r.error ? r.error->message : std::to_string(r.status));
    EXPECT_EQ(r.body, read_file(fs::path(kTestdata) / file_for(request.tag))) << request.url;
  }
}

std::vector<LogLine> lines_for_port(const std::vector<LogLine>& lines, int port) {
  std::vector<LogLine> out;
  for (const auto& line : lines) {
    if (line.port == port) out.push_back(line);
  }
  return out;
}

std::set<std::string> request_uris(const std::vector<LogLine>& lines) {
  std::set<std::string> out;
  for (const auto& line : lines) out.insert(line.request_uri);
  return out;
}

std::set<std::string> connections(const std::vector<LogLine>& lines) {
  std::set<std::string> out;
  for (const auto& line : lines) out.insert(line.connection);
  return out;
}

TEST(HttpClientHttp2, NginxServesEveryRequestOverHttp2OnAtMostTwoConnections) {
  if (!fs::exists(kNginx)) GTEST_SKIP() << "skipped: nginx not installed";
  Nginx nginx;
  ASSERT_TRUE(nginx.running()) << "nginx did not start:\n" << nginx.error_log();

  ClientOptions options;
  options.ca_file = testing::FixtureServer::tls_certificate_path();
  // nginx on loopback stands for a public server: the outbound policy allows exactly that address.
  options.address_policy.allow_networks.push_back(*IpNetwork::parse("127.0.0.1/32"));
  ASSERT_EQ(options.max_per_host, 2);
  HttpClient client(options);
  fetch_and_check(client, six_requests(nginx.h2_port()));
  // The control: the same client and requests against the server block that does not offer h2.
  fetch_and_check(client, six_requests(nginx.h1_port()));

  const std::vector<LogLine> log = nginx.stop_and_read_log();
  const std::vector<LogLine> h2 = lines_for_port(log, nginx.h2_port());
  const std::vector<LogLine> h1 = lines_for_port(log, nginx.h1_port());
  ASSERT_EQ(log.size(), 12U) << nginx.error_log();
  ASSERT_EQ(h2.size(), 6U);
  ASSERT_EQ(h1.size(), 6U);
  std::set<std::string> expected_uris;
  for (std::uint64_t i = 0; i < 6; ++i) expected_uris.insert(request_uri(i));
  EXPECT_EQ(request_uris(h2), expected_uris);
  EXPECT_EQ(request_uris(h1), expected_uris);

  EXPECT_THAT(h2, Each(Field(&LogLine::protocol, "HTTP/2.0")));
  EXPECT_THAT(h1, Each(Field(&LogLine::protocol, "HTTP/1.1")));
  EXPECT_THAT(log, Each(Field(&LogLine::status, 200)));
  // nginx compressed every response, so the exact bytes above went through the client's gzip decoding.
  EXPECT_THAT(log, Each(Field(&LogLine::content_encoding, "gzip")));
  // Multiplexing plus the per-host cap: the six HTTP/2 requests shared at most max_per_host connections.
  // (The HTTP/1.1 control also stays within 2, by connection reuse; what tells them apart is the protocol.)
  const auto h2_connections = connections(h2);
  EXPECT_LE(h2_connections.size(), 2U);
  EXPECT_LE(connections(h1).size(), 2U);
  std::cout << "HTTP/2: 6 requests on " << h2_connections.size() << " connection(s); HTTP/1.1 control: 6 on "
            << connections(h1).size() << "\n";
}

// Multiplexing itself: two responses that each take seconds (nginx's limit_rate) were in flight at the same
// time on one connection, which HTTP/1.1 cannot do (RFC 9113 5: concurrent streams on one connection).
TEST(HttpClientHttp2, TwoSlowResponsesAreInFlightTogetherOnOneConnection) {
  if (!fs::exists(kNginx)) GTEST_SKIP() << "skipped: nginx not installed";
  Nginx nginx;
  ASSERT_TRUE(nginx.running()) << "nginx did not start:\n" << nginx.error_log();

  ClientOptions options;
  options.ca_file = testing::FixtureServer::tls_certificate_path();
  // nginx on loopback stands for a public server: the outbound policy allows exactly that address.
  options.address_policy.allow_networks.push_back(*IpNetwork::parse("127.0.0.1/32"));
  HttpClient client(options);
  std::vector<Request> requests;
  for (std::uint64_t i = 0; i < 2; ++i) {
    requests.push_back(
        {.url = fmt::format("https://127.0.0.1:{}/slow{}", nginx.h2_port(), request_uri(i)), .tag = i});
  }
  fetch_and_check(client, requests);

  const std::vector<LogLine> log = nginx.stop_and_read_log();
  ASSERT_EQ(log.size(), 2U) << nginx.error_log();
  EXPECT_THAT(log, Each(Field(&LogLine::protocol, "HTTP/2.0")));
  EXPECT_EQ(log[0].connection, log[1].connection);
  // Each request's interval [end - duration, end] as nginx measured it; they overlap when neither ended
  // before the other began.
  const double start0 = log[0].end - log[0].duration;
  const double start1 = log[1].end - log[1].duration;
  EXPECT_LT(start0, log[1].end) << ::testing::PrintToString(log);
  EXPECT_LT(start1, log[0].end) << ::testing::PrintToString(log);
  std::cout << "slow responses: " << ::testing::PrintToString(log) << "\n";
}

}  // namespace
}  // namespace longread::fetch
