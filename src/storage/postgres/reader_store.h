// The ReaderStore role (storage/roles/reader_store.h) on PostgreSQL.
#pragma once

#include "storage/postgres/database.h"
#include "storage/roles/reader_store.h"

namespace longread::storage::postgres {

class PgReaderStore : public virtual ReaderStore {
 public:
  explicit PgReaderStore(Database& db) noexcept : db_(db) {}

  Result<std::int64_t> create_reader(std::string_view email, std::string_view password_hash, TimePoint now,
                                     std::optional<TimePoint> confirmed_at) override;
  Result<std::optional<ReaderAccount>> reader_by_email(std::string_view email) override;
  Result<std::vector<ReaderAccount>> readers() override;
  Result<void> set_reader_password(std::int64_t reader_id, std::string_view password_hash,
                                   std::optional<TimePoint> confirm_at) override;
  Result<void> confirm_reader(std::int64_t reader_id, TimePoint now) override;
  Result<void> delete_reader(std::int64_t reader_id) override;
  Result<int> delete_reader_sessions(std::int64_t reader_id) override;
  Result<void> create_session(const SessionRecord& session) override;
  Result<std::optional<SessionReader>> session_reader(std::string_view token_hash, TimePoint now) override;
  Result<void> delete_session(std::string_view token_hash) override;
  Result<int> delete_expired_sessions(TimePoint now) override;
  Result<void> set_reader_operator(std::string_view email, bool is_operator) override;
  Result<std::int64_t> add_app_password(std::int64_t reader_id, std::string_view name,
                                        std::string_view password_hash, TimePoint now) override;
  Result<std::vector<AppPassword>> app_passwords(std::int64_t reader_id) override;
  Result<void> revoke_app_password(std::int64_t reader_id, std::int64_t app_password_id) override;
  Result<void> add_api_token(const ApiTokenRecord& token) override;
  Result<std::optional<std::int64_t>> api_token_reader(std::string_view token_hash, TimePoint now) override;
  Result<bool> set_blog_muted(std::int64_t reader_id, std::int64_t blog_id, bool muted,
                              TimePoint now) override;
  Result<bool> set_category_muted(std::int64_t reader_id, std::string_view category, bool muted,
                                  TimePoint now) override;
  Result<ReaderMutes> reader_mutes(std::int64_t reader_id) override;
  Result<ReaderPreferences> reader_preferences(std::int64_t reader_id) override;
  Result<void> set_reader_preferences(std::int64_t reader_id, const ReaderPreferences& preferences) override;

 private:
  Database& db_;
};

}  // namespace longread::storage::postgres
