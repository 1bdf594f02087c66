// The server over real sockets on 127.0.0.1 with an ephemeral port.
#include "web/server.h"

#include <gtest/gtest.h>

#include <netinet/in.h>
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <functional>
#include <future>
#include <sstream>
#include <thread>
#include <vector>

#include "web/gzip.h"
#include "web/testing/client.h"

namespace longread::web {
namespace {

using testing::Client;
using testing::http_get;
using testing::raw_exchange;

// Polls `done` until it holds or 10 s pass (defined below).
bool eventually(const std::function<bool()>& done);

class ServerTest : public ::testing::Test {
 protected:
  static ServerOptions default_options() {
    ServerOptions options;
    options.listen = "127.0.0.1:0";
    options.threads = 2;
    options.handle_signals = false;
    options.header_limit = 4096;
    options.extra_headers = {{"X-Extra", "on every response"}};
    return options;
  }
  void SetUp() override { start(default_options()); }

  // Stops the running server and starts one with `options`.
  void restart(const ServerOptions& options) {
    TearDown();
    start(options);
  }

  void start(const ServerOptions& options) {
    App app = [this](const Request& req) -> Result<Response> {
      if (req.path == "/slow") {
        slow_entered_.set_value();
        // Holds a pool thread like a slow store call would, until the test has requested the stop.
        release_slow_.get_future().wait();
        return Response::text(200, "slow done");
      }
      if (req.path == "/big") {
        Response res = Response::text(200, std::string(5000, 'x'), "text/html; charset=utf-8");
        res.set_header("ETag", "\"big1\"");
        return res;
      }
      if (req.path == "/echo")
        return Response::text(200, req.method + " " + std::string(req.param("q").value_or("")));
      if (req.path == "/who") return Response::text(200, req.remote_address);
      if (req.path == "/body") return Response::text(200, "body=" + req.body);
      return fail(ErrorKind::kNotFound, "test: nothing at " + req.path, "Not here.");
    };
    ErrorPageRenderer error_page = [](int status, std::string_view msg) {
      return Response::text(status, "E" + std::to_string(status) + ":" + std::string(msg));
    };
    auto server = Server::create(options, app, error_page);
    ASSERT_TRUE(server.has_value()) << server.error().message;
    server_ = std::move(*server);
    port_ = server_->port();
    ASSERT_NE(port_, 0);
    runner_ = std::thread([this] { server_->run(); });
  }

  void TearDown() override {
    if (server_) server_->stop();
    if (runner_.joinable()) runner_.join();
    server_.reset();
  }

  // Stops the server while /slow is being answered: the answer still comes, with Connection: close, idle
  // connections are closed, and run() returns.
  void expect_stop_finishes_the_slow_request();

