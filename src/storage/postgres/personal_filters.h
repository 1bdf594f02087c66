// Personal filters (docs/readers.md, "Personal filters") in PostgreSQL's SQL: the fragment that applies one
// reader's mutes and reading preferences inside a listing, so a page holds only what the reader may see
// (never filtered afterwards, which would leave pages short and cursors wrong), and the "has the reader
// read it" expression feed apps share. The PostgreSQL form of sqlite/personal_filters.h, shared by the roles
// that list articles.
#pragma once

#include <string>
#include <string_view>

#include "storage/postgres/pg.h"
#include "storage/types.h"

namespace longread::storage::postgres {

// " AND ..." conditions on the article row `alias` (its blog_id, category, id, display_at) that leave out
// what `filter` hides; every value is bound by bind_reader_filter (one parameter, :filter_reader).
[[nodiscard]] std::string reader_filter_sql(const ReaderFilter& filter, std::string_view alias = "a");
void bind_reader_filter(Query& q, const ReaderFilter& filter);

// A boolean expression: the reader :filter_reader has read the article row `alias`. An explicit mark
// (article_reads) wins; else it is read when dated before the "mark all as read" horizon of its blog or of
// every blog (read_horizons).
[[nodiscard]] std::string read_expression(std::string_view alias);

}  // namespace longread::storage::postgres
