#include "web/client_address.h"

#include "core/strings.h"

namespace longread::web {
namespace {

// One entry of a forwarding header as an address: brackets and a port dropped ("[2001:db8::1]:4711",
// "192.0.2.1:8080"), quotes already removed.
std::optional<IpAddress> forwarded_node(std::string_view node) {
  node = trim(node);
  if (node.starts_with('[')) {
    const auto close = node.find(']');
    if (close == std::string_view::npos) return std::nullopt;
    return parse_client_ip(node.substr(1, close - 1));
  }
  const auto colon = node.find(':');
  if (colon != std::string_view::npos && node.find(':', colon + 1) == std::string_view::npos) {
    node = node.substr(0, colon);  // IPv4 with a port: exactly one colon
  }
  return parse_client_ip(node);
}

// Splits at `separator` outside double-quoted strings (RFC 9110 section 5.6.4).
std::vector<std::string_view> split_unquoted(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  bool quoted = false;
  std::size_t start = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '"') quoted = !quoted;
    if (text[i] == '\\' && quoted) ++i;
    if (!quoted && i < text.size() && text[i] == separator) {
      parts.push_back(text.substr(start, i - start));
      start = i + 1;
    }
  }
  parts.push_back(text.substr(start));
  return parts;
}

// The for= node of each element of the Forwarded fields, in order (RFC 7239 section 4); "" for an
// element without one.
std::vector<std::string> forwarded_for(const Fields& headers) {
  std::vector<std::string> nodes;
  for (const auto& [name, value] : headers) {
    if (!iequals(name, "forwarded")) continue;
    for (const auto element : split_unquoted(value, ',')) {
      std::string node;
      for (const auto pair : split_unquoted(element, ';')) {
        const auto eq = pair.find('=');
        if (eq == std::string_view::npos || !iequals(trim(pair.substr(0, eq)), "for")) continue;
        auto v = trim(pair.substr(eq + 1));
        if (v.size() >= 2 && v.front() == '"' && v.back() == '"') v = v.substr(1, v.size() - 2);
        node = std::string(v);
      }
      nodes.push_back(std::move(node));
    }
  }
  return nodes;
}

std::vector<std::string> x_forwarded_for(const Fields& headers) {
  std::vector<std::string> nodes;
  for (const auto& [name, value] : headers) {
    if (!iequals(name, "x-forwarded-for")) continue;
    for (const auto part : split(value, ',')) nodes.emplace_back(trim(part));
  }
  return nodes;
}

}  // namespace

std::optional<IpAddress> parse_client_ip(std::string_view text) {
  if (text.size() >= 2 && text.front() == '[' && text.back() == ']') text = text.substr(1, text.size() - 2);
  auto ip = IpAddress::parse(text);
  if (!ip) return std::nullopt;
  return ip->unmapped();
}

std::string client_key(std::string_view address) {
  auto ip = parse_client_ip(address);
  if (!ip) return std::string(address);
  if (ip->v4) return ip->to_string();
  std::fill(ip->bytes.begin() + 8, ip->bytes.end(), 0);
  return ip->to_string() + "/64";
}

Result<TrustedProxies> TrustedProxies::parse(const std::vector<std::string>& entries) {
  TrustedProxies out;
  for (const auto& entry : entries) {
    if (trim(entry).empty()) continue;
    auto network = IpNetwork::parse(entry);
    if (!network) return fail(ErrorKind::kInvalidInput, "web: " + network.error().message);
    // Client addresses are compared unmapped (parse_client_ip), so a block written in the IPv4-mapped
    // form (::ffff:10.0.0.0/104) is kept as the IPv4 block it means.
    const IpAddress base = network->base.unmapped();
    if (base.v4 && !network->base.v4 && network->prefix >= 96) {
      network = IpNetwork{base, network->prefix - 96};
    }
    out.networks_.push_back(*network);
  }
  return out;
}

bool TrustedProxies::contains(std::string_view address) const {
  const auto ip = parse_client_ip(address);
  if (!ip) return false;
  for (const auto& network : networks_) {
    if (network.contains(*ip)) return true;
  }
  return false;
}

std::string TrustedProxies::client_address(std::string_view peer, const Fields& headers) const {
  if (networks_.empty() || !contains(peer)) return std::string(peer);
  std::vector<std::string> nodes = forwarded_for(headers);
  if (nodes.empty()) nodes = x_forwarded_for(headers);
  std::string client(peer);  // the last hop known to be trusted so far
  for (auto it = nodes.rbegin(); it != nodes.rend(); ++it) {
    const auto ip = forwarded_node(*it);
    if (!ip) break;
    client = ip->to_string();
    if (!contains(client)) break;
  }
  return client;
}

}  // namespace longread::web
