#include "fetch/address_policy.h"

#include <fmt/format.h>

#include <span>

namespace longread::fetch {
namespace {

// A special-purpose block of the IANA registries, with the name the refusal and the docs use.
struct SpecialRange {
  const char* cidr;
  const char* name;
};

// IPv4 Special-Purpose Address Registry (RFC 6890 and updates) and the multicast / reserved space, limited
// to blocks that are not globally reachable or that no web server answers from. 192.31.196.0/24 (AS112)
// and 192.52.193.0/24 (AMT) are globally reachable and left out. More specific blocks come first so that
// 255.255.255.255 is named "broadcast", not "reserved".
constexpr SpecialRange kV4Ranges[] = {
    {"0.0.0.0/8", "\"this network\" (RFC 791)"},
    {"10.0.0.0/8", "private-use (RFC 1918)"},
    {"100.64.0.0/10", "shared address space, carrier-grade NAT (RFC 6598)"},
    {"127.0.0.0/8", "loopback (RFC 1122)"},
    {"169.254.0.0/16", "link-local, cloud metadata (RFC 3927)"},
    {"172.16.0.0/12", "private-use (RFC 1918)"},
    {"192.0.0.0/24", "IETF protocol assignments (RFC 6890)"},
    {"192.0.2.0/24", "documentation TEST-NET-1 (RFC 5737)"},
    {"192.88.99.0/24", "6to4 relay anycast (RFC 7526)"},
    {"192.168.0.0/16", "private-use (RFC 1918)"},
    {"198.18.0.0/15", "benchmarking (RFC 2544)"},
    {"198.51.100.0/24", "documentation TEST-NET-2 (RFC 5737)"},
    {"203.0.113.0/24", "documentation TEST-NET-3 (RFC 5737)"},
    {"224.0.0.0/4", "multicast (RFC 5771)"},
    {"255.255.255.255/32", "limited broadcast (RFC 919)"},
    {"240.0.0.0/4", "reserved (RFC 1112)"},
};

// IPv6 Special-Purpose Address Registry (RFC 6890 and updates). The forms that carry an IPv4 address
// (::ffff:0:0/96, ::/96, 64:ff9b::/96, 2002::/16) are judged by that address instead, before this table.
// Everything outside global unicast 2000::/3 that is not named here is unassigned (RFC 4291 2.4).
constexpr SpecialRange kV6Ranges[] = {
    {"::/128", "unspecified (RFC 4291)"},
    {"::1/128", "loopback (RFC 4291)"},
    {"64:ff9b:1::/48", "local-use NAT64 (RFC 8215)"},
    {"100::/64", "discard-only (RFC 6666)"},
    {"2001::/23", "IETF protocol assignments, Teredo (RFC 2928, RFC 4380)"},
    {"2001:db8::/32", "documentation (RFC 3849)"},
    {"3fff::/20", "documentation (RFC 9637)"},
    {"fc00::/7", "unique local (RFC 4193)"},
    {"fe80::/10", "link-local (RFC 4291)"},
    {"fec0::/10", "site-local, deprecated (RFC 3879)"},
    {"ff00::/8", "multicast (RFC 4291)"},
};

struct ParsedRange {
  IpNetwork network;
  const char* name;
};

std::vector<ParsedRange> parse_table(std::span<const SpecialRange> table) {
  std::vector<ParsedRange> out;
  for (const auto& range : table) {
    auto network = IpNetwork::parse(range.cidr);
    if (network) out.push_back({*network, range.name});  // the tables are constants; tested to parse
  }
  return out;
}

const std::vector<ParsedRange>& v4_table() {
  static const std::vector<ParsedRange> table = parse_table(kV4Ranges);
  return table;
}

const std::vector<ParsedRange>& v6_table() {
  static const std::vector<ParsedRange> table = parse_table(kV6Ranges);
  return table;
}

}  // namespace

namespace {

// The special range `address` (or the IPv4 address it carries) is in, or nullptr for a public address. No
// allocation: it runs for every connection.
const ParsedRange* find_range(const IpAddress& address) {
  if (auto v4 = address.embedded_v4()) return find_range(*v4);
  const auto& table = address.v4 ? v4_table() : v6_table();
  for (const auto& range : table) {
    if (range.network.contains(address)) return &range;
  }
  // IPv6 outside 2000::/3 and not named above: unassigned (RFC 4291 2.4), so no public server is there.
  static const ParsedRange kUnassigned{IpNetwork{}, "unassigned IPv6 (RFC 4291)"};
  if (!address.v4 && (address.bytes[0] & 0xe0) != 0x20) return &kUnassigned;
  return nullptr;
}

}  // namespace

std::optional<std::string> special_range(const IpAddress& address) {
  const ParsedRange* range = find_range(address);
  if (range == nullptr) return std::nullopt;
  std::string name = range->network.prefix == 0
                         ? std::string(range->name)
                         : fmt::format("{} {}", range->name, range->network.to_string());
  if (auto v4 = address.embedded_v4()) name += " inside " + v4->to_string();
  return name;
}

std::optional<std::string> refusal(const AddressPolicy& policy, const IpAddress& address) {
  if (policy.allow_private) return std::nullopt;
  if (find_range(address) == nullptr) return std::nullopt;
  const auto embedded = address.embedded_v4();
  for (const auto& network : policy.allow_networks) {
    if (network.contains(address) || (embedded && network.contains(*embedded))) return std::nullopt;
  }
  return fmt::format("{} is a private address (set fetch.allow_private to allow)", address.to_string());
}

}  // namespace longread::fetch
