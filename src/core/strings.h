// Small string helpers used across stages (UTF-8 aware where it matters).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace longread {

std::string_view trim(std::string_view s) noexcept;
std::string to_lower_ascii(std::string_view s);
bool iequals(std::string_view a, std::string_view b) noexcept;
bool starts_with_icase(std::string_view s, std::string_view prefix) noexcept;
std::vector<std::string_view> split(std::string_view s, char sep);

// Replaces every invalid UTF-8 sequence with U+FFFD, drops NUL and C0 controls except \t \n \r.
std::string sanitize_utf8(std::string_view s);
bool is_valid_utf8(std::string_view s) noexcept;
// Appends the UTF-8 encoding of a code point (invalid ones become U+FFFD).
void append_utf8(std::string& out, char32_t cp);

// Folds runs of whitespace into one space and trims the ends.
std::string collapse_whitespace(std::string_view s);
// Cuts at most `max_bytes` bytes at a word boundary (never inside a UTF-8 sequence) and appends "…"
// when anything was cut.
std::string truncate_words(std::string_view s, std::size_t max_bytes);
// A plain text (paragraphs apart by blank lines) after its first paragraph when that paragraph only repeats
// `title` (whitespace and ASCII case aside, or with a trailing ':'): many feeds open the body with the
// post's own heading, which an excerpt under the title should not say twice. Otherwise `text` itself.
std::string_view without_title_heading(std::string_view text, std::string_view title);
// Counts words (runs of non-space characters).
std::size_t count_words(std::string_view s) noexcept;

// Lowercase ASCII slug for URLs: "Lock-free Queues, part 2" -> "lock-free-queues-part-2".
std::string slugify(std::string_view s, std::size_t max_len = 60);

// Appends `s` with & < > " ' replaced by character references: safe as HTML text and inside
// double- or single-quoted attribute values (HTML Living Standard 13.1.2.3, 13.2.6).
void append_html_escaped(std::string& out, std::string_view s);
std::string html_escape(std::string_view s);

// Hex of a 64-bit FNV-1a hash: stable identity keys that are not security relevant.
std::string stable_hash_hex(std::string_view s);

}  // namespace longread
