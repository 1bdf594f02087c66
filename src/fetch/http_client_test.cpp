// HttpClient over real sockets against the fixture server (tests/fixture_server), and over file:// URLs.
#include "fetch/http_client.h"

#include <arpa/inet.h>
#include <curl/curl.h>
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <thread>

#include "fixture_server/fixture_server.h"

namespace longread::fetch {
namespace {

using ::testing::HasSubstr;
using testing_server = longread::testing::FixtureServer;

const std::string kTestdata = LONGREAD_SOURCE_DIR "/src/fetch/testdata";

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string url_encode(const std::string& text) {
  char* encoded = curl_easy_escape(nullptr, text.c_str(), static_cast<int>(text.size()));
  std::string out(encoded);
  curl_free(encoded);
  return out;
}

// The fixture servers stand for the public internet; the outbound policy refuses loopback by default, so
// every test here opts in to exactly the fixture addresses (127.0.0.1 and, for the IPv6 server, ::1).
ClientOptions fixture_options() {
  ClientOptions options;
  for (const char* allowed : {"127.0.0.1/32", "::1/128"}) {
    auto network = IpNetwork::parse(allowed);
    if (network) options.address_policy.allow_networks.push_back(*network);
  }
  return options;
}

// The log entries for paths that start with `path`.
std::vector<nlohmann::json> requests_for(const testing_server& server, const std::string& path) {
  std::vector<nlohmann::json> out;
  for (auto& entry : nlohmann::json::parse(server.requests_json())) {
    if (entry["path"].get<std::string>().rfind(path, 0) == 0) out.push_back(entry);
  }
  return out;
}

class HttpClientTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto started = testing_server::start(kTestdata);
    ASSERT_TRUE(started) << started.error().message;
    server_.emplace(std::move(*started));
  }
  const testing_server& server() const { return *server_; }
  std::string url(std::string_view path) const { return server_->url(path); }

  std::optional<testing_server> server_;
};

TEST_F(HttpClientTest, OkResponseCarriesBodyTypeAndValidators) {
  HttpClient client(fixture_options());
  const Response r = client.fetch({.url = url("/feed.xml"), .tag = 7});
  ASSERT_TRUE(r.ok()) << (r.error ? r.error->message : "");
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.tag, 7u);
  EXPECT_EQ(r.url, url("/feed.xml"));
  EXPECT_EQ(r.final_url, url("/feed.xml"));
  EXPECT_EQ(r.body, read_file(kTestdata + "/feed.xml"));
  EXPECT_EQ(r.content_type, "application/xml");
  EXPECT_THAT(r.etag, ::testing::StartsWith("\""));
  EXPECT_THAT(r.last_modified, HasSubstr("GMT"));
  EXPECT_FALSE(r.permanent_redirect);
  EXPECT_FALSE(r.retry_at);
  EXPECT_FALSE(r.not_modified());
}

// Content-Language (RFC 9110 section 8.5) is handed to the feed parser, which takes it as the feed's
// language when the document declares none; absent, it is empty.
TEST_F(HttpClientTest, ContentLanguageIsReported) {
  HttpClient client(fixture_options());
  const Response r = client.fetch({.url = url("/feed.xml?header=" + url_encode("Content-Language: de-CH"))});
  ASSERT_TRUE(r.ok()) << (r.error ? r.error->message : "");
  EXPECT_EQ(r.content_language, "de-CH");
  EXPECT_EQ(client.fetch({.url = url("/feed.xml")}).content_language, "");
}

TEST_F(HttpClientTest, StoredEtagGives304AndSendsIfNoneMatch) {
  HttpClient client(fixture_options());
  const Response first = client.fetch({.url = url("/feed.xml")});
  ASSERT_TRUE(first.ok());
  ASSERT_FALSE(first.etag.empty());

  const Response second = client.fetch({.url = url("/feed.xml"), .etag = first.etag});
  EXPECT_TRUE(second.not_modified());
  EXPECT_FALSE(second.ok());
  EXPECT_FALSE(second.error);
  EXPECT_EQ(second.status, 304);
  EXPECT_TRUE(second.body.empty());
  EXPECT_EQ(second.etag, first.etag);  // the validator to keep storing

  const auto seen = requests_for(server(), "/feed.xml");
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_TRUE(seen[0]["if_none_match"].is_null());
  EXPECT_EQ(seen[1]["if_none_match"], first.etag);
}

