// The SQLite side of ModerationStore; the SQL lives in sqlite/moderation.cpp (migration 0023).
#include "storage/sqlite/sqlite_store.h"

#include <mutex>
#include <optional>
#include <vector>

#include "storage/sqlite/moderation.h"

namespace longread::storage::sqlite {

Result<FlagResult> SqliteStore::flag_article(std::int64_t reader_id, std::int64_t article_id,
                                             FlagReason reason, TimePoint now, const FlagRules& rules) {
  std::lock_guard lock(writer_mutex_);
  return sqlite::flag_article(*writer_, reader_id, article_id, reason, now, rules);
}

Result<bool> SqliteStore::withdraw_flag(std::int64_t reader_id, std::int64_t article_id) {
  std::lock_guard lock(writer_mutex_);
  return sqlite::withdraw_flag(*writer_, reader_id, article_id);
}

Result<FlagState> SqliteStore::flag_state(std::int64_t article_id, std::optional<std::int64_t> reader_id) {
  auto db = readers_.acquire();
  if (!db) return std::unexpected(db.error());
  return sqlite::flag_state(**db, article_id, reader_id);
}

Result<std::vector<FlaggedArticle>> SqliteStore::flagged_articles(int limit) {
  auto db = readers_.acquire();
  if (!db) return std::unexpected(db.error());
  return sqlite::flagged_articles(**db, limit);
}

Result<void> SqliteStore::decide_flags(std::int64_t article_id, FlagDecision decision) {
  std::lock_guard lock(writer_mutex_);
  return sqlite::decide_flags(*writer_, article_id, decision);
}

}  // namespace longread::storage::sqlite
