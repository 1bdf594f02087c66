// The modes of longread-conformance. A mode is one function taking the arguments after its name and
// returning the process exit code (0 all good, 1 unexpected failures, 2 usage, 77 corpus missing).
#pragma once

#include <filesystem>
#include <map>
#include <span>
#include <string>
#include <string_view>

namespace longread::conformance {

inline constexpr int kExitSkipped = 77;  // CTest SKIP_RETURN_CODE

// A known-failures list: "case reason..." per line, '#' starts a comment line (main.cpp).
std::map<std::string, std::string> read_known_failures(const std::filesystem::path& file);

// feedparser DIR [--known-failures FILE] [--verbose]: feedparser's tests/ cases against feed::parse_feed.
int run_feedparser(std::span<const std::string_view> args);

// readability DIR [--known-failures FILE]: Mozilla Readability's test pages against
// html::extract_main_content, token F1 of the texts (readability_mode.cpp).
int run_readability(std::span<const std::string_view> args);

}  // namespace longread::conformance
