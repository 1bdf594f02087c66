// A real HTTP/1.1 server on 127.0.0.1 for tests (a local server instead of the network).
// It runs tests/fixture_server/fixture_server.py as a child process; read that script's docstring for every
// route. The short version:
//   /<path>                       a file under root, with ETag + Last-Modified and correct 304s
//   /last-modified-only/<path>    the file with only Last-Modified; /no-validators/<path> with neither
//   /redirect-permanent/<path>    301 to /<path>; /redirect-temp/<path> 302; /redirect/<code>/<path>
//   /redirect-to?url=<url>[&code=301]  302 (or the code given) to any URL
//   /status/<code>[?retry_after=<value>]
//   /slow/<seconds>/<path>        sleeps, then serves /<path>; /trickle/<seconds>/<path> spreads the body
//   /big/<bytes>[?length=1]       that many bytes of RSS, chunked (or with Content-Length)
//   /gzip/<path>, /deflate/<path> content-encoded; /html an article page
//   /_requests /_stats /_reset    request log (conditional headers, User-Agent, whether the client hung up
//                                 early), max concurrent requests per Host and per first path segment
// Routes compose: /redirect-permanent/slow/1/gzip/feed.xml.
//
//   #include "fixture_server/fixture_server.h"   (link longread_test_fixture_server)
//   auto server = longread::testing::FixtureServer::start(LONGREAD_SOURCE_DIR "/src/fetch/testdata");
//   ASSERT_TRUE(server) << server.error().message;
//   std::string feed_url = server->url("/feed.xml");
//   nlohmann::json log = nlohmann::json::parse(server->requests_json());
#pragma once

#include <sys/types.h>

#include <filesystem>
#include <string>
#include <string_view>

#include "core/error.h"

namespace longread::testing {

// One running fixture server; the destructor stops it (SIGTERM, then waits). The child also exits by
// itself when the test process dies, since it watches the pipe on its stdin.
class FixtureServer {
 public:
  // Serves files from `root` on `host` ("127.0.0.1", or "::1" for IPv6) at an ephemeral port.
  [[nodiscard]] static Result<FixtureServer> start(const std::filesystem::path& root,
                                                   const std::string& host = "127.0.0.1");
  // The same over HTTPS, with the self-signed certificate in tests/fixture_server/tls/ (CN "longread
  // fixture", for 127.0.0.1, ::1 and localhost): a client that verifies peers must refuse it.
  [[nodiscard]] static Result<FixtureServer> start_tls(const std::filesystem::path& root,
                                                       const std::string& host = "127.0.0.1");
  // Path of that certificate, for a test that wants to trust it (CURLOPT_CAINFO).
  [[nodiscard]] static std::string tls_certificate_path();

  ~FixtureServer();
  FixtureServer(FixtureServer&& other) noexcept;
  FixtureServer& operator=(FixtureServer&& other) noexcept;
  FixtureServer(const FixtureServer&) = delete;
  FixtureServer& operator=(const FixtureServer&) = delete;

  [[nodiscard]] int port() const noexcept { return port_; }
  // "http://127.0.0.1:PORT" ("https://" for start_tls; IPv6 hosts in brackets).
  [[nodiscard]] std::string base_url() const;
  // base_url() + path; `path` starts with '/'.
  [[nodiscard]] std::string url(std::string_view path) const;
  // The same URL with another name for this server's address ("localhost"), so tests can make
  // requests look like they go to several hosts.
  [[nodiscard]] std::string url_with_host(std::string_view host, std::string_view path) const;

  // GETs a path on the server with plain libcurl (no longread code involved) and returns the body.
  [[nodiscard]] Result<std::string> get(std::string_view path) const;
  // JSON array of the requests seen since start or reset() (see fixture_server.py for the fields).
  [[nodiscard]] std::string requests_json() const;
  // JSON object {"max_in_flight": n, "max_in_flight_by_host": {...}, "max_in_flight_by_prefix": {...}}.
  [[nodiscard]] std::string stats_json() const;
  // Clears the request log and the concurrency maxima.
  void reset() const;

 private:
  FixtureServer() = default;
  static Result<FixtureServer> spawn(const std::filesystem::path& root, const std::string& host, bool tls);
  void stop() noexcept;

  pid_t pid_ = -1;
  int stdin_fd_ = -1;  // write end of the child's stdin; closing it makes the child exit
  int port_ = 0;
  std::string host_;
  std::string scheme_ = "http";
};

}  // namespace longread::testing
