// Runs the junk rules again over stored articles (`longread rejudge`, `blogs edit --short-form`): after
// the operator changes what counts as junk (curate.min_words, curate.languages, a blog's short-form flag),
// the articles already stored follow, not only those crawled from now on.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/error.h"

namespace longread::storage {
class Store;
}  // namespace longread::storage

namespace longread::curate {
struct JunkOptions;
}  // namespace longread::curate

namespace longread::pipeline {

// One article whose verdict changes.
struct VerdictChange {
  std::int64_t article_id = 0;
  std::int64_t blog_id = 0;
  std::string title;
  std::string old_reason;  // empty: it was not junk
  std::string new_reason;  // empty: it is not junk now
  bool visible_before = false;
  bool visible_after = false;  // differs from before unless an operator's keep/junk override decides
};

struct RejudgeSummary {
  std::int64_t judged = 0;             // articles looked at (duplicates are not: their mark stands)
  std::vector<VerdictChange> changes;  // oldest verdicts first as listed by the store (newest article first)
  [[nodiscard]] std::int64_t hidden() const;  // visible before, hidden now
  [[nodiscard]] std::int64_t shown() const;   // hidden before, visible now
};

// Judges every stored article of `blog_id` (every blog when nullopt) with curate::judge, the stored text
// and the blog as stored now, and, unless `dry_run`, saves the changed verdicts in one transaction.
[[nodiscard]] Result<RejudgeSummary> rejudge(storage::Store& store, const curate::JunkOptions& options,
                                             std::optional<std::int64_t> blog_id, bool dry_run);

}  // namespace longread::pipeline
