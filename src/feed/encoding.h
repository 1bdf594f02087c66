// Character encoding of feed bytes: BOM, HTTP charset and XML declaration decide (RFC 7303 section 3,
// XML 1.0 appendix F); the text is converted to UTF-8 with iconv, and bytes that are not valid in the
// declared encoding are repaired instead of rejected.
#pragma once

#include <string>
#include <string_view>

namespace longread::feed {

struct DecodedText {
  std::string converted;      // the converted text, when a conversion or repair was needed
  std::string_view original;  // else the input without its BOM (points into the caller's bytes)
  bool use_converted = false;
  std::string encoding;   // lower-case name: "utf-8", "iso-8859-1", "utf-16le", ...
  bool repaired = false;  // some bytes were not valid in the declared encoding
  std::string message;    // what was repaired

  // The UTF-8 text.
  [[nodiscard]] std::string_view text() const {
    return use_converted ? std::string_view(converted) : original;
  }
};

// Decodes `bytes` (kept alive by the caller while the result's `text` may point into them).
DecodedText decode_to_utf8(std::string_view bytes, std::string_view content_type);

// Repairs text that should be UTF-8: every byte that does not start a valid UTF-8 sequence is read as
// windows-1252 (the usual culprit: latin-1 text in a document declared UTF-8).
std::string repair_utf8(std::string_view bytes);

// Replaces C1 control characters U+0080..U+009F, which in feeds are always windows-1252 bytes mislabelled as
// latin-1 or double-encoded, by the characters windows-1252 means (as browsers do for &#128;..&#159;,
// HTML Living Standard 13.2.5.80).
void demoronize(std::string& text);

}  // namespace longread::feed
