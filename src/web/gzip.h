// gzip (RFC 1952) through zlib, for Content-Encoding: gzip responses (RFC 9110 section 8.4.1.3).
#pragma once

#include <string>
#include <string_view>

#include "core/error.h"

namespace longread::web {

// Compresses `data` into a gzip member. Level 6 is zlib's default speed/size trade-off.
Result<std::string> gzip_compress(std::string_view data, int level = 6);
// Decompresses a gzip member; refuses output larger than `max_bytes` (kTooLarge).
Result<std::string> gzip_decompress(std::string_view data, std::size_t max_bytes = 64u << 20);

}  // namespace longread::web
