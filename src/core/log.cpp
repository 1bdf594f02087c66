#include "core/log.h"

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <string>

namespace longread {

void setup_logging(std::string_view level) {
  auto logger = spdlog::stderr_color_mt("longread");
  spdlog::set_default_logger(logger);
  spdlog::set_pattern("%Y-%m-%dT%H:%M:%S.%e%z %l %v");
  spdlog::set_level(spdlog::level::from_str(std::string(level)));
}

}  // namespace longread
