#include "accounts/crypto.h"

#include <sodium.h>

#include <vector>

namespace longread::accounts {
namespace {

std::string base64url(const unsigned char* data, std::size_t size) {
  std::string out(sodium_base64_encoded_len(size, sodium_base64_VARIANT_URLSAFE_NO_PADDING), '\0');
  sodium_bin2base64(out.data(), out.size(), data, size, sodium_base64_VARIANT_URLSAFE_NO_PADDING);
  out.resize(std::char_traits<char>::length(out.c_str()));
  return out;
}

const auto* bytes(std::string_view s) {
  return reinterpret_cast<const unsigned char*>(s.data());
}

}  // namespace

bool crypto_ready() noexcept {
  static const bool ready = sodium_init() >= 0;
  return ready;
}

std::string random_token(std::size_t size) {
  crypto_ready();
  std::vector<unsigned char> buffer(size);
  randombytes_buf(buffer.data(), buffer.size());
  return base64url(buffer.data(), buffer.size());
}

std::string token_hash(std::string_view token) {
  crypto_ready();
  std::array<unsigned char, 32> digest{};
  crypto_generichash(digest.data(), digest.size(), bytes(token), token.size(), nullptr, 0);
  std::string hex(digest.size() * 2 + 1, '\0');
  sodium_bin2hex(hex.data(), hex.size(), digest.data(), digest.size());
  hex.pop_back();
  return hex;
}

bool secrets_equal(std::string_view presented, std::string_view expected) {
  crypto_ready();
  std::array<unsigned char, 32> a{};
  std::array<unsigned char, 32> b{};
  crypto_generichash(a.data(), a.size(), bytes(presented), presented.size(), nullptr, 0);
  crypto_generichash(b.data(), b.size(), bytes(expected), expected.size(), nullptr, 0);
  return sodium_memcmp(a.data(), b.data(), a.size()) == 0;
}

std::string mac(const Key& key, std::string_view message) {
  crypto_ready();
  std::array<unsigned char, crypto_auth_BYTES> tag{};
  crypto_auth(tag.data(), bytes(message), message.size(), key.data());
  return base64url(tag.data(), tag.size());
}

bool mac_valid(const Key& key, std::string_view message, std::string_view tag) {
  crypto_ready();
  std::array<unsigned char, crypto_auth_BYTES> raw{};
  std::size_t length = 0;
  if (tag.size() > 2 * crypto_auth_BYTES) return false;
  if (sodium_base642bin(raw.data(), raw.size(), tag.data(), tag.size(), nullptr, &length, nullptr,
                        sodium_base64_VARIANT_URLSAFE_NO_PADDING) != 0 ||
      length != raw.size()) {
    return false;
  }
  return crypto_auth_verify(raw.data(), bytes(message), message.size(), key.data()) == 0;
}

Key derive_key(const Key& master, std::uint64_t purpose) {
  crypto_ready();
  static_assert(crypto_kdf_KEYBYTES == 32);
  Key sub{};
  crypto_kdf_derive_from_key(sub.data(), sub.size(), purpose, "longread", master.data());
  return sub;
}

std::string new_master_key_hex() {
  crypto_ready();
  Key key{};
  randombytes_buf(key.data(), key.size());
  std::string hex(key.size() * 2 + 1, '\0');
  sodium_bin2hex(hex.data(), hex.size(), key.data(), key.size());
  hex.pop_back();
  sodium_memzero(key.data(), key.size());
  return hex;
}

Result<Key> key_from_hex(std::string_view hex) {
  Key key{};
  std::size_t length = 0;
  if (hex.size() != 64 ||
      sodium_hex2bin(key.data(), key.size(), hex.data(), hex.size(), nullptr, &length, nullptr) != 0 ||
      length != key.size()) {
    return fail(ErrorKind::kInvalidInput, "accounts: stored key is not 64 hex digits");
  }
  return key;
}

PasswordCost PasswordCost::minimum() {
  return {.opslimit = crypto_pwhash_OPSLIMIT_MIN, .memlimit = crypto_pwhash_MEMLIMIT_MIN};
}

Result<std::string> hash_password(std::string_view password, const PasswordCost& cost) {
  if (!crypto_ready()) return fail(ErrorKind::kInternal, "accounts: libsodium unavailable");
  std::string out(crypto_pwhash_STRBYTES, '\0');
  if (crypto_pwhash_str_alg(out.data(), password.data(), password.size(), cost.opslimit, cost.memlimit,
                            crypto_pwhash_ALG_ARGON2ID13) != 0) {
    return fail(ErrorKind::kInternal, "accounts: password hashing failed (out of memory?)");
  }
  out.resize(std::char_traits<char>::length(out.c_str()));
  return out;
}

bool verify_password(std::string_view encoded_hash, std::string_view password) {
  if (!crypto_ready() || encoded_hash.size() >= crypto_pwhash_STRBYTES) return false;
  const std::string hash(encoded_hash);  // NUL-terminated, as libsodium wants
  return crypto_pwhash_str_verify(hash.c_str(), password.data(), password.size()) == 0;
}

}  // namespace longread::accounts
