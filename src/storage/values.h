// Pure helpers both backends use to turn domain values into what they store: no SQL, no I/O.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "model/model.h"
#include "storage/types.h"

namespace longread::storage {

// The category every blog without one is filed under.
inline constexpr const char* kDefaultCategory = "uncategorized";

// A category's display name from its slug: "machine-learning" -> "Machine Learning".
std::string category_name(std::string_view slug);

// The content hash an article is stored with: the pipeline's, else a hash of what the feed gave.
std::string effective_content_hash(const model::Article& article);

// "a.example b.example" -> {"a.example", "b.example"} (blogs.allowed_hosts).
std::vector<std::string> split_words(std::string_view text);

// similar_terms' row that counts the articles (documents) rather than a term bucket.
inline constexpr std::int64_t kDocumentsBucket = -1;

// A count_similar_terms batch as rows to add: each distinct bucket with how many times it is in `buckets`,
// ascending, after kDocumentsBucket with `articles` (that row only when articles > 0).
std::vector<std::pair<std::int64_t, std::int64_t>> similar_term_counts(std::span<const std::uint32_t> buckets,
                                                                       int articles);
// The frequencies from before a batch, per bucket asked: `after` holds each counted bucket's frequency
// after it (missing: 0), `counts` what the batch added (empty when it only read).
SimilarTermStats similar_terms_before(std::span<const std::uint32_t> buckets,
                                      const std::vector<std::pair<std::int64_t, std::int64_t>>& counts,
                                      const std::unordered_map<std::int64_t, std::int64_t>& after);

}  // namespace longread::storage
