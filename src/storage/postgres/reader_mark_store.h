// The ReaderMarkStore role (storage/roles/reader_mark_store.h) on PostgreSQL.
#pragma once

#include "storage/postgres/database.h"
#include "storage/roles/reader_mark_store.h"

namespace longread::storage::postgres {

class PgReaderMarkStore : public virtual ReaderMarkStore {
 public:
  explicit PgReaderMarkStore(Database& db) noexcept : db_(db) {}

  Result<VoteState> set_vote(std::int64_t reader_id, std::int64_t article_id, bool vote,
                             TimePoint now) override;
  Result<std::int64_t> age_period_votes(TimePoint now) override;
  Result<ReaderMarks> reader_marks(std::int64_t reader_id,
                                   const std::vector<std::int64_t>& article_ids) override;
  Result<void> set_saved(std::int64_t reader_id, std::int64_t article_id, bool saved, TimePoint now) override;
  Result<void> set_read(std::int64_t reader_id, std::int64_t article_id, bool read, TimePoint now) override;
  Result<std::vector<SavedArticle>> reading_list(std::int64_t reader_id, int limit, int offset) override;
  Result<std::int64_t> reading_list_unread(std::int64_t reader_id) override;
  Result<ImportSummary> import_reading_list(std::int64_t reader_id, const std::vector<ImportedLink>& links,
                                            TimePoint now) override;
  Result<std::vector<SavedLink>> saved_links(std::int64_t reader_id, int limit, int offset) override;
  Result<void> set_saved_link_read(std::int64_t reader_id, std::int64_t link_id, bool read,
                                   TimePoint now) override;
  Result<void> remove_saved_link(std::int64_t reader_id, std::int64_t link_id) override;
  Result<std::optional<std::string>> reading_list_feed_token(std::int64_t reader_id) override;
  Result<void> set_reading_list_feed_token(std::int64_t reader_id, std::optional<std::string> token) override;
  Result<std::optional<std::int64_t>> reader_by_reading_list_feed_token(std::string_view token) override;
  Result<StreamPage> reader_stream(std::int64_t reader_id, const StreamQuery& query) override;
  Result<std::vector<StreamItem>> reader_items(std::int64_t reader_id,
                                               const std::vector<std::int64_t>& article_ids) override;
  Result<int> set_articles_read(std::int64_t reader_id, const std::vector<std::int64_t>& article_ids,
                                bool read, TimePoint now) override;
  Result<void> mark_stream_read(std::int64_t reader_id, std::optional<std::int64_t> blog_id, TimePoint before,
                                TimePoint now) override;

 private:
  Database& db_;
};

}  // namespace longread::storage::postgres
