// The operator's table of blogs (`longread blogs`, and the row `blogs edit/pause/resume` print).
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>

#include "model/model.h"

namespace longread::app {

// Prints the header and one row per blog: id, title, category, feed URL, crawl state, next due ("now",
// a time, "paused" or "quarantined"), visible articles.
void print_blog_table(std::span<const model::Blog> blogs);

// One cell of an operator's table: control characters (an SMTP reply's line ends) become spaces so a row
// stays one line, and text longer than `width` code points is cut, never inside a UTF-8 sequence, its last
// kept code point replaced by "~" (fmt pads by display width).
std::string table_cell(std::string_view text, std::size_t width);

}  // namespace longread::app
