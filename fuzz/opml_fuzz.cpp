// Harness: feed::parse_opml on hostile bytes (a reader's or operator's uploaded subscription list). Checks
// opml.h's promises: strings are valid UTF-8, every blog has a feed URL, errors begin with "opml: ", and
// write_opml round-trips: reading back what was written gives the same feed URLs (write_opml groups them by
// category, so the order may change).
#include <algorithm>
#include <string>
#include <vector>

#include "core/strings.h"
#include "feed/opml.h"
#include "fuzz/fuzz_support.h"

namespace longread::fuzz {

int opml_harness(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  auto blogs = feed::parse_opml(bytes);
  if (!blogs) {
    require(blogs.error().message.starts_with("opml: "));
    require(is_valid_utf8(blogs.error().message));
    return 0;
  }
  for (const auto& b : *blogs) {
    require(!b.feed_url.empty());
    for (const auto* s : {&b.feed_url, &b.site_url, &b.title, &b.category}) require(is_valid_utf8(*s));
  }
  auto again = feed::parse_opml(feed::write_opml(*blogs, "fuzz"));
  require(again.has_value());
  require(again->size() == blogs->size());
  std::vector<std::string> before, after;
  for (const auto& b : *blogs) before.push_back(b.feed_url);
  for (const auto& b : *again) after.push_back(b.feed_url);
  std::sort(before.begin(), before.end());
  std::sort(after.begin(), after.end());
  require(before == after);
  return 0;
}

}  // namespace longread::fuzz

LONGREAD_FUZZ_ENTRY(longread::fuzz::opml_harness)
