// Which network addresses longread may connect to. A followed blog is a stranger (its domain can lapse
// and be bought by anyone), so every connection HttpClient opens — feeds, full-text pages, `blogs add`
// discovery, every hop of every redirect, every address a name resolves to — is checked here, at connect
// time, against the IANA special-purpose address registries (RFC 6890, and the IPv4 / IPv6
// Special-Purpose Address Registries). Pure functions: no I/O.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "core/ip_address.h"

namespace longread::fetch {

// The special-purpose range an address belongs to ("loopback 127.0.0.0/8"), or nullopt for an ordinary
// public unicast address. An IPv6 form that carries an IPv4 address (see IpAddress::embedded_v4) is special
// when the IPv4 address is: ::ffff:127.0.0.1 is loopback, 2002:a00:1:: is private.
[[nodiscard]] std::optional<std::string> special_range(const IpAddress& address);

// What the operator allows beyond public addresses (config fetch.allow_private, fetch.allow_networks).
struct AddressPolicy {
  bool allow_private = false;
  std::vector<IpNetwork>
      allow_networks;  // allowed even when special (an IPv4 rule also covers its IPv6 forms)
};

// nullopt: longread may connect. Else the refusal, worded for the operator:
// "127.0.0.1 is a private address (set fetch.allow_private to allow)".
[[nodiscard]] std::optional<std::string> refusal(const AddressPolicy& policy, const IpAddress& address);

}  // namespace longread::fetch
