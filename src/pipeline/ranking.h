// The prior of the hot order (docs/ranking.md): what an article is worth before any vote, in days of
// newness, so that it adds to the store's hot score (log10(1 + votes) + age in days). It favours depth
// (length against a reference, and structure: headings, code blocks, prose paragraphs) and quiet blogs
// (few posts per month) over volume. Pure functions: the crawler applies them to each article it stores.
#pragma once

#include <optional>
#include <span>
#include <string_view>

#include "core/time.h"
#include "model/model.h"

namespace longread::pipeline {

// The ranking.* settings that shape the prior (the per-blog cap is the site's).
struct RankingOptions {
  double depth_weight_days = 1.0;
  int reference_words = 1000;
  double quiet_weight_days = 1.0;
  double reference_posts_per_month = 4.0;
};

// The structure html_to_text leaves in a text (paragraphs apart by "\n\n", a <pre> block keeps its line
// breaks, a heading is its own paragraph).
struct TextShape {
  int words = 0;
  int prose_paragraphs = 0;  // paragraphs of at least 15 words
  int code_blocks = 0;       // paragraphs with line breaks inside (preformatted)
  int headings = 0;          // short paragraphs without end punctuation followed by prose
};
TextShape text_shape(std::string_view text, int words);

// In [-2, 1.75]: log2(words / reference_words) clamped to [-2, 1], plus up to 0.75 for structure
// (0.25 each for 3+ headings, 2+ code blocks, 8+ prose paragraphs, proportionally below).
double depth_score(const TextShape& shape, const RankingOptions& options);

// How often a blog posts, from the dates of its feed's entries: (n - 1) entries over the span from the
// oldest to the newest of the newest 50 (at least a day), per 30.44 days. nullopt below 3 dates.
std::optional<double> posts_per_month(std::span<const TimePoint> dates);

// In [-2, 1]: log10(reference_posts_per_month / posts_per_month) clamped; 0 when unknown.
double quiet_score(std::optional<double> posts_per_month, const RankingOptions& options);

// depth_weight_days * depth_score + quiet_weight_days * quiet_score, from the article's text and count.
double rank_prior(const model::Article& article, std::optional<double> posts_per_month,
                  const RankingOptions& options);

}  // namespace longread::pipeline
