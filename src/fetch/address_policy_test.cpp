// The outbound address policy as a table: every special-purpose range refused by default, its neighbours
// allowed, the IPv6 forms that carry an IPv4 address judged by that address, and the operator's opt-ins.
#include "fetch/address_policy.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace longread::fetch {
namespace {

struct Case {
  const char* address;
  bool refused;  // by the default policy
};

// Each refused address beside a public one just outside its block, so an off-by-one in a prefix fails.
const std::vector<Case> kCases = {
    // IPv4
    {"0.0.0.0", true},
    {"0.255.255.255", true},
    {"1.0.0.1", false},
    {"9.255.255.255", false},
    {"10.0.0.1", true},
    {"10.255.255.255", true},
    {"11.0.0.0", false},
    {"100.63.255.255", false},
    {"100.64.0.1", true},
    {"100.127.255.255", true},
    {"100.128.0.0", false},
    {"126.255.255.255", false},
    {"127.0.0.1", true},
    {"127.0.0.2", true},
    {"127.255.255.254", true},
    {"128.0.0.1", false},
    {"169.254.169.254", true},
    {"169.254.0.1", true},
    {"169.255.0.1", false},
    {"172.15.255.255", false},
    {"172.16.0.1", true},
    {"172.31.255.255", true},
    {"172.32.0.0", false},
    {"192.0.0.8", true},
    {"192.0.2.1", true},
    {"192.0.3.1", false},
    {"192.88.99.1", true},
    {"192.167.255.255", false},
    {"192.168.1.1", true},
    {"192.169.0.0", false},
    {"198.18.0.1", true},
    {"198.19.255.255", true},
    {"198.20.0.0", false},
    {"198.51.100.7", true},
    {"203.0.113.9", true},
    {"223.255.255.255", false},
    {"224.0.0.1", true},
    {"239.255.255.250", true},
    {"240.0.0.1", true},
    {"255.255.255.255", true},
    {"8.8.8.8", false},
    {"93.184.216.34", false},
    // IPv6
    {"::", true},
    {"::1", true},
    {"::2", true},  // IPv4-compatible 0.0.0.2: "this network"
    {"::127.0.0.1", true},
    {"::8.8.8.8", false},  // IPv4-compatible form of a public address
    {"::ffff:127.0.0.1", true},
    {"::ffff:7f00:2", true},
    {"::ffff:169.254.169.254", true},
    {"::ffff:10.0.0.1", true},
    {"::ffff:8.8.8.8", false},
    {"64:ff9b::127.0.0.1", true},
    {"64:ff9b::a9fe:a9fe", true},
    {"64:ff9b::8.8.8.8", false},
    {"64:ff9b:1::1", true},
    {"2002:7f00:1::", true},     // 6to4 of 127.0.0.1
    {"2002:c0a8:101::1", true},  // 6to4 of 192.168.1.1
    {"2002:808:808::1", false},  // 6to4 of 8.8.8.8
    {"100::1", true},
    {"2001::1", true},
    {"2001:db8::1", true},
    {"3fff::1", true},
    {"fc00::1", true},
    {"fd12:3456::1", true},
    {"fe80::1", true},
    {"febf::1", true},
    {"fec0::1", true},
    {"ff02::1", true},
    {"4000::1", true},  // outside 2000::/3: unassigned
    {"2606:4700::1111", false},
    {"2a00:1450:4001::1", false},
    {"2001:4860:4860::8888", false},  // 2001:4860::/32 lies outside 2001::/23
};

TEST(AddressPolicy, EverySpecialRangeIsRefusedAndItsNeighboursAreNot) {
  const AddressPolicy defaults;
  for (const auto& c : kCases) {
    auto ip = IpAddress::parse(c.address);
    ASSERT_TRUE(ip) << c.address;
    EXPECT_EQ(refusal(defaults, *ip).has_value(), c.refused) << c.address;
    EXPECT_EQ(special_range(*ip).has_value(), c.refused) << c.address;
  }
}

TEST(AddressPolicy, RefusalNamesTheAddressAndTheSetting) {
  auto ip = IpAddress::parse("127.0.0.1");
  ASSERT_TRUE(ip);
  EXPECT_EQ(refusal({}, *ip), "127.0.0.1 is a private address (set fetch.allow_private to allow)");
  auto v6 = IpAddress::parse("::ffff:169.254.169.254");
  ASSERT_TRUE(v6);
  EXPECT_EQ(refusal({}, *v6),
            "::ffff:169.254.169.254 is a private address (set fetch.allow_private to allow)");
  EXPECT_EQ(special_range(*v6),
            "link-local, cloud metadata (RFC 3927) 169.254.0.0/16 inside 169.254.169.254");
}

TEST(AddressPolicy, AllowPrivateAllowsEverything) {
  const AddressPolicy open{.allow_private = true, .allow_networks = {}};
  for (const auto& c : kCases) {
    auto ip = IpAddress::parse(c.address);
    ASSERT_TRUE(ip);
    EXPECT_FALSE(refusal(open, *ip)) << c.address;
  }
}

TEST(AddressPolicy, AllowNetworksAllowOnlyTheirBlockAndItsIpv6Forms) {
  auto loopback_one = IpNetwork::parse("127.0.0.1/32");
  auto internal = IpNetwork::parse("10.1.0.0/16");
  ASSERT_TRUE(loopback_one && internal);
  const AddressPolicy policy{.allow_private = false, .allow_networks = {*loopback_one, *internal}};
  const std::vector<std::pair<const char*, bool>> expected = {
      {"127.0.0.1", false},  {"::ffff:127.0.0.1", false}, {"127.0.0.2", true},       {"::1", true},
      {"10.1.200.3", false}, {"10.2.0.1", true},          {"169.254.169.254", true}, {"192.168.0.1", true},
      {"8.8.8.8", false},
  };
  for (const auto& [text, refused] : expected) {
    auto ip = IpAddress::parse(text);
    ASSERT_TRUE(ip) << text;
    EXPECT_EQ(refusal(policy, *ip).has_value(), refused) << text;
  }
}

TEST(AddressPolicy, NetworksParseLikeIpAndRejectNonsense) {
  auto n = IpNetwork::parse("10.1.2.3/16");
  ASSERT_TRUE(n);
  EXPECT_EQ(n->to_string(), "10.1.0.0/16");
  auto host = IpNetwork::parse("fd00::1");
  ASSERT_TRUE(host);
  EXPECT_EQ(host->to_string(), "fd00::1/128");
  auto all = IpNetwork::parse("0.0.0.0/0");
  ASSERT_TRUE(all);
  EXPECT_TRUE(all->contains(*IpAddress::parse("203.0.113.1")));
  EXPECT_FALSE(all->contains(*IpAddress::parse("::1")));  // families never match each other
  for (const char* bad : {"", "10.0.0.0/33", "10.0.0.0/", "10.0.0.0/-1", "::/129", "localhost/8", "10.0.0/8",
                          "0x7f000001/32", "2130706433", "10.0.0.0/8x"}) {
    EXPECT_FALSE(IpNetwork::parse(bad)) << bad;
  }
}

TEST(AddressPolicy, OnlyInetPtonFormsParseAsAddresses) {
  // The hex, octal and bare-number forms (0x7f000001, 0177.0.0.1, 2130706433) are not addresses here:
  // at connect time the check sees the address the resolver made of them, never their text.
  for (const char* text : {"0x7f000001", "0177.0.0.1", "2130706433", "127.1", "[::1]", "localhost"}) {
    EXPECT_FALSE(IpAddress::parse(text)) << text;
  }
}

}  // namespace
}  // namespace longread::fetch