// Freshness from the server's own headers, on the 200 and on the 304 that repeats them (RFC 9110 15.4.5).
TEST_F(HttpClientTest, CacheControlMaxAgeGivesFreshFor) {
  HttpClient client(fixture_options());
  const std::string path = "/feed.xml?header=" + url_encode("Cache-Control: public, max-age=7200");
  const Response first = client.fetch({.url = url(path)});
  ASSERT_TRUE(first.ok()) << (first.error ? first.error->message : "");
  EXPECT_EQ(first.fresh_for, std::chrono::hours{2});
  const Response second = client.fetch({.url = url(path), .etag = first.etag});
  ASSERT_TRUE(second.not_modified());
  EXPECT_EQ(second.fresh_for, std::chrono::hours{2});
  // Without the header, and with one that forbids reuse: no hint.
  EXPECT_EQ(client.fetch({.url = url("/feed.xml")}).fresh_for, std::nullopt);
  const std::string no_cache = "/feed.xml?header=" + url_encode("Cache-Control: no-cache, max-age=7200");
  EXPECT_EQ(client.fetch({.url = url(no_cache)}).fresh_for, std::nullopt);
}

TEST_F(HttpClientTest, ExpiresGivesFreshForAgainstTheResponseDate) {
  HttpClient client(fixture_options());
  // The fixture server's Date is its clock's now, taken a moment after ours: the lifetime is three hours
  // less that moment (whole seconds).
  const auto expires = format_http_date(now_seconds() + std::chrono::hours{3});
  const Response r = client.fetch({.url = url("/feed.xml?header=" + url_encode("Expires: " + expires))});
  ASSERT_TRUE(r.ok());
  ASSERT_TRUE(r.fresh_for);
  EXPECT_LE(*r.fresh_for, std::chrono::hours{3});
  EXPECT_GE(*r.fresh_for, std::chrono::hours{3} - std::chrono::seconds{30});
  const auto past = format_http_date(now_seconds() - std::chrono::hours{1});
  EXPECT_EQ(client.fetch({.url = url("/feed.xml?header=" + url_encode("Expires: " + past))}).fresh_for,
            std::nullopt);
}

TEST_F(HttpClientTest, StaleEtagGivesFull200) {
  HttpClient client(fixture_options());
  const Response r = client.fetch({.url = url("/feed.xml"), .etag = "\"an-old-version\""});
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(r.body, read_file(kTestdata + "/feed.xml"));
}

TEST_F(HttpClientTest, StoredLastModifiedGives304AndSendsIfModifiedSince) {
  HttpClient client(fixture_options());
  const Response first = client.fetch({.url = url("/last-modified-only/feed.xml")});
  ASSERT_TRUE(first.ok());
  EXPECT_TRUE(first.etag.empty());
  ASSERT_FALSE(first.last_modified.empty());

  const Response second =
      client.fetch({.url = url("/last-modified-only/feed.xml"), .last_modified = first.last_modified});
  EXPECT_TRUE(second.not_modified());
  EXPECT_EQ(second.last_modified, first.last_modified);

  const auto seen = requests_for(server(), "/last-modified-only/");
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[1]["if_modified_since"], first.last_modified);
  EXPECT_TRUE(seen[1]["if_none_match"].is_null());
}

TEST_F(HttpClientTest, UserAgentNamesLongread) {
  HttpClient client(fixture_options());
  ASSERT_TRUE(client.fetch({.url = url("/feed.xml")}).ok());
  const auto seen = requests_for(server(), "/feed.xml");
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_THAT(seen[0]["user_agent"].get<std::string>(), HasSubstr("longread"));
  EXPECT_EQ(seen[0]["user_agent"], ClientOptions{}.user_agent);
}

