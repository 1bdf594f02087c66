#include "storage/postgres/moderation_store.h"

namespace longread::storage::postgres {

Result<FlagResult> PgModerationStore::flag_article(std::int64_t reader_id, std::int64_t article_id,
                                                   FlagReason reason, TimePoint now, const FlagRules& rules) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL ModerationStore::flag_article is not written yet");
}

Result<bool> PgModerationStore::withdraw_flag(std::int64_t reader_id, std::int64_t article_id) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL ModerationStore::withdraw_flag is not written yet");
}

Result<FlagState> PgModerationStore::flag_state(std::int64_t article_id,
                                                std::optional<std::int64_t> reader_id) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL ModerationStore::flag_state is not written yet");
}

Result<std::vector<FlaggedArticle>> PgModerationStore::flagged_articles(int limit) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL ModerationStore::flagged_articles is not written yet");
}

Result<void> PgModerationStore::decide_flags(std::int64_t article_id, FlagDecision decision) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL ModerationStore::decide_flags is not written yet");
}

}  // namespace longread::storage::postgres
