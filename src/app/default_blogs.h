// The default blog list (blogs/default.opml), embedded at build time so the binary runs from anywhere.
#pragma once

#include <string_view>

namespace longread::app {
std::string_view default_blog_list_opml();
}
