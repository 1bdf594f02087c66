// A reader's personal filters (mutes, hide read, newsletter categories) as a SQL fragment that listings,
// hot pages and search append on PostgreSQL, the same conditions as SQLite's personal_filters.h.
#pragma once

#include <string>
#include <string_view>

#include "storage/postgres/pg.h"
#include "storage/types.h"

namespace longread::storage::postgres {

// Whether the reader :filter_reader has read the article row `alias` (1 or 0): an explicit mark wins; else
// it is read when dated before the "mark all as read" horizon of its blog or of every blog.
std::string read_expression(std::string_view alias);

// " AND …" conditions on the article row `alias` that leave out what the reader filtered away; the
// statement binds :filter_reader (bind_reader_filter).
std::string reader_filter_sql(const ReaderFilter& filter, std::string_view alias = "a");
void bind_reader_filter(Query& q, const ReaderFilter& filter);

}  // namespace longread::storage::postgres
