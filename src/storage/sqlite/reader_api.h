// The SQL behind feed apps (migration 0025): app passwords and their tokens, and one reader's read state
// over the site's articles (explicit marks plus "mark all as read" horizons). Internal to the SQLite
// backend; the store calls these with its writer (under its lock) or a pooled reader.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "storage/sqlite/handles.h"
#include "storage/store.h"

namespace longread::storage::sqlite {

[[nodiscard]] Result<std::int64_t> add_app_password(Connection& writer, std::int64_t reader_id,
                                                    std::string_view name, std::string_view password_hash,
                                                    TimePoint now);
[[nodiscard]] Result<std::vector<AppPassword>> app_passwords(Connection& db, std::int64_t reader_id);
[[nodiscard]] Result<void> revoke_app_password(Connection& writer, std::int64_t reader_id,
                                               std::int64_t app_password_id);
[[nodiscard]] Result<void> add_api_token(Connection& writer, const ApiTokenRecord& token);
[[nodiscard]] Result<std::optional<std::int64_t>> api_token_reader(Connection& db,
                                                                   std::string_view token_hash,
                                                                   TimePoint now);
[[nodiscard]] Result<StreamPage> reader_stream(Connection& db, std::int64_t reader_id,
                                               const StreamQuery& query);
[[nodiscard]] Result<std::vector<StreamItem>> reader_items(Connection& db, std::int64_t reader_id,
                                                           const std::vector<std::int64_t>& article_ids);
[[nodiscard]] Result<int> set_articles_read(Connection& writer, std::int64_t reader_id,
                                            const std::vector<std::int64_t>& article_ids, bool read,
                                            TimePoint now);
[[nodiscard]] Result<void> mark_stream_read(Connection& writer, std::int64_t reader_id,
                                            std::optional<std::int64_t> blog_id, TimePoint before,
                                            TimePoint now);

}  // namespace longread::storage::sqlite
