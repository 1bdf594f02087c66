// longread_rank(), the FTS5 auxiliary function search ranks its candidates with (docs/storage.md, "Search").
#pragma once

#include <sqlite3.h>

#include <string>

namespace longread::storage::sqlite {

// Registers longread_rank(fts_table, title_weight, text_weight, 'df_1 df_2 ... df_n') on a connection: FTS5's
// BM25 (https://sqlite.org/fts5.html#the_bm25_function: k1 = 1.2, b = 0.75, IDF = ln((N - df + 0.5) /
// (df + 0.5)), at least 1e-6, a column's hits weighted by its weight; more relevant is more negative), with
// each phrase's document frequency df_i given by the caller (space-separated, in the query's order)
// instead of counted. FTS5's bm25() counts it by
// walking every match of every phrase for each query (all 870,000 matches of a common word at 1,000,000
// articles), which is what made a common word cost a second; the caller estimates it from a bounded
// number of matches. A missing df_i is counted as bm25() counts it. Returns SQLite's error message or "".
std::string register_search_rank(sqlite3* db);

}  // namespace longread::storage::sqlite