TEST_F(HttpClientTest, PermanentRedirectIsReported) {
  HttpClient client(fixture_options());
  const Response r = client.fetch({.url = url("/redirect-permanent/feed.xml")});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.url, url("/redirect-permanent/feed.xml"));
  EXPECT_EQ(r.final_url, url("/feed.xml"));
  ASSERT_TRUE(r.permanent_redirect);
  EXPECT_EQ(*r.permanent_redirect, url("/feed.xml"));
  EXPECT_EQ(r.body, read_file(kTestdata + "/feed.xml"));
}

TEST_F(HttpClientTest, ChainOf301And308IsPermanent) {
  HttpClient client(fixture_options());
  const Response r = client.fetch({.url = url("/redirect/308/redirect-permanent/feed.xml")});
  ASSERT_TRUE(r.ok());
  ASSERT_TRUE(r.permanent_redirect);
  EXPECT_EQ(*r.permanent_redirect, url("/feed.xml"));
}

TEST_F(HttpClientTest, TemporaryRedirectIsFollowedButNotReported) {
  HttpClient client(fixture_options());
  const Response r = client.fetch({.url = url("/redirect-temp/feed.xml")});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.final_url, url("/feed.xml"));
  EXPECT_FALSE(r.permanent_redirect);
}

TEST_F(HttpClientTest, PermanentThenTemporaryIsNotPermanent) {
  HttpClient client(fixture_options());
  const Response r = client.fetch({.url = url("/redirect-permanent/redirect-temp/feed.xml")});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.final_url, url("/feed.xml"));
  EXPECT_FALSE(r.permanent_redirect);
}

TEST_F(HttpClientTest, FiveRedirectsAreFollowedSixAreTooMany) {
  HttpClient client(fixture_options());
  std::string five;
  for (int i = 0; i < 5; ++i) five += "/redirect-temp";
  EXPECT_TRUE(client.fetch({.url = url(five + "/feed.xml")}).ok());

  const Response r = client.fetch({.url = url(five + "/redirect-temp/feed.xml")});
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->kind, ErrorKind::kHttpStatus);
  EXPECT_EQ(r.error->message, "fetch: too many redirects (more than 5)");
  EXPECT_FALSE(r.ok());
}

TEST_F(HttpClientTest, RedirectToFileUrlIsRefused) {
  HttpClient client(fixture_options());
  const Response r =
      client.fetch({.url = url("/redirect-to?url=" + url_encode("file://" + kTestdata + "/feed.xml"))});
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->kind, ErrorKind::kForbidden);
  EXPECT_THAT(r.error->message, ::testing::StartsWith("fetch: refused: redirect to file://"));
  EXPECT_THAT(r.error->message, HasSubstr("(only http and https are followed)"));
  EXPECT_TRUE(HttpClient::is_refused(*r.error));
  EXPECT_TRUE(r.body.empty());
  EXPECT_FALSE(r.permanent_redirect);
}

TEST_F(HttpClientTest, RetryAfterSecondsOn429) {
  HttpClient client(fixture_options());
  const TimePoint before = now_seconds();
  const Response r = client.fetch({.url = url("/status/429?retry_after=120")});
  const TimePoint after = now_seconds();
  EXPECT_EQ(r.status, 429);
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->kind, ErrorKind::kHttpStatus);
  EXPECT_EQ(r.error->message, "fetch: HTTP 429");
  ASSERT_TRUE(r.retry_at);
  EXPECT_GE(*r.retry_at, before + std::chrono::seconds{120});
  EXPECT_LE(*r.retry_at, after + std::chrono::seconds{120});
}

TEST_F(HttpClientTest, RetryAfterHttpDateOn503) {
  HttpClient client(fixture_options());
  const TimePoint when = now_seconds() + std::chrono::hours{2};
  const Response r =
      client.fetch({.url = url("/status/503?retry_after=" + url_encode(format_http_date(when)))});
  EXPECT_EQ(r.status, 503);
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->message, "fetch: HTTP 503");
  ASSERT_TRUE(r.retry_at);
  EXPECT_EQ(*r.retry_at, when);
}

