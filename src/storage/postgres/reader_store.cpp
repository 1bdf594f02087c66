#include "storage/postgres/reader_store.h"

namespace longread::storage::postgres {

Result<std::int64_t> PgReaderStore::create_reader(std::string_view email, std::string_view password_hash,
                                                  TimePoint now, std::optional<TimePoint> confirmed_at) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL ReaderStore::create_reader is not written yet");
}

Result<std::optional<ReaderAccount>> PgReaderStore::reader_by_email(std::string_view email) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL ReaderStore::reader_by_email is not written yet");
}

Result<std::vector<ReaderAccount>> PgReaderStore::readers() {
  return fail(ErrorKind::kInternal, "store: PostgreSQL ReaderStore::readers is not written yet");
}

Result<void> PgReaderStore::set_reader_password(std::int64_t reader_id, std::string_view password_hash,
                                                std::optional<TimePoint> confirm_at) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL ReaderStore::set_reader_password is not written yet");
}

Result<void> PgReaderStore::confirm_reader(std::int64_t reader_id, TimePoint now) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL ReaderStore::confirm_reader is not written yet");
}

Result<void> PgReaderStore::delete_reader(std::int64_t reader_id) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL ReaderStore::delete_reader is not written yet");
}

Result<int> PgReaderStore::delete_reader_sessions(std::int64_t reader_id) {
  return fail(ErrorKind::kInternal,
              "store: PostgreSQL ReaderStore::delete_reader_sessions is not written yet");
}

Result<void> PgReaderStore::create_session(const SessionRecord& session) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL ReaderStore::create_session is not written yet");
}

Result<std::optional<SessionReader>> PgReaderStore::session_reader(std::string_view token_hash,
                                                                   TimePoint now) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL ReaderStore::session_reader is not written yet");
}

Result<void> PgReaderStore::delete_session(std::string_view token_hash) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL ReaderStore::delete_session is not written yet");
}

Result<int> PgReaderStore::delete_expired_sessions(TimePoint now) {
  return fail(ErrorKind::kInternal,
              "store: PostgreSQL ReaderStore::delete_expired_sessions is not written yet");
}

Result<void> PgReaderStore::set_reader_operator(std::string_view email, bool is_operator) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL ReaderStore::set_reader_operator is not written yet");
}

Result<std::int64_t> PgReaderStore::add_app_password(std::int64_t reader_id, std::string_view name,
                                                     std::string_view password_hash, TimePoint now) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL ReaderStore::add_app_password is not written yet");
}

Result<std::vector<AppPassword>> PgReaderStore::app_passwords(std::int64_t reader_id) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL ReaderStore::app_passwords is not written yet");
}

Result<void> PgReaderStore::revoke_app_password(std::int64_t reader_id, std::int64_t app_password_id) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL ReaderStore::revoke_app_password is not written yet");
}

Result<void> PgReaderStore::add_api_token(const ApiTokenRecord& token) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL ReaderStore::add_api_token is not written yet");
}

Result<std::optional<std::int64_t>> PgReaderStore::api_token_reader(std::string_view token_hash,
                                                                    TimePoint now) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL ReaderStore::api_token_reader is not written yet");
}

Result<bool> PgReaderStore::set_blog_muted(std::int64_t reader_id, std::int64_t blog_id, bool muted,
                                           TimePoint now) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL ReaderStore::set_blog_muted is not written yet");
}

Result<bool> PgReaderStore::set_category_muted(std::int64_t reader_id, std::string_view category, bool muted,
                                               TimePoint now) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL ReaderStore::set_category_muted is not written yet");
}

Result<ReaderMutes> PgReaderStore::reader_mutes(std::int64_t reader_id) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL ReaderStore::reader_mutes is not written yet");
}

Result<ReaderPreferences> PgReaderStore::reader_preferences(std::int64_t reader_id) {
  return fail(ErrorKind::kInternal, "store: PostgreSQL ReaderStore::reader_preferences is not written yet");
}

Result<void> PgReaderStore::set_reader_preferences(std::int64_t reader_id,
                                                   const ReaderPreferences& preferences) {
  return fail(ErrorKind::kInternal,
              "store: PostgreSQL ReaderStore::set_reader_preferences is not written yet");
}

}  // namespace longread::storage::postgres
