// Pure helpers both backends use to turn domain values into what they store: no SQL, no I/O.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "model/model.h"

namespace longread::storage {

// The category every blog without one is filed under.
inline constexpr const char* kDefaultCategory = "uncategorized";

// A category's display name from its slug: "machine-learning" -> "Machine Learning".
std::string category_name(std::string_view slug);

// The content hash an article is stored with: the pipeline's, else a hash of what the feed gave.
std::string effective_content_hash(const model::Article& article);

// "a.example b.example" -> {"a.example", "b.example"} (blogs.allowed_hosts).
std::vector<std::string> split_words(std::string_view text);

}  // namespace longread::storage