TEST_F(HttpClientTest, RetryAfterIsOnlyReadOn429And503) {
  HttpClient client(fixture_options());
  const Response r = client.fetch({.url = url("/status/500?retry_after=120")});
  EXPECT_EQ(r.status, 500);
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->message, "fetch: HTTP 500");
  EXPECT_FALSE(r.retry_at);
}

TEST_F(HttpClientTest, NotFoundIsHttpStatusError) {
  HttpClient client(fixture_options());
  const Response r = client.fetch({.url = url("/no-such-feed.xml")});
  EXPECT_EQ(r.status, 404);
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->kind, ErrorKind::kHttpStatus);
  EXPECT_EQ(r.error->message, "fetch: HTTP 404");
  EXPECT_FALSE(r.ok());
  EXPECT_FALSE(r.not_modified());
}

TEST_F(HttpClientTest, SlowServerHitsTotalTimeout) {
  ClientOptions options = fixture_options();
  options.total_timeout = std::chrono::seconds{1};
  HttpClient client(options);
  const Response r = client.fetch({.url = url("/slow/10/feed.xml")});
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->kind, ErrorKind::kTimeout);
  EXPECT_EQ(r.error->message, "fetch: timed out after 1 s");
  EXPECT_EQ(r.status, 0);
}

TEST_F(HttpClientTest, TricklingBodyHitsTotalTimeout) {
  ClientOptions options = fixture_options();
  options.total_timeout = std::chrono::seconds{1};
  HttpClient client(options);
  const Response r = client.fetch({.url = url("/trickle/10/feed.xml")});
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->kind, ErrorKind::kTimeout);
  EXPECT_EQ(r.error->message, "fetch: timed out after 1 s");
}

// Waits (bounded, not a threshold under test) until the server has finished handling `path`.
nlohmann::json finished_entry(const testing_server& server, const std::string& path) {
  for (int i = 0; i < 300; ++i) {
    auto seen = requests_for(server, path);
    if (!seen.empty() && seen.back()["finished"].get<bool>()) return seen.back();
    std::this_thread::sleep_for(std::chrono::milliseconds{100});
  }
  return {};
}

TEST_F(HttpClientTest, OversizedStreamedBodyIsCutOffEarly) {
  ClientOptions options = fixture_options();
  options.max_body_bytes = 64 * 1024;
  HttpClient client(options);
  const std::string path = "/big/200000000";  // 200 MB, chunked: no length to refuse up front
  const Response r = client.fetch({.url = url(path)});
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->kind, ErrorKind::kTooLarge);
  EXPECT_EQ(r.error->message, "fetch: body over 64 KiB");
  EXPECT_TRUE(r.body.empty());
  const auto entry = finished_entry(server(), path);
  ASSERT_FALSE(entry.is_null());
  EXPECT_FALSE(entry["completed"].get<bool>());  // the server saw us hang up
  EXPECT_LT(entry["bytes_sent"].get<std::int64_t>(), 200000000);
}

TEST_F(HttpClientTest, OversizedDeclaredBodyIsRefused) {
  ClientOptions options = fixture_options();
  options.max_body_bytes = 1000;
  HttpClient client(options);
  const std::string path = "/big/200000000?length=1";
  const Response r = client.fetch({.url = url(path)});
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->kind, ErrorKind::kTooLarge);
  EXPECT_EQ(r.error->message, "fetch: body over 1000 bytes");
  const auto entry = finished_entry(server(), "/big/");
  ASSERT_FALSE(entry.is_null());
  EXPECT_FALSE(entry["completed"].get<bool>());
}

TEST_F(HttpClientTest, BodyAtTheCapIsAccepted) {
  ClientOptions options = fixture_options();
  options.max_body_bytes = 100000;
  HttpClient client(options);
  const Response r = client.fetch({.url = url("/big/100000")});
  ASSERT_TRUE(r.ok()) << r.error->message;
  EXPECT_EQ(r.body.size(), 100000u);
  EXPECT_TRUE(r.body.ends_with("</rss>\n"));
}

