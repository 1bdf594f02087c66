// `longread rejudge [--blog ID] [--dry-run] [--text]`: the junk rules again over stored articles, with
// today's settings (curate.min_words, curate.languages) and each blog's short-form flag; with --text, on
// texts derived again from the stored HTML.
#include "app/rejudge_cmd.h"

#include <fmt/format.h>

#include "app/commands.h"
#include "app/store_setup.h"
#include "curate/curate.h"
#include "pipeline/rejudge.h"
#include "storage/store.h"

namespace longread::app {

namespace {

std::string describe(const std::string& reason) {
  return reason.empty() ? "kept" : "junk (" + reason + ")";
}

}  // namespace

int print_rejudged(const pipeline::RejudgeSummary& summary, bool dry_run, std::size_t max_lines) {
  std::size_t shown_lines = 0;
  for (const auto& change : summary.changes) {
    if (shown_lines++ == max_lines) {
      fmt::print("  ... and {} more\n", summary.changes.size() - max_lines);
      break;
    }
    std::string note;
    if (change.visible_before == change.visible_after)
      note = change.visible_after ? "  (kept by the operator: stays on the site)"
                                  : "  (marked junk by the operator: stays hidden)";
    fmt::print("  article {} \"{:.60}\": {} -> {}{}\n", change.article_id, change.title,
               describe(change.old_reason), describe(change.new_reason), note);
  }
  fmt::print("{} {} articles: {} verdicts {}, {} {} the site, {} {} to it{}\n",
             dry_run ? "would rejudge" : "rejudged", summary.judged, summary.changes.size(),
             dry_run ? "would change" : "changed", summary.hidden(), dry_run ? "would leave" : "left",
             summary.shown(), dry_run ? "would return" : "returned",
             dry_run ? " (dry run: nothing stored)" : "");
  return 0;
}

curate::JunkOptions junk_options(const config::Config& config) {
  return {.languages = config.curate.languages, .min_words = config.curate.min_words};
}

int cmd_rejudge(const config::Config& config, std::optional<std::int64_t> blog_id, bool dry_run,
                bool rebuild_texts) {
  auto store = open_store(config);
  if (!store) return 1;
  if (blog_id) {
    auto blog = store->blog(*blog_id);
    if (!blog) return report_failure(blog.error());
    if (!*blog) {
      fmt::print(stderr, "longread: no blog with id {} (see `longread blogs`)\n", *blog_id);
      return 1;
    }
  }
  auto summary = pipeline::rejudge(*store, *store, junk_options(config), blog_id, dry_run, rebuild_texts);
  if (!summary) return report_failure(summary.error());
  if (rebuild_texts) {
    fmt::print("{} {} article texts from their stored HTML\n", dry_run ? "would rebuild" : "rebuilt",
               summary->texts_rebuilt);
  }
  return print_rejudged(*summary, dry_run, 50);
}

}  // namespace longread::app
