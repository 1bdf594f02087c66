// The ModerationStore role (storage/roles/moderation_store.h) on PostgreSQL.
#pragma once

#include "storage/postgres/database.h"
#include "storage/roles/moderation_store.h"

namespace longread::storage::postgres {

class PgModerationStore : public virtual ModerationStore {
 public:
  explicit PgModerationStore(Database& db) noexcept : db_(db) {}

  Result<FlagResult> flag_article(std::int64_t reader_id, std::int64_t article_id, FlagReason reason,
                                  TimePoint now, const FlagRules& rules) override;
  Result<bool> withdraw_flag(std::int64_t reader_id, std::int64_t article_id) override;
  Result<FlagState> flag_state(std::int64_t article_id, std::optional<std::int64_t> reader_id) override;
  Result<std::vector<FlaggedArticle>> flagged_articles(int limit) override;
  Result<void> decide_flags(std::int64_t article_id, FlagDecision decision) override;

 private:
  Database& db_;
};

}  // namespace longread::storage::postgres
