// The SQLite side of ModerationStore; the SQL lives in sqlite/moderation.cpp (migration 0023).
#include "storage/sqlite/sqlite_store.h"

#include <optional>
#include <vector>

#include "storage/sqlite/moderation.h"

namespace longread::storage::sqlite {

Result<FlagResult> SqliteStore::flag_article(std::int64_t reader_id, std::int64_t article_id,
                                             FlagReason reason, TimePoint now, const FlagRules& rules) {
  return with_writer(
      [&](Connection& db) { return sqlite::flag_article(db, reader_id, article_id, reason, now, rules); });
}

Result<bool> SqliteStore::withdraw_flag(std::int64_t reader_id, std::int64_t article_id) {
  return with_writer([&](Connection& db) { return sqlite::withdraw_flag(db, reader_id, article_id); });
}

Result<FlagState> SqliteStore::flag_state(std::int64_t article_id, std::optional<std::int64_t> reader_id) {
  return with_reader([&](Connection& db) { return sqlite::flag_state(db, article_id, reader_id); });
}

Result<std::vector<FlaggedArticle>> SqliteStore::flagged_articles(int limit) {
  return with_reader([&](Connection& db) { return sqlite::flagged_articles(db, limit); });
}

Result<void> SqliteStore::decide_flags(std::int64_t article_id, FlagDecision decision) {
  return with_writer([&](Connection& db) { return sqlite::decide_flags(db, article_id, decision); });
}

}  // namespace longread::storage::sqlite
