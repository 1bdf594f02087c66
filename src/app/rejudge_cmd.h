// Shared by `longread rejudge` and `blogs edit --short-form`: the junk settings of the config, and the
// report of what a rejudge changed.
#pragma once

#include <cstddef>

#include "config/config.h"
#include "curate/curate.h"
#include "pipeline/rejudge.h"

namespace longread::app {

curate::JunkOptions junk_options(const config::Config& config);
// One line per changed article (at most `max_lines`), then the totals. Returns 0.
int print_rejudged(const pipeline::RejudgeSummary& summary, bool dry_run, std::size_t max_lines);

}  // namespace longread::app
