// Turns one parsed feed entry into a stored article: identity, dates, link policy, text, excerpt and
// curation verdict. Pure: no I/O, so the crawler, `inspect` and the tests share it.
#pragma once

#include <string>
#include <vector>

#include "core/time.h"
#include "model/model.h"

namespace longread::feed {
struct Entry;
struct Feed;
}  // namespace longread::feed

namespace longread::html {
struct FeedTemplate;
}  // namespace longread::html

namespace longread::curate {
class CategoryClassifier;
struct JunkOptions;
}  // namespace longread::curate

namespace longread::pipeline {

// What curation needs besides the entry itself.
struct CurationContext {
  const curate::CategoryClassifier* classifier = nullptr;  // may be null: the blog's category is used
  const curate::JunkOptions* junk_options = nullptr;       // null: defaults
  double category_threshold = 0.8;
  // The blog's template (html::learn_feed_template over its recent entries), removed from the text before
  // it is counted and judged. Null: none known (a blog's context, never shared between blogs).
  const html::FeedTemplate* feed_template = nullptr;
};

// Identity of an entry within its blog: the feed's guid, else the canonical link, else a hash of title
// and date (re-crawling must add nothing). A guid or link over 1,024 bytes is replaced by a hash of it.
std::string entry_identity(const feed::Entry& entry);

// Builds the article for `entry` of `blog` as first seen at `now`. Dates that are impossible (year 0001,
// more than a day ahead) make the article undated; a link that is not http(s) is dropped.
model::Article build_article(const feed::Entry& entry, const model::Blog& blog, TimePoint now,
                             const CurationContext& context);

// An article built from an entry, with what the entry's HTML showed before curation removed it.
struct BuiltArticle {
  model::Article article;
  // The text of the article's body (article_body), before boilerplate and template removal, ended in a
  // truncation marker ("Continue reading →"): a sign of a summary (html::looks_like_summary), given here
  // so that the crawler need not parse the entry's HTML a second time to find it.
  bool body_text_ends_with_marker = false;
};
// build_article, with that sign.
BuiltArticle build_article_with_signs(const feed::Entry& entry, const model::Blog& blog, TimePoint now,
                                      const CurationContext& context);

// The HTML an article's text is made from: the longer of its content and its summary.
const std::string& article_body(const model::Article& article);

// The article's text before any template is removed: html_to_text of the longer of its content and
// summary, feed boilerplate stripped. What a blog's template is learned from.
std::string untemplated_text(const model::Article& article);
// The same for a feed entry as parsed.
std::string untemplated_text(const feed::Entry& entry);

// Derives text, excerpt, word count, reading time and SimHash from the article's HTML (the longer of
// content and summary), with today's extraction and boilerplate rules and, when given, without the blog's
// template.
void rebuild_text(model::Article& article, const html::FeedTemplate* feed_template = nullptr);

// Removes the blog's template (context.feed_template) from an article built without it; when the text
// changes, excerpt, counts, category and verdict are derived again. Nothing happens without a template.
void apply_feed_template(model::Article& article, const model::Blog& blog, const CurationContext& context);

// Re-derives text, excerpt, counts, category and verdict from the article's current HTML (used after a
// full-text fetch replaced the content).
void curate_article(model::Article& article, const model::Blog& blog, const CurationContext& context);

// All entries of a feed, deduplicated by identity (first occurrence wins). Without a template in the
// context, the blog's template is learned from these entries alone and removed from each.
std::vector<model::Article> build_articles(const feed::Feed& feed, const model::Blog& blog, TimePoint now,
                                           const CurationContext& context);

}  // namespace longread::pipeline
