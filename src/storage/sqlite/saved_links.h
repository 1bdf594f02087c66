// The portable reading list's SQL (migration 0024): imports that join known articles or keep plain saved
// links, and the private reading-list feed's token. Internal to the SQLite backend; the store calls these
// with its writer (under its lock) or a pooled reader.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "storage/sqlite/handles.h"
#include "storage/store.h"

namespace longread::storage::sqlite {

[[nodiscard]] Result<ImportSummary> import_reading_list(Connection& writer, std::int64_t reader_id,
                                                        const std::vector<ImportedLink>& links,
                                                        TimePoint now);
[[nodiscard]] Result<std::vector<SavedLink>> saved_links(Connection& db, std::int64_t reader_id, int limit,
                                                         int offset);
[[nodiscard]] Result<void> set_saved_link_read(Connection& writer, std::int64_t reader_id,
                                               std::int64_t link_id, bool read, TimePoint now);
[[nodiscard]] Result<void> remove_saved_link(Connection& writer, std::int64_t reader_id,
                                             std::int64_t link_id);
[[nodiscard]] Result<std::optional<std::string>> reading_list_feed_token(Connection& db,
                                                                         std::int64_t reader_id);
[[nodiscard]] Result<void> set_reading_list_feed_token(Connection& writer, std::int64_t reader_id,
                                                       const std::optional<std::string>& token);
[[nodiscard]] Result<std::optional<std::int64_t>> reader_by_reading_list_feed_token(Connection& db,
                                                                                    std::string_view token);

}  // namespace longread::storage::sqlite
