// The named parameters both backends' article statements share, bound onto either backend's Query (the
// SQL reads alike in both, so the names and values do too).
#pragma once

#include <bit>
#include <cstdint>
#include <string>

#include "model/model.h"

namespace longread::storage {

// An article's curation (":excerpt" … ":rank_prior"): what an insert, an update and a curation refresh all
// write. `category` is where the article is filed; `from_blog` says it is its blog's. The text is bound by
// each backend, which stores it in its own way (SQLite packs it in SQL, PostgreSQL before the statement).
template <typename Query>
void bind_curation(Query& q, const model::Article& a, const std::string& category, bool from_blog) {
  q.bind(":excerpt", a.excerpt).bind(":word_count", a.word_count);
  q.bind(":reading_minutes", a.reading_minutes).bind(":category", category);
  q.bind(":category_from_blog", from_blog).bind(":junk", a.junk);
  q.bind(":junk_reason", a.junk_reason).bind(":duplicate_of", a.duplicate_of);
  q.bind(":full_text_fetched", a.full_text_fetched);
  q.bind(":full_text_failures", a.full_text_failures);
  q.bind(":full_text_error", a.full_text_error);
  q.bind(":simhash", std::bit_cast<std::int64_t>(a.simhash));
  q.bind(":rank_prior", a.rank_prior);
}

}  // namespace longread::storage
