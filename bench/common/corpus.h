// Reading the real-feeds corpus for benchmarks: which files are feeds, and their bytes.
#pragma once

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

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

// Every feed file under `dir` (recursively, in path order), read into memory, and their total size.
struct FeedFiles {
  std::vector<std::string> contents;
  std::size_t bytes = 0;
};
inline FeedFiles read_feed_files(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> paths;
  for (const auto& item : std::filesystem::recursive_directory_iterator(dir))
    if (item.is_regular_file() && is_feed_file(item.path())) paths.push_back(item.path());
  std::sort(paths.begin(), paths.end());
  FeedFiles out;
  for (const auto& p : paths) {
    out.contents.push_back(read_file(p));
    out.bytes += out.contents.back().size();
  }
  return out;
}

}  // namespace longread::bench
