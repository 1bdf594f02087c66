// Which network addresses longread may connect to. A followed blog is a stranger (its domain can lapse
// and be bought by anyone), so every connection HttpClient opens — feeds, full-text pages, `blogs add`
// discovery, every hop of every redirect, every address a name resolves to — is checked here, at connect
// time, against the IANA special-purpose address registries (RFC 6890, and the IPv4 / IPv6
// Special-Purpose Address Registries). Pure functions: no I/O.
#pragma once

#include <sys/socket.h>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"

namespace longread::fetch {

// One IPv4 or IPv6 address. IPv4 is held as its 4 bytes (v4 = true) in bytes[0..3].
struct IpAddress {
  std::array<std::uint8_t, 16> bytes{};
  bool v4 = false;

  // "127.0.0.1", "::1", "fe80::1" (inet_pton's forms only: dotted quad, RFC 4291 text); nullopt otherwise.
  [[nodiscard]] static std::optional<IpAddress> parse(std::string_view text);
  // From the sockaddr libcurl is about to connect to (AF_INET / AF_INET6); nullopt for other families.
  [[nodiscard]] static std::optional<IpAddress> from_sockaddr(const sockaddr* address, socklen_t length);
  // inet_ntop's text form.
  [[nodiscard]] std::string to_string() const;
  // The IPv4 address an IPv6 address carries and is routed to: IPv4-mapped ::ffff:0:0/96 (RFC 4291
  // 2.5.5.2), IPv4-compatible ::/96 (deprecated, RFC 4291 2.5.5.1), NAT64 64:ff9b::/96 (RFC 6052) and
  // 64:ff9b:1::/48 (RFC 8215), 6to4 2002::/16 (RFC 3056). nullopt for IPv4 and other IPv6.
  [[nodiscard]] std::optional<IpAddress> embedded_v4() const;
};

// An address block in CIDR form ("10.1.0.0/16", "127.0.0.1/32", "fd00::/8"; a bare address is /32 or
// /128).
struct Network {
  IpAddress base;
  int prefix = 0;

  // Errors (kInvalidInput) read "not a CIDR network: ..." for the caller to prefix with its key.
  [[nodiscard]] static Result<Network> parse(std::string_view text);
  [[nodiscard]] bool contains(const IpAddress& address) const;
  [[nodiscard]] std::string to_string() const;
};

// The special-purpose range an address belongs to ("loopback 127.0.0.0/8"), or nullopt for an ordinary
// public unicast address. An IPv6 form that carries an IPv4 address (see IpAddress::embedded_v4) is special
// when the IPv4 address is: ::ffff:127.0.0.1 is loopback, 2002:a00:1:: is private.
[[nodiscard]] std::optional<std::string> special_range(const IpAddress& address);

// What the operator allows beyond public addresses (config fetch.allow_private, fetch.allow_networks).
struct AddressPolicy {
  bool allow_private = false;
  std::vector<Network> allow_networks;  // allowed even when special (an IPv4 rule also covers its IPv6 forms)
};

// nullopt: longread may connect. Else the refusal, worded for the operator:
// "127.0.0.1 is a private address (set fetch.allow_private to allow)".
[[nodiscard]] std::optional<std::string> refusal(const AddressPolicy& policy, const IpAddress& address);

}  // namespace longread::fetch