TEST_F(HttpClientTest, GzipAndDeflateAreDecoded) {
  HttpClient client(fixture_options());
  const std::string expected = read_file(kTestdata + "/feed.xml");
  for (const char* path : {"/gzip/feed.xml", "/deflate/feed.xml"}) {
    const Response r = client.fetch({.url = url(path)});
    ASSERT_TRUE(r.ok()) << path;
    EXPECT_EQ(r.body, expected) << path;
  }
  const auto seen = requests_for(server(), "/gzip/");
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_THAT(seen[0]["accept_encoding"].get<std::string>(), HasSubstr("gzip"));
  EXPECT_THAT(seen[0]["accept_encoding"].get<std::string>(), HasSubstr("br"));
}

TEST_F(HttpClientTest, ArticlePagesUseTheSameClient) {
  HttpClient client(fixture_options());
  const Response r = client.fetch({.url = url("/gzip/html")});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.content_type, "text/html; charset=utf-8");
  EXPECT_THAT(r.body, HasSubstr("<article>"));
}

TEST(HttpClientTls, UntrustedCertificateIsTlsError) {
  auto server = testing_server::start_tls(kTestdata);
  ASSERT_TRUE(server) << server.error().message;
  HttpClient client(fixture_options());
  const Response r = client.fetch({.url = server->url("/feed.xml")});
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->kind, ErrorKind::kNetwork);
  EXPECT_THAT(r.error->message, ::testing::StartsWith("fetch: TLS error: "));
  EXPECT_THAT(r.error->message, HasSubstr("certificate"));
  EXPECT_EQ(r.error->user_message, "The site's secure connection (TLS) failed.");
}

TEST(HttpClientTls, TrustedCertificateWorks) {
  auto server = testing_server::start_tls(kTestdata);
  ASSERT_TRUE(server) << server.error().message;
  ClientOptions options = fixture_options();
  options.ca_file = testing_server::tls_certificate_path();
  HttpClient client(options);
  const Response r = client.fetch({.url = server->url("/redirect-permanent/gzip/feed.xml")});
  ASSERT_TRUE(r.ok()) << r.error->message;
  EXPECT_EQ(r.body, read_file(kTestdata + "/feed.xml"));
  EXPECT_EQ(r.permanent_redirect, server->url("/gzip/feed.xml"));
  EXPECT_THAT(server->requests_json(), HasSubstr("/gzip/feed.xml"));
}

TEST(HttpClientNoServer, ConnectionRefusedIsNetworkError) {
  // A bound socket that does not listen: the kernel answers a SYN with RST, i.e. "connection refused".
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(fd, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  socklen_t length = sizeof address;
  ASSERT_EQ(::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length), 0);
  const int port = ntohs(address.sin_port);

  HttpClient client(fixture_options());
  const Response r = client.fetch({.url = "http://127.0.0.1:" + std::to_string(port) + "/feed.xml"});
  ::close(fd);
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->kind, ErrorKind::kNetwork);
  EXPECT_THAT(r.error->message, ::testing::StartsWith("fetch: could not connect: "));
  EXPECT_EQ(r.error->message,
            fmt::format("fetch: could not connect: 127.0.0.1 port {}: Connection refused", port));
  EXPECT_EQ(r.status, 0);
}

TEST(HttpClientNoServer, UnknownHostIsNetworkError) {
  HttpClient client(fixture_options());
  const Response r = client.fetch({.url = "http://no-such-host.invalid/feed.xml"});  // RFC 6761 6.4
  ASSERT_TRUE(r.error);
  if (r.error->kind == ErrorKind::kTimeout) GTEST_SKIP() << "skipped: the resolver here does not answer";
  EXPECT_EQ(r.error->kind, ErrorKind::kNetwork);
  EXPECT_EQ(r.error->message, "fetch: could not resolve host no-such-host.invalid");
}

