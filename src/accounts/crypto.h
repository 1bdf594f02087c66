// The few cryptographic operations readers need, all from libsodium: random tokens, token hashes for
// storage, keyed MACs (HMAC-SHA-512-256, crypto_auth) for CSRF tokens and signed links, key derivation,
// and Argon2id password hashing (crypto_pwhash_str).
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <string_view>

#include "core/error.h"

namespace longread::accounts {

// A 32-byte secret key.
using Key = std::array<unsigned char, 32>;

// Initialises libsodium (idempotent, thread-safe); false only when the library cannot work here.
bool crypto_ready() noexcept;

// `bytes` random bytes as unpadded base64url (cookie- and URL-safe).
std::string random_token(std::size_t bytes = 32);
// BLAKE2b-256 of a token, hex: what the database keeps instead of the token.
std::string token_hash(std::string_view token);
// Whether a presented secret (an API token) equals the configured one, in time that depends on neither:
// both are hashed (BLAKE2b-256) and the digests compared with sodium_memcmp.
bool secrets_equal(std::string_view presented, std::string_view expected);
// A MAC of `message` under `key`, unpadded base64url; and its constant-time check.
std::string mac(const Key& key, std::string_view message);
bool mac_valid(const Key& key, std::string_view message, std::string_view tag);
// A subkey for one purpose (1 = CSRF, 2 = links, ...) derived from a master key (crypto_kdf).
Key derive_key(const Key& master, std::uint64_t purpose);
// Hex of 32 random bytes, and back (kInvalidInput when not 64 hex digits).
std::string new_master_key_hex();
Result<Key> key_from_hex(std::string_view hex);

// Argon2id cost. The defaults are libsodium's "interactive" limits (2 passes, 64 MiB); tests use the
// minimum so they stay fast.
struct PasswordCost {
  unsigned long long opslimit = 2;
  std::size_t memlimit = 64u * 1024u * 1024u;
  static PasswordCost minimum();
};
// An encoded Argon2id hash ("$argon2id$v=19$m=...") with a random salt.
Result<std::string> hash_password(std::string_view password, const PasswordCost& cost);
bool verify_password(std::string_view encoded_hash, std::string_view password);

}  // namespace longread::accounts
