// parse_bench DIR [REPS]: parses every feed file under DIR (recursively; licences, notes, OPML and feed-rs's
// .serde.json expectations excluded) REPS times on one thread, and prints MB/s and entries/s. The file
// selection matches feedparser_bench.py so that bench/parse/run.sh compares like with like.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "../common/corpus.h"
#include "feed/feed.h"

int main(int argc, char** argv) {
  if (argc < 2) {
    fmt::print(stderr, "usage: parse_bench DIR [REPS]\n");
    return 2;
  }
  const int reps = argc > 2 ? std::max(1, std::atoi(argv[2])) : 10;
  auto [files, bytes] = longread::bench::read_feed_files(argv[1]);

  std::size_t entries = 0, failures = 0;
  const auto start = std::chrono::steady_clock::now();
  const std::clock_t cpu_start = std::clock();
  for (int r = 0; r < reps; ++r) {
    for (const auto& f : files) {
      auto feed = longread::feed::parse_feed(f, {.base_url = "https://example.com/feed", .content_type = {}});
      if (feed)
        entries += feed->entries.size();
      else
        ++failures;
    }
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  // Rates per CPU second: the machine may be shared with builds.
  const double seconds = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
  const double mb = static_cast<double>(bytes) * reps / 1e6;
  fmt::print(
      "longread   files={} bytes={} reps={} entries={} failures={} wall={:.3f}s cpu={:.3f}s MB/s={:.2f} "
      "entries/s={:.0f}\n",
      files.size(), bytes, reps, entries / static_cast<std::size_t>(reps),
      failures / static_cast<std::size_t>(reps), wall, seconds, mb / seconds,
      static_cast<double>(entries) / seconds);
  return 0;
}