TEST(HttpClientNoServer, FileUrlsWork) {
  HttpClient client(fixture_options());
  const Response r =
      client.fetch({.url = "file://" + kTestdata + "/feed.atom", .tag = 3, .from_operator = true});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.tag, 3u);
  EXPECT_EQ(r.body, read_file(kTestdata + "/feed.atom"));
  EXPECT_THAT(r.last_modified, HasSubstr("GMT"));
}

TEST(HttpClientNoServer, MissingFileIsClearError) {
  HttpClient client(fixture_options());
  const Response r =
      client.fetch({.url = "file://" + kTestdata + "/no-such-file.xml", .from_operator = true});
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->kind, ErrorKind::kNotFound);
  EXPECT_THAT(r.error->message, ::testing::StartsWith("fetch: cannot read file: "));
  EXPECT_THAT(r.error->message, HasSubstr("no-such-file.xml"));
}

TEST(HttpClientNoServer, OtherSchemesAndJunkAreInvalidInput) {
  HttpClient client(fixture_options());
  for (const char* bad : {"ftp://example.com/feed.xml", "not a url", "gopher://example.com/", ""}) {
    const Response r = client.fetch({.url = bad});
    ASSERT_TRUE(r.error) << bad;
    EXPECT_EQ(r.error->kind, ErrorKind::kInvalidInput) << bad;
    EXPECT_THAT(r.error->message, ::testing::StartsWith("fetch: ")) << bad;
  }
}

TEST(HttpClientNoServer, EmptyBatchCallsNothing) {
  HttpClient client(fixture_options());
  int calls = 0;
  client.fetch_all({}, [&](Response) { ++calls; });
  EXPECT_EQ(calls, 0);
}

TEST(HttpClientMany, FiftyRequestsOverThreeHostsAllComeBackTagged) {
  auto v4 = testing_server::start(kTestdata);
  ASSERT_TRUE(v4) << v4.error().message;
  auto v6 = testing_server::start(kTestdata, "::1");
  if (!v6) GTEST_SKIP() << "skipped: no IPv6 loopback: " << v6.error().message;
  // Three host:port keys: 127.0.0.1:A, localhost:A and [::1]:B.
  std::vector<Request> requests;
  const std::vector<std::string> paths = {"/feed.xml", "/feed.atom", "/gzip/feed.xml",
                                          "/redirect-temp/feed.xml"};
  for (std::uint64_t i = 0; i < 50; ++i) {
    const std::string& path = paths[i % paths.size()];
    std::string url = i % 3 == 0   ? v4->url(path)
                      : i % 3 == 1 ? v4->url_with_host("localhost", path)
                                   : v6->url(path);
    requests.push_back({.url = url, .tag = 1000 + i});
  }
  HttpClient client(fixture_options());
  std::set<std::uint64_t> tags;
  int ok = 0;
  client.fetch_all(requests, [&](Response r) {
    tags.insert(r.tag);
    if (r.ok() && !r.body.empty()) ++ok;
    EXPECT_FALSE(r.error) << r.url << ": " << r.error->message;
  });
  EXPECT_EQ(ok, 50);
  ASSERT_EQ(tags.size(), 50u);
  EXPECT_EQ(*tags.begin(), 1000u);
  EXPECT_EQ(*tags.rbegin(), 1049u);
  // Every request reached a server: 50 plus one extra hop for each redirect.
  const auto v4_seen = nlohmann::json::parse(v4->requests_json());
  const auto v6_seen = nlohmann::json::parse(v6->requests_json());
  EXPECT_EQ(v4_seen.size() + v6_seen.size(), 50u + 12u);
}

