#include "core/ip_address.h"

#include <arpa/inet.h>
#include <fmt/format.h>
#include <netinet/in.h>

#include <algorithm>
#include <charconv>
#include <cstring>
#include <initializer_list>

#include "core/strings.h"

namespace longread {
namespace {

constexpr std::array<std::uint8_t, 12> kMappedPrefix{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};

bool has_prefix(const IpAddress& a, std::initializer_list<std::uint8_t> prefix) {
  return std::equal(prefix.begin(), prefix.end(), a.bytes.begin());
}

IpAddress v4_from(const IpAddress& a, std::size_t offset) {
  IpAddress out;
  out.v4 = true;
  std::copy_n(a.bytes.begin() + static_cast<std::ptrdiff_t>(offset), 4, out.bytes.begin());
  return out;
}

}  // namespace

std::optional<IpAddress> IpAddress::parse(std::string_view text) {
  if (text.empty() || text.size() >= INET6_ADDRSTRLEN) return std::nullopt;
  const std::string copy(text);
  IpAddress out;
  if (inet_pton(AF_INET, copy.c_str(), out.bytes.data()) == 1) {
    out.v4 = true;
    return out;
  }
  if (inet_pton(AF_INET6, copy.c_str(), out.bytes.data()) == 1) return out;
  return std::nullopt;
}

std::optional<IpAddress> IpAddress::from_sockaddr(const sockaddr* address, socklen_t length) {
  if (address == nullptr) return std::nullopt;
  IpAddress out;
  if (address->sa_family == AF_INET && length >= static_cast<socklen_t>(sizeof(sockaddr_in))) {
    sockaddr_in in{};
    std::memcpy(&in, address, sizeof in);
    std::memcpy(out.bytes.data(), &in.sin_addr, 4);
    out.v4 = true;
    return out;
  }
  if (address->sa_family == AF_INET6 && length >= static_cast<socklen_t>(sizeof(sockaddr_in6))) {
    sockaddr_in6 in6{};
    std::memcpy(&in6, address, sizeof in6);
    std::memcpy(out.bytes.data(), &in6.sin6_addr, 16);
    return out;
  }
  return std::nullopt;
}

std::string IpAddress::to_string() const {
  std::array<char, INET6_ADDRSTRLEN> text{};
  if (inet_ntop(v4 ? AF_INET : AF_INET6, bytes.data(), text.data(), text.size()) == nullptr) return "?";
  return text.data();
}

std::optional<IpAddress> IpAddress::embedded_v4() const {
  if (v4) return std::nullopt;
  constexpr std::array<std::uint8_t, 12> kCompatible{};
  if (std::equal(kMappedPrefix.begin(), kMappedPrefix.end(), bytes.begin())) return v4_from(*this, 12);
  // ::/96 holds :: and ::1 too, which are IPv6's own unspecified and loopback addresses, not IPv4 ones.
  if (std::equal(kCompatible.begin(), kCompatible.end(), bytes.begin())) {
    const bool unspecified_or_loopback = bytes[12] == 0 && bytes[13] == 0 && bytes[14] == 0 && bytes[15] <= 1;
    if (unspecified_or_loopback) return std::nullopt;
    return v4_from(*this, 12);
  }
  if (has_prefix(*this, {0x00, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0})) return v4_from(*this, 12);
  if (has_prefix(*this, {0x20, 0x02})) return v4_from(*this, 2);
  return std::nullopt;
}

IpAddress IpAddress::unmapped() const {
  if (!v4 && std::equal(kMappedPrefix.begin(), kMappedPrefix.end(), bytes.begin())) return v4_from(*this, 12);
  return *this;
}

Result<IpNetwork> IpNetwork::parse(std::string_view text) {
  const auto bad = [&] {
    return fail(ErrorKind::kInvalidInput,
                fmt::format("not an address or CIDR block: \"{}\"", sanitize_utf8(text)));
  };
  const auto trimmed = trim(text);
  const auto slash = trimmed.find('/');
  auto address = IpAddress::parse(trimmed.substr(0, slash));
  if (!address) return bad();
  const int max = address->v4 ? 32 : 128;
  int prefix = max;
  if (slash != std::string_view::npos) {
    const std::string_view digits = trimmed.substr(slash + 1);
    const auto* end = digits.data() + digits.size();
    auto [p, ec] = std::from_chars(digits.data(), end, prefix);
    if (digits.empty() || ec != std::errc{} || p != end || prefix < 0 || prefix > max) return bad();
  }
  IpNetwork network{*address, prefix};
  for (int bit = prefix; bit < max; ++bit) {
    network.base.bytes[static_cast<std::size_t>(bit / 8)] &= static_cast<std::uint8_t>(~(0x80U >> (bit % 8)));
  }
  return network;
}

bool IpNetwork::contains(const IpAddress& address) const {
  if (address.v4 != base.v4) return false;
  const int whole = prefix / 8;
  for (int i = 0; i < whole; ++i) {
    if (address.bytes[static_cast<std::size_t>(i)] != base.bytes[static_cast<std::size_t>(i)]) return false;
  }
  const int rest = prefix % 8;
  if (rest == 0) return true;
  const auto mask = static_cast<std::uint8_t>(0xffU << (8 - rest));
  return (address.bytes[static_cast<std::size_t>(whole)] & mask) ==
         (base.bytes[static_cast<std::size_t>(whole)] & mask);
}

std::string IpNetwork::to_string() const {
  return fmt::format("{}/{}", base.to_string(), prefix);
}

}  // namespace longread
