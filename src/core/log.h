// Logging setup. Components log through spdlog with stable keys (blog_id=, feed_url=, article_id=).
#pragma once

#include <string_view>

namespace longread {

// Configures the default spdlog logger: level from "trace|debug|info|warn|error|off", to stderr.
void setup_logging(std::string_view level);

}  // namespace longread
