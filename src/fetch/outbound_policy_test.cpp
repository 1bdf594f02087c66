// The outbound request policy inside HttpClient, over real sockets: the address check at connect time on
// every hop, file:// only for the operator's URLs, and the per-request site restriction on every hop.
#include <curl/curl.h>
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "fetch/http_client.h"
#include "fixture_server/fixture_server.h"

namespace longread::fetch {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;
using testing_server = longread::testing::FixtureServer;

const std::string kTestdata = LONGREAD_SOURCE_DIR "/src/fetch/testdata";

std::string url_encode(const std::string& text) {
  char* encoded = curl_easy_escape(nullptr, text.c_str(), static_cast<int>(text.size()));
  std::string out(encoded);
  curl_free(encoded);
  return out;
}

ClientOptions allowing(std::initializer_list<const char*> networks) {
  ClientOptions options;
  for (const char* text : networks) {
    auto network = IpNetwork::parse(text);
    EXPECT_TRUE(network) << text;
    if (network) options.address_policy.allow_networks.push_back(*network);
  }
  return options;
}

std::size_t request_count(const testing_server& server) {
  return nlohmann::json::parse(server.requests_json()).size();
}

class OutboundPolicyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto started = testing_server::start(kTestdata);
    ASSERT_TRUE(started) << started.error().message;
    server_.emplace(std::move(*started));
  }
  std::string url(std::string_view path) const { return server_->url(path); }
  std::optional<testing_server> server_;
};

TEST_F(OutboundPolicyTest, TheDefaultPolicyRefusesLoopbackBeforeAnyRequestIsSent) {
  HttpClient client(ClientOptions{});
  const Response r = client.fetch({.url = url("/feed.xml")});
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->kind, ErrorKind::kForbidden);
  EXPECT_EQ(r.error->message,
            "fetch: refused: 127.0.0.1 is a private address (set fetch.allow_private to allow)");
  EXPECT_TRUE(HttpClient::is_refused(*r.error));
  EXPECT_TRUE(r.body.empty());
  EXPECT_EQ(request_count(*server_), 0u);  // refused before connect(): the server saw nothing
}

TEST_F(OutboundPolicyTest, ANameIsJudgedByTheAddressItResolvesTo) {
  HttpClient client(ClientOptions{});
  const Response r = client.fetch({.url = server_->url_with_host("localhost", "/feed.xml")});
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->kind, ErrorKind::kForbidden);
  // localhost resolves to 127.0.0.1 and/or ::1; the refusal names the address, not the name.
  EXPECT_THAT(r.error->message, StartsWith("fetch: refused: "));
  EXPECT_THAT(r.error->message, HasSubstr(" is a private address (set fetch.allow_private to allow)"));
  EXPECT_THAT(r.error->message, ::testing::Not(HasSubstr("localhost")));
  EXPECT_EQ(request_count(*server_), 0u);
}

TEST_F(OutboundPolicyTest, AllowPrivateOrAnAllowedNetworkLetsTheFixtureThrough) {
  ClientOptions open;
  open.address_policy.allow_private = true;
  EXPECT_TRUE(HttpClient(open).fetch({.url = url("/feed.xml")}).ok());
  EXPECT_TRUE(HttpClient(allowing({"127.0.0.0/8"})).fetch({.url = url("/feed.xml")}).ok());
  // A neighbour's block does not cover it.
  const Response r = HttpClient(allowing({"127.0.0.2/32"})).fetch({.url = url("/feed.xml")});
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->kind, ErrorKind::kForbidden);
}

TEST_F(OutboundPolicyTest, ConnectToReachesTheFixtureUnderAnyNameAndStillPassesThePolicy) {
  const std::string port = std::to_string(server_->port());
  // A name that does not resolve anywhere: only connect_to can reach it.
  const std::string feed = "http://blog-" + port + ".invalid:" + port + "/feed.xml";
  ClientOptions redirected = allowing({"127.0.0.1/32"});
  redirected.connect_to = {"::127.0.0.1:" + port};
  const Response r = HttpClient(redirected).fetch({.url = feed});
  ASSERT_TRUE(r.ok()) << (r.error ? r.error->message : "");
  EXPECT_FALSE(r.body.empty());
  const auto log = nlohmann::json::parse(server_->requests_json());
  ASSERT_EQ(log.size(), 1u);
  EXPECT_EQ(log[0]["host"], "blog-" + port + ".invalid:" + port);  // the Host header stays the URL's

  // The address it connects to is what the policy judges: the default refuses 127.0.0.1.
  ClientOptions closed;
  closed.connect_to = redirected.connect_to;
  const Response refused = HttpClient(closed).fetch({.url = feed});
  ASSERT_TRUE(refused.error);
  EXPECT_EQ(refused.error->message,
            "fetch: refused: 127.0.0.1 is a private address (set fetch.allow_private to allow)");
  EXPECT_EQ(request_count(*server_), 1u);
}