  std::unique_ptr<Server> server_;
  std::uint16_t port_ = 0;
  std::thread runner_;
  std::promise<void> slow_entered_;
  std::promise<void> release_slow_;
};

TEST_F(ServerTest, ServesAndMapsErrors) {
  auto res = http_get(port_, "/echo?q=hi+there");
  ASSERT_TRUE(res.has_value()) << res.error().message;
  EXPECT_EQ(res->status, 200);
  EXPECT_EQ(res->body, "GET hi there");
  EXPECT_EQ(res->header("server"), "longread");
  EXPECT_TRUE(res->header("date").has_value());
  EXPECT_EQ(res->header("x-extra"), "on every response");

  res = http_get(port_, "/nothing");
  ASSERT_TRUE(res.has_value());
  EXPECT_EQ(res->status, 404);
  EXPECT_EQ(res->body, "E404:Not here.");
}

TEST_F(ServerTest, KeepAliveCarriesSeveralRequests) {
  auto client = Client::connect(port_);
  ASSERT_TRUE(client.has_value());
  for (int i = 0; i < 3; ++i) {
    auto res = client->request("GET", "/echo?q=" + std::to_string(i));
    ASSERT_TRUE(res.has_value()) << res.error().message;
    EXPECT_EQ(res->body, "GET " + std::to_string(i));
    EXPECT_TRUE(res->keep_alive);
  }
}

TEST_F(ServerTest, PipelinedRequestsAnsweredInOrder) {
  auto raw = raw_exchange(port_,
                          "GET /echo?q=one HTTP/1.1\r\nHost: x\r\n\r\n"
                          "GET /echo?q=two HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
  ASSERT_TRUE(raw.has_value()) << raw.error().message;
  const auto one = raw->find("GET one");
  const auto two = raw->find("GET two");
  ASSERT_NE(one, std::string::npos) << *raw;
  ASSERT_NE(two, std::string::npos) << *raw;
  EXPECT_LT(one, two);
}

TEST_F(ServerTest, GarbageRequestGets400AndClose) {
  auto raw = raw_exchange(port_, "GARBAGE\r\n\r\n");
  ASSERT_TRUE(raw.has_value()) << raw.error().message;
  EXPECT_TRUE(raw->starts_with("HTTP/1.1 400 Bad Request\r\n")) << *raw;
  EXPECT_NE(raw->find("Connection: close"), std::string::npos) << *raw;
  EXPECT_NE(raw->find("X-Extra: on every response\r\n"), std::string::npos)
      << *raw;  // the server's own answers too

  raw = raw_exchange(port_, "GET /echo HTTP/1.1\r\nHost: x\r\nX-Big: " + std::string(8000, 'a') + "\r\n\r\n");
  ASSERT_TRUE(raw.has_value());
  EXPECT_TRUE(raw->starts_with("HTTP/1.1 431")) << raw->substr(0, 40);

  raw = raw_exchange(port_, "GET http://elsewhere/ HTTP/1.1\r\nHost: x\r\n\r\n");
  ASSERT_TRUE(raw.has_value());
  EXPECT_TRUE(raw->starts_with("HTTP/1.1 400")) << raw->substr(0, 40);

  // The server is still healthy afterwards.
  auto res = http_get(port_, "/echo");
  ASSERT_TRUE(res.has_value());
  EXPECT_EQ(res->status, 200);
}

TEST_F(ServerTest, ConditionalGetAndGzipOverTheWire) {
  auto res = http_get(port_, "/big", {{"Accept-Encoding", "gzip"}});
  ASSERT_TRUE(res.has_value());
  EXPECT_EQ(res->header("content-encoding"), "gzip");
  auto plain = gzip_decompress(res->body);
  ASSERT_TRUE(plain.has_value());
  EXPECT_EQ(*plain, std::string(5000, 'x'));
  const std::string etag(res->header("etag").value_or(""));
  EXPECT_FALSE(etag.empty());

  res = http_get(port_, "/big", {{"Accept-Encoding", "gzip"}, {"If-None-Match", etag}});
  ASSERT_TRUE(res.has_value());
  EXPECT_EQ(res->status, 304);
  EXPECT_TRUE(res->body.empty());

  auto client = Client::connect(port_);
  ASSERT_TRUE(client.has_value());
  res = client->request("HEAD", "/big");
  ASSERT_TRUE(res.has_value());
  EXPECT_EQ(res->status, 200);
  EXPECT_EQ(res->header("content-length"), "5000");
  EXPECT_TRUE(res->body.empty());
  res = client->request("GET", "/echo?q=after-head");  // the connection is still in sync
  ASSERT_TRUE(res.has_value());
  EXPECT_EQ(res->body, "GET after-head");
}

TEST_F(ServerTest, StopFinishesInFlightRequestAndClosesIdleConnections) {
  expect_stop_finishes_the_slow_request();
}

TEST_F(ServerTest, StopFinishesARequestTheAppPoolIsAnswering) {
  ServerOptions options = default_options();
  options.app_threads = 2;
  restart(options);
  expect_stop_finishes_the_slow_request();
}

// With an app pool, a request the App is slow to answer waits on a pool thread, and the one serving thread
// goes on answering other connections. Without one, the echo below would wait for the slow answer (then
// released by the watchdog after 10 s, and the check that it came first fails).
TEST_F(ServerTest, WithAnAppPoolASlowAnswerHoldsUpOnlyItsOwnConnection) {
  ServerOptions options = default_options();
  options.threads = 1;
  options.app_threads = 2;
  restart(options);
  std::atomic<bool> released{false};
  const auto release = [&] {
    if (!released.exchange(true)) release_slow_.set_value();
  };
  auto slow = std::async(std::launch::async, [this] { return http_get(port_, "/slow"); });
  slow_entered_.get_future().wait();
  std::atomic<bool> echoed{false};
  auto watchdog = std::async(std::launch::async, [&] {
    eventually([&] { return echoed.load(); });
    release();
  });
  auto echo = http_get(port_, "/echo?q=meanwhile");
  echoed = true;
  const bool slow_still_waiting = slow.wait_for(std::chrono::seconds(0)) == std::future_status::timeout;
  release();
  watchdog.get();
  ASSERT_TRUE(echo.has_value()) << echo.error().message;
  EXPECT_EQ(echo->body, "GET meanwhile");
  EXPECT_TRUE(slow_still_waiting) << "the echo was answered only after the slow request";
  auto res = slow.get();
  ASSERT_TRUE(res.has_value()) << res.error().message;
  EXPECT_EQ(res->body, "slow done");
}

// `quick` answers on the serving thread without the App; what it answers gets the same conditional GET
// and gzip as the App's answers, and what it declines goes to the App.
TEST_F(ServerTest, QuickAnswersAreServedLikeTheAppsAndTheRestGoToTheApp) {
  ServerOptions options = default_options();
  options.app_threads = 1;
  std::atomic<int> quick_asked{0};
  options.quick = [&quick_asked](const Request& req) -> std::optional<Response> {
    ++quick_asked;
    if (req.path != "/cached") return std::nullopt;
    Response res = Response::text(200, std::string(5000, 'c'), "text/html; charset=utf-8");
    res.set_header("ETag", "\"cached1\"");
    return res;
  };
  restart(options);
  auto res = http_get(port_, "/cached", {{"Accept-Encoding", "gzip"}});
  ASSERT_TRUE(res.has_value());
  EXPECT_EQ(res->status, 200);  // the App has no /cached: it would have answered 404
  EXPECT_EQ(res->header("content-encoding"), "gzip");
  EXPECT_EQ(gzip_decompress(res->body).value_or(""), std::string(5000, 'c'));
  const std::string etag(res->header("etag").value_or(""));
  res = http_get(port_, "/cached", {{"Accept-Encoding", "gzip"}, {"If-None-Match", etag}});
  ASSERT_TRUE(res.has_value());
  EXPECT_EQ(res->status, 304);
  res = http_get(port_, "/echo?q=app");
  ASSERT_TRUE(res.has_value());
  EXPECT_EQ(res->body, "GET app");
  EXPECT_EQ(quick_asked.load(), 3);
}

void ServerTest::expect_stop_finishes_the_slow_request() {
  auto idle = Client::connect(port_);
  ASSERT_TRUE(idle.has_value());
  ASSERT_TRUE(idle->request("GET", "/echo").has_value());  // now idle in keep-alive

  auto slow = std::async(std::launch::async, [this] { return http_get(port_, "/slow"); });
  slow_entered_.get_future().wait();
  server_->stop();
  // Give the stop a moment to close the listener before the handler finishes; ordering is enforced by
  // the handler waiting, not by this sleep.
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  release_slow_.set_value();

  auto res = slow.get();
  ASSERT_TRUE(res.has_value()) << res.error().message;
  EXPECT_EQ(res->status, 200);
  EXPECT_EQ(res->body, "slow done");
  EXPECT_FALSE(res->keep_alive);

  runner_.join();  // run() returned: nothing is left running
  EXPECT_FALSE(idle->request("GET", "/echo").has_value());
  EXPECT_FALSE(http_get(port_, "/echo").has_value());
}

// Polls `done` (a server-side effect of a client's close, say) until it holds or 10 s pass.
bool eventually(const std::function<bool()>& done) {
  for (const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(10);;) {
    if (done()) return true;
    if (std::chrono::steady_clock::now() >= end) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

// How many HTTP responses a raw exchange got back.
int responses_in(const std::string& raw) {
  int n = 0;
  for (auto at = raw.find("HTTP/1.1 "); at != std::string::npos; at = raw.find("HTTP/1.1 ", at + 1)) ++n;
  return n;
}

// RFC 9112 sections 6.1 and 6.3: only exactly "chunked" frames a body by Transfer-Encoding; anything else
// is answered 400 and the connection closed, so the bytes after the header (here a second request that a
// proxy in front may have taken as part of the body) are never read as a request.
TEST_F(ServerTest, TransferEncodingOtherThanExactlyChunkedIs400AndClosed) {
  const std::string hidden = "GET /echo?q=smuggled HTTP/1.1\r\nHost: x\r\n\r\n";
  const std::vector<std::string> framings = {
      "Transfer-Encoding: chunked, identity\r\n",
      "Transfer-Encoding: identity\r\n",
      "Transfer-Encoding: gzip, chunked\r\n",
      "Transfer-Encoding: gzip\r\n",
      "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n",
      "Transfer-Encoding: chunked\r\nTransfer-Encoding: identity\r\n",
      "Transfer-Encoding: chunked\r\nContent-Length: " + std::to_string(hidden.size()) + "\r\n",
      "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n",
  };
  for (const auto& framing : framings) {
    auto raw = raw_exchange(port_, "POST /body HTTP/1.1\r\nHost: x\r\n" + framing + "\r\n" + hidden);
    ASSERT_TRUE(raw.has_value()) << framing << raw.error().message;
    EXPECT_TRUE(raw->starts_with("HTTP/1.1 400 Bad Request\r\n")) << framing << *raw;
    EXPECT_NE(raw->find("Connection: close"), std::string::npos) << framing << *raw;
    EXPECT_EQ(raw->find("smuggled"), std::string::npos) << framing << *raw;
    EXPECT_EQ(responses_in(*raw), 1) << framing << *raw;
  }
  // HTTP/1.0 has no transfer codings (RFC 9112 section 6.1): faulty framing too.
  auto old =
      raw_exchange(port_, "POST /body HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n" + hidden);
  ASSERT_TRUE(old.has_value());
  EXPECT_TRUE(old->starts_with("HTTP/1.1 400")) << *old;
  EXPECT_EQ(old->find("smuggled"), std::string::npos) << *old;

  // Exactly "chunked" (any case) is read as it should be, and a pipelined request after it is answered.
  auto chunked = raw_exchange(port_,
                              "POST /body HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: Chunked\r\n\r\n"
                              "5\r\nhello\r\n0\r\n\r\n"
                              "GET /echo?q=next HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
  ASSERT_TRUE(chunked.has_value());
  EXPECT_TRUE(chunked->starts_with("HTTP/1.1 200")) << *chunked;
  EXPECT_NE(chunked->find("body=hello"), std::string::npos) << *chunked;
  EXPECT_NE(chunked->find("GET next"), std::string::npos) << *chunked;
  auto res = http_get(port_, "/echo?q=still");
  ASSERT_TRUE(res.has_value());
  EXPECT_EQ(res->body, "GET still");
}

// Per-client cap: the fourth connection from one address gets a 503 at once and is closed; another
// address is served meanwhile; once one of the first three closes, the address is served again.
TEST_F(ServerTest, ConnectionsPerClientAreCapped) {
  ServerOptions options = default_options();
  options.max_connections_per_client = 3;
  restart(options);
  std::vector<Client> held;
  for (int i = 0; i < 3; ++i) {
    auto client = Client::connect(port_);
    ASSERT_TRUE(client.has_value());
    ASSERT_TRUE(client->request("GET", "/echo").has_value());  // accepted and being served
    held.push_back(std::move(*client));
  }
  auto refused = raw_exchange(port_, "GET /echo?q=fourth HTTP/1.1\r\nHost: x\r\n\r\n");
  ASSERT_TRUE(refused.has_value()) << refused.error().message;
  EXPECT_TRUE(refused->starts_with("HTTP/1.1 503 Service Unavailable\r\n")) << *refused;
  EXPECT_NE(refused->find("Too many connections"), std::string::npos);
  EXPECT_EQ(refused->find("GET fourth"), std::string::npos);

  auto other = Client::connect(port_, std::chrono::seconds(10), "127.0.0.2");
  ASSERT_TRUE(other.has_value()) << other.error().message;
  auto res = other->request("GET", "/who");
  ASSERT_TRUE(res.has_value());
  EXPECT_EQ(res->status, 200);
  EXPECT_EQ(res->body, "127.0.0.2");

  held.pop_back();  // closes one
  EXPECT_TRUE(eventually([&] {
    auto again = http_get(port_, "/echo?q=again");
    return again && again->status == 200 && again->body == "GET again";
  }));
  for (auto& client : held) EXPECT_TRUE(client.request("GET", "/echo").has_value());
}

// Global cap: past it every new connection is refused at once, from any address; the site serves again
// once connections close.
TEST_F(ServerTest, GlobalConnectionCapRefusesAtOnceAndRecovers) {
  ServerOptions options = default_options();
  options.max_connections = 2;
  options.max_connections_per_client = 0;
  restart(options);
  std::vector<Client> held;
  for (const char* from : {"127.0.0.1", "127.0.0.2"}) {
    auto client = Client::connect(port_, std::chrono::seconds(10), from);
    ASSERT_TRUE(client.has_value());
    ASSERT_TRUE(client->request("GET", "/echo").has_value());
    held.push_back(std::move(*client));
  }
  for (const char* from : {"127.0.0.1", "127.0.0.3"}) {
    auto refused =
        raw_exchange(port_, "GET /echo HTTP/1.1\r\nHost: x\r\n\r\n", std::chrono::seconds(10), from);
    ASSERT_TRUE(refused.has_value());
    EXPECT_TRUE(refused->starts_with("HTTP/1.1 503")) << from << ": " << *refused;
  }
  held.clear();
  EXPECT_TRUE(eventually([&] {
    auto res = http_get(port_, "/echo?q=back");
    return res && res->body == "GET back";
  }));
}

// A spdlog sink that keeps the lines, to read what the access log said.
class CapturedLog {
 public:
  CapturedLog() : previous_(spdlog::default_logger()) {
    auto sink = std::make_shared<spdlog::sinks::ostream_sink_mt>(stream_);
    spdlog::set_default_logger(std::make_shared<spdlog::logger>("captured", sink));
  }
  ~CapturedLog() { spdlog::set_default_logger(previous_); }
  std::string text() {
    spdlog::default_logger()->flush();
    return stream_.str();
  }

 private:
  std::shared_ptr<spdlog::logger> previous_;
  std::ostringstream stream_;
};

// site.trusted_proxies: only a trusted peer's forwarding headers name the client (the rightmost entry
// that is not itself a trusted proxy); anyone else's are ignored, so a spoofed X-Forwarded-For buys
// nothing. The access log names the client chosen. A trusted proxy is not held to the per-client cap.
TEST_F(ServerTest, TrustedProxyNamesTheClientAndSpoofedHeadersAreIgnored) {
  CapturedLog log;
  ServerOptions options = default_options();
  options.trusted_proxies = {"127.0.0.1/32", "10.0.0.0/8"};
  options.max_connections_per_client = 2;
  options.access_log = true;
  restart(options);
  const auto who = [&](const Fields& headers, const char* from) -> std::string {
    auto client = Client::connect(port_, std::chrono::seconds(10), from);
    if (!client) return "connect failed";
    auto res = client->request("GET", "/who", headers);
    return res ? res->body : "request failed";
  };
  EXPECT_EQ(who({{"X-Forwarded-For", "203.0.113.9"}}, "127.0.0.1"), "203.0.113.9");
  EXPECT_EQ(who({{"X-Forwarded-For", "198.51.100.1, 203.0.113.9"}}, "127.0.0.1"), "203.0.113.9");
  EXPECT_EQ(who({{"X-Forwarded-For", "203.0.113.9, 10.1.2.3"}}, "127.0.0.1"), "203.0.113.9");
  EXPECT_EQ(who({{"Forwarded", "for=198.51.100.1, for=\"[2001:db8::1]:4711\";proto=https"}}, "127.0.0.1"),
            "2001:db8::1");
  EXPECT_EQ(who({}, "127.0.0.1"), "127.0.0.1");
  // Not a trusted peer: its headers say nothing.
  EXPECT_EQ(who({{"X-Forwarded-For", "203.0.113.9"}}, "127.0.0.2"), "127.0.0.2");
  EXPECT_EQ(who({{"Forwarded", "for=203.0.113.9"}}, "127.0.0.2"), "127.0.0.2");

  // The proxy carries many clients: more connections than the per-client cap, all served.
  std::vector<Client> through_proxy;
  for (int i = 0; i < 4; ++i) {
    auto client = Client::connect(port_);
    ASSERT_TRUE(client.has_value());
    auto res = client->request("GET", "/who", {{"X-Forwarded-For", "203.0.113." + std::to_string(i)}});
    ASSERT_TRUE(res.has_value());
    EXPECT_EQ(res->status, 200);
    through_proxy.push_back(std::move(*client));
  }
  // An untrusted address is capped.
  std::vector<Client> direct;
  for (int i = 0; i < 2; ++i) {
    auto client = Client::connect(port_, std::chrono::seconds(10), "127.0.0.3");
    ASSERT_TRUE(client.has_value());
    ASSERT_TRUE(client->request("GET", "/who").has_value());
    direct.push_back(std::move(*client));
  }
  auto refused =
      raw_exchange(port_, "GET /who HTTP/1.1\r\nHost: x\r\n\r\n", std::chrono::seconds(10), "127.0.0.3");
  ASSERT_TRUE(refused.has_value());
  EXPECT_TRUE(refused->starts_with("HTTP/1.1 503")) << *refused;

  const std::string lines = log.text();
  EXPECT_NE(lines.find("http client=203.0.113.9 method=GET path=/who status=200"), std::string::npos)
      << lines;
  EXPECT_NE(lines.find("http client=127.0.0.2 method=GET path=/who status=200"), std::string::npos) << lines;
  EXPECT_NE(lines.find("http refused 1 connection(s) over site.max_connections_per_client"),
            std::string::npos)
      << lines;
}

TEST(ServerCreateTest, RejectsBadListenAndBusyPort) {
  auto app = [](const Request&) -> Result<Response> { return Response::text(200, "x"); };
  auto page = [](int s, std::string_view) { return Response::text(s, ""); };
  ServerOptions options;
  options.listen = "nonsense";
  EXPECT_FALSE(Server::create(options, app, page).has_value());
  options.listen = "127.0.0.1:0";
  options.trusted_proxies = {"10.0.0.0/33"};
  auto bad_proxy = Server::create(options, app, page);
  ASSERT_FALSE(bad_proxy.has_value());
  EXPECT_NE(bad_proxy.error().message.find("site.trusted_proxies"), std::string::npos);
  options.trusted_proxies = {};
  options.listen = "127.0.0.1:99999";
  EXPECT_FALSE(Server::create(options, app, page).has_value());
  options.listen = "127.0.0.1:0";
  auto first = Server::create(options, app, page);
  ASSERT_TRUE(first.has_value());
  options.listen = "127.0.0.1:" + std::to_string((*first)->port());
  EXPECT_FALSE(Server::create(options, app, page).has_value());
}

// Bodies are bounded: body_limit everywhere, upload_body_limit only for a POST to an upload path, told
// from the header before a byte of the body is read.
TEST_F(ServerTest, UploadPathsAloneTakeLargerBodies) {
  ServerOptions options = default_options();
  options.body_limit = 1000;
  options.upload_paths = {"/body"};
  options.upload_body_limit = 5000;
  restart(options);
  auto post = [&](std::string_view target, std::size_t bytes) {
    auto client = Client::connect(port_);
    EXPECT_TRUE(client);
    auto res = client->request("POST", target, {{"Content-Type", "text/plain"}}, std::string(bytes, 'b'));
    EXPECT_TRUE(res) << target;
    return res ? res->status : 0;
  };
  EXPECT_EQ(post("/body", 4000), 200);
  EXPECT_EQ(post("/body?x=1", 4000), 200);
  EXPECT_EQ(post("/body", 6000), 413);
  EXPECT_EQ(post("/echo", 1500), 413);  // not an upload path
  EXPECT_EQ(post("/echo", 900), 200);
  // A chunked body has no length up front: it is counted as it arrives.
  auto chunked = testing::raw_exchange(port_,
                                       "POST /echo HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n"
                                       "5dc\r\n" +
                                           std::string(1500, 'c') + "\r\n0\r\n\r\n");
  ASSERT_TRUE(chunked);
  EXPECT_EQ(chunked->substr(0, 12), "HTTP/1.1 413") << *chunked;
}

// An upload the application refuses from its header (admit_upload) gets that status with no byte of its
// body read: the 403 arrives although the 4,000-byte body never comes. One it admits is read and handled.
TEST_F(ServerTest, AnUploadTheSiteRefusesGetsItsStatusBeforeItsBody) {
  ServerOptions options = default_options();
  options.upload_paths = {"/body"};
  options.upload_body_limit = 5000;
  std::atomic<int> asked{0};
  options.admit_upload = [&asked](const Request& header) {
    ++asked;
    EXPECT_TRUE(header.body.empty());
    return header.header("cookie") == "let=in" ? 0 : 403;
  };
  restart(options);
  auto refused = raw_exchange(port_, "POST /body HTTP/1.1\r\nHost: t\r\nContent-Length: 4000\r\n\r\n");
  ASSERT_TRUE(refused.has_value()) << refused.error().message;
  EXPECT_TRUE(refused->starts_with("HTTP/1.1 403")) << *refused;
  EXPECT_EQ(asked.load(), 1);

  auto client = Client::connect(port_);
  ASSERT_TRUE(client.has_value());
  auto res = client->request("POST", "/body", {{"Cookie", "let=in"}}, std::string(4000, 'u'));
  ASSERT_TRUE(res.has_value()) << res.error().message;
  EXPECT_EQ(res->status, 200);
  EXPECT_EQ(res->body, "body=" + std::string(4000, 'u'));
  // Other requests never reach the gate.
  EXPECT_EQ(http_get(port_, "/echo")->status, 200);
  EXPECT_EQ(asked.load(), 2);
}

// A connection that sends an upload's header and then part of its body, holding it open.
class HeldUpload {
 public:
  explicit HeldUpload(std::uint16_t port) : fd_(::socket(AF_INET, SOCK_STREAM, 0)) {
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(port);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    connected_ = ::connect(fd_, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) == 0;
    const std::string head =
        "POST /body HTTP/1.1\r\nHost: t\r\nContent-Length: 4000\r\n\r\n" + std::string(10, 'h');
    sent_ = connected_ &&
            ::send(fd_, head.data(), head.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(head.size());
  }
  HeldUpload(const HeldUpload&) = delete;
  HeldUpload& operator=(const HeldUpload&) = delete;
  ~HeldUpload() { ::close(fd_); }
  [[nodiscard]] bool sent() const { return sent_; }

 private:
  int fd_;
  bool connected_ = false;
  bool sent_ = false;
};

// Past max_uploads_in_flight an upload gets a 503 from its header while other requests are served; once
// the held upload's connection closes, uploads are taken again.
TEST_F(ServerTest, UploadsPastTheInFlightCapGet503) {
  ServerOptions options = default_options();
  options.upload_paths = {"/body"};
  options.upload_body_limit = 5000;
  options.max_uploads_in_flight = 1;
  restart(options);
  auto held = std::make_unique<HeldUpload>(port_);
  ASSERT_TRUE(held->sent());
  // Until the server has read the held upload's header, another upload could take the one slot first and
  // the held one would be the upload refused.
  ASSERT_TRUE(eventually([&] { return server_->uploads_in_flight() == 1; }));
  const std::string upload =
      "POST /body HTTP/1.1\r\nHost: t\r\nContent-Length: 3\r\nConnection: close\r\n\r\nabc";
  auto refused = raw_exchange(port_, upload);
  ASSERT_TRUE(refused);
  EXPECT_TRUE(refused->starts_with("HTTP/1.1 503")) << *refused;
  EXPECT_EQ(http_get(port_, "/echo?q=meanwhile")->body, "GET meanwhile");
  held.reset();
  EXPECT_TRUE(eventually([&] {
    auto taken = raw_exchange(port_, upload);
    return taken && taken->starts_with("HTTP/1.1 200") && taken->find("body=abc") != std::string::npos;
  }));
}

}  // namespace
}  // namespace longread::web
