// The five columns an article's search vectors are stored in (search_vectors.h: SearchVectors), and how a
// statement that writes them names, casts and binds them: the crawler's INSERT and UPDATEs, `rejudge
// --text`, `db compact` and `db copy` all write them through this header, so a column is added in one place.
#pragma once

#include <array>
#include <string_view>

#include "storage/postgres/pg.h"
#include "storage/postgres/search_vectors.h"

namespace longread::storage::postgres {

// A column and the cast its binary value is sent with, so the server never infers another type for the
// bytes.
struct VectorColumn {
  std::string_view name;
  std::string_view cast;
};

// In the order add_search_vectors adds them.
inline constexpr std::array<VectorColumn, 5> kVectorColumns = {{{"search_words", "::int4[]"},
                                                                {"rank_vector", "::tsvector"},
                                                                {"phrase_filter", "::bytea"},
                                                                {"common_words", "::bytea"},
                                                                {"lead_filter", "::bytea"}}};

// An UPDATE's SET items for the five columns, from the named parameters bind_search_vectors binds (a
// macro, to be joined with the rest of a statement's literal), and the tsvector a row stored before
// migration 0015 holds its words in cleared: the row is found by its new words alone.
#define LONGREAD_PG_SET_VECTORS                                                                \
  " search_words = :search_words::int4[], rank_vector = :rank_vector::tsvector,"               \
  " phrase_filter = :phrase_filter::bytea, common_words = :common_words::bytea, lead_filter =" \
  " :lead_filter::bytea, search_vector = NULL"

// Binds LONGREAD_PG_SET_VECTORS' parameters, each in its type's binary form.
Query& bind_search_vectors(Query& q, const SearchVectors& vectors);
// Adds the five values as positional parameters, in kVectorColumns' order.
Params& add_search_vectors(Params& p, const SearchVectors& vectors);

}  // namespace longread::storage::postgres
