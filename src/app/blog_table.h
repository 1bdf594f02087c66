// The operator's table of blogs (`longread blogs`, and the row `blogs edit/pause/resume` print).
#pragma once

#include <span>

#include "model/model.h"

namespace longread::app {

// Prints the header and one row per blog: id, title, category, feed URL, crawl state, next due ("now",
// a time, or "paused"), visible articles.
void print_blog_table(std::span<const model::Blog> blogs);

}  // namespace longread::app
