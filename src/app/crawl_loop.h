// The crawler as a long-running job: a pass over the due blogs, the retirement of dead blogs, a slice of the
// similar-articles catch-up and the search index's upkeep, then a wait of a minute (blogs fall due at their
// own times), until asked to stop. `serve` runs it on a thread of its own; `crawl --loop` runs it as
// the whole process, beside web processes started with `serve --no-crawl`.
#pragma once

#include <stop_token>

#include "app/metrics.h"
#include "config/config.h"
#include "storage/store.h"

namespace longread::app {

// Each blog's result is one transaction, so a stop mid-pass loses nothing already stored; the blogs the
// pass had claimed and not recorded are given back (due again at once).
void crawl_loop(std::stop_token stop, const config::Config& config, storage::Store& store, Metrics& metrics);

}  // namespace longread::app