TEST(HttpClientMany, MoreRequestsJoinWhileTheQueueIsShortUntilNoneAreLeft) {
  auto server = testing_server::start(kTestdata);
  ASSERT_TRUE(server) << server.error().message;
  ClientOptions options = fixture_options();
  options.max_concurrent = 3;
  HttpClient client(options);
  // Two requests to start with, then four batches of five, then none: `more` is not called again after that.
  std::uint64_t next_tag = 2;
  int more_calls = 0;
  int done_before_last_batch = -1;
  std::set<std::uint64_t> tags;
  const auto more = [&]() -> std::optional<std::vector<Request>> {
    ++more_calls;
    std::vector<Request> batch;
    if (next_tag >= 22) return std::nullopt;
    if (next_tag == 17) done_before_last_batch = static_cast<int>(tags.size());
    for (int i = 0; i < 5; ++i) batch.push_back({.url = server->url("/feed.xml"), .tag = next_tag++});
    return batch;
  };
  client.fetch_all(
      {{.url = server->url("/feed.xml"), .tag = 0}, {.url = server->url("/feed.xml"), .tag = 1}},
      [&](Response r) {
        EXPECT_TRUE(r.ok()) << r.url;
        tags.insert(r.tag);
      },
      more);
  EXPECT_EQ(tags.size(), 22u);
  EXPECT_EQ(*tags.rbegin(), 21u);
  EXPECT_EQ(more_calls, 5);  // four batches, then the empty answer
  // The queue is topped up as it runs short, not all at the start.
  EXPECT_GT(done_before_last_batch, 0);
  EXPECT_EQ(nlohmann::json::parse(server->requests_json()).size(), 22u);
}

TEST(HttpClientNoServer, MoreIsAskedEvenWhenTheFirstBatchIsEmpty) {
  HttpClient client(fixture_options());
  int calls = 0, done = 0;
  client.fetch_all(
      {}, [&](Response r) { done += r.error ? 1 : 0; },
      [&]() -> std::optional<std::vector<Request>> {
        if (calls++ > 0) return std::nullopt;
        return std::vector<Request>{
            {.url = "ftp://example.invalid/feed", .tag = 1}};  // fails before any transfer
      });
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(done, 1);
}

TEST(HttpClientMany, NoneForNowIsAskedAgainUntilMoreComeOrNoneIsLeft) {
  auto server = testing_server::start(kTestdata);
  ASSERT_TRUE(server) << server.error().message;
  HttpClient client(fixture_options());
  // Empty answers ("none for now") between batches, also while nothing runs: the fetch waits and asks again.
  int calls = 0;
  std::set<std::uint64_t> tags;
  client.fetch_all(
      {}, [&](Response r) { tags.insert(r.tag); },
      [&]() -> std::optional<std::vector<Request>> {
        ++calls;
        if (calls == 4) return std::vector<Request>{{.url = server->url("/feed.xml"), .tag = 1}};
        if (calls == 8) return std::vector<Request>{{.url = server->url("/feed.xml"), .tag = 2}};
        if (calls >= 10) return std::nullopt;
        return std::vector<Request>{};
      });
  EXPECT_EQ(tags, (std::set<std::uint64_t>{1, 2}));
  EXPECT_EQ(calls, 10);  // asked until it said none is left, and never after
}

TEST(HttpClientMany, NoneForNowIsAskedAgainWhileOnlySlowTransfersRun) {
  auto slow = testing_server::start(kTestdata);  // one server each: a fixture server answers in turn
  ASSERT_TRUE(slow) << slow.error().message;
  auto server = testing_server::start(kTestdata);
  ASSERT_TRUE(server) << server.error().message;
  HttpClient client(fixture_options());
  // A crawler answers "none for now" while its saves catch up. If more came only when a transfer ended, one
  // slow feed (3 s here, a stalling blog on the internet) would hold every new request behind it: the
  // second request would finish after the slow one. It is asked again while the slow one still runs.
  int calls = 0;
  std::vector<std::uint64_t> order;
  client.fetch_all(
      {{.url = slow->url("/slow/3/feed.xml"), .tag = 1}}, [&](Response r) { order.push_back(r.tag); },
      [&]() -> std::optional<std::vector<Request>> {
        ++calls;
        if (calls == 1) return std::vector<Request>{};
        if (calls == 2) return std::vector<Request>{{.url = server->url("/feed.xml"), .tag = 2}};
        return std::nullopt;
      });
  EXPECT_EQ(order, (std::vector<std::uint64_t>{2, 1}));
}

