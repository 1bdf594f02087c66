// Crawl progress for the CLI: a progress bar on a terminal, one structured log line per blog otherwise.
#pragma once

#include <memory>

#include "pipeline/crawler.h"

namespace longread::app {

// Picks the bar when stderr is a terminal.
std::unique_ptr<pipeline::CrawlObserver> make_crawl_observer(bool terminal);

// The end-of-crawl summary: fetched, not modified, failed (by kind), new and updated articles, time.
std::string format_summary(const pipeline::CrawlSummary& summary);

}  // namespace longread::app
