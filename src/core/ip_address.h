// IPv4 and IPv6 addresses and CIDR blocks, as the outbound request policy (which addresses longread may
// connect to) and the web layer (which client a request comes from, which proxies are trusted) both read
// them. Text forms are inet_pton's and inet_ntop's (RFC 4291 section 2.2 for IPv6), nothing looser: no
// "0x7f000001", no zone ids, no shortened dotted quads.
#pragma once

#include <sys/socket.h>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/error.h"

namespace longread {

// One IPv4 or IPv6 address. IPv4 is held as its 4 bytes (v4 = true) in bytes[0..3].
struct IpAddress {
  std::array<std::uint8_t, 16> bytes{};
  bool v4 = false;

  // "127.0.0.1", "::1", "fe80::1" (inet_pton's forms only: dotted quad, RFC 4291 text); nullopt otherwise.
  [[nodiscard]] static std::optional<IpAddress> parse(std::string_view text);
  // From a sockaddr (AF_INET / AF_INET6); nullopt for other families or a short length.
  [[nodiscard]] static std::optional<IpAddress> from_sockaddr(const sockaddr* address, socklen_t length);
  // inet_ntop's text form.
  [[nodiscard]] std::string to_string() const;
  // The IPv4 address an IPv6 address carries and is routed to: IPv4-mapped ::ffff:0:0/96 (RFC 4291
  // 2.5.5.2), IPv4-compatible ::/96 (deprecated, RFC 4291 2.5.5.1), NAT64 64:ff9b::/96 (RFC 6052) and
  // 64:ff9b:1::/48 (RFC 8215), 6to4 2002::/16 (RFC 3056). nullopt for IPv4 and other IPv6.
  [[nodiscard]] std::optional<IpAddress> embedded_v4() const;
  // An IPv4-mapped IPv6 address (::ffff:a.b.c.d, what a dual-stack listener reports for an IPv4 peer) as
  // the IPv4 address it is; any other address unchanged.
  [[nodiscard]] IpAddress unmapped() const;
};

// An address block in CIDR form ("10.1.0.0/16", "127.0.0.1/32", "fd00::/8"; a bare address is /32 or
// /128). Host bits past the prefix are cleared, so "10.1.2.3/16" is 10.1.0.0/16, as ip(8) reads it.
struct IpNetwork {
  IpAddress base;
  int prefix = 0;

  // kInvalidInput "not an address or CIDR block: \"...\"" otherwise, for the caller to prefix with its
  // module or configuration key.
  [[nodiscard]] static Result<IpNetwork> parse(std::string_view text);
  // Families never match each other: an IPv4 block does not contain ::ffff:10.0.0.1 (callers that mean
  // the IPv4 address ask with unmapped() or embedded_v4()).
  [[nodiscard]] bool contains(const IpAddress& address) const;
  [[nodiscard]] std::string to_string() const;
};

}  // namespace longread
