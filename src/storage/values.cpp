#include "storage/values.h"

#include <algorithm>
#include <cctype>

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

SimilarTermStats similar_term_stats(std::span<const std::uint32_t> buckets,
                                    const std::unordered_map<std::int64_t, std::int64_t>& stored) {
  auto df = [&](std::int64_t bucket) {
    const auto it = stored.find(bucket);
    return it == stored.end() ? std::int64_t{0} : it->second;
  };
  SimilarTermStats out;
  out.documents = df(kDocumentsBucket);
  out.df.reserve(buckets.size());
  for (const auto bucket : buckets) out.df.push_back(df(bucket));
  return out;
}

}  // namespace longread::storage