TEST(HttpClientMany, PerHostLimitIsRespected) {
  auto server = testing_server::start(kTestdata);
  ASSERT_TRUE(server) << server.error().message;
  ClientOptions options = fixture_options();
  options.max_per_host = 2;
  HttpClient client(options);
  std::vector<Request> requests;
  for (std::uint64_t i = 0; i < 8; ++i)
    requests.push_back({.url = server->url("/slow/0.3/feed.xml"), .tag = i});
  int ok = 0;
  client.fetch_all(requests, [&](Response r) { ok += r.ok() ? 1 : 0; });
  EXPECT_EQ(ok, 8);
  const auto stats = nlohmann::json::parse(server->stats_json());
  const std::string host = "127.0.0.1:" + std::to_string(server->port());
  EXPECT_LE(stats["max_in_flight_by_host"][host].get<int>(), 2);
  EXPECT_GE(stats["max_in_flight_by_host"][host].get<int>(), 1);
}

TEST(HttpClientMany, SlowHostDoesNotHoldUpOthers) {
  auto slow = testing_server::start(kTestdata);
  ASSERT_TRUE(slow) << slow.error().message;
  auto fast = testing_server::start(kTestdata);
  ASSERT_TRUE(fast) << fast.error().message;
  ClientOptions options = fixture_options();
  options.max_concurrent = 4;
  options.max_per_host = 2;
  HttpClient client(options);
  // The slow host's requests come first; with four slots and two per host, the fast host gets the other
  // two slots and all six of its requests finish while the slow ones still sleep (a FIFO queue into curl
  // would have started four slow ones first).
  std::vector<Request> requests;
  for (std::uint64_t i = 0; i < 4; ++i) requests.push_back({.url = slow->url("/slow/1/feed.xml"), .tag = i});
  for (std::uint64_t i = 0; i < 6; ++i) requests.push_back({.url = fast->url("/feed.xml"), .tag = 100 + i});
  std::vector<std::uint64_t> order;
  client.fetch_all(requests, [&](Response r) {
    EXPECT_TRUE(r.ok()) << r.url;
    order.push_back(r.tag);
  });
  ASSERT_EQ(order.size(), 10u);
  for (std::size_t i = 0; i < 6; ++i) EXPECT_GE(order[i], 100u) << "completion " << i;
  const auto stats = nlohmann::json::parse(slow->stats_json());
  EXPECT_LE(stats["max_in_flight"].get<int>(), 2);
}

TEST(HttpClientMany, CancelEndsARunningBatch) {
  auto server = testing_server::start(kTestdata);
  ASSERT_TRUE(server) << server.error().message;
  HttpClient client(fixture_options());
  std::vector<Request> requests;
  for (std::uint64_t i = 0; i < 4; ++i)
    requests.push_back({.url = server->url("/slow/20/feed.xml"), .tag = i});
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds{300});
    client.cancel();
  });
  std::vector<Response> done;
  client.fetch_all(requests, [&](Response r) { done.push_back(std::move(r)); });
  canceller.join();
  ASSERT_EQ(done.size(), 4u);
  for (const auto& r : done) {
    ASSERT_TRUE(r.error);
    EXPECT_EQ(r.error->message, "fetch: cancelled");
  }
  // Cancel is permanent for this client.
  const Response later = client.fetch({.url = server->url("/feed.xml")});
  ASSERT_TRUE(later.error);
  EXPECT_EQ(later.error->message, "fetch: cancelled");
}

TEST(HttpClientMany, ClientIsMovable) {
  auto server = testing_server::start(kTestdata);
  ASSERT_TRUE(server) << server.error().message;
  HttpClient first(fixture_options());
  HttpClient second = std::move(first);
  EXPECT_TRUE(second.fetch({.url = server->url("/feed.xml")}).ok());
}

}  // namespace
}  // namespace longread::fetch
