// Shared set-up of the subcommands: opening the store, the first-run import, client and crawl options.
#pragma once

#include <memory>
#include <string_view>

#include "config/config.h"
#include "core/error.h"
#include "curate/curate.h"
#include "fetch/http_client.h"
#include "pipeline/crawler.h"
#include "storage/lifecycle.h"
#include "storage/store.h"

namespace longread::app {

// Prints "longread: <message>" on stderr and returns exit code 1: how every subcommand reports a failure.
int report_failure(const Error& error);

// Opens the configured database (creating its folder); prints the error and returns null on failure.
std::unique_ptr<storage::Store> open_store(const config::Config& config);
// On first run (no blogs yet) imports the default blog list; false (after printing why) on failure.
bool ensure_blogs(const config::Config& config, storage::Store& store);
// Imports the blogs of an OPML document; returns how many the list held.
Result<int> import_opml_text(storage::BlogStore& store, std::string_view text);
fetch::ClientOptions client_options(const config::Config& config);
pipeline::CrawlOptions crawl_options(const config::Config& config, bool all);
// lifecycle.* as the storage layer's rules (the admin area's lists, the automatic retirement).
storage::LifecycleRules lifecycle_rules(const config::Config& config);
// After a crawl pass: the automatic retirement of dead / inactive blogs when configured (logged; a
// failure is logged and changes nothing else).
void retire_after_crawl(const config::Config& config, storage::Store& store);
// The trained category classifier (`longread train`), when there is one.
std::optional<curate::CategoryClassifier> load_classifier(const config::Config& config);
std::string model_path(const config::Config& config);

}  // namespace longread::app
