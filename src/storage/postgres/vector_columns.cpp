#include "storage/postgres/vector_columns.h"

namespace longread::storage::postgres {
namespace {

constexpr std::string_view kClearsOldVector = ", search_vector = NULL";

// Whether LONGREAD_PG_SET_VECTORS sets exactly kVectorColumns, in order, then clears the old tsvector, each
// from its own parameter with its own cast: a column added to one and not the other fails the build.
constexpr bool set_list_matches() {
  std::string_view rest = LONGREAD_PG_SET_VECTORS;
  for (std::size_t i = 0; i < kVectorColumns.size(); ++i) {
    const auto& [name, cast] = kVectorColumns[i];
    const std::string_view separator = i == 0 ? " " : ", ";
    for (const std::string_view part : {separator, name, std::string_view(" = :"), name, cast}) {
      if (!rest.starts_with(part)) return false;
      rest.remove_prefix(part.size());
    }
  }
  return rest == kClearsOldVector;
}
static_assert(set_list_matches());

}  // namespace

Query& bind_search_vectors(Query& q, const SearchVectors& vectors) {
  return q.bind(":search_words", Binary{vectors.words})
      .bind(":rank_vector", Binary{vectors.rank})
      .bind(":phrase_filter", Binary{vectors.phrase_filter})
      .bind(":common_words", Binary{vectors.common_words})
      .bind(":lead_filter", Binary{vectors.lead_filter});
}

Params& add_search_vectors(Params& p, const SearchVectors& vectors) {
  return p.add(Binary{vectors.words})
      .add(Binary{vectors.rank})
      .add(Binary{vectors.phrase_filter})
      .add(Binary{vectors.common_words})
      .add(Binary{vectors.lead_filter});
}

}  // namespace longread::storage::postgres
