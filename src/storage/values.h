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

// A similar_term_frequencies answer from the rows read (bucket -> df; kDocumentsBucket -> documents; a
// bucket without a row has 0), per bucket asked in that order.
SimilarTermStats similar_term_stats(std::span<const std::uint32_t> buckets,
                                    const std::unordered_map<std::int64_t, std::int64_t>& stored);

}  // namespace longread::storage
