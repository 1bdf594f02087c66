// Who a request comes from. The peer of the TCP connection is the client, unless the peer is a reverse
// proxy the operator trusts (site.trusted_proxies): then the client is the address that proxy reports in
// Forwarded (RFC 7239) or X-Forwarded-For. Rate limits, per-client caps and the access log all use the
// address chosen here, counted by client_key() (an IPv6 client by its /64).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "core/ip_address.h"
#include "web/http.h"

namespace longread::web {

// A client's address as a request names it: inet_pton's forms, "[2001:db8::1]" too, and an IPv4-mapped
// IPv6 address (::ffff:a.b.c.d, what a dual-stack listener reports for an IPv4 peer; RFC 4291 section
// 2.5.5.2) taken as the IPv4 address it carries. nullopt for anything else.
[[nodiscard]] std::optional<IpAddress> parse_client_ip(std::string_view text);

// The key a client is counted by: an IPv4 address as it is ("192.0.2.1"), an IPv6 address by its /64
// ("2001:db8:1:2::/64"), since one subscriber line usually gets a whole /64 (RFC 6177) and could
// otherwise take a fresh address per request. Text that is not an address is returned as it is.
[[nodiscard]] std::string client_key(std::string_view address);

// The operator's list of reverse proxies (site.trusted_proxies).
class TrustedProxies {
 public:
  TrustedProxies() = default;
  // Every entry an address or CIDR block; the first bad one is the error.
  [[nodiscard]] static Result<TrustedProxies> parse(const std::vector<std::string>& entries);

  [[nodiscard]] bool empty() const { return networks_.empty(); }
  [[nodiscard]] bool contains(std::string_view address) const;

  // The client of a request that arrived from `peer` with `headers`. Only a trusted peer's forwarding
  // headers are read; they are then walked from the right (the entry the nearest proxy appended) past
  // every address that is itself a trusted proxy, and the first other address is the client: entries to
  // its left were written by the client or by proxies nobody vouches for, so they can be forged. Forwarded
  // wins over X-Forwarded-For when both are present. An entry that is not an address ("unknown", an
  // obfuscated "_node", garbage) ends the walk at the last trusted hop, which is then taken as the client.
  [[nodiscard]] std::string client_address(std::string_view peer, const Fields& headers) const;

 private:
  std::vector<IpNetwork> networks_;
};

}  // namespace longread::web
