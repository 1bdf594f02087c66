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
class ArticleStore;
class BlogStore;
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
  std::int64_t texts_rebuilt = 0;      // with rebuild_texts: articles whose text, excerpt or counts changed
  std::vector<VerdictChange> changes;  // oldest verdicts first as listed by the store (newest article first)
  [[nodiscard]] std::int64_t hidden() const;  // visible before, hidden now
  [[nodiscard]] std::int64_t shown() const;   // hidden before, visible now
};

// Judges every stored article of `blog_id` (every blog when nullopt) with curate::judge, the stored text
// and the blog as stored now, and, unless `dry_run`, saves the changed verdicts in one transaction.
// With `rebuild_texts`, each article's text, excerpt, word count, reading time and SimHash are first
// derived again from its stored HTML with today's extraction and boilerplate rules and without its blog's
// template, learned from runs of 30 of the blog's stored articles (rebuild_text), the
// changed ones saved in batches of 200 (a transaction each) before the verdicts, and the verdict judged
// on the new text; a duplicate gets its new text but keeps its mark.
// Reads the blogs from `blog_store`, reads and saves the articles in `article_store`.
[[nodiscard]] Result<RejudgeSummary> rejudge(storage::BlogStore& blog_store,
                                             storage::ArticleStore& article_store,
                                             const curate::JunkOptions& options,
                                             std::optional<std::int64_t> blog_id, bool dry_run,
                                             bool rebuild_texts = false);

}  // namespace longread::pipeline
