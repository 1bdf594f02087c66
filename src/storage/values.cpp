#include "storage/values.h"

#include <algorithm>
#include <cctype>
#include <map>

#include "core/strings.h"

namespace longread::storage {

// "machine-learning" -> "Machine Learning".
std::string category_name(std::string_view slug) {
  std::string name;
  bool word_start = true;
  for (const char c : slug) {
    if (c == '-' || c == '_') {
      name += ' ';
      word_start = true;
    } else {
      name += word_start ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
      word_start = false;
    }
  }
  return name;
}

std::string effective_content_hash(const model::Article& article) {
  if (!article.content_hash.empty()) return article.content_hash;
  return stable_hash_hex(article.title + "\x1f" + article.summary_html + "\x1f" + article.content_html);
}

// "a.example b.example" -> {"a.example", "b.example"} (blogs.allowed_hosts, migration 0017).
std::vector<std::string> split_words(std::string_view text) {
  std::vector<std::string> out;
  for (auto word : split(text, ' ')) {
    if (!word.empty()) out.emplace_back(word);
  }
  return out;
}

std::vector<std::pair<std::int64_t, std::int64_t>> similar_term_counts(std::span<const std::uint32_t> buckets,
                                                                       int articles) {
  std::map<std::int64_t, std::int64_t> counts;
  if (articles > 0) counts[kDocumentsBucket] = articles;
  for (const auto bucket : buckets) ++counts[bucket];
  return {counts.begin(), counts.end()};
}

SimilarTermStats similar_terms_before(std::span<const std::uint32_t> buckets,
                                      const std::vector<std::pair<std::int64_t, std::int64_t>>& counts,
                                      const std::unordered_map<std::int64_t, std::int64_t>& after) {
  // `counts` is ascending by bucket (similar_term_counts).
  auto before = [&](std::int64_t bucket) {
    const auto now = after.find(bucket);
    const auto plus = std::lower_bound(counts.begin(), counts.end(), std::pair{bucket, std::int64_t{0}});
    const bool added = plus != counts.end() && plus->first == bucket;
    return (now == after.end() ? 0 : now->second) - (added ? plus->second : 0);
  };
  SimilarTermStats out;
  out.documents = before(kDocumentsBucket);
  out.df.reserve(buckets.size());
  for (const auto bucket : buckets) out.df.push_back(before(bucket));
  return out;
}

}  // namespace longread::storage
