// Readers' flags on articles and the hold they put on one (migration 0023): the SQLite side of the Store's
// flag methods, as functions over a connection. The store calls them with its writer (under its lock) or
// a pooled reader. Internal to the SQLite backend.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "core/error.h"
#include "storage/sqlite/handles.h"
#include "storage/store.h"

namespace longread::storage::sqlite {

Result<FlagResult> flag_article(Connection& writer, std::int64_t reader_id, std::int64_t article_id,
                                FlagReason reason, TimePoint now, const FlagRules& rules);
Result<bool> withdraw_flag(Connection& writer, std::int64_t reader_id, std::int64_t article_id);
Result<FlagState> flag_state(Connection& db, std::int64_t article_id, std::optional<std::int64_t> reader_id);
Result<std::vector<FlaggedArticle>> flagged_articles(Connection& db, int limit);
Result<void> decide_flags(Connection& writer, std::int64_t article_id, FlagDecision decision);

}  // namespace longread::storage::sqlite
