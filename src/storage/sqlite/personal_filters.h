// Personal filters (migration 0028): one reader's mutes and reading preferences, and the SQL fragment that
// applies them inside a listing, so a page holds only what the reader may see (never filtered afterwards,
// which would leave pages short and cursors wrong). Internal to the SQLite backend; the store calls these
// with its writer (under its lock) or a pooled reader.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "storage/sqlite/handles.h"
#include "storage/store.h"

namespace longread::storage::sqlite {

// " AND ..." conditions on the article row `alias` (its blog_id, category, id, display_at) that leave out
// what `filter` hides; every value is bound by bind_reader_filter (one parameter, :filter_reader).
[[nodiscard]] std::string reader_filter_sql(const ReaderFilter& filter, std::string_view alias = "a");
void bind_reader_filter(Query& q, const ReaderFilter& filter);

[[nodiscard]] Result<bool> set_blog_muted(Connection& writer, std::int64_t reader_id, std::int64_t blog_id,
                                          bool muted, TimePoint now);
[[nodiscard]] Result<bool> set_category_muted(Connection& writer, std::int64_t reader_id,
                                              std::string_view category, bool muted, TimePoint now);
[[nodiscard]] Result<ReaderMutes> reader_mutes(Connection& db, std::int64_t reader_id);
[[nodiscard]] Result<ReaderPreferences> reader_preferences(Connection& db, std::int64_t reader_id);
[[nodiscard]] Result<void> set_reader_preferences(Connection& writer, std::int64_t reader_id,
                                                  const ReaderPreferences& preferences);
// Which of `article_ids_json` (a JSON array of ids) the reader has read (ReaderMarks::read).
[[nodiscard]] Result<std::vector<std::int64_t>> read_among(Connection& db, std::int64_t reader_id,
                                                           std::string_view article_ids_json);

}  // namespace longread::storage::sqlite
