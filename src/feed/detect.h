// Format detection: one short function that names the format or says why the bytes are not a feed.
#pragma once

#include <cstddef>
#include <string_view>

#include "core/error.h"

namespace longread::feed {

enum class Format { kRss, kRdf, kAtom, kJsonFeed };

struct Detected {
  Format format = Format::kRss;
  std::size_t start = 0;  // offset of the document's first '<' or '{'; anything before it is junk
};

// Looks at the prolog and root element name of UTF-8 text. Errors (kNotAFeed): "feed: not a feed: empty
// document", "feed: not a feed: got an HTML page", "feed: not a feed: unknown root element <x>", ...
[[nodiscard]] Result<Detected> detect_format(std::string_view text);

}  // namespace longread::feed
