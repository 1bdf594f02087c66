// Rate limits counted in the database (migration 0029): the SQLite side of the Store's attempt methods, as
// functions over a connection the store hands in (its writer under its lock, or a pooled reader). Internal
// to the SQLite backend.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "core/time.h"
#include "storage/sqlite/handles.h"

namespace longread::storage::sqlite {

Result<std::vector<TimePoint>> recent_attempts(Connection& db, std::string_view key, TimePoint since,
                                               int limit);
Result<void> record_attempt(Connection& writer, std::string_view key, TimePoint at, TimePoint expires_at,
                            int keep_per_key, std::int64_t max_rows);
Result<void> clear_attempts(Connection& writer, std::string_view key);
Result<void> clear_attempts_with_prefix(Connection& writer, std::string_view prefix);

}  // namespace longread::storage::sqlite
