// Reading the real-feeds corpus for benchmarks: which files are feeds, and their bytes.
#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace longread::bench {

// Feeds only: skips licences, notes, feed-rs's expectation JSON and the OPML lists.
inline bool is_feed_file(const std::filesystem::path& p) {
  const std::string name = p.filename().string();
  if (name.starts_with("LICENSE") || name == "COPYING" || name.ends_with(".md") ||
      name.ends_with(".serde.json"))
    return false;
  return p.parent_path().filename() != "opml";
}

inline std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace longread::bench
