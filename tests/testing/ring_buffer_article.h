// An article of a test blog on ring buffers, as the similar-articles tests store them: the same words in
// every article (so each is similar to the others) plus its own guid, and a simhash of its own (so none is
// taken for a copy of another).
#pragma once

#include <cstdint>
#include <string>

#include "core/time.h"
#include "model/model.h"

namespace longread::testing {

// The `i`th article of the blog `blog_name` (id `blog`), published at `published` and first seen at
// `first_seen`; its text is `words` followed by its guid.
inline model::Article ring_buffer_article(const std::string& blog_name, std::int64_t blog, int i,
                                          TimePoint published, TimePoint first_seen,
                                          const std::string& words) {
  model::Article a;
  a.guid = blog_name + std::to_string(i);
  a.title = "Ring buffers, part " + std::to_string(i);
  a.link = "https://" + blog_name + ".example/" + a.guid;
  a.published = published;
  a.first_seen = first_seen;
  a.text = words + a.guid;
  a.word_count = 900;
  a.simhash = 0x9E3779B97F4A7C15ULL * static_cast<std::uint64_t>(i + 1 + 10 * blog);
  return a;
}

}  // namespace longread::testing
