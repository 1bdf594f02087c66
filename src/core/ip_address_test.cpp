// Addresses and CIDR blocks as both the outbound request policy and the web layer's client addresses
// read them. The policy's special ranges are tested in fetch/address_policy_test.cpp.
#include "core/ip_address.h"

#include <gtest/gtest.h>

namespace longread {
namespace {

TEST(IpAddressTest, OnlyInetPtonFormsAndMappedIsUnmappedOnRequest) {
  EXPECT_EQ(IpAddress::parse("192.0.2.1")->to_string(), "192.0.2.1");
  EXPECT_EQ(IpAddress::parse("2001:db8::1")->to_string(), "2001:db8::1");
  const auto mapped = IpAddress::parse("::ffff:192.0.2.1");
  ASSERT_TRUE(mapped);
  EXPECT_FALSE(mapped->v4);
  EXPECT_TRUE(mapped->unmapped().v4);
  EXPECT_EQ(mapped->unmapped().to_string(), "192.0.2.1");
  EXPECT_EQ(IpAddress::parse("2002:a00:1::")->unmapped().to_string(), "2002:a00:1::");  // 6to4 is not mapped
  EXPECT_EQ(IpAddress::parse("2002:a00:1::")->embedded_v4()->to_string(), "10.0.0.1");
  for (const char* bad : {"", "192.0.2", "192.0.2.1.5", "0x7f000001", "fe80::1%eth0", "[::1]", "unknown",
                          "1111:2222:3333:4444:5555:6666:7777:8888:9999"}) {
    EXPECT_FALSE(IpAddress::parse(bad)) << bad;
  }
}

TEST(IpNetworkTest, ContainsByPrefix) {
  const auto ten = IpNetwork::parse("10.0.0.0/8").value();
  EXPECT_TRUE(ten.contains(*IpAddress::parse("10.255.1.2")));
  EXPECT_FALSE(ten.contains(*IpAddress::parse("11.0.0.1")));
  // What a dual-stack listener reports for an IPv4 peer is IPv6 until unmapped.
  EXPECT_FALSE(ten.contains(*IpAddress::parse("::ffff:10.1.1.1")));
  EXPECT_TRUE(ten.contains(IpAddress::parse("::ffff:10.1.1.1")->unmapped()));
  EXPECT_FALSE(ten.contains(*IpAddress::parse("2001:db8::1")));
  const auto odd = IpNetwork::parse("192.168.1.128/25").value();
  EXPECT_TRUE(odd.contains(*IpAddress::parse("192.168.1.200")));
  EXPECT_FALSE(odd.contains(*IpAddress::parse("192.168.1.100")));
  const auto host = IpNetwork::parse("2001:db8::7").value();
  EXPECT_EQ(host.prefix, 128);
  EXPECT_TRUE(host.contains(*IpAddress::parse("2001:db8::7")));
  EXPECT_FALSE(host.contains(*IpAddress::parse("2001:db8::8")));
  EXPECT_TRUE(IpNetwork::parse("0.0.0.0/0").value().contains(*IpAddress::parse("203.0.113.1")));
  for (const char* bad :
       {"10.0.0.0/33", "10.0.0.0/", "10.0.0.0/x", "::/129", "example.org", "10.0.0.0/8/8"}) {
    auto parsed = IpNetwork::parse(bad);
    ASSERT_FALSE(parsed) << bad;
    EXPECT_EQ(parsed.error().kind, ErrorKind::kInvalidInput);
    EXPECT_EQ(parsed.error().message, std::string("not an address or CIDR block: \"") + bad + "\"");
  }
  EXPECT_EQ(IpNetwork::parse(" 10.1.2.3/16 ").value().to_string(), "10.1.0.0/16");  // host bits cleared
}

}  // namespace
}  // namespace longread