TEST_F(OutboundPolicyTest, EveryRedirectHopIsCheckedAndARefusedOneMovesNothing) {
  HttpClient client(allowing({"127.0.0.1/32"}));
  const std::string port = std::to_string(server_->port());
  // Each target is refused at connect time; none needs a server (169.254.169.254 and ::1 may not exist).
  const std::vector<std::pair<std::string, std::string>> targets = {
      {"http://127.0.0.2:" + port + "/secret", "127.0.0.2"},
      {"http://[::1]:" + port + "/", "::1"},
      {"http://169.254.169.254/latest/meta-data/", "169.254.169.254"},
      {"http://0x7f000002:" + port + "/secret", "127.0.0.2"},    // hex form of 127.0.0.2
      {"http://2130706434:" + port + "/secret", "127.0.0.2"},    // decimal form of 127.0.0.2
      {"http://[::ffff:127.0.0.2]:" + port + "/", "127.0.0.2"},  // IPv4-mapped (the kernel connects to v4)
      {"http://10.0.0.1:" + port + "/", "10.0.0.1"},
  };
  for (const auto& [target, address] : targets) {
    for (const int code : {301, 302, 308}) {
      SCOPED_TRACE(fmt::format("{} {}", code, target));
      const Response r =
          client.fetch({.url = url(fmt::format("/redirect-to?code={}&url={}", code, url_encode(target)))});
      ASSERT_TRUE(r.error);
      EXPECT_EQ(r.error->kind, ErrorKind::kForbidden);
      EXPECT_THAT(r.error->message, StartsWith("fetch: refused: "));
      EXPECT_THAT(r.error->message, HasSubstr(" is a private address (set fetch.allow_private to allow)"));
      EXPECT_THAT(r.error->message, HasSubstr(address));
      EXPECT_FALSE(r.permanent_redirect);  // a 301 to a refused address is never a new feed URL
      EXPECT_TRUE(r.body.empty());
    }
  }
}

TEST_F(OutboundPolicyTest, FileUrlsAreReadOnlyForTheOperatorsOwnUrls) {
  HttpClient client(allowing({"127.0.0.1/32"}));
  const std::string file = "file://" + kTestdata + "/feed.xml";
  const Response found_in_a_feed = client.fetch({.url = file});
  ASSERT_TRUE(found_in_a_feed.error);
  EXPECT_EQ(found_in_a_feed.error->kind, ErrorKind::kForbidden);
  EXPECT_EQ(found_in_a_feed.error->message,
            "fetch: refused: " + file + " is a local file, read only for a feed the operator gave");
  EXPECT_TRUE(found_in_a_feed.body.empty());
  EXPECT_TRUE(client.fetch({.url = file, .from_operator = true}).ok());
  // Even an operator's URL is not redirected into a file.
  const Response redirected = client.fetch(
      {.url = url("/redirect-to?url=" + url_encode("file:///etc/passwd")), .from_operator = true});
  ASSERT_TRUE(redirected.error);
  EXPECT_EQ(redirected.error->message,
            "fetch: refused: redirect to file:///etc/passwd (only http and https are followed)");
}

TEST_F(OutboundPolicyTest, ARestrictedRequestStaysOnItsSitesOnEveryHop) {
  HttpClient client(allowing({"127.0.0.1/32", "::1/128"}));
  const SiteRestriction site{.sites = {"127.0.0.1"},
                             .owner = "blog 7's site",
                             .allow_command = "longread blogs edit 7 --allow-host"};
  EXPECT_TRUE(client.fetch({.url = url("/html"), .site = site}).ok());

  const Response other_host =
      client.fetch({.url = server_->url_with_host("localhost", "/html"), .site = site});
  ASSERT_TRUE(other_host.error);
  EXPECT_EQ(other_host.error->kind, ErrorKind::kForbidden);
  EXPECT_EQ(other_host.error->message,
            "fetch: refused: localhost is not on blog 7's site (127.0.0.1) (allow it with `longread blogs "
            "edit 7 --allow-host localhost`)");

  // On the site at first, then redirected off it: refused at the hop, before the other host is asked.
  server_->reset();
  const Response off_site = client.fetch(
      {.url = url("/redirect-to?url=" + url_encode(server_->url_with_host("LOCALHOST.", "/html"))),
       .site = site});
  ASSERT_TRUE(off_site.error);
  EXPECT_THAT(off_site.error->message, StartsWith("fetch: refused: localhost is not on blog 7's site"));
  EXPECT_EQ(request_count(*server_), 1u);

  // A host the restriction names, written in another case or with the root's trailing dot, is the same host.
  const SiteRestriction by_name{.sites = {"localhost"}};
  const Response same = client.fetch({.url = server_->url_with_host("LocalHost", "/html"), .site = by_name});
  EXPECT_TRUE(same.ok()) << (same.error ? same.error->message : "");
  const Response file =
      client.fetch({.url = "file://" + kTestdata + "/feed.xml", .from_operator = true, .site = by_name});
  ASSERT_TRUE(file.error);
  EXPECT_EQ(file.error->kind, ErrorKind::kForbidden);
}

}  // namespace
}  // namespace longread::fetch
