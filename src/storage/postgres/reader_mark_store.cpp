#include "storage/postgres/reader_mark_store.h"

namespace longread::storage::postgres {

Result<VoteState> PgReaderMarkStore::set_vote(std::int64_t reader_id, std::int64_t article_id, bool vote,
                                              TimePoint now) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL ReaderMarkStore::set_vote is not written yet");
}

Result<std::int64_t> PgReaderMarkStore::age_period_votes(TimePoint now) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL ReaderMarkStore::age_period_votes is not written yet");
}

Result<ReaderMarks> PgReaderMarkStore::reader_marks(std::int64_t reader_id,
                                                    const std::vector<std::int64_t>& article_ids) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL ReaderMarkStore::reader_marks is not written yet");
}

Result<void> PgReaderMarkStore::set_saved(std::int64_t reader_id, std::int64_t article_id, bool saved,
                                          TimePoint now) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL ReaderMarkStore::set_saved is not written yet");
}

Result<void> PgReaderMarkStore::set_read(std::int64_t reader_id, std::int64_t article_id, bool read,
                                         TimePoint now) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL ReaderMarkStore::set_read is not written yet");
}

Result<std::vector<SavedArticle>> PgReaderMarkStore::reading_list(std::int64_t reader_id, int limit,
                                                                  int offset) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL ReaderMarkStore::reading_list is not written yet");
}

Result<std::int64_t> PgReaderMarkStore::reading_list_unread(std::int64_t reader_id) {
  return fail(ErrorKind::kInternal,
              "store: PostgreSQL ReaderMarkStore::reading_list_unread is not written yet");
}

Result<ImportSummary> PgReaderMarkStore::import_reading_list(std::int64_t reader_id,
                                                             const std::vector<ImportedLink>& links,
                                                             TimePoint now) {
  return fail(ErrorKind::kInternal,
              "store: PostgreSQL ReaderMarkStore::import_reading_list is not written yet");
}

Result<std::vector<SavedLink>> PgReaderMarkStore::saved_links(std::int64_t reader_id, int limit, int offset) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL ReaderMarkStore::saved_links is not written yet");
}

Result<void> PgReaderMarkStore::set_saved_link_read(std::int64_t reader_id, std::int64_t link_id, bool read,
                                                    TimePoint now) {
  return fail(ErrorKind::kInternal,
              "store: PostgreSQL ReaderMarkStore::set_saved_link_read is not written yet");
}

Result<void> PgReaderMarkStore::remove_saved_link(std::int64_t reader_id, std::int64_t link_id) {
  return fail(ErrorKind::kInternal,
              "store: PostgreSQL ReaderMarkStore::remove_saved_link is not written yet");
}

Result<std::optional<std::string>> PgReaderMarkStore::reading_list_feed_token(std::int64_t reader_id) {
  return fail(ErrorKind::kInternal,
              "store: PostgreSQL ReaderMarkStore::reading_list_feed_token is not written yet");
}

Result<void> PgReaderMarkStore::set_reading_list_feed_token(std::int64_t reader_id,
                                                            std::optional<std::string> token) {
  return fail(ErrorKind::kInternal,
              "store: PostgreSQL ReaderMarkStore::set_reading_list_feed_token is not written yet");
}

Result<std::optional<std::int64_t>> PgReaderMarkStore::reader_by_reading_list_feed_token(
    std::string_view token) {
  return fail(ErrorKind::kInternal,
              "store: PostgreSQL ReaderMarkStore::reader_by_reading_list_feed_token is not written yet");
}

Result<StreamPage> PgReaderMarkStore::reader_stream(std::int64_t reader_id, const StreamQuery& query) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL ReaderMarkStore::reader_stream is not written yet");
}

Result<std::vector<StreamItem>> PgReaderMarkStore::reader_items(
    std::int64_t reader_id, const std::vector<std::int64_t>& article_ids) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL ReaderMarkStore::reader_items is not written yet");
}

Result<int> PgReaderMarkStore::set_articles_read(std::int64_t reader_id,
                                                 const std::vector<std::int64_t>& article_ids, bool read,
                                                 TimePoint now) {
  return fail(ErrorKind::kInternal,
              "store: PostgreSQL ReaderMarkStore::set_articles_read is not written yet");
}

Result<void> PgReaderMarkStore::mark_stream_read(std::int64_t reader_id, std::optional<std::int64_t> blog_id,
                                                 TimePoint before, TimePoint now) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL ReaderMarkStore::mark_stream_read is not written yet");
}

}  // namespace longread::storage::postgres
