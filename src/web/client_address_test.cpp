// Who a request comes from: addresses and CIDR blocks, the key clients are counted by, and which
// forwarding headers are believed.
#include "web/client_address.h"

#include <gtest/gtest.h>

namespace longread::web {
namespace {

TEST(ClientIpTest, ParsesBothFamiliesBracketsAndUnmapsIpv4) {
  EXPECT_EQ(parse_client_ip("192.0.2.1")->to_string(), "192.0.2.1");
  EXPECT_EQ(parse_client_ip("[2001:db8::1]")->to_string(), "2001:db8::1");
  const auto mapped = parse_client_ip("::ffff:192.0.2.1");
  ASSERT_TRUE(mapped);
  EXPECT_TRUE(mapped->v4);
  EXPECT_EQ(mapped->to_string(), "192.0.2.1");
  for (const char* bad : {"", "192.0.2", "192.0.2.1.5", "0x7f000001", "fe80::1%eth0", "unknown", "_hidden",
                          "[]", "[192.0.2.1"}) {
    EXPECT_FALSE(parse_client_ip(bad)) << bad;
  }
}

TEST(TrustedProxiesTest, MappedBlocksMeanTheirIpv4BlockAndBadEntriesSayWhich) {
  auto proxies = TrustedProxies::parse({"::ffff:10.0.0.0/104", "2001:db8::/32"}).value();
  EXPECT_TRUE(proxies.contains("10.9.8.7"));
  EXPECT_TRUE(proxies.contains("::ffff:10.9.8.7"));
  EXPECT_FALSE(proxies.contains("11.0.0.1"));
  EXPECT_TRUE(proxies.contains("[2001:db8::5]"));
  auto bad = TrustedProxies::parse({"10.0.0.0/8", "proxy.example"});
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message, "web: not an address or CIDR block: \"proxy.example\"");
}

// An IPv6 client is counted by its /64: a subscriber gets a whole /64 and could take a fresh address for
// every request.
TEST(ClientKeyTest, Ipv6ByItsSlash64) {
  EXPECT_EQ(client_key("192.0.2.1"), "192.0.2.1");
  EXPECT_EQ(client_key("::ffff:192.0.2.1"), "192.0.2.1");
  EXPECT_EQ(client_key("2001:db8:1:2::a"), "2001:db8:1:2::/64");
  EXPECT_EQ(client_key("2001:db8:1:2:ffff:ffff:ffff:ffff"), "2001:db8:1:2::/64");
  EXPECT_NE(client_key("2001:db8:1:3::a"), client_key("2001:db8:1:2::a"));
  EXPECT_EQ(client_key("not an address"), "not an address");
}

TEST(TrustedProxiesTest, BelievesOnlyTrustedPeersAndTakesTheRightmostUntrustedHop) {
  const auto proxies = TrustedProxies::parse({"127.0.0.1", "10.0.0.0/8", " "}).value();
  EXPECT_TRUE(TrustedProxies().empty());
  const auto client = [&](std::string_view peer, const Fields& headers) {
    return proxies.client_address(peer, headers);
  };
  // No list, or an untrusted peer: the peer, whatever it sends.
  EXPECT_EQ(TrustedProxies().client_address("127.0.0.1", {{"X-Forwarded-For", "203.0.113.1"}}), "127.0.0.1");
  EXPECT_EQ(client("198.51.100.7", {{"X-Forwarded-For", "203.0.113.1"}}), "198.51.100.7");
  // A forged entry to the left of the real one is passed over.
  EXPECT_EQ(client("127.0.0.1", {{"X-Forwarded-For", "1.2.3.4, 203.0.113.1"}}), "203.0.113.1");
  // Several fields are one list, in order (RFC 9110 section 5.3).
  EXPECT_EQ(client("127.0.0.1", {{"X-Forwarded-For", "1.2.3.4"}, {"x-forwarded-for", "203.0.113.1"}}),
            "203.0.113.1");
  // Chains of trusted proxies are walked through.
  EXPECT_EQ(client("127.0.0.1", {{"X-Forwarded-For", "203.0.113.1, 10.0.0.2, 10.0.0.3"}}), "203.0.113.1");
  // All trusted: the furthest one known.
  EXPECT_EQ(client("127.0.0.1", {{"X-Forwarded-For", "10.0.0.9, 10.0.0.3"}}), "10.0.0.9");
  // Garbage ends the walk at the last trusted hop.
  EXPECT_EQ(client("127.0.0.1", {{"X-Forwarded-For", "203.0.113.1, unknown"}}), "127.0.0.1");
  EXPECT_EQ(client("127.0.0.1", {{"X-Forwarded-For", "203.0.113.1, garbage, 10.0.0.3"}}), "10.0.0.3");
  // Ports and brackets are dropped.
  EXPECT_EQ(client("127.0.0.1", {{"X-Forwarded-For", "[2001:db8::5]:443"}}), "2001:db8::5");
  EXPECT_EQ(client("127.0.0.1", {{"X-Forwarded-For", "203.0.113.1:5555"}}), "203.0.113.1");
  // RFC 7239: quoted values, other parameters, case; Forwarded wins over X-Forwarded-For.
  EXPECT_EQ(client("127.0.0.1", {{"Forwarded", "For=\"[2001:db8:cafe::17]:4711\";proto=https;by=10.0.0.1"},
                                 {"X-Forwarded-For", "198.51.100.1"}}),
            "2001:db8:cafe::17");
  EXPECT_EQ(client("127.0.0.1", {{"Forwarded", "for=192.0.2.43, for=198.51.100.17;by=203.0.113.60"}}),
            "198.51.100.17");
  EXPECT_EQ(client("127.0.0.1", {{"Forwarded", "for=unknown"}}), "127.0.0.1");
  EXPECT_EQ(client("127.0.0.1", {{"Forwarded", "for=_hidden, for=10.0.0.5"}}), "10.0.0.5");
  EXPECT_EQ(client("::ffff:127.0.0.1", {{"X-Forwarded-For", "203.0.113.1"}}), "203.0.113.1");

  auto bad = TrustedProxies::parse({"10.0.0.0/8", "proxy.example"});
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("proxy.example"), std::string::npos);
}

}  // namespace
}  // namespace longread::web
