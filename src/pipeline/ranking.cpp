#include "pipeline/ranking.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

#include "core/strings.h"

namespace longread::pipeline {
namespace {

constexpr int kProseWords = 15;
constexpr int kHeadingMaxWords = 12;
constexpr std::size_t kRateEntries = 50;
constexpr double kDaysPerMonth = 30.44;

bool ends_sentence(std::string_view paragraph) {
  while (!paragraph.empty() && (paragraph.back() == ' ' || paragraph.back() == '\n'))
    paragraph.remove_suffix(1);
  if (paragraph.empty()) return true;
  if (paragraph.ends_with("…") || paragraph.ends_with("”") || paragraph.ends_with("’")) return true;
  const char last = paragraph.back();
  return last == '.' || last == '!' || last == '?' || last == ':' || last == ';' || last == ',' ||
         last == '"' || last == '\'' || last == ')';
}

}  // namespace

TextShape text_shape(std::string_view text, int words) {
  TextShape shape;
  shape.words = words;
  std::vector<std::string_view> paragraphs;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = text.find("\n\n", start);
    const std::string_view p =
        text.substr(start, end == std::string_view::npos ? text.size() - start : end - start);
    if (!trim(p).empty()) paragraphs.push_back(trim(p));
    if (end == std::string_view::npos) break;
    start = end + 2;
  }
  for (std::size_t i = 0; i < paragraphs.size(); ++i) {
    const std::string_view p = paragraphs[i];
    const auto n = static_cast<int>(count_words(p));
    if (p.find('\n') != std::string_view::npos) {
      ++shape.code_blocks;
    } else if (n >= kProseWords) {
      ++shape.prose_paragraphs;
    } else if (n > 0 && n <= kHeadingMaxWords && !ends_sentence(p) && i + 1 < paragraphs.size() &&
               static_cast<int>(count_words(paragraphs[i + 1])) >= kProseWords) {
      ++shape.headings;
    }
  }
  return shape;
}

double depth_score(const TextShape& shape, const RankingOptions& options) {
  const double reference = std::max(options.reference_words, 1);
  const double length = std::clamp(std::log2(std::max(shape.words, 1) / reference), -2.0, 1.0);
  const double structure = 0.25 * std::min(1.0, shape.headings / 3.0) +
                           0.25 * std::min(1.0, shape.code_blocks / 2.0) +
                           0.25 * std::min(1.0, shape.prose_paragraphs / 8.0);
  return length + structure;
}

std::optional<double> posts_per_month(std::span<const TimePoint> dates) {
  if (dates.size() < 3) return std::nullopt;
  std::vector<TimePoint> sorted(dates.begin(), dates.end());
  std::ranges::sort(sorted, std::greater<>());
  if (sorted.size() > kRateEntries) sorted.resize(kRateEntries);
  const auto span = std::chrono::duration<double, std::ratio<86400>>(sorted.front() - sorted.back()).count();
  return static_cast<double>(sorted.size() - 1) / (std::max(span, 1.0) / kDaysPerMonth);
}

double quiet_score(std::optional<double> rate, const RankingOptions& options) {
  if (!rate || *rate <= 0) return 0.0;
  return std::clamp(std::log10(options.reference_posts_per_month / *rate), -2.0, 1.0);
}

double rank_prior(const model::Article& article, std::optional<double> rate, const RankingOptions& options) {
  const TextShape shape = text_shape(article.text, article.word_count);
  return options.depth_weight_days * depth_score(shape, options) +
         options.quiet_weight_days * quiet_score(rate, options);
}

}  // namespace longread::pipeline
